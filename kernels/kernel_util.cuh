/* kernel_util.cuh — device helpers shared by the kernels/ ops: warp and
 * block sums, 8-wide bf16 vector loads, cp.async, launch sizing.
 * Header-only, device code; no cuBLAS and no knowledge of the model. */
#ifndef RL_KERNEL_UTIL_CUH
#define RL_KERNEL_UTIL_CUH
#include <cuda_bf16.h>
#include "kernels.h"
#include "cuda_check.h"

#define WARP 32

__device__ __forceinline__ float warp_sum(float v)
{
	for (int o = WARP / 2; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

__device__ __forceinline__ float warp_max(float v)
{
	for (int o = WARP / 2; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

/* Sum over the whole block (blockDim.x a multiple of 32, at most 1024);
 * every thread gets the result. Uses 33 floats of shared memory. */
__device__ __forceinline__ float block_sum(float v)
{
	__shared__ float part[WARP + 1];
	int lane = threadIdx.x % WARP, w = threadIdx.x / WARP;
	v = warp_sum(v);
	__syncthreads(); /* part[] may still be read by a previous call */
	if (lane == 0)
		part[w] = v;
	__syncthreads();
	if (w == 0) {
		float t = lane < (int)(blockDim.x / WARP) ? part[lane] : 0.f;
		t = warp_sum(t);
		if (lane == 0)
			part[WARP] = t;
	}
	__syncthreads();
	return part[WARP];
}

/* Eight bf16 in one 16-byte access. */
struct bf16x8 {
	uint4 raw;
	__device__ __forceinline__ float get(int i) const
	{
		const __nv_bfloat16 *h = reinterpret_cast<const __nv_bfloat16 *>(&raw);
		return __bfloat162float(h[i]);
	}
	__device__ __forceinline__ void set(int i, float f)
	{
		__nv_bfloat16 *h = reinterpret_cast<__nv_bfloat16 *>(&raw);
		h[i] = __float2bfloat16(f);
	}
};

__device__ __forceinline__ bf16x8 load8(const bf16 *p)
{
	bf16x8 v;
	v.raw = *reinterpret_cast<const uint4 *>(p);
	return v;
}

__device__ __forceinline__ void store8(bf16 *p, bf16x8 v)
{
	*reinterpret_cast<uint4 *>(p) = v.raw;
}

/* Two floats as a bf16 pair in one 32-bit word (lo in the low half), and
 * back. */
__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi)
{
	__nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
	return *reinterpret_cast<uint32_t *>(&v);
}

__device__ __forceinline__ float2 unpack_bf16(uint32_t w)
{
	return __bfloat1622float2(*reinterpret_cast<__nv_bfloat162 *>(&w));
}

/* 16 bytes from global into shared memory by cp.async (the flash and
 * GEMM kernels' tile copies; shared address from __cvta_generic_to_shared). */
__device__ __forceinline__ void cp_async16(uint32_t saddr, const void *g)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(g));
}

static inline unsigned ceil_div(long a, long b)
{
	return (unsigned)((a + b - 1) / b);
}

#endif
