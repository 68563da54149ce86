/* adamw.cu — AdamW on fp32 master weights, with decoupled weight decay and
 * bias correction exactly as adamw_step in trainer/optim_ops.c, writing the
 * bf16 copy that the GEMMs read. Two implementations (impl.fused_adamw):
 * fused, one kernel and one pass over p, g, m, v; unfused, three
 * elementwise kernels (moments, update, bf16 cast) that each read their
 * inputs back from memory — the same arithmetic, so the same values, at
 * about twice the memory traffic. The step's scalars (LR multiplier, bias
 * corrections) are read from device memory (struct opt_sched), so a CUDA
 * graph captured once replays with each step's values. */
#include "kernel_util.cuh"

/* ---- kernels ------------------------------------------------------------ */

__global__ void adamw_kernel(float *p, bf16 *p_bf16, const float *g, float *m, float *v, long n,
			     float lr, float beta1, float beta2, float eps, float wd,
			     const struct opt_sched *sc)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float lr_t = lr * sc->lr_mult, c1 = sc->c1, c2 = sc->c2;
	float gi = g[i];
	float mi = beta1 * m[i] + (1.f - beta1) * gi;
	float vi = beta2 * v[i] + (1.f - beta2) * gi * gi;
	m[i] = mi;
	v[i] = vi;
	float pi = p[i];
	pi -= lr_t * (wd * pi + (mi / c1) / (sqrtf(vi / c2) + eps));
	p[i] = pi;
	if (p_bf16)
		p_bf16[i] = __float2bfloat16(pi);
}

__global__ void adamw_moments_kernel(const float *g, float *m, float *v, long n, float beta1, float beta2)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float gi = g[i];
	m[i] = beta1 * m[i] + (1.f - beta1) * gi;
	v[i] = beta2 * v[i] + (1.f - beta2) * gi * gi;
}

__global__ void adamw_apply_kernel(float *p, const float *m, const float *v, long n, float lr, float eps,
				   float wd, const struct opt_sched *sc)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float lr_t = lr * sc->lr_mult, pi = p[i];
	pi -= lr_t * (wd * pi + (m[i] / sc->c1) / (sqrtf(v[i] / sc->c2) + eps));
	p[i] = pi;
}

/* ---- launchers ---------------------------------------------------------- */

void opt_sched_fill(struct opt_sched *s, float lr_mult, float beta1, float beta2, int step)
{
	/* the same single-precision corrections as the CPU reference */
	s->lr_mult = lr_mult;
	s->c1 = 1.0f - powf(beta1, (float)step);
	s->c2 = 1.0f - powf(beta2, (float)step);
}

int adamw_update(float *p, bf16 *p_bf16, const float *g, float *m, float *v, long n, float lr,
		 float beta1, float beta2, float eps, float wd, const struct opt_sched *sched,
		 int fused, cudaStream_t s)
{
	if (fused) {
		trace_kernel("adamw_fused");
		adamw_kernel<<<ceil_div(n, 256), 256, 0, s>>>(p, p_bf16, g, m, v, n, lr, beta1, beta2,
							      eps, wd, sched);
		KERNEL_CHECK();
		return 0;
	}
	trace_kernel("adamw_moments");
	adamw_moments_kernel<<<ceil_div(n, 256), 256, 0, s>>>(g, m, v, n, beta1, beta2);
	KERNEL_CHECK();
	trace_kernel("adamw_apply");
	adamw_apply_kernel<<<ceil_div(n, 256), 256, 0, s>>>(p, m, v, n, lr, eps, wd, sched);
	KERNEL_CHECK();
	return p_bf16 ? cast_f32_to_bf16(p_bf16, p, n, s) : 0;
}
