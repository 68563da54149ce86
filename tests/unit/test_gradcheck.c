/* test_gradcheck.c — trainer ops (trainer/ops.h): every backward against
 * central finite differences of an independent double-precision reference
 * forward written here, and the "+=" / "=" contract of each backward.
 * Test plan: for op f with inputs x, draw R, take L(x) = sum(f(x)·R) in
 * double; the fp32 backward with dout = R must match dL/dx by finite
 * differences (h = 1e-5, double) within REL_TOL of the largest gradient.
 * REL_TOL 1e-4: fp32 keeps ~7 digits and these sums have < 100 terms, so
 * a correct backward lands near 1e-6; a wrong term is off by O(1). */
#include <jansson.h>
#include "ops.h"
#include "rng.h"
#include "util.h"
#include "check.h"

#define REL_TOL 1e-4
#define FD_H 1e-5

static uint64_t seed = 1234;

static void fill(float *x, size_t n, double scale)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)(scale * rng_gauss(&seed));
}

/* A reference loss: all differentiable inputs packed in x (double). */
typedef double (*ref_loss)(const double *x, const void *ctx);

/* Compare analytic (float, n values starting at x[off]) with central
 * differences of f w.r.t. x[off..off+n). Returns max error / max |grad|. */
static double fd_compare(ref_loss f, const void *ctx, const float *xf, size_t nx, size_t off,
			 const float *analytic, size_t n)
{
	double *x = xmalloc(nx * sizeof(double)), maxg = 1e-12, maxe = 0;
	for (size_t i = 0; i < nx; i++)
		x[i] = xf[i];
	for (size_t i = 0; i < n; i++) {
		double keep = x[off + i];
		x[off + i] = keep + FD_H;
		double lp = f(x, ctx);
		x[off + i] = keep - FD_H;
		double lm = f(x, ctx);
		x[off + i] = keep;
		double g = (lp - lm) / (2 * FD_H);
		maxg = fmax(maxg, fabs(g));
		maxe = fmax(maxe, fabs(g - analytic[i]));
	}
	free(x);
	return maxe / maxg;
}

#define GRAD_OK(id, rel) do { double r_ = (rel); \
	if (!CHECK(id, r_ <= REL_TOL)) printf("#   relative error %.3g\n", r_); } while (0)

/* ---- rmsnorm ---- */
struct dims { int B, T, C, NH, HS, N, V, OC; float cap; const float *R; const int *tok; };

static double ref_rmsnorm(const double *x, const void *ctx)
{
	const struct dims *d = ctx;
	double L = 0;
	for (int n = 0; n < d->N; n++) {
		double ss = 0;
		for (int c = 0; c < d->C; c++)
			ss += x[n * d->C + c] * x[n * d->C + c];
		double r = 1.0 / sqrt(ss / d->C + 1e-6);
		for (int c = 0; c < d->C; c++)
			L += x[n * d->C + c] * r * d->R[n * d->C + c];
	}
	return L;
}

static void test_rmsnorm(void)
{
	struct dims d = { .N = 3, .C = 7 };
	float x[21], out[21], rstd[3], R[21], dx[21] = { 0 }, dx2[21];
	fill(x, 21, 1.0);
	fill(R, 21, 1.0);
	d.R = R;
	rmsnorm_forward(out, rstd, x, 3, 7);
	rmsnorm_backward(dx, R, x, rstd, 3, 7);
	GRAD_OK("trainer-grad-rmsnorm", fd_compare(ref_rmsnorm, &d, x, 21, 0, dx, 21));
	for (int i = 0; i < 21; i++)
		dx2[i] = 1.0f;
	rmsnorm_backward(dx2, R, x, rstd, 3, 7);
	int acc = 1;
	for (int i = 0; i < 21; i++)
		acc &= fabsf(dx2[i] - 1.0f - dx[i]) < 1e-6f;
	CHECK("trainer-grad-rmsnorm.acc", acc);
}

