/* attention.cu — causal self-attention as batched GEMMs (cuBLAS) around our
 * own masked softmax, forward and backward. CPU reference:
 * attention_forward/backward in trainer/ops.c (same scale 1/sqrt(D), same
 * zeros above the diagonal). This is the "correct first" version: it
 * materialises the (B,H,T,T) scores in fp32 and the probabilities in bf16
 * and multiplies the masked half too; a fused (flash) kernel would replace
 * it behind the same launchers once a check and a benchmark say so.
 * Layout: q, k, v, o are (B,H,T,D), so each (b,h) is one GEMM batch. */
#include "kernel_util.cuh"

/* ---- kernels ------------------------------------------------------------ */

/* P[r][j] = softmax_j<=t(scale * S[r][j]), zeros for j > t; t = r % T.
 * One warp per row; pass 1 keeps a running (max, sum) per lane. */
__global__ void causal_softmax_forward_kernel(bf16 *P, const float *S, long rows, int T, float scale)
{
	long r = blockIdx.x * (long)(blockDim.x / WARP) + threadIdx.x / WARP;
	int lane = threadIdx.x % WARP;
	if (r >= rows)
		return;
	int t = r % T;
	const float *s = S + r * T;
	float mx = -INFINITY, sum = 0.f;
	for (int j = lane * 4; j <= t; j += WARP * 4) {
		float4 v = *reinterpret_cast<const float4 *>(s + j);
		float e[4] = { v.x, v.y, v.z, v.w };
		for (int i = 0; i < 4; i++) {
			if (j + i > t)
				break;
			float x = e[i] * scale;
			if (x > mx) {
				sum *= __expf(mx - x);
				mx = x;
			}
			sum += __expf(x - mx);
		}
	}
	float gmx = warp_max(mx);
	sum = warp_sum(mx == -INFINITY ? 0.f : sum * __expf(mx - gmx));
	float inv = 1.f / sum;
	bf16 *p = P + r * T;
	for (int j = lane * 8; j < T; j += WARP * 8) {
		bf16x8 o;
		o.raw = make_uint4(0, 0, 0, 0);
		if (j <= t) {
			float4 a = *reinterpret_cast<const float4 *>(s + j);
			float4 b = *reinterpret_cast<const float4 *>(s + j + 4);
			float e[8] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w };
			for (int i = 0; i < 8; i++)
				o.set(i, j + i <= t ? __expf(e[i] * scale - gmx) * inv : 0.f);
		}
		store8(p + j, o);
	}
}

/* dS = P * (dP - sum_j P dP) * scale, written over P; zeros for j > t. */
__global__ void causal_softmax_backward_kernel(bf16 *P, const float *dP, long rows, int T, float scale)
{
	long r = blockIdx.x * (long)(blockDim.x / WARP) + threadIdx.x / WARP;
	int lane = threadIdx.x % WARP;
	if (r >= rows)
		return;
	int t = r % T;
	bf16 *p = P + r * T;
	const float *d = dP + r * T;
	float dot = 0.f;
	for (int j = lane * 8; j <= t; j += WARP * 8) {
		bf16x8 pv = load8(p + j);
		for (int i = 0; i < 8; i++)
			if (j + i <= t)
				dot += pv.get(i) * d[j + i];
	}
	dot = warp_sum(dot);
	for (int j = lane * 8; j < T; j += WARP * 8) {
		bf16x8 o;
		o.raw = make_uint4(0, 0, 0, 0);
		if (j <= t) {
			bf16x8 pv = load8(p + j);
			for (int i = 0; i < 8; i++)
				o.set(i, j + i <= t ? pv.get(i) * (d[j + i] - dot) * scale : 0.f);
		}
		store8(p + j, o);
	}
}

/* (N,C) with heads side by side <-> (B,H,T,D); 8 channels per thread. */
__global__ void heads_permute_kernel(bf16 *dst, const bf16 *src, int B, int T, int H, int D,
				     int to_heads)
{
	long i = (blockIdx.x * (long)blockDim.x + threadIdx.x) * 8, total = (long)B * T * H * D;
	if (i >= total)
		return;
	int d = i % D;
	long rest = i / D;
	int h = rest % H;
	long n = rest / H, b = n / T;
	int t = n % T;
	long hi = ((b * H + h) * T + t) * D + d; /* i is the (N,C) index */
	if (to_heads)
		store8(dst + hi, load8(src + i));
	else
		store8(dst + i, load8(src + hi));
}

