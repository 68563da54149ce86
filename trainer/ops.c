/* ops.c — CPU reference ops; see ops.h for shapes and += / = contracts.
 * Plain C + OpenMP, no intrinsics. Parallel loops split over output
 * elements only (never a shared accumulator), and every sum runs in a fixed
 * order, so any thread count gives bit-identical results. */
#include "ops.h"
#include "util.h"

#define RMS_EPS 1e-6f
#define ROPE_BASE 10000.0

void encoder_forward(float *out, const int *inp, const float *wte, int B, int T, int C)
{
	#pragma omp parallel for schedule(static)
	for (long bt = 0; bt < (long)B * T; bt++)
		memcpy(out + bt * C, wte + (size_t)inp[bt] * C, sizeof(float) * C);
}

void encoder_backward(float *dwte, const float *dout, const int *inp, int B, int T, int C)
{
	/* Sequential over tokens: rows of dwte are shared between positions,
	 * so a parallel scatter would need atomics (and lose determinism). */
	for (long bt = 0; bt < (long)B * T; bt++) {
		float *d = dwte + (size_t)inp[bt] * C;
		const float *g = dout + bt * C;
		for (int c = 0; c < C; c++)
			d[c] += g[c];
	}
}

void rmsnorm_forward(float *out, float *rstd, const float *inp, int N, int C)
{
	#pragma omp parallel for schedule(static)
	for (int n = 0; n < N; n++) {
		const float *x = inp + (size_t)n * C;
		float ss = 0.0f;
		for (int c = 0; c < C; c++)
			ss += x[c] * x[c];
		float r = 1.0f / sqrtf(ss / C + RMS_EPS);
		rstd[n] = r;
		for (int c = 0; c < C; c++)
			out[(size_t)n * C + c] = x[c] * r;
	}
}

/* y = x r, r = (mean x^2 + eps)^-1/2:  dx = r (dy - y mean(dy*y)). */
void rmsnorm_backward(float *dinp, const float *dout, const float *inp, const float *rstd,
		      int N, int C)
{
	#pragma omp parallel for schedule(static)
	for (int n = 0; n < N; n++) {
		const float *x = inp + (size_t)n * C, *dy = dout + (size_t)n * C;
		float r = rstd[n], dot = 0.0f;
		for (int c = 0; c < C; c++)
			dot += dy[c] * x[c];
		float k = dot * r * r * r / C;
		for (int c = 0; c < C; c++)
			dinp[(size_t)n * C + c] += r * dy[c] - k * x[c];
	}
}

/* Four input rows at a time share each weight row load; a row's sum
 * still runs over c in one fixed (vectorised) order. */
void matmul_forward(float *out, const float *inp, const float *w, int N, int C, int OC)
{
	#pragma omp parallel for schedule(static)
	for (int n0 = 0; n0 < N; n0 += 4) {
		const float *x[4];
		for (int j = 0; j < 4; j++) /* past the end: repeat the last row, discard */
			x[j] = inp + (size_t)(n0 + j < N ? n0 + j : N - 1) * C;
		for (int o = 0; o < OC; o++) {
			const float *wr = w + (size_t)o * C;
			float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
			#pragma omp simd reduction(+:s0, s1, s2, s3)
			for (int c = 0; c < C; c++) {
				s0 += x[0][c] * wr[c];
				s1 += x[1][c] * wr[c];
				s2 += x[2][c] * wr[c];
				s3 += x[3][c] * wr[c];
			}
			float sv[4] = { s0, s1, s2, s3 };
			for (int j = 0; j < 4 && n0 + j < N; j++)
				out[(size_t)(n0 + j) * OC + o] = sv[j];
		}
	}
}

/* Both loops take four rows of dout at a time, so each weight row (for
 * dinp) or gradient row (for dw) is loaded once per four rows; sums still
 * run in one fixed order. */