/* ---- matmul: x packs inp (N,C) then w (OC,C) ---- */
static double ref_matmul(const double *x, const void *ctx)
{
	const struct dims *d = ctx;
	const double *inp = x, *w = x + d->N * d->C;
	double L = 0;
	for (int n = 0; n < d->N; n++)
		for (int o = 0; o < d->OC; o++) {
			double s = 0;
			for (int c = 0; c < d->C; c++)
				s += inp[n * d->C + c] * w[o * d->C + c];
			L += s * d->R[n * d->OC + o];
		}
	return L;
}

static void test_matmul(void)
{
	enum { N = 4, C = 5, OC = 6 };
	struct dims d = { .N = N, .C = C, .OC = OC };
	float x[N * C + OC * C], out[N * OC], R[N * OC], dinp[N * C], dw[OC * C];
	fill(x, ARRAY_SIZE(x), 1.0);
	fill(R, ARRAY_SIZE(R), 1.0);
	d.R = R;
	for (int i = 0; i < N * C; i++)
		dinp[i] = 0.5f;
	for (int i = 0; i < OC * C; i++)
		dw[i] = 0.5f;
	matmul_forward(out, x, x + N * C, N, C, OC);
	matmul_backward(dinp, dw, R, x, x + N * C, N, C, OC);
	for (int i = 0; i < N * C; i++) /* accumulated onto 0.5 */
		dinp[i] -= 0.5f;
	for (int i = 0; i < OC * C; i++)
		dw[i] -= 0.5f;
	GRAD_OK("trainer-grad-matmul.dinp", fd_compare(ref_matmul, &d, x, ARRAY_SIZE(x), 0, dinp, N * C));
	GRAD_OK("trainer-grad-matmul.dw", fd_compare(ref_matmul, &d, x, ARRAY_SIZE(x), N * C, dw, OC * C));
}

/* ---- rotary on (B,T,NH,HS) ---- */
static double ref_rotary(const double *x, const void *ctx)
{
	const struct dims *d = ctx;
	int half = d->HS / 2;
	double L = 0;
	for (int b = 0; b < d->B; b++)
		for (int t = 0; t < d->T; t++)
			for (int h = 0; h < d->NH; h++)
				for (int i = 0; i < half; i++) {
					size_t base = (((size_t)b * d->T + t) * d->NH + h) * d->HS;
					double th = t * pow(10000.0, -2.0 * i / d->HS);
					double x1 = x[base + i], x2 = x[base + i + half];
					L += (x1 * cos(th) - x2 * sin(th)) * d->R[base + i];
					L += (x1 * sin(th) + x2 * cos(th)) * d->R[base + i + half];
				}
	return L;
}

static void test_rotary(void)
{
	enum { B = 2, T = 5, NH = 2, HS = 4, N = B * T * NH * HS };
	struct dims d = { .B = B, .T = T, .NH = NH, .HS = HS };
	float x[N], out[N], R[N], dx[N];
	fill(x, N, 1.0);
	fill(R, N, 1.0);
	d.R = R;
	rotary_forward(out, x, B, T, NH, HS);
	rotary_backward(dx, R, B, T, NH, HS);
	GRAD_OK("trainer-grad-rotary", fd_compare(ref_rotary, &d, x, N, 0, dx, N));
	memcpy(dx, R, sizeof(R)); /* in place is allowed and overwrites */
	rotary_backward(dx, dx, B, T, NH, HS);
	float dx2[N];
	rotary_backward(dx2, R, B, T, NH, HS);
	CHECK("trainer-grad-rotary.inplace", !memcmp(dx, dx2, sizeof(dx)));
}

/* ---- causal attention: x packs q, k, v (B,T,C) ---- */
static double ref_attention(const double *x, const void *ctx)
{
	const struct dims *d = ctx;
	int C = d->NH * d->HS;
	size_t n = (size_t)d->B * d->T * C;
	const double *q = x, *k = x + n, *v = x + 2 * n;
	double L = 0, sc[16];
	for (int b = 0; b < d->B; b++)
		for (int h = 0; h < d->NH; h++)
			for (int t = 0; t < d->T; t++) {
				double mx = -1e300, sum = 0;
				for (int u = 0; u <= t; u++) {
					double s = 0;
					for (int i = 0; i < d->HS; i++)
						s += q[(b * d->T + t) * C + h * d->HS + i] *
						     k[(b * d->T + u) * C + h * d->HS + i];
					sc[u] = s / sqrt((double)d->HS);
					mx = fmax(mx, sc[u]);
				}
				for (int u = 0; u <= t; u++)
					sum += (sc[u] = exp(sc[u] - mx));
				for (int i = 0; i < d->HS; i++) {
					double o = 0;
					for (int u = 0; u <= t; u++)
						o += sc[u] / sum * v[(b * d->T + u) * C + h * d->HS + i];
					L += o * d->R[(b * d->T + t) * C + h * d->HS + i];
				}
			}
	return L;
}

