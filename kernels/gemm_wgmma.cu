/* gemm_wgmma.cu — our own Hopper GEMM (wgmma, sm_90a; compiled for
 * compute_90a only, kernels/cuda.mk), for the two products of the MLP
 * that have elementwise work on their outputs cuBLASLt has no epilogue
 * for:
 *   the fc forward        H = x Wfc^T,  with relu^2(H) written beside H;
 *   the projection's dX   dH = (dY Wproj) * 2 relu(H).
 * Each removes one pass of relu2.cu over the N x 4C activations (read H,
 * write relu^2(H); read dA, H, write dH) — 4.9 ms of a depth-8 step on
 * the H200 (docs/performance.md, round 12).
 *
 * out (M x N) = A (M x K, row-major: K-major) times B^T, where B is
 * (N x K) row-major (K-major: y = x W^T, tb = 1) or (K x N) row-major
 * (MN-major: y = x W, tb = 0), bf16 operands, fp32 accumulators.
 *
 * A block computes one 128 x 128 tile of out: two consumer warpgroups of
 * 64 rows each (m64n128k16 wgmma, both operands read from shared memory)
 * and one producer warp that copies 64-column slices of A and B (the K
 * dimension) by cp.async into NS stages and signals each on an mbarrier;
 * the consumers give a stage back when their products have read it. Two
 * blocks share an SM (shared memory 97 KB, registers 112 a thread), so
 * one block's epilogue — 128 accumulators a thread become bf16 stores —
 * runs under the other's products: at K = 512 a tile has only 8 slices,
 * and an epilogue in line with them would idle the tensor cores for a
 * quarter of the time. Tiles in the 128-byte swizzle layout of the flash
 * kernels (flash_wgmma.cu), the descriptors of wgmma.cuh. */
#include "kernel_util.cuh"
#include "wgmma.cuh"

#define GM_WG 128             /* threads of a warpgroup */
#define GM_BM 128             /* rows of a block's tile */
#define GM_BN 128             /* columns of a block's tile */
#define GM_BK 64              /* the K slice of one stage */
#define GM_NS 3               /* stages */
#define GM_THREADS (2 * GM_WG + 32)
#define GM_TILE_A (GM_BM * GM_BK * 2) /* bytes */
#define GM_TILE_B (GM_BN * GM_BK * 2)
#define GM_STAGE (GM_TILE_A + GM_TILE_B)
#define GM_SMEM (GM_NS * GM_STAGE + 1024 + 2 * GM_NS * 8)

/* ---- device helpers (the flash kernels have their own copies: a shared
 * header would change their device code, which needs a device run to
 * check; see docs/cuda.md) ---------------------------------------------- */

__device__ __forceinline__ void gm_cp16(uint32_t saddr, const void *g)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(g));
}

