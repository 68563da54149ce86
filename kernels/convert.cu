/* convert.cu — small elementwise casts and reductions the driver needs
 * between the real ops: fp32 -> bf16 weight copies, the loss sum, the
 * squared norm for gradient clipping. Plain grid-stride kernels. */
#include "kernel_util.cuh"

/* ---- kernels ------------------------------------------------------------ */

__global__ void cast_f32_to_bf16_kernel(bf16 *out, const float *in, long n)
{
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
		out[i] = __float2bfloat16(in[i]);
}

/* One block; each thread folds a strided slice, then one block sum. The
 * order is fixed, so the result is deterministic. */
__global__ void sum_f32_kernel(float *out, const float *in, long n)
{
	float acc = 0.f;
	for (long i = threadIdx.x; i < n; i += blockDim.x)
		acc += in[i];
	acc = block_sum(acc);
	if (threadIdx.x == 0)
		*out = acc;
}

/* Many blocks, one atomic each (order varies: not bit-reproducible). */
__global__ void sumsq_f32_kernel(float *out, const float *in, long n)
{
	float acc = 0.f;
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
		acc += in[i] * in[i];
	acc = block_sum(acc);
	if (threadIdx.x == 0)
		atomicAdd(out, acc);
}

/* Clip: scale by min(1, max_norm / sqrt(sumsq)). */
__global__ void clip_scale_kernel(float *x, long n, const float *sumsq, float max_norm)
{
	float norm = sqrtf(*sumsq);
	if (norm <= max_norm)
		return;
	float f = max_norm / norm; /* as optim.c */
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
		x[i] *= f;
}

/* ---- launchers ---------------------------------------------------------- */

static unsigned grid_for(long n)
{
	long g = (n + 255) / 256;
	return (unsigned)(g > 132 * 16 ? 132 * 16 : (g < 1 ? 1 : g));
}

int cast_f32_to_bf16(bf16 *out, const float *in, long n, cudaStream_t s)
{
	trace_kernel("cast_f32_to_bf16");
	cast_f32_to_bf16_kernel<<<grid_for(n), 256, 0, s>>>(out, in, n);
	KERNEL_CHECK();
	return 0;
}

int sum_f32(float *out, const float *in, long n, cudaStream_t s)
{
	trace_kernel("sum_f32");
	sum_f32_kernel<<<1, 1024, 0, s>>>(out, in, n);
	KERNEL_CHECK();
	return 0;
}

int sumsq_f32(float *out, const float *in, long n, cudaStream_t s)
{
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), s));
	trace_kernel("sumsq_f32");
	sumsq_f32_kernel<<<grid_for(n), 256, 0, s>>>(out, in, n);
	KERNEL_CHECK();
	return 0;
}

int scale_f32(float *x, long n, const float *sumsq_dev, float max_norm, cudaStream_t s)
{
	trace_kernel("clip_scale");
	clip_scale_kernel<<<grid_for(n), 256, 0, s>>>(x, n, sumsq_dev, max_norm);
	KERNEL_CHECK();
	return 0;
}
