/* rotary.cu — the step between the QKV projection and attention: split
 * heads into (B,H,T,D) for the batched attention GEMMs, RMS-normalise q and
 * k per head (model.qk_norm), rotate them (rotary position embedding).
 * CPU reference: rmsnorm_forward per head + rotary_forward in trainer/ops.c
 * (same pairs (i, i+D/2), same angles, same sign). One warp per head row.
 * The backward needs no saved pre-rotary values: rotation is orthogonal,
 * so the normalised input is R^T applied to the saved rotated output. */
#include <math.h>
#include "kernel_util.cuh"

/* ---- kernels ------------------------------------------------------------ */

/* grid.y: 0 = q, 1 = k, 2 = v; one warp per (n, h). */
__global__ void rotary_forward_kernel(bf16 *q, bf16 *k, bf16 *v, float *rstd_q, float *rstd_k,
				      const bf16 *qkv, const float *cos_sin, int B, int T, int H,
				      int D, int qk_norm, float eps)
{
	long row = blockIdx.x * (long)(blockDim.x / WARP) + threadIdx.x / WARP;
	int lane = threadIdx.x % WARP, part = blockIdx.y, half = D / 2, C = H * D;
	if (row >= (long)B * T * H)
		return;
	long n = row / H;
	int h = row % H, t = n % T;
	long b = n / T, orow = (b * H + h) * T + t;
	const bf16 *src = qkv + n * 3 * C + part * C + h * D;
	bf16 *dst = (part == 0 ? q : part == 1 ? k : v) + orow * D;
	if (part == 2) {
		for (int i = lane; i < D; i += WARP)
			dst[i] = src[i];
		return;
	}
	float r = 1.f;
	if (qk_norm) {
		float ss = 0.f;
		for (int i = lane; i < D; i += WARP) {
			float x = __bfloat162float(src[i]);
			ss += x * x;
		}
		r = rsqrtf(warp_sum(ss) / D + eps);
		if (lane == 0)
			(part == 0 ? rstd_q : rstd_k)[orow] = r;
	}
	const float *cs = cos_sin + (long)t * half, *sn = cos_sin + (long)T * half + (long)t * half;
	for (int i = lane; i < half; i += WARP) {
		float x1 = __bfloat162float(src[i]) * r, x2 = __bfloat162float(src[i + half]) * r;
		dst[i] = __float2bfloat16(x1 * cs[i] - x2 * sn[i]);
		dst[i + half] = __float2bfloat16(x1 * sn[i] + x2 * cs[i]);
	}
}

__global__ void rotary_backward_kernel(bf16 *dqkv, const bf16 *dq, const bf16 *dk, const bf16 *dv,
				       const bf16 *q, const bf16 *k, const float *rstd_q,
				       const float *rstd_k, const float *cos_sin, int B, int T, int H,
				       int D, int qk_norm)
{
	long row = blockIdx.x * (long)(blockDim.x / WARP) + threadIdx.x / WARP;
	int lane = threadIdx.x % WARP, part = blockIdx.y, half = D / 2, C = H * D;
	if (row >= (long)B * T * H)
		return;
	long n = row / H;
	int h = row % H, t = n % T;
	long b = n / T, orow = (b * H + h) * T + t;
	bf16 *dst = dqkv + n * 3 * C + part * C + h * D;
	const bf16 *g = (part == 0 ? dq : part == 1 ? dk : dv) + orow * D;
	if (part == 2) {
		for (int i = lane; i < D; i += WARP)
			dst[i] = g[i];
		return;
	}
	const bf16 *y = (part == 0 ? q : k) + orow * D;
	const float *cs = cos_sin + (long)t * half, *sn = cos_sin + (long)T * half + (long)t * half;
	/* g' = R^T g and yhat = R^T y, pair by pair; at most D/64 pairs a lane */
	float dot = 0.f;
	if (qk_norm)
		for (int i = lane; i < half; i += WARP) {
			float g1 = __bfloat162float(g[i]), g2 = __bfloat162float(g[i + half]);
			float y1 = __bfloat162float(y[i]), y2 = __bfloat162float(y[i + half]);
			float a1 = g1 * cs[i] + g2 * sn[i], a2 = -g1 * sn[i] + g2 * cs[i];
			float h1 = y1 * cs[i] + y2 * sn[i], h2 = -y1 * sn[i] + y2 * cs[i];
			dot += a1 * h1 + a2 * h2;
		}
	float mean = qk_norm ? warp_sum(dot) / D : 0.f;
	float r = qk_norm ? (part == 0 ? rstd_q : rstd_k)[orow] : 1.f;
	for (int i = lane; i < half; i += WARP) {
		float g1 = __bfloat162float(g[i]), g2 = __bfloat162float(g[i + half]);
		float a1 = g1 * cs[i] + g2 * sn[i], a2 = -g1 * sn[i] + g2 * cs[i];
		if (qk_norm) {
			float y1 = __bfloat162float(y[i]), y2 = __bfloat162float(y[i + half]);
			float h1 = y1 * cs[i] + y2 * sn[i], h2 = -y1 * sn[i] + y2 * cs[i];
			a1 = r * (a1 - h1 * mean);
			a2 = r * (a2 - h2 * mean);
		}
		dst[i] = __float2bfloat16(a1);
		dst[i + half] = __float2bfloat16(a2);
	}
}

/* ---- launchers ---------------------------------------------------------- */

void rotary_table(float *cos_sin, int T, int D)
{
	int half = D / 2;
	for (int t = 0; t < T; t++)
		for (int i = 0; i < half; i++) {
			double freq = pow(10000.0, -2.0 * i / D);
			cos_sin[(long)t * half + i] = (float)cos(t * freq);
			cos_sin[(long)T * half + (long)t * half + i] = (float)sin(t * freq);
		}
}

int rotary_forward(bf16 *q, bf16 *k, bf16 *v, float *rstd_q, float *rstd_k, const bf16 *qkv,
		   const float *cos_sin, int B, int T, int H, int D, int qk_norm, float eps,
		   cudaStream_t s)
{
	dim3 grid(ceil_div((long)B * T * H, 8), 3);
	rotary_forward_kernel<<<grid, 256, 0, s>>>(q, k, v, rstd_q, rstd_k, qkv, cos_sin, B, T, H, D,
						   qk_norm, eps);
	KERNEL_CHECK();
	return 0;
}

int rotary_backward(bf16 *dqkv, const bf16 *dq, const bf16 *dk, const bf16 *dv, const bf16 *q,
		    const bf16 *k, const float *rstd_q, const float *rstd_k, const float *cos_sin,
		    int B, int T, int H, int D, int qk_norm, cudaStream_t s)
{
	dim3 grid(ceil_div((long)B * T * H, 8), 3);
	rotary_backward_kernel<<<grid, 256, 0, s>>>(dqkv, dq, dk, dv, q, k, rstd_q, rstd_k, cos_sin, B,
						    T, H, D, qk_norm);
	KERNEL_CHECK();
	return 0;
}