static void test_attention(void)
{
	enum { B = 2, T = 5, NH = 2, HS = 3, C = NH * HS, N = B * T * C };
	struct dims d = { .B = B, .T = T, .NH = NH, .HS = HS };
	float x[3 * N], out[N], att[B * NH * T * T], datt[B * NH * T * T], R[N];
	float dqkv[3 * N] = { 0 };
	fill(x, 3 * N, 1.0);
	fill(R, N, 1.0);
	d.R = R;
	attention_forward(out, att, x, x + N, x + 2 * N, B, T, NH, HS);
	attention_backward(dqkv, dqkv + N, dqkv + 2 * N, datt, R, x, x + N, x + 2 * N, att, B, T, NH, HS);
	GRAD_OK("trainer-grad-attention.dq", fd_compare(ref_attention, &d, x, 3 * N, 0, dqkv, N));
	GRAD_OK("trainer-grad-attention.dk", fd_compare(ref_attention, &d, x, 3 * N, N, dqkv + N, N));
	GRAD_OK("trainer-grad-attention.dv", fd_compare(ref_attention, &d, x, 3 * N, 2 * N, dqkv + 2 * N, N));
	/* causality: output at t=0 equals v at t=0 for every head */
	CHECK("trainer-attention-causal", fabsf(out[0] - x[2 * N]) < 1e-6f && fabsf(out[C - 1] - x[2 * N + C - 1]) < 1e-6f);
}

/* ---- relu² ---- */
static double ref_relu2(const double *x, const void *ctx)
{
	const struct dims *d = ctx;
	double L = 0;
	for (int i = 0; i < d->N; i++)
		L += (x[i] > 0 ? x[i] * x[i] : 0) * d->R[i];
	return L;
}

static void test_relu2(void)
{
	enum { N = 20 };
	struct dims d = { .N = N };
	float x[N], out[N], R[N], dx[N] = { 0 };
	fill(x, N, 1.0);
	for (int i = 0; i < N; i++) /* keep clear of the kink at 0 */
		if (fabsf(x[i]) < 0.01f)
			x[i] = 0.5f;
	fill(R, N, 1.0);
	d.R = R;
	relu2_forward(out, x, N);
	relu2_backward(dx, R, x, N);
	GRAD_OK("trainer-grad-relu2", fd_compare(ref_relu2, &d, x, N, 0, dx, N));
}

/* ---- soft-capped cross-entropy: L = sum of losses ---- */
static double ref_xent(const double *x, const void *ctx)
{
	const struct dims *d = ctx;
	double L = 0;
	for (int n = 0; n < d->N; n++) {
		double z[16], mx = -1e300, sum = 0;
		for (int i = 0; i < d->V; i++) {
			double v = x[n * d->V + i];
			z[i] = d->cap > 0 ? d->cap * tanh(v / d->cap) : v;
			mx = fmax(mx, z[i]);
		}
		for (int i = 0; i < d->V; i++)
			sum += exp(z[i] - mx);
		L += -(z[d->tok[n]] - mx - log(sum));
	}
	return L;
}

