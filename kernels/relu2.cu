/* relu2.cu — the MLP activation a = relu(u)^2 and its gradient on bf16
 * tensors. CPU reference: relu2_forward/backward in trainer/ops.c (there the
 * backward accumulates; here it OVERWRITES, since du is fresh each layer).
 * 8 elements per thread (n % 8 == 0). */
#include "kernel_util.cuh"

/* ---- kernels ------------------------------------------------------------ */

__global__ void relu2_forward_kernel(bf16 *a, const bf16 *u, long n8)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n8)
		return;
	bf16x8 x = load8(u + i * 8), y;
	for (int j = 0; j < 8; j++) {
		float r = fmaxf(x.get(j), 0.f);
		y.set(j, r * r);
	}
	store8(a + i * 8, y);
}

__global__ void relu2_backward_kernel(bf16 *du, const bf16 *da, const bf16 *u, long n8)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n8)
		return;
	bf16x8 x = load8(u + i * 8), g = load8(da + i * 8), y;
	for (int j = 0; j < 8; j++)
		y.set(j, 2.f * fmaxf(x.get(j), 0.f) * g.get(j));
	store8(du + i * 8, y);
}

/* ---- launchers ---------------------------------------------------------- */

int relu2_forward(bf16 *a, const bf16 *u, long n, cudaStream_t s)
{
	if (n % 8) {
		fprintf(stderr, "trainer: relu2: %ld elements is not a multiple of 8\n", n);
		return -1;
	}
	trace_kernel("relu2_forward");
	relu2_forward_kernel<<<ceil_div(n / 8, 256), 256, 0, s>>>(a, u, n / 8);
	KERNEL_CHECK();
	return 0;
}

int relu2_backward(bf16 *du, const bf16 *da, const bf16 *u, long n, cudaStream_t s)
{
	if (n % 8) {
		fprintf(stderr, "trainer: relu2: %ld elements is not a multiple of 8\n", n);
		return -1;
	}
	trace_kernel("relu2_backward");
	relu2_backward_kernel<<<ceil_div(n / 8, 256), 256, 0, s>>>(du, da, u, n / 8);
	KERNEL_CHECK();
	return 0;
}
