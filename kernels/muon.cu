/* muon.cu — Muon for one block matrix: Nesterov momentum in fp32, the
 * Newton-Schulz quintic iteration in bf16 through cuBLAS GEMMs, and the
 * decoupled-weight-decay update of the fp32 master weights. CPU reference:
 * muon_step / newton_schulz5 in trainer/optim_ops.c (same formula; it
 * transposes a tall matrix, here the tall case multiplies on the other
 * side instead: A = X^T X, X = aX + X(bA + cA^2), which is the same). */
#include "kernel_util.cuh"

static const float NS_A = 3.4445f, NS_B = -4.7750f, NS_C = 2.0315f;

/* ---- kernels ------------------------------------------------------------ */

/* buf = mu*buf + g; u = g + mu*buf -> X (bf16); *sumsq += sum u^2. */
__global__ void muon_momentum_kernel(bf16 *X, float *buf, const float *g, long n, float mu,
				     float *sumsq)
{
	float ss = 0.f;
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
		float b = mu * buf[i] + g[i], u = g[i] + mu * b;
		buf[i] = b;
		X[i] = __float2bfloat16(u);
		ss += u * u;
	}
	ss = block_sum(ss);
	if (threadIdx.x == 0)
		atomicAdd(sumsq, ss);
}

__global__ void muon_normalize_kernel(bf16 *X, long n, const float *sumsq)
{
	float inv = 1.f / (sqrtf(*sumsq) + 1e-7f);
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
		X[i] = __float2bfloat16(__bfloat162float(X[i]) * inv);
}

/* p -= lr*wd*p + s*X; refresh the bf16 copy. */
__global__ void muon_apply_kernel(float *p, bf16 *p_bf16, const bf16 *X, long n, float lr, float wd,
				  float s, const struct opt_sched *sc)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float pi = p[i], mult = sc->lr_mult;
	pi -= (lr * mult) * wd * pi + (s * mult) * __bfloat162float(X[i]);
	p[i] = pi;
	if (p_bf16)
		p_bf16[i] = __float2bfloat16(pi);
}

/* ---- launchers ---------------------------------------------------------- */

long muon_scratch_elems(int R, int Cc)
{
	long n = R < Cc ? R : Cc;
	return 2 * n * n + 2 * (long)R * Cc;
}

/* X (R,Cc) in place; scratch: A, Bm (n,n), Y (R,Cc). */
int newton_schulz5(cublasHandle_t h, bf16 *X, int R, int Cc, bf16 *scratch, cudaStream_t s)
{
	int tall = R > Cc, n = tall ? Cc : R;
	long nn = (long)n * n, rc = (long)R * Cc;
	bf16 *A = scratch, *Bm = A + nn, *Y = Bm + nn, *cur = X, *nxt = Y;
	CUBLAS_CHECK(cublasSetStream(h, s));
	for (int it = 0; it < 5; it++) {
		/* A = X X^T (wide) or X^T X (tall) */
		if (tall ? mm_batched(h, A, 0, n, 0, cur, 1, Cc, 0, cur, 0, Cc, 0, n, n, R, 1.f, 0.f, 1)
			 : mm_batched(h, A, 0, n, 0, cur, 0, Cc, 0, cur, 1, Cc, 0, n, n, Cc, 1.f, 0.f, 1))
			return -1;
		/* Bm = b A + c A A */
		CUDA_CHECK(cudaMemcpyAsync(Bm, A, nn * sizeof(bf16), cudaMemcpyDeviceToDevice, s));
		if (mm_batched(h, Bm, 0, n, 0, A, 0, n, 0, A, 0, n, 0, n, n, n, NS_C, NS_B, 1))
			return -1;
		/* X' = a X + Bm X (wide) or a X + X Bm (tall) */
		CUDA_CHECK(cudaMemcpyAsync(nxt, cur, rc * sizeof(bf16), cudaMemcpyDeviceToDevice, s));
		if (tall ? mm_batched(h, nxt, 0, Cc, 0, cur, 0, Cc, 0, Bm, 0, n, 0, R, Cc, Cc, 1.f, NS_A, 1)
			 : mm_batched(h, nxt, 0, Cc, 0, Bm, 0, n, 0, cur, 0, Cc, 0, R, Cc, R, 1.f, NS_A, 1))
			return -1;
		bf16 *t = cur;
		cur = nxt;
		nxt = t;
	}
	if (cur != X) /* after an odd number of swaps the result sits in Y */
		CUDA_CHECK(cudaMemcpyAsync(X, cur, rc * sizeof(bf16), cudaMemcpyDeviceToDevice, s));
	return 0;
}

int muon_update(cublasHandle_t h, float *p, bf16 *p_bf16, const float *g, float *buf, int R, int Cc,
		float lr, float mu, float wd, const struct opt_sched *sched, bf16 *scratch,
		float *norm_dev, cudaStream_t s)
{
	long n = (long)R * Cc;
	bf16 *X = scratch, *ns = scratch + n;
	unsigned grid = ceil_div(n, 256);
	grid = grid > 264 ? 264 : grid;
	CUDA_CHECK(cudaMemsetAsync(norm_dev, 0, sizeof(float), s));
	trace_kernel("muon_momentum");
	muon_momentum_kernel<<<grid, 256, 0, s>>>(X, buf, g, n, mu, norm_dev);
	KERNEL_CHECK();
	trace_kernel("muon_normalize");
	muon_normalize_kernel<<<grid, 256, 0, s>>>(X, n, norm_dev);
	KERNEL_CHECK();
	if (newton_schulz5(h, X, R, Cc, ns, s))
		return -1;
	float scale = lr * sqrtf(R > Cc ? (float)R / Cc : 1.f);
	trace_kernel("muon_apply");
	muon_apply_kernel<<<ceil_div(n, 256), 256, 0, s>>>(p, p_bf16, X, n, lr, wd, scale, sched);
	KERNEL_CHECK();
	return 0;
}
