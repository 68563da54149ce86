/* rmsnorm.cu — weightless RMSNorm on the GPU, fused with the residual add:
 * the residual stream x stays fp32, the normalised output (the next GEMM's
 * input) is bf16. CPU reference: rmsnorm_forward/backward in trainer/ops.c.
 * One warp per row, 8 channels per lane per step (C % 8 == 0). The backward
 * uses the saved bf16 output as x*rstd, so the fp32 x need not be kept. */
#include "kernel_util.cuh"

/* ---- kernels ------------------------------------------------------------ */

__device__ __forceinline__ void load_f8(float *d, const float *p)
{
	float4 a = *reinterpret_cast<const float4 *>(p), b = *reinterpret_cast<const float4 *>(p + 4);
	d[0] = a.x; d[1] = a.y; d[2] = a.z; d[3] = a.w;
	d[4] = b.x; d[5] = b.y; d[6] = b.z; d[7] = b.w;
}

__device__ __forceinline__ void store_f8(float *p, const float *d)
{
	*reinterpret_cast<float4 *>(p) = make_float4(d[0], d[1], d[2], d[3]);
	*reinterpret_cast<float4 *>(p + 4) = make_float4(d[4], d[5], d[6], d[7]);
}

__global__ void rmsnorm_forward_kernel(bf16 *out, float *rstd, float *x, const bf16 *y_add, int N,
				       int C, float eps)
{
	int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP, lane = threadIdx.x % WARP;
	if (row >= N)
		return;
	float *xr = x + (long)row * C;
	float ss = 0.f, v[8];
	for (int c = lane * 8; c < C; c += WARP * 8) {
		load_f8(v, xr + c);
		if (y_add) {
			bf16x8 y = load8(y_add + (long)row * C + c);
			for (int i = 0; i < 8; i++)
				v[i] += y.get(i);
			store_f8(xr + c, v);
		}
		for (int i = 0; i < 8; i++)
			ss += v[i] * v[i];
	}
	float r = rsqrtf(warp_sum(ss) / C + eps);
	for (int c = lane * 8; c < C; c += WARP * 8) {
		load_f8(v, xr + c); /* this lane's own write above: visible */
		bf16x8 o;
		for (int i = 0; i < 8; i++)
			o.set(i, v[i] * r);
		store8(out + (long)row * C + c, o);
	}
	if (lane == 0)
		rstd[row] = r;
}

__global__ void rmsnorm_backward_kernel(float *dx, bf16 *dx_bf16, const bf16 *dout, const bf16 *out,
					const float *rstd, int N, int C, int accumulate)
{
	int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP, lane = threadIdx.x % WARP;
	if (row >= N)
		return;
	long base = (long)row * C;
	float dot = 0.f;
	for (int c = lane * 8; c < C; c += WARP * 8) {
		bf16x8 g = load8(dout + base + c), o = load8(out + base + c);
		for (int i = 0; i < 8; i++)
			dot += g.get(i) * o.get(i);
	}
	float mean = warp_sum(dot) / C, r = rstd[row], d[8];
	for (int c = lane * 8; c < C; c += WARP * 8) {
		bf16x8 g = load8(dout + base + c), o = load8(out + base + c), db;
		if (accumulate)
			load_f8(d, dx + base + c);
		for (int i = 0; i < 8; i++) {
			float v = r * (g.get(i) - o.get(i) * mean);
			d[i] = accumulate ? d[i] + v : v;
			db.set(i, d[i]);
		}
		store_f8(dx + base + c, d);
		if (dx_bf16)
			store8(dx_bf16 + base + c, db);
	}
}

/* ---- launchers ---------------------------------------------------------- */

static int check_dim(int C)
{
	if (C % 8 == 0)
		return 0;
	fprintf(stderr, "trainer: rmsnorm: dim %d is not a multiple of 8\n", C);
	return -1;
}

int rmsnorm_forward(bf16 *out, float *rstd, float *x, const bf16 *y_add, int N, int C, float eps,
		    cudaStream_t s)
{
	if (check_dim(C))
		return -1;
	trace_kernel("rmsnorm_forward");
	rmsnorm_forward_kernel<<<ceil_div(N, 8), 256, 0, s>>>(out, rstd, x, y_add, N, C, eps);
	KERNEL_CHECK();
	return 0;
}

int rmsnorm_backward(float *dx, bf16 *dx_bf16, const bf16 *dout, const bf16 *out, const float *rstd,
		     int N, int C, int accumulate, cudaStream_t s)
{
	if (check_dim(C))
		return -1;
	trace_kernel("rmsnorm_backward");
	rmsnorm_backward_kernel<<<ceil_div(N, 8), 256, 0, s>>>(dx, dx_bf16, dout, out, rstd, N, C,
								accumulate);
	KERNEL_CHECK();
	return 0;
}
