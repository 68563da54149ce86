/* rotary.cu — the step between the QKV projection and attention: split
 * heads into (B,H,T,D) for the batched attention GEMMs, RMS-normalise q and
 * k per head (model.qk_norm), rotate them (rotary position embedding).
 * CPU reference: rmsnorm_forward per head + rotary_forward in trainer/ops.c
 * (same pairs (i, i+D/2), same angles, same sign). One warp per head row.
 * The backward needs no saved pre-rotary values: rotation is orthogonal,
 * so the normalised input is R^T applied to the saved rotated output.
 * Two versions: the simple one (one warp per head row, 2-byte accesses,
 * any even D) and the one used when D/16 divides 32 (D = 16..512): D/16
 * threads per head row, each rotating 8 pairs with 16-byte accesses and
 * summing across its group by shuffles. The harness checks both.
 * packed (flash attention): q and k are normalised and rotated in place in
 * the (N,3C) qkv tensor and v is not copied (grid.y = 2: parts 0 and 1);
 * the backward reads the rotated q, k from there and leaves dqkv's v part
 * to the flash backward. */
#include <math.h>
#include "rotary.cuh"

/* ---- kernels ------------------------------------------------------------ */

/* grid.y: 0 = q, 1 = k, 2 = v; one warp per (n, h). */
__global__ void rotary_forward_kernel(bf16 *q, bf16 *k, bf16 *v, float *rstd_q, float *rstd_k,
				      const bf16 *qkv, const float *cos_sin, int B, int T, int H,
				      int D, int qk_norm, float eps, int packed)
{
	long row = blockIdx.x * (long)(blockDim.x / WARP) + threadIdx.x / WARP;
	int lane = threadIdx.x % WARP, part = blockIdx.y, half = D / 2, C = H * D;
	if (row >= (long)B * T * H)
		return;
	long n = row / H;
	int h = row % H, t = n % T;
	long b = n / T, orow = (b * H + h) * T + t;
	const bf16 *src = qkv + n * 3 * C + part * C + h * D;
	/* in place: each lane writes only the elements it read itself */
	bf16 *dst = packed ? const_cast<bf16 *>(src) : (part == 0 ? q : part == 1 ? k : v) + orow * D;
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
				       const bf16 *q, const bf16 *k, const bf16 *qkv, const float *rstd_q,
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
	/* the rotated output of the forward: packed in qkv, or (B,H,T,D) */
	const bf16 *y = qkv ? qkv + n * 3 * C + part * C + h * D : (part == 0 ? q : k) + orow * D;
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

/* The 16-byte version: G = D/16 lanes per head row (G divides 32, so a
 * row's lanes sit in one warp); lane c of the row owns pairs 8c..8c+7. */
struct rot_row {
	long orow;       /* (b,h,t) row of the (B,H,T,D) tensors */
	long src;        /* offset of this head in the (N,3C) tensor, part 0 */
	int t;
	bool valid;
};

__device__ __forceinline__ rot_row rot_locate(int G, int B, int T, int H, int D)
{
	long tid = blockIdx.x * (long)blockDim.x + threadIdx.x, row = tid / G;
	rot_row r;
	r.valid = row < (long)B * T * H;
	if (!r.valid)
		row = 0; /* still take part in the shuffles */
	long n = row / H;
	int h = row % H;
	r.t = n % T;
	r.orow = ((n / T) * H + h) * T + r.t;
	r.src = n * 3 * H * D + (long)h * D;
	return r;
}

__global__ void rotary_forward_vec_kernel(bf16 *q, bf16 *k, bf16 *v, float *rstd_q, float *rstd_k,
					  const bf16 *qkv, const float *cos_sin, int B, int T, int H,
					  int D, int qk_norm, float eps, int G, int packed)
{
	rot_row r = rot_locate(G, B, T, H, D);
	int part = blockIdx.y, half = D / 2, i0 = (threadIdx.x % G) * 8;
	const bf16 *src = qkv + r.src + (long)part * H * D;
	/* in place: a thread writes only the 16 + 16 bytes it read itself (the
	 * lanes of an invalid row read row 0 for the shuffles and write nothing) */
	bf16 *dst = packed ? const_cast<bf16 *>(src) : (part == 0 ? q : part == 1 ? k : v) + r.orow * D;
	bf16x8 x1 = load8(src + i0), x2 = load8(src + half + i0);
	if (part == 2) { /* uniform over the block */
		if (r.valid) {
			store8(dst + i0, x1);
			store8(dst + half + i0, x2);
		}
		return;
	}
	float rs = 1.f;
	if (qk_norm) {
		float ss = 0.f;
		for (int i = 0; i < 8; i++)
			ss += x1.get(i) * x1.get(i) + x2.get(i) * x2.get(i);
		rs = rsqrtf(group_sum(ss, G) / D + eps);
		if (r.valid && i0 == 0)
			(part == 0 ? rstd_q : rstd_k)[r.orow] = rs;
	}
	if (!r.valid)
		return;
	float c[8], s[8];
	load_cs(c, s, cos_sin, T, half, r.t, i0);
	bf16x8 y1, y2;
	for (int i = 0; i < 8; i++) {
		float a = x1.get(i) * rs, b = x2.get(i) * rs;
		y1.set(i, a * c[i] - b * s[i]);
		y2.set(i, a * s[i] + b * c[i]);
	}
	store8(dst + i0, y1);
	store8(dst + half + i0, y2);
}

__global__ void rotary_backward_vec_kernel(bf16 *dqkv, const bf16 *dq, const bf16 *dk, const bf16 *dv,
					   const bf16 *q, const bf16 *k, const bf16 *qkv, const float *rstd_q,
					   const float *rstd_k, const float *cos_sin, int B, int T, int H,
					   int D, int qk_norm, int G)
{
	rot_row r = rot_locate(G, B, T, H, D);
	int part = blockIdx.y, half = D / 2, i0 = (threadIdx.x % G) * 8;
	bf16 *dst = dqkv + r.src + (long)part * H * D;
	const bf16 *g = (part == 0 ? dq : part == 1 ? dk : dv) + r.orow * D;
	bf16x8 g1 = load8(g + i0), g2 = load8(g + half + i0);
	if (part == 2) {
		if (r.valid) {
			store8(dst + i0, g1);
			store8(dst + half + i0, g2);
		}
		return;
	}
	float c[8], s[8], rs = qk_norm ? (part == 0 ? rstd_q : rstd_k)[r.orow] : 1.f;
	load_cs(c, s, cos_sin, T, half, r.t, i0);
	bf16x8 y1 = g1, y2 = g2, o1, o2; /* y: read under qk_norm only */
	if (qk_norm) {
		const bf16 *y = qkv ? qkv + r.src + (long)part * H * D : (part == 0 ? q : k) + r.orow * D;
		y1 = load8(y + i0);
		y2 = load8(y + half + i0);
	}
	rotary_backward8(&o1, &o2, g1, g2, y1, y2, c, s, rs, qk_norm, D, G);
	if (!r.valid)
		return;
	store8(dst + i0, o1);
	store8(dst + half + i0, o2);
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

/* lanes per head row of the 16-byte version, or 0 when D does not suit */
static int vec_group(int D)
{
	int G = D / 16;
	return D % 16 == 0 && G >= 1 && G <= 32 && 32 % G == 0 ? G : 0;
}

int rotary_simple = 0; /* the harness sets it to check the simple kernels */

/* parts = 3: q, k and the copy of v (head-major outputs); 2: q and k in
 * place in qkv (packed) */
static int rotary_forward_launch(bf16 *q, bf16 *k, bf16 *v, float *rstd_q, float *rstd_k, const bf16 *qkv,
				 const float *cos_sin, int B, int T, int H, int D, int qk_norm, float eps,
				 int packed, cudaStream_t s)
{
	int G = rotary_simple ? 0 : vec_group(D), parts = packed ? 2 : 3;
	if (G) {
		dim3 vgrid(ceil_div((long)B * T * H * G, 256), parts);
		trace_kernel(packed ? "rotary_forward_packed_vec" : "rotary_forward_vec");
		rotary_forward_vec_kernel<<<vgrid, 256, 0, s>>>(q, k, v, rstd_q, rstd_k, qkv, cos_sin, B, T,
								 H, D, qk_norm, eps, G, packed);
		KERNEL_CHECK();
		return 0;
	}
	dim3 grid(ceil_div((long)B * T * H, 8), parts);
	trace_kernel(packed ? "rotary_forward_packed" : "rotary_forward");
	rotary_forward_kernel<<<grid, 256, 0, s>>>(q, k, v, rstd_q, rstd_k, qkv, cos_sin, B, T, H, D,
						   qk_norm, eps, packed);
	KERNEL_CHECK();
	return 0;
}

/* qkv (packed: the rotated q, k are read from it) or NULL (from q, k) */
static int rotary_backward_launch(bf16 *dqkv, const bf16 *dq, const bf16 *dk, const bf16 *dv,
				  const bf16 *q, const bf16 *k, const bf16 *qkv, const float *rstd_q,
				  const float *rstd_k, const float *cos_sin, int B, int T, int H, int D,
				  int qk_norm, cudaStream_t s)
{
	int G = rotary_simple ? 0 : vec_group(D), parts = qkv ? 2 : 3;
	if (G) {
		dim3 vgrid(ceil_div((long)B * T * H * G, 256), parts);
		trace_kernel(qkv ? "rotary_backward_packed_vec" : "rotary_backward_vec");
		rotary_backward_vec_kernel<<<vgrid, 256, 0, s>>>(dqkv, dq, dk, dv, q, k, qkv, rstd_q, rstd_k,
								  cos_sin, B, T, H, D, qk_norm, G);
		KERNEL_CHECK();
		return 0;
	}
	dim3 grid(ceil_div((long)B * T * H, 8), parts);
	trace_kernel(qkv ? "rotary_backward_packed" : "rotary_backward");
	rotary_backward_kernel<<<grid, 256, 0, s>>>(dqkv, dq, dk, dv, q, k, qkv, rstd_q, rstd_k, cos_sin, B,
						    T, H, D, qk_norm);
	KERNEL_CHECK();
	return 0;
}

int rotary_forward(bf16 *q, bf16 *k, bf16 *v, float *rstd_q, float *rstd_k, const bf16 *qkv,
		   const float *cos_sin, int B, int T, int H, int D, int qk_norm, float eps,
		   cudaStream_t s)
{
	return rotary_forward_launch(q, k, v, rstd_q, rstd_k, qkv, cos_sin, B, T, H, D, qk_norm, eps, 0, s);
}

int rotary_forward_packed(bf16 *qkv, float *rstd_q, float *rstd_k, const float *cos_sin, int B, int T,
			  int H, int D, int qk_norm, float eps, cudaStream_t s)
{
	return rotary_forward_launch(NULL, NULL, NULL, rstd_q, rstd_k, qkv, cos_sin, B, T, H, D, qk_norm, eps, 1,
				     s);
}

int rotary_backward(bf16 *dqkv, const bf16 *dq, const bf16 *dk, const bf16 *dv, const bf16 *q,
		    const bf16 *k, const float *rstd_q, const float *rstd_k, const float *cos_sin,
		    int B, int T, int H, int D, int qk_norm, cudaStream_t s)
{
	return rotary_backward_launch(dqkv, dq, dk, dv, q, k, NULL, rstd_q, rstd_k, cos_sin, B, T, H, D, qk_norm,
				      s);
}

int rotary_backward_packed(bf16 *dqkv, const bf16 *dq, const bf16 *dk, const bf16 *qkv,
			   const float *rstd_q, const float *rstd_k, const float *cos_sin, int B, int T,
			   int H, int D, int qk_norm, cudaStream_t s)
{
	return rotary_backward_launch(dqkv, dq, dk, NULL, NULL, NULL, qkv, rstd_q, rstd_k, cos_sin, B, T, H, D,
				      qk_norm, s);
}