__device__ __forceinline__ void gm_bar_init(uint32_t bar, int count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

/* Arrive on bar once this thread's earlier cp.async copies have landed. */
__device__ __forceinline__ void gm_arrive_on_copies(uint32_t bar)
{
	asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void gm_bar_wait(uint32_t bar, int parity)
{
	asm volatile("{\n.reg .pred p;\nGM_WAIT:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
		     "@!p bra GM_WAIT;\n}\n" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}

/* d (64 x 128) = (acc ? d : 0) + A B, A K-major in shared memory, B
 * K-major (BMN = 0) or MN-major (BMN = 1). */
template <int BMN>
__device__ __forceinline__ void gm_mma(float *d, uint64_t da, uint64_t db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, %67;\n}\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
		     : "l"(da), "l"(db), "r"(acc), "n"(BMN));
}

/* ---- the producer warp ------------------------------------------------- */

/* Stage layouts (tiles 1024-byte aligned):
 *   A, and B when K-major: 128 rows x 64 columns, row r's 16-byte chunk c
 *     at r * 128 + ((c ^ r % 8) << 4): one column block of 128 rows;
 *   B MN-major: 64 rows (K) x 128 columns (N), two column blocks of 64
 *     rows x 128 bytes, 8 KB apart, the same swizzle inside each. */
__device__ __forceinline__ void load_rows_kmajor(uint32_t s, const bf16 *g, long ld, int lane)
{
	int c = lane % 8, r = lane / 8; /* 4 rows an instruction, 8 chunks each */
	g += r * ld + c * 8;
#pragma unroll 4
	for (int it = 0; it < GM_BM / 4; it++) {
		int rr = r + 4 * it;
		gm_cp16(s + rr * 128 + ((c ^ (rr & 7)) << 4), g + it * 4 * ld);
	}
}

__device__ __forceinline__ void load_rows_mnmajor(uint32_t s, const bf16 *g, long ld, int lane)
{
	int c = lane % 16, r = lane / 16; /* 2 rows an instruction, 16 chunks each */
	g += r * ld + c * 8;
#pragma unroll 4
	for (int it = 0; it < GM_BK / 2; it++) {
		int rr = r + 2 * it;
		uint32_t off = (uint32_t)((c >> 3) * (64 * 128) + rr * 128 + (((c & 7) ^ (rr & 7)) << 4));
		gm_cp16(s + off, g + it * 2 * ld);
	}
}

template <int BMN>
__device__ void gemm_produce(uint32_t stages, uint32_t bars, const bf16 *A, const bf16 *B, int N, int K,
			     int m0, int n0, int lane)
{
	const int nk = K / GM_BK;
	for (int kb = 0; kb < nk; kb++) {
		int st = kb % GM_NS;
		uint32_t sa = stages + st * GM_STAGE, sb = sa + GM_TILE_A;
		gm_bar_wait(bars + (GM_NS + st) * 8, ((kb / GM_NS) & 1) ^ 1); /* a fresh barrier passes parity 1 */
		load_rows_kmajor(sa, A + (long)m0 * K + kb * GM_BK, K, lane);
		if (BMN)
			load_rows_mnmajor(sb, B + (long)kb * GM_BK * N + n0, N, lane);
		else
			load_rows_kmajor(sb, B + (long)n0 * K + kb * GM_BK, K, lane);
		gm_arrive_on_copies(bars + st * 8);
	}
	asm volatile("cp.async.wait_all;\n" ::: "memory");
}

/* ---- the consumers ------------------------------------------------------ */

/* K-major descriptor of k slice kk (16 columns: +32 bytes) of a tile of
 * 128-byte rows; MN-major one of rows 16kk.. (two 8-row groups, 2 KB a
 * slice; column blocks of 64 the leading offset, 8 KB, apart). */
__device__ __forceinline__ uint64_t gm_desc_k(uint32_t tile, int kk)
{
	return sw128_desc(tile + kk * 32, 16);
}

__device__ __forceinline__ uint64_t gm_desc_mn(uint32_t tile, int kk)
{
	return sw128_desc(tile + kk * 2048, 64 * 128);
}

template <int BMN>
__device__ __forceinline__ void gemm_consume(float *acc, uint32_t stages, uint32_t bars, int K, int cw, int lane)
{
	const int nk = K / GM_BK;
	for (int kb = 0; kb < nk; kb++) {
		int st = kb % GM_NS;
		uint32_t sa = stages + st * GM_STAGE + cw * (64 * 128), sb = stages + st * GM_STAGE + GM_TILE_A;
		gm_bar_wait(bars + st * 8, (kb / GM_NS) & 1);
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* cp.async wrote, wgmma reads */
		wg_fence();
#pragma unroll
		for (int kk = 0; kk < GM_BK / 16; kk++)
			gm_mma<BMN>(acc, gm_desc_k(sa, kk), BMN ? gm_desc_mn(sb, kk) : gm_desc_k(sb, kk), kb | kk);
		wg_commit();
		wg_wait<1>(); /* the previous slice's products are done: its stage is free */
		wg_hold<64>(acc);
		if (kb > 0) {
			__syncwarp();
			if (lane == 0)
				asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(
						     bars + (GM_NS + (kb - 1) % GM_NS) * 8)
					     : "memory");
		}
	}
	wg_wait<0>();
	wg_hold<64>(acc);
}

__device__ __forceinline__ __nv_bfloat162 gm_pack(float lo, float hi)
{
	return __floats2bfloat162_rn(lo, hi);
}

/* Each thread's accumulators: row 16 w + g + 8 h of its warpgroup's 64
 * (w the warp in the group, g = lane / 4), columns 8 j + 2 t, +1 (t =
 * lane % 4), j = 0..15, in acc[4 j + 2 h], acc[4 j + 2 h + 1]. */
template <int EPI>
__device__ __forceinline__ void gemm_epilogue(const float *acc, bf16 *out0, bf16 *out1, const bf16 *aux, int N,
					      int row0, int col0, int lane)
{
	int g = lane / 4, t = lane % 4;
#pragma unroll
	for (int h = 0; h < 2; h++) {
		long base = (long)(row0 + g + 8 * h) * N + col0 + 2 * t;
#pragma unroll
		for (int j = 0; j < 16; j++) {
			float v0 = acc[4 * j + 2 * h], v1 = acc[4 * j + 2 * h + 1];
			long o = base + 8 * j;
			if (EPI == GEMM_DRELU2) {
				float2 u = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162 *>(aux + o));
				v0 *= 2.f * fmaxf(u.x, 0.f);
				v1 *= 2.f * fmaxf(u.y, 0.f);
			}
			*reinterpret_cast<__nv_bfloat162 *>(out0 + o) = gm_pack(v0, v1);
			if (EPI == GEMM_RELU2) {
				float r0 = fmaxf(v0, 0.f), r1 = fmaxf(v1, 0.f);
				*reinterpret_cast<__nv_bfloat162 *>(out1 + o) = gm_pack(r0 * r0, r1 * r1);
			}
		}
	}
}

