/* adamw.cu — AdamW on fp32 master weights, with decoupled weight decay and
 * bias correction exactly as adamw_step in trainer/optim_ops.c, writing the
 * bf16 copy that the GEMMs read in the same pass. One thread per element. */
#include "kernel_util.cuh"

/* ---- kernels ------------------------------------------------------------ */

__global__ void adamw_kernel(float *p, bf16 *p_bf16, const float *g, float *m, float *v, long n,
			     float lr, float beta1, float beta2, float eps, float wd, float c1, float c2)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float gi = g[i];
	float mi = beta1 * m[i] + (1.f - beta1) * gi;
	float vi = beta2 * v[i] + (1.f - beta2) * gi * gi;
	m[i] = mi;
	v[i] = vi;
	float pi = p[i];
	pi -= lr * (wd * pi + (mi / c1) / (sqrtf(vi / c2) + eps));
	p[i] = pi;
	if (p_bf16)
		p_bf16[i] = __float2bfloat16(pi);
}

/* ---- launchers ---------------------------------------------------------- */

int adamw_update(float *p, bf16 *p_bf16, const float *g, float *m, float *v, long n, float lr,
		 float beta1, float beta2, float eps, float wd, int step, cudaStream_t s)
{
	/* the same single-precision corrections as the CPU reference */
	float c1 = 1.0f - powf(beta1, (float)step), c2 = 1.0f - powf(beta2, (float)step);
	adamw_kernel<<<ceil_div(n, 256), 256, 0, s>>>(p, p_bf16, g, m, v, n, lr, beta1, beta2, eps, wd,
						      c1, c2);
	KERNEL_CHECK();
	return 0;
}
