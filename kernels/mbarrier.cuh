/* mbarrier.cuh — the shared-memory barriers (mbarrier, sm_90) of the
 * warp-specialised kernels (flash_wgmma.cu, gemm_wgmma.cu): a producer
 * copies tiles by cp.async and arrives on a stage's "full" barrier once
 * they have landed (or, gemm_wgmma.cu and the default flash kernels,
 * issues tensor copies that count their bytes on it, tma.cuh); the
 * consumers wait on it, and give the stage back
 * on its "empty" barrier. Barrier addresses are shared-memory addresses
 * (__cvta_generic_to_shared), 8 bytes each. */
#ifndef RL_MBARRIER_CUH
#define RL_MBARRIER_CUH
#include <stdint.h>

__device__ __forceinline__ void mbar_init(uint32_t bar, int count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

/* Arrive on bar once all of this thread's earlier cp.async copies have
 * landed (counted against the barrier's expected arrivals: .noinc). */
__device__ __forceinline__ void mbar_arrive_on_copies(uint32_t bar)
{
	asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}

/* Arrive on bar and add bytes to the transaction count its phase waits
 * for: the bytes a tensor copy (cp.async.bulk.tensor) will deliver. */
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

/* Wait until the phase of bar with this parity has completed. (Built
 * with -DPP_WATCHDOG, a wait that spins 2^26 times says where and traps:
 * a diagnostic build, never the shipped one.) */
__device__ __forceinline__ void mbar_wait(uint32_t bar, int parity)
{
#ifdef PP_WATCHDOG
	uint32_t done;
	long spins = 0;
	do {
		asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
			     "selp.u32 %0, 1, 0, p;\n}\n"
			     : "=r"(done)
			     : "r"(bar), "r"(parity)
			     : "memory");
		if (++spins == (1l << 26)) {
			printf("pp watchdog: block (%d,%d) thread %d bar +%u parity %d\n", blockIdx.x, blockIdx.y,
			       threadIdx.x, bar & 0xffff, parity);
			__trap();
		}
	} while (!done);
	return;
/* Data landed by another thread's cp.async, seen through an mbarrier,
 * is read by wgmma (the async proxy) next. */
__device__ __forceinline__ void stage_acquire(uint32_t bar, int parity)
{
	mbar_wait(bar, parity);
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* Give a stage back: one arrival a warp (the empty barriers expect one
 * from each consumer warp), after the warp's wait for the products that
 * read it. */
__device__ __forceinline__ void stage_release(uint32_t bar, int lane)
{
	__syncwarp();
	if (lane == 0)
		mbar_arrive(bar);
}

#endif
	asm volatile("{\n.reg .pred p;\nLAB_WAIT:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
		     "@!p bra LAB_WAIT;\n}\n" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}

/* Data landed by another thread's cp.async, seen through an mbarrier,
 * is read by wgmma (the async proxy) next. */
__device__ __forceinline__ void stage_acquire(uint32_t bar, int parity)
{
	mbar_wait(bar, parity);
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* Give a stage back: one arrival a warp (the empty barriers expect one
 * from each consumer warp), after the warp's wait for the products that
 * read it. */
__device__ __forceinline__ void stage_release(uint32_t bar, int lane)
{
	__syncwarp();
	if (lane == 0)
		mbar_arrive(bar);
}

#endif
