/* crossentropy.cu — logit soft-cap + cross-entropy + its gradient. Fused
 * (impl.fused_xent=true): one pass per row, so the (N,V) probabilities are
 * never stored: each warp keeps its row's capped logits in registers.
 * Unfused: four kernels as a framework without fusion would run them —
 * soft-cap (N,V) fp32, softmax into stored (N,V) probabilities, the loss
 * -log p[target] per row, the gradient — reading each intermediate back.
 * CPU reference: softcap_xent_forward/backward in trainer/ops.c (which
 * also takes -log p). V <= 32*XENT_MAX_PER_LANE. */
#include "kernel_util.cuh"

#define XENT_MAX_PER_LANE 32 /* V up to 1024 in registers */

/* ---- kernels ------------------------------------------------------------ */

/* PER_LANE: register slots a lane keeps, V <= 32 * PER_LANE; sized to V
 * by the launcher so no lane walks empty slots. */
template <int PER_LANE>
__global__ void crossentropy_kernel(float *loss, bf16 *dlogits, const float *logits,
				    const int32_t *targets, int N, int V, float cap, float grad_scale)
{
	int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP, lane = threadIdx.x % WARP;
	if (row >= N)
		return;
	const float *zr = logits + (long)row * V;
	float z[PER_LANE], mx = -INFINITY;
#pragma unroll
	for (int i = 0; i < PER_LANE; i++) {
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
	for (int i = 0; i < PER_LANE; i++)
		if (lane + i * WARP < V)
			sum += __expf(z[i] - mx);
	sum = warp_sum(sum);
	float lse = mx + logf(sum);
	int tgt = targets[row];
#pragma unroll
	for (int i = 0; i < PER_LANE; i++)
		if (lane + i * WARP == tgt)
			loss[row] = lse - z[i];
	if (!dlogits)
		return;
#pragma unroll
	for (int i = 0; i < PER_LANE; i++) {
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

__global__ void xent_softcap_kernel(float *z, const float *logits, long n, float cap)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i < n)
		z[i] = cap > 0.f ? cap * tanhf(logits[i] / cap) : logits[i];
}

/* One warp per row: probs = softmax(z). */
__global__ void xent_softmax_kernel(float *probs, const float *z, int N, int V)
{
	int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP, lane = threadIdx.x % WARP;
	if (row >= N)
		return;
	const float *zr = z + (long)row * V;
	float mx = -INFINITY, sum = 0.f;
	for (int j = lane; j < V; j += WARP)
		mx = fmaxf(mx, zr[j]);
	mx = warp_max(mx);
	for (int j = lane; j < V; j += WARP)
		sum += __expf(zr[j] - mx);
	float inv = 1.f / warp_sum(sum);
	for (int j = lane; j < V; j += WARP)
		probs[(long)row * V + j] = __expf(zr[j] - mx) * inv;
}

__global__ void xent_loss_kernel(float *loss, const float *probs, const int32_t *targets, int N, int V)
{
	int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row < N)
		loss[row] = -logf(probs[(long)row * V + targets[row]]);
}

__global__ void xent_grad_kernel(bf16 *dlogits, const float *probs, const float *z,
				 const int32_t *targets, long n, int V, float cap, float grad_scale)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int j = i % V;
	float g = probs[i] - (j == targets[i / V] ? 1.f : 0.f);
	if (cap > 0.f) {
		float th = z[i] / cap;
		g *= 1.f - th * th;
	}
	dlogits[i] = __float2bfloat16(grad_scale * g);
}

/* ---- launchers ---------------------------------------------------------- */

static int crossentropy_unfused(float *loss, bf16 *dlogits, const float *logits, const int32_t *targets,
				int N, int V, float softcap, float grad_scale, float *scratch,
				cudaStream_t s)
{
	long n = (long)N * V;
	float *z = scratch, *probs = scratch + n;
	trace_kernel("xent_softcap");
	xent_softcap_kernel<<<ceil_div(n, 256), 256, 0, s>>>(z, logits, n, softcap);
	KERNEL_CHECK();
	trace_kernel("xent_softmax");
	xent_softmax_kernel<<<ceil_div(N, 8), 256, 0, s>>>(probs, z, N, V);
	KERNEL_CHECK();
	trace_kernel("xent_loss");
	xent_loss_kernel<<<ceil_div(N, 256), 256, 0, s>>>(loss, probs, targets, N, V);
	KERNEL_CHECK();
	if (!dlogits)
		return 0;
	trace_kernel("xent_grad");
	xent_grad_kernel<<<ceil_div(n, 256), 256, 0, s>>>(dlogits, probs, z, targets, n, V, softcap,
							   grad_scale);
	KERNEL_CHECK();
	return 0;
}


int crossentropy_forward_backward(float *loss, bf16 *dlogits, const float *logits,
				  const int32_t *targets, int N, int V, float softcap,
				  float grad_scale, float *scratch, cudaStream_t s)
{
	if (scratch)
		return crossentropy_unfused(loss, dlogits, logits, targets, N, V, softcap, grad_scale,
					    scratch, s);
	if (V > WARP * XENT_MAX_PER_LANE) {
		fprintf(stderr, "trainer: crossentropy: vocabulary %d > %d is not supported yet\n", V,
			WARP * XENT_MAX_PER_LANE);
		return -1;
	}
	trace_kernel("crossentropy");
	if (V <= WARP * 8)
		crossentropy_kernel<8><<<ceil_div(N, 8), 256, 0, s>>>(loss, dlogits, logits, targets, N, V,
								      softcap, grad_scale);
	else if (V <= WARP * 16)
		crossentropy_kernel<16><<<ceil_div(N, 8), 256, 0, s>>>(loss, dlogits, logits, targets, N, V,
								       softcap, grad_scale);
	else
		crossentropy_kernel<XENT_MAX_PER_LANE><<<ceil_div(N, 8), 256, 0, s>>>(
			loss, dlogits, logits, targets, N, V, softcap, grad_scale);
	KERNEL_CHECK();
	return 0;
}
