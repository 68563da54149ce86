/* tma.cuh — tensor copies (TMA, sm_90): the 2-D tensor maps of bf16
 * matrices that the warp-specialised kernels' producers copy tiles from
 * (gemm_wgmma.cu; flash_wgmma.cu's forward and fused backward), and the
 * copies themselves. A map
 * is encoded on the host at each launch and passed as a __grid_constant__
 * kernel parameter; one thread issues a tile's copies onto a stage's
 * mbarrier with the bytes they bring (mbar_arrive_expect_tx), in place of
 * a warpgroup's cp.async of 16 bytes a thread (round 13: 453 -> 403 us
 * for the own GEMM's fc product, docs/performance.md). */
#ifndef RL_TMA_CUH
#define RL_TMA_CUH
#include <cuda.h> /* CUtensorMap; its encoder is reached through the runtime (no -lcuda) */
#include <cudaTypedefs.h>
#include <stdint.h>
#include <stdio.h>

/* Box (x, y) of map into shared memory at dst, its bytes counted on the
 * mbarrier bar. */
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *map, int x, int y, uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
		     "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
		     : "memory");
}

/* bytes (a multiple of 16, both addresses 16-byte aligned) from global
 * src to shared dst by the bulk copy engine, counted on bar. */
__device__ __forceinline__ void bulk_load(uint32_t dst, const void *src, int bytes, uint32_t bar)
{
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
			     dst),
		     "l"(src), "r"(bytes), "r"(bar)
		     : "memory");
}

/* A tensor map of rows x cols bf16 at p, row r starting stride elements
 * after row r - 1, read in boxes of box_rows x 64 columns (128 bytes: the
 * widest box the 128-byte swizzle takes, the layout wgmma's descriptors
 * read: row r's 16-byte chunk c at r * 128 + ((c ^ r % 8) << 4)). who
 * names the caller in errors. 0, or -1 with the reason on stderr. */
static inline int tma_map_2d(CUtensorMap *map, const void *p, long rows, long cols, long stride, int box_rows,
			     const char *who)
{
	static PFN_cuTensorMapEncodeTiled_v12000 encode;
	if (!encode) {
		void *fn = NULL;
		cudaDriverEntryPointQueryResult found;
		if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
						     &found) != cudaSuccess ||
		    found != cudaDriverEntryPointSuccess || !fn) {
			cudaGetLastError();
			fprintf(stderr, "trainer: %s: the driver has no cuTensorMapEncodeTiled (CUDA 12 or later needed)\n",
				who);
			return -1;
		}
		encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
	}
	cuuint64_t dim[2] = { (cuuint64_t)cols, (cuuint64_t)rows }, pitch[1] = { (cuuint64_t)stride * 2 };
	cuuint32_t box[2] = { 64, (cuuint32_t)box_rows }, step[2] = { 1, 1 };
	CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)p, dim, pitch, box, step,
			    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
			    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "trainer: %s: cuTensorMapEncodeTiled failed (%d) for %ld x %ld (row stride %ld) at %p\n",
			who, (int)r, rows, cols, stride, p);
		return -1;
	}
	return 0;
}

#endif
