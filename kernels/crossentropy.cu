/* crossentropy.cu — logit soft-cap + cross-entropy + its gradient in one
 * pass per row, so the (N,V) probabilities are never stored: each warp
 * keeps its row's capped logits in registers. CPU reference:
 * softcap_xent_forward/backward in trainer/ops.c. V <= 32*XENT_MAX_PER_LANE. */
#include "kernel_util.cuh"

#define XENT_MAX_PER_LANE 32 /* V up to 1024 in registers */

/* ---- kernels ------------------------------------------------------------ */

__global__ void crossentropy_kernel(float *loss, bf16 *dlogits, const float *logits,
				    const int32_t *targets, int N, int V, float cap, float grad_scale)
{
	int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP, lane = threadIdx.x % WARP;
	if (row >= N)
		return;
	const float *zr = logits + (long)row * V;
	float z[XENT_MAX_PER_LANE], mx = -INFINITY;
#pragma unroll
	for (int i = 0; i < XENT_MAX_PER_LANE; i++) {
		int j = lane + i * WARP;
		z[i] = -INFINITY;
		if (j < V) {
			float x = zr[j];
			z[i] = cap > 0.f ? cap * tanhf(x / cap) : x;
			mx = fmaxf(mx, z[i]);
		}
	}
	mx = warp_max(mx);
	float sum = 0.f;
#pragma unroll
	for (int i = 0; i < XENT_MAX_PER_LANE; i++)
		if (lane + i * WARP < V)
			sum += __expf(z[i] - mx);
	sum = warp_sum(sum);
	float lse = mx + logf(sum);
	int tgt = targets[row];
#pragma unroll
	for (int i = 0; i < XENT_MAX_PER_LANE; i++)
		if (lane + i * WARP == tgt)
			loss[row] = lse - z[i];
	if (!dlogits)
		return;
#pragma unroll
	for (int i = 0; i < XENT_MAX_PER_LANE; i++) {
		int j = lane + i * WARP;
		if (j < V) {
			float g = __expf(z[i] - lse) - (j == tgt ? 1.f : 0.f);
			if (cap > 0.f) {
				float th = z[i] / cap; /* tanh(x/cap), already computed */
				g *= 1.f - th * th;
			}
			dlogits[(long)row * V + j] = __float2bfloat16(grad_scale * g);
		}
	}
}

/* ---- launchers ---------------------------------------------------------- */

int crossentropy_forward_backward(float *loss, bf16 *dlogits, const float *logits,
				  const int32_t *targets, int N, int V, float softcap,
				  float grad_scale, cudaStream_t s)
{
	if (V > WARP * XENT_MAX_PER_LANE) {
		fprintf(stderr, "trainer: crossentropy: vocabulary %d > %d is not supported yet\n", V,
			WARP * XENT_MAX_PER_LANE);
		return -1;
	}
	crossentropy_kernel<<<ceil_div(N, 8), 256, 0, s>>>(loss, dlogits, logits, targets, N, V,
							   softcap, grad_scale);
	KERNEL_CHECK();
	return 0;
}