static void test_xent(void)
{
	enum { N = 4, V = 9 };
	int tok[N] = { 0, 3, 8, 3 };
	float z[N * V], probs[N * V], losses[N], dz[N * V];
	for (int k = 0; k < 2; k++) {
		struct dims d = { .N = N, .V = V, .cap = k ? 2.0f : 0.0f, .tok = tok };
		fill(z, N * V, 3.0);
		softcap_xent_forward(losses, probs, z, tok, d.cap, N, V);
		double L = 0, ref;
		for (int n = 0; n < N; n++)
			L += losses[n];
		double zd[N * V];
		for (int i = 0; i < N * V; i++)
			zd[i] = z[i];
		ref = ref_xent(zd, &d);
		softcap_xent_backward(dz, probs, z, tok, d.cap, 1.0f, N, V);
		GRAD_OK(k ? "trainer-grad-xent.softcap" : "trainer-grad-xent", fd_compare(ref_xent, &d, z, N * V, 0, dz, N * V));
		CHECK_NEAR(k ? "trainer-xent-loss.softcap" : "trainer-xent-loss", L, ref, 1e-5 * fabs(ref));
	}
}

/* ---- embedding: x = wte (V,C) ---- */
static double ref_encoder(const double *x, const void *ctx)
{
	const struct dims *d = ctx;
	double L = 0;
	for (int n = 0; n < d->N; n++)
		for (int c = 0; c < d->C; c++)
			L += x[d->tok[n] * d->C + c] * d->R[n * d->C + c];
	return L;
}

static void test_encoder(void)
{
	enum { V = 6, C = 3, N = 5 };
	int tok[N] = { 1, 4, 1, 0, 5 };
	struct dims d = { .N = N, .C = C, .tok = tok };
	float wte[V * C], out[N * C], R[N * C], dwte[V * C] = { 0 };
	fill(wte, V * C, 1.0);
	fill(R, N * C, 1.0);
	d.R = R;
	encoder_forward(out, tok, wte, 1, N, C);
	encoder_backward(dwte, R, tok, 1, N, C);
	GRAD_OK("trainer-grad-encoder", fd_compare(ref_encoder, &d, wte, V * C, 0, dwte, V * C));
	CHECK("trainer-encoder-forward", out[C] == wte[4 * C] && out[2 * C + 2] == wte[C + 2]);
}

/* ---- optimisers ---- */
static void test_adamw(void)
{
	/* First step: m^ = g, v^ = g^2, so p -= lr*wd*p + lr*g/(|g|+eps). */
	float p[3] = { 1.0f, -2.0f, 0.5f }, g[3] = { 0.3f, -0.1f, 0.0f }, m[3] = { 0 }, v[3] = { 0 };
	adamw_step(p, g, m, v, 3, 0.1f, 0.9f, 0.99f, 1e-8f, 0.5f, 1);
	CHECK_NEAR("trainer-adamw-1", p[0], 1.0 - 0.05 - 0.1, 1e-6);
	CHECK_NEAR("trainer-adamw-2", p[1], -2.0 + 0.1 + 0.1, 1e-6);
	CHECK_NEAR("trainer-adamw-3", p[2], 0.5 - 0.025, 1e-6);
}

static void test_newton_schulz(void)
{
	/* The quintic iteration maps singular values into roughly [0.7, 1.2];
	 * so diag(X X^T) lies in [0.49, 1.44] and X X^T is near-diagonal. */
	enum { R = 6, K = 10 };
	for (int tr = 0; tr < 2; tr++) {
		int rows = tr ? K : R, cols = tr ? R : K;
		float x[R * K], *s = xmalloc(newton_schulz_scratch_floats(rows, cols) * sizeof(float));
		fill(x, R * K, 1.0);
		newton_schulz5(x, rows, cols, s);
		int n = rows < cols ? rows : cols, ok = 1;
		double worst_off = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				double dot = 0;
				for (int c = 0; c < (rows < cols ? cols : rows); c++)
					dot += tr ? (double)x[c * cols + i] * x[c * cols + j]
						  : (double)x[i * cols + c] * x[j * cols + c];
				if (i == j)
					ok &= dot > 0.45 && dot < 1.5;
				else
					worst_off = fmax(worst_off, fabs(dot));
			}
		CHECK(tr ? "trainer-ns5-tall" : "trainer-ns5-wide", ok && worst_off < 0.35);
		free(s);
	}
}

int main(void)
{
	rl_progname = "test_gradcheck";
	test_rmsnorm();
	test_matmul();
	test_rotary();
	test_attention();
	test_relu2();
	test_xent();
	test_encoder();
	test_adamw();
	test_newton_schulz();
	return check_status();
}