void matmul_backward(float *dinp, float *dw, const float *dout, const float *inp,
		     const float *w, int N, int C, int OC)
{
	if (dinp) {
		#pragma omp parallel for schedule(static)
		for (int n0 = 0; n0 < N; n0 += 4) {
			int nn = N - n0 < 4 ? N - n0 : 4;
			for (int o = 0; o < OC; o++) {
				const float *wr = w + (size_t)o * C;
				for (int j = 0; j < nn; j++) {
					float *dx = dinp + (size_t)(n0 + j) * C;
					float go = dout[(size_t)(n0 + j) * OC + o];
					#pragma omp simd
					for (int c = 0; c < C; c++)
						dx[c] += go * wr[c];
				}
			}
		}
	}
	/* Each thread owns rows of dw and walks all N in order. */
	#pragma omp parallel for schedule(static)
	for (int o = 0; o < OC; o++) {
		float *dwr = dw + (size_t)o * C;
		int n = 0;
		for (; n + 4 <= N; n += 4) {
			const float *x0 = inp + (size_t)n * C, *x1 = x0 + C, *x2 = x1 + C, *x3 = x2 + C;
			float g0 = dout[(size_t)n * OC + o], g1 = dout[(size_t)(n + 1) * OC + o];
			float g2 = dout[(size_t)(n + 2) * OC + o], g3 = dout[(size_t)(n + 3) * OC + o];
			#pragma omp simd
			for (int c = 0; c < C; c++)
				dwr[c] += g0 * x0[c] + g1 * x1[c] + g2 * x2[c] + g3 * x3[c];
		}
		for (; n < N; n++) {
			const float *x = inp + (size_t)n * C;
			float go = dout[(size_t)n * OC + o];
			#pragma omp simd
			for (int c = 0; c < C; c++)
				dwr[c] += go * x[c];
		}
	}
}

static void rotate(float *out, const float *inp, int B, int T, int NH, int HS, float sign)
{
	int half = HS / 2;
	#pragma omp parallel for schedule(static)
	for (int t = 0; t < T; t++) {
		for (int i = 0; i < half; i++) {
			double freq = pow(ROPE_BASE, -2.0 * i / HS);
			float cs = (float)cos(t * freq), sn = sign * (float)sin(t * freq);
			for (int b = 0; b < B; b++)
				for (int h = 0; h < NH; h++) {
					size_t base = (((size_t)b * T + t) * NH + h) * HS;
					float x1 = inp[base + i], x2 = inp[base + i + half];
					out[base + i] = x1 * cs - x2 * sn;
					out[base + i + half] = x1 * sn + x2 * cs;
				}
		}
	}
}

void rotary_forward(float *out, const float *inp, int B, int T, int NH, int HS)
{
	rotate(out, inp, B, T, NH, HS, 1.0f);
}

void rotary_backward(float *dinp, const float *dout, int B, int T, int NH, int HS)
{
	rotate(dinp, dout, B, T, NH, HS, -1.0f); /* rotation inverse = transpose */
}

void attention_forward(float *out, float *att, const float *q, const float *k, const float *v,
		       int B, int T, int NH, int HS)
{
	int C = NH * HS;
	float scale = 1.0f / sqrtf((float)HS);
	#pragma omp parallel for collapse(2) schedule(static)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < NH; h++)
			for (int t = 0; t < T; t++) {
				const float *qt = q + ((size_t)b * T + t) * C + h * HS;
				float *a = att + (((size_t)b * NH + h) * T + t) * T;
				float mx = -INFINITY, sum = 0.0f;
				for (int u = 0; u <= t; u++) {
					const float *ku = k + ((size_t)b * T + u) * C + h * HS;
					float s = 0.0f;
					#pragma omp simd reduction(+:s)
					for (int i = 0; i < HS; i++)
						s += qt[i] * ku[i];
					a[u] = s * scale;
					mx = a[u] > mx ? a[u] : mx;
				}
				for (int u = 0; u <= t; u++) {
					a[u] = expf(a[u] - mx);
					sum += a[u];
				}
				for (int u = 0; u <= t; u++)
					a[u] /= sum;
				for (int u = t + 1; u < T; u++)
					a[u] = 0.0f;
				float *o = out + ((size_t)b * T + t) * C + h * HS;
				for (int i = 0; i < HS; i++)
					o[i] = 0.0f;
				for (int u = 0; u <= t; u++) {
					const float *vu = v + ((size_t)b * T + u) * C + h * HS;
					#pragma omp simd
					for (int i = 0; i < HS; i++)
						o[i] += a[u] * vu[i];
				}
			}
}

/* Per (b,h): datt = dout·v^T, dv += att^T·dout, dpre = softmax backward,
 * dq += dpre·k·scale, dk += dpre^T·q·scale. Threads own (b,h) pairs, and
 * (b,h) slices of dq/dk/dv do not overlap, so no two threads share one. */
