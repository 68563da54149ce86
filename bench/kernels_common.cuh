/* kernels_common.cuh — helpers of the GPU harness programs (bench/kernels.cu,
 * bench/kernels_model.cu): fresh random inputs, bf16 rounding on the host,
 * poisoned device buffers, relative errors, event timing and the two
 * ceilings (copy bandwidth, bf16 GEMM rate) measured in the same run.
 * Bench code only; the trainer never includes it. */
#ifndef RL_BENCH_KERNELS_COMMON_CUH
#define RL_BENCH_KERNELS_COMMON_CUH
#include <algorithm>
#include <functional>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "kernels.h"
#include "cuda_check.h"
extern "C" {
#include "rng.h"
}

/* Like CUDA_CHECK but for main-level code: print and exit 3. */
#define DIE_IF(cond, ...) do { if (cond) { fprintf(stderr, "bench: " __VA_ARGS__); \
	fprintf(stderr, "\n"); exit(3); } } while (0)
#define OK(call) DIE_IF((call) != 0, "%s:%d: %s failed", __FILE__, __LINE__, #call)
#define CU(call) do { cudaError_t e_ = (call); DIE_IF(e_ != cudaSuccess, "%s:%d: %s: %s", \
	__FILE__, __LINE__, #call, cudaGetErrorString(e_)); } while (0)

static uint64_t bench_seed = 0x5eed;

/* n values ~ N(0, sd^2), rounded to bf16 when round_bf16 (so the CPU
 * reference sees exactly what the GPU sees). A new draw every call. */
static std::vector<float> randn(size_t n, double sd = 1.0, bool round_bf16 = true)
{
	std::vector<float> v(n);
	for (size_t i = 0; i < n; i++) {
		float x = (float)(sd * rng_gauss(&bench_seed));
		v[i] = round_bf16 ? __bfloat162float(__float2bfloat16(x)) : x;
	}
	return v;
}

static std::vector<int> randint(size_t n, int hi)
{
	std::vector<int> v(n);
	for (size_t i = 0; i < n; i++)
		v[i] = (int)(rng_next(&bench_seed) % (uint64_t)hi);
	return v;
}

static std::vector<bf16> to_bf16(const std::vector<float> &f)
{
	std::vector<bf16> b(f.size());
	for (size_t i = 0; i < f.size(); i++)
		b[i] = __float2bfloat16(f[i]);
	return b;
}

static std::vector<float> from_bf16(const std::vector<bf16> &b)
{
	std::vector<float> f(b.size());
	for (size_t i = 0; i < b.size(); i++)
		f[i] = __bfloat162float(b[i]);
	return f;
}

/* Device buffer of n T, filled with 0xFF bytes (NaN in fp32 and bf16), so
 * an element the kernel forgets to write fails the check. */
template <typename T> static T *dpoison(size_t n)
{
	T *p;
	CU(cudaMalloc(&p, n * sizeof(T)));
	CU(cudaMemset(p, 0xFF, n * sizeof(T)));
	return p;
}

template <typename T> static T *dup(const std::vector<T> &h)
{
	T *p;
	CU(cudaMalloc(&p, h.size() * sizeof(T)));
	CU(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
	return p;
}

template <typename T> static std::vector<T> down(const T *d, size_t n)
{
	std::vector<T> h(n);
	CU(cudaDeviceSynchronize());
	CU(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
	return h;
}

static std::vector<float> down_bf16(const bf16 *d, size_t n)
{
	return from_bf16(down(d, n));
}

/* ||out - ref|| / ||ref|| in double; infinity when out has a non-finite
 * element (an unwritten, poisoned one included). */
static double rel_err(const std::vector<float> &out, const std::vector<float> &ref)
{
	double num = 0, den = 0;
	if (out.size() != ref.size())
		return INFINITY;
	for (size_t i = 0; i < out.size(); i++) {
		if (!isfinite(out[i]))
			return INFINITY;
		double d = (double)out[i] - ref[i];
		num += d * d;
		den += (double)ref[i] * ref[i];
	}
	return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* Median time in ms of fn over reps runs (after 3 warm-ups), by events. */
static double time_ms(const std::function<void()> &fn, int reps = 20)
{
	cudaEvent_t a, b;
	std::vector<float> t(reps);
	CU(cudaEventCreate(&a));
	CU(cudaEventCreate(&b));
	for (int i = 0; i < 3; i++)
		fn();
	CU(cudaDeviceSynchronize());
	for (int i = 0; i < reps; i++) {
		CU(cudaEventRecord(a));
		fn();
		CU(cudaEventRecord(b));
		CU(cudaEventSynchronize(b));
		CU(cudaEventElapsedTime(&t[i], a, b));
	}
	CU(cudaGetLastError());
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	std::sort(t.begin(), t.end());
	return t[reps / 2];
}

/* The ceilings, measured now on this GPU. */
struct ceilings {
	double gbs;    /* device-to-device copy, bytes read + written per second / 1e9 */
	double tflops; /* cuBLASLt bf16 GEMM 8192^3 on random data */
};

static ceilings measure_ceilings(mm_ctx *m)
{
	ceilings c;
	size_t bytes = (size_t)2 << 30;
	void *x, *y;
	CU(cudaMalloc(&x, bytes));
	CU(cudaMalloc(&y, bytes));
	CU(cudaMemset(x, 1, bytes));
	double ms = time_ms([&] { CU(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, 0)); });
	c.gbs = 2.0 * bytes / (ms * 1e-3) / 1e9;
	CU(cudaFree(x));
	CU(cudaFree(y));
	int n = 8192;
	bf16 *A = dup(to_bf16(randn((size_t)n * n))), *B = dup(to_bf16(randn((size_t)n * n)));
	bf16 *C = dpoison<bf16>((size_t)n * n);
	ms = time_ms([&] { OK(mm(m, C, 0, A, 0, B, 1, n, n, n, 1.f, 0.f, 0)); });
	c.tflops = 2.0 * n * n * (double)n / (ms * 1e-3) / 1e12;
	CU(cudaFree(A));
	CU(cudaFree(B));
	CU(cudaFree(C));
	return c;
}

#endif