template <int BMN, int EPI>
__global__ void __launch_bounds__(GM_THREADS, 2)
	gemm_wgmma_kernel(bf16 *out0, bf16 *out1, const bf16 *aux, const bf16 *A, const bf16 *B, int N, int K)
{
	extern __shared__ unsigned char gm_smem[];
	uint32_t stages = ((uint32_t)__cvta_generic_to_shared(gm_smem) + 1023u) & ~1023u;
	uint32_t bars = stages + GM_NS * GM_STAGE; /* full[NS], then empty[NS] */
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int m0 = blockIdx.y * GM_BM, n0 = blockIdx.x * GM_BN;
	if (threadIdx.x == 0) {
		for (int i = 0; i < GM_NS; i++) {
			gm_bar_init(bars + i * 8, 32);              /* full: one arrival a producer lane */
			gm_bar_init(bars + (GM_NS + i) * 8, 8);     /* empty: one a consumer warp */
		}
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();
	if (warp == 8) {
		gemm_produce<BMN>(stages, bars, A, B, N, K, m0, n0, lane);
		return;
	}
	int cw = warp / 4; /* consumer warpgroup: rows 64 cw.. of the tile */
	float acc[64];
#pragma unroll
	for (int i = 0; i < 64; i++)
		acc[i] = 0.f;
	gemm_consume<BMN>(acc, stages, bars, K, cw, lane);
	gemm_epilogue<EPI>(acc, out0, out1, aux, N, m0 + 64 * cw + 16 * (warp % 4), n0, lane);
}

/* ---- launcher ------------------------------------------------------------ */

static int gemm_device_ok(void)
{
	static int ok = -1;
	if (ok < 0) {
		int dev = 0, major = 0, minor = 0;
		ok = cudaGetDevice(&dev) == cudaSuccess &&
		     cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
		     cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess &&
		     major == 9 && minor == 0;
	}
	return ok;
}

int gemm_wgmma_supported(int M, int N, int K)
{
	return gemm_device_ok() && M > 0 && N > 0 && K > 0 && M % GM_BM == 0 && N % GM_BN == 0 &&
	       K % GM_BK == 0 && M / GM_BM <= 65535;
}

template <int BMN, int EPI>
static int gemm_launch(bf16 *out0, bf16 *out1, const bf16 *aux, const bf16 *A, const bf16 *B, int M, int N,
		       int K, cudaStream_t s)
{
	static int configured;
	if (!configured) {
		CUDA_CHECK(cudaFuncSetAttribute(gemm_wgmma_kernel<BMN, EPI>,
						cudaFuncAttributeMaxDynamicSharedMemorySize, GM_SMEM));
		configured = 1;
	}
	dim3 grid(N / GM_BN, M / GM_BM);
	gemm_wgmma_kernel<BMN, EPI><<<grid, GM_THREADS, GM_SMEM, s>>>(out0, out1, aux, A, B, N, K);
	KERNEL_CHECK();
	return 0;
}

int gemm_wgmma(bf16 *out0, bf16 *out1, const bf16 *aux, const bf16 *A, const bf16 *B, int tb, int M, int N,
	       int K, int epilogue, cudaStream_t s)
{
	if (!gemm_wgmma_supported(M, N, K)) {
		fprintf(stderr,
			"trainer: gemm_wgmma: %d x %d x %d is not a shape it runs (needs compute capability "
			"9.0, M and N multiples of %d, K of %d)\n",
			M, N, K, GM_BM, GM_BK);
		return -1;
	}
	if ((epilogue == GEMM_RELU2 && !out1) || (epilogue == GEMM_DRELU2 && !aux)) {
		fprintf(stderr, "trainer: gemm_wgmma: epilogue %d needs its second tensor\n", epilogue);
		return -1;
	}
	trace_kernel(epilogue == GEMM_RELU2 ? "gemm_wgmma_relu2" : epilogue == GEMM_DRELU2 ? "gemm_wgmma_drelu2"
											 : "gemm_wgmma");
	/* tb = 1: B is (N, K), K-major (BMN = 0); tb = 0: (K, N), MN-major */
	switch (epilogue * 2 + !tb) {
	case GEMM_STORE * 2: return gemm_launch<0, GEMM_STORE>(out0, out1, aux, A, B, M, N, K, s);
	case GEMM_STORE * 2 + 1: return gemm_launch<1, GEMM_STORE>(out0, out1, aux, A, B, M, N, K, s);
	case GEMM_RELU2 * 2: return gemm_launch<0, GEMM_RELU2>(out0, out1, aux, A, B, M, N, K, s);
	case GEMM_RELU2 * 2 + 1: return gemm_launch<1, GEMM_RELU2>(out0, out1, aux, A, B, M, N, K, s);
	case GEMM_DRELU2 * 2: return gemm_launch<0, GEMM_DRELU2>(out0, out1, aux, A, B, M, N, K, s);
	case GEMM_DRELU2 * 2 + 1: return gemm_launch<1, GEMM_DRELU2>(out0, out1, aux, A, B, M, N, K, s);
	}
	fprintf(stderr, "trainer: gemm_wgmma: unknown epilogue %d\n", epilogue);
	return -1;
}
