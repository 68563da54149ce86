/* embedding.cu — token embedding on the GPU: gather rows of the fp32 table
 * into the fp32 residual stream, and scatter-add the gradient back.
 * CPU reference: embedding_forward/backward in trainer/ops.c.
 * The backward sums in shared memory per block first (the byte vocabulary
 * is tiny, so every row would otherwise take thousands of colliding global
 * atomics); the summation order varies, so dwte is not bit-reproducible. */
#include "kernel_util.cuh"

#define EMB_COLS 32   /* columns per backward block: V*32 floats of shared memory */
#define EMB_ROWS 1024 /* tokens per backward block */

/* ---- kernels ------------------------------------------------------------ */

/* x (N,C) = wte[tok[n]]; one thread per float4. */
__global__ void embedding_forward_kernel(float *x, const int32_t *tok, const float *wte, int N, int C)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x, per_row = C / 4;
	if (i >= (long)N * per_row)
		return;
	long n = i / per_row, c = (i % per_row) * 4;
	*reinterpret_cast<float4 *>(x + n * C + c) =
		*reinterpret_cast<const float4 *>(wte + (long)tok[n] * C + c);
}

/* Block (slice of EMB_COLS columns) x (chunk of EMB_ROWS tokens):
 * accumulate in shared memory acc[V][EMB_COLS], then flush with atomics. */
__global__ void embedding_backward_kernel(float *dwte, const int32_t *tok, const float *dx, int N,
					  int C, int V)
{
	extern __shared__ float acc[];
	int c0 = blockIdx.x * EMB_COLS;
	long n0 = (long)blockIdx.y * EMB_ROWS;
	for (int i = threadIdx.x; i < V * EMB_COLS; i += blockDim.x)
		acc[i] = 0.f;
	__syncthreads();
	int col = threadIdx.x % EMB_COLS, lane_row = threadIdx.x / EMB_COLS;
	int rows_per_pass = blockDim.x / EMB_COLS;
	for (long n = n0 + lane_row; n < n0 + EMB_ROWS && n < N; n += rows_per_pass)
		if (c0 + col < C)
			atomicAdd(&acc[tok[n] * EMB_COLS + col], dx[n * C + c0 + col]);
	__syncthreads();
	for (int i = threadIdx.x; i < V * EMB_COLS; i += blockDim.x) {
		int v = i / EMB_COLS, c = c0 + i % EMB_COLS;
		if (c < C && acc[i] != 0.f)
			atomicAdd(&dwte[(long)v * C + c], acc[i]);
	}
}

/* Large vocabularies: one global atomic per element. */
__global__ void embedding_backward_atomic_kernel(float *dwte, const int32_t *tok, const float *dx,
						 int N, int C)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= (long)N * C)
		return;
	long n = i / C, c = i % C;
	atomicAdd(&dwte[(long)tok[n] * C + c], dx[i]);
}

/* ---- launchers ---------------------------------------------------------- */

int embedding_forward(float *x, const int32_t *tok, const float *wte, int N, int C, cudaStream_t s)
{
	if (C % 4) {
		fprintf(stderr, "trainer: embedding: dim %d is not a multiple of 4\n", C);
		return -1;
	}
	trace_kernel("embedding_forward");
	embedding_forward_kernel<<<ceil_div((long)N * C / 4, 256), 256, 0, s>>>(x, tok, wte, N, C);
	KERNEL_CHECK();
	return 0;
}

int embedding_backward(float *dwte, const int32_t *tok, const float *dx, int N, int C, int V,
		       cudaStream_t s)
{
	size_t smem = (size_t)V * EMB_COLS * sizeof(float);
	if (smem <= 48 * 1024) {
		dim3 grid(ceil_div(C, EMB_COLS), ceil_div(N, EMB_ROWS));
		trace_kernel("embedding_backward");
		embedding_backward_kernel<<<grid, 256, smem, s>>>(dwte, tok, dx, N, C, V);
	} else {
		trace_kernel("embedding_backward_atomic");
		embedding_backward_atomic_kernel<<<ceil_div((long)N * C, 256), 256, 0, s>>>(dwte, tok, dx, N, C);
	}
	KERNEL_CHECK();
	return 0;
}