void attention_backward(float *dq, float *dk, float *dv, float *datt, const float *dout,
			const float *q, const float *k, const float *v, const float *att,
			int B, int T, int NH, int HS)
{
	int C = NH * HS;
	float scale = 1.0f / sqrtf((float)HS);
	#pragma omp parallel for collapse(2) schedule(static)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < NH; h++) {
			const float *A = att + ((size_t)b * NH + h) * T * T;
			float *dA = datt + ((size_t)b * NH + h) * T * T;
			for (int t = 0; t < T; t++) {
				const float *go = dout + ((size_t)b * T + t) * C + h * HS;
				float dot = 0.0f;
				for (int u = 0; u <= t; u++) {
					const float *vu = v + ((size_t)b * T + u) * C + h * HS;
					float s = 0.0f;
					#pragma omp simd reduction(+:s)
					for (int i = 0; i < HS; i++)
						s += go[i] * vu[i];
					dA[t * T + u] = s;
					dot += s * A[t * T + u];
				}
				for (int u = 0; u <= t; u++)
					dA[t * T + u] = A[t * T + u] * (dA[t * T + u] - dot) * scale;
			}
			/* dv[u] and dk[u] gather over t >= u; dq[t] over u <= t. */
			for (int u = 0; u < T; u++) {
				float *dvu = dv + ((size_t)b * T + u) * C + h * HS;
				float *dku = dk + ((size_t)b * T + u) * C + h * HS;
				for (int t = u; t < T; t++) {
					const float *go = dout + ((size_t)b * T + t) * C + h * HS;
					const float *qt = q + ((size_t)b * T + t) * C + h * HS;
					float a = A[t * T + u], d = dA[t * T + u];
					#pragma omp simd
					for (int i = 0; i < HS; i++) {
						dvu[i] += a * go[i];
						dku[i] += d * qt[i];
					}
				}
			}
			for (int t = 0; t < T; t++) {
				float *dqt = dq + ((size_t)b * T + t) * C + h * HS;
				for (int u = 0; u <= t; u++) {
					const float *ku = k + ((size_t)b * T + u) * C + h * HS;
					float d = dA[t * T + u];
					#pragma omp simd
					for (int i = 0; i < HS; i++)
						dqt[i] += d * ku[i];
				}
			}
		}
}

void relu2_forward(float *out, const float *inp, size_t N)
{
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < N; i++) {
		float r = inp[i] > 0.0f ? inp[i] : 0.0f;
		out[i] = r * r;
	}
}

void relu2_backward(float *dinp, const float *dout, const float *inp, size_t N)
{
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < N; i++)
		dinp[i] += inp[i] > 0.0f ? 2.0f * inp[i] * dout[i] : 0.0f;
}

static inline float cap_logit(float z, float cap)
{
	return cap > 0.0f ? cap * tanhf(z / cap) : z;
}

void softcap_xent_forward(float *losses, float *probs, const float *logits, const int *targets,
			  float cap, int N, int V)
{
	#pragma omp parallel for schedule(static)
	for (int n = 0; n < N; n++) {
		const float *z = logits + (size_t)n * V;
		float *p = probs + (size_t)n * V, mx = -INFINITY, sum = 0.0f;
		for (int i = 0; i < V; i++) {
			p[i] = cap_logit(z[i], cap);
			mx = p[i] > mx ? p[i] : mx;
		}
		for (int i = 0; i < V; i++) {
			p[i] = expf(p[i] - mx);
			sum += p[i];
		}
		for (int i = 0; i < V; i++)
			p[i] /= sum;
		if (targets)
			losses[n] = -logf(p[targets[n]]);
	}
}

void softcap_xent_backward(float *dlogits, const float *probs, const float *logits,
			   const int *targets, float cap, float scale, int N, int V)
{
	#pragma omp parallel for schedule(static)
	for (int n = 0; n < N; n++) {
		const float *p = probs + (size_t)n * V, *z = logits + (size_t)n * V;
		float *d = dlogits + (size_t)n * V;
		for (int i = 0; i < V; i++) {
			float g = p[i] - (i == targets[n] ? 1.0f : 0.0f);
			if (cap > 0.0f) {
				float th = tanhf(z[i] / cap);
				g *= 1.0f - th * th;
			}
			d[i] = scale * g;
		}
	}
}