/* ---- launchers ---------------------------------------------------------- */

int causal_softmax_forward(bf16 *P, const float *S, long rows, int T, float scale, cudaStream_t s)
{
	if (T % 8) {
		fprintf(stderr, "trainer: attention: seq_len %d is not a multiple of 8\n", T);
		return -1;
	}
	trace_kernel("causal_softmax_forward");
	causal_softmax_forward_kernel<<<ceil_div(rows, 8), 256, 0, s>>>(P, S, rows, T, scale);
	KERNEL_CHECK();
	return 0;
}

int causal_softmax_backward(bf16 *P, const float *dP, long rows, int T, float scale, cudaStream_t s)
{
	if (T % 8) {
		fprintf(stderr, "trainer: attention: seq_len %d is not a multiple of 8\n", T);
		return -1;
	}
	trace_kernel("causal_softmax_backward");
	causal_softmax_backward_kernel<<<ceil_div(rows, 8), 256, 0, s>>>(P, dP, rows, T, scale);
	KERNEL_CHECK();
	return 0;
}

static int heads_permute(bf16 *dst, const bf16 *src, int B, int T, int H, int D, int to_heads,
			 cudaStream_t s)
{
	if (D % 8) {
		fprintf(stderr, "trainer: attention: head size %d is not a multiple of 8\n", D);
		return -1;
	}
	trace_kernel("heads_permute");
	heads_permute_kernel<<<ceil_div((long)B * T * H * D / 8, 256), 256, 0, s>>>(dst, src, B, T, H,
									       D, to_heads);
	KERNEL_CHECK();
	return 0;
}

int attention_forward(cublasHandle_t h, bf16 *att, bf16 *P, float *S, bf16 *o, const bf16 *q,
		      const bf16 *k, const bf16 *v, int B, int T, int H, int D, cudaStream_t s)
{
	long TT = (long)T * T, TD = (long)T * D, BH = (long)B * H;
	CUBLAS_CHECK(cublasSetStream(h, s));
	/* S = q k^T (scale applied in the softmax, in fp32) */
	if (mm_batched(h, S, 1, T, TT, q, 0, D, TD, k, 1, D, TD, T, T, D, 1.f, 0.f, BH))
		return -1;
	if (causal_softmax_forward(P, S, BH * T, T, 1.f / sqrtf((float)D), s))
		return -1;
	if (mm_batched(h, o, 0, D, TD, P, 0, T, TT, v, 0, D, TD, T, D, T, 1.f, 0.f, BH))
		return -1;
	return heads_permute(att, o, B, T, H, D, 0, s);
}

int attention_backward(cublasHandle_t h, bf16 *dq, bf16 *dk, bf16 *dv, bf16 *P, float *S, bf16 *o,
		       const bf16 *datt, const bf16 *q, const bf16 *k, const bf16 *v, int B, int T,
		       int H, int D, cudaStream_t s)
{
	long TT = (long)T * T, TD = (long)T * D, BH = (long)B * H;
	bf16 *dO = o;
	CUBLAS_CHECK(cublasSetStream(h, s));
	if (heads_permute(dO, datt, B, T, H, D, 1, s))
		return -1;
	/* dv = P^T dO, then dP = dO v^T (fp32, into S) */
	if (mm_batched(h, dv, 0, D, TD, P, 1, T, TT, dO, 0, D, TD, T, D, T, 1.f, 0.f, BH) ||
	    mm_batched(h, S, 1, T, TT, dO, 0, D, TD, v, 1, D, TD, T, T, D, 1.f, 0.f, BH))
		return -1;
	if (causal_softmax_backward(P, S, BH * T, T, 1.f / sqrtf((float)D), s))
		return -1;
	/* P now holds dS: dq = dS k, dk = dS^T q */
	if (mm_batched(h, dq, 0, D, TD, P, 0, T, TT, k, 0, D, TD, T, D, T, 1.f, 0.f, BH) ||
	    mm_batched(h, dk, 0, D, TD, P, 1, T, TT, q, 0, D, TD, T, D, T, 1.f, 0.f, BH))
		return -1;
	return 0;
}
