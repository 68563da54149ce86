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
 * Persistent: one block an SM walks 128 x 256 tiles of out, row of tiles
 * by row (the blocks running at once share A's rows in L2; B, a weight,
 * stays there). Two consumer warpgroups of 64 rows each (m64n256k16
 * wgmma, both operands read from shared memory) and a producer warpgroup
 * that copies 64-column slices of A and B (the K dimension) by cp.async
 * into NS stages, signals each on an mbarrier and runs on into the next
 * tile while the consumers store this one; the consumers give a stage
 * back when their products have read it. Why these sizes: round 12's
 * first version (128 x 128 tiles, two blocks an SM) ran at 306 TFLOP/s,
 * bound by L2: 64 FLOP per byte copied needs 10 TB/s at cuBLASLt's rate,
 * 128 x 256 tiles need 7.8. Tiles in the 128-byte swizzle layout of the
 * flash kernels (flash_wgmma.cu), the descriptors of wgmma.cuh.
 *
 * The epilogue rounds the product to bf16 first and works on those
 * values, as cuBLASLt's bf16 output followed by relu2.cu does: where the
 * products agree bit for bit (at the model's shapes they did in round
 * 12's checks), so do the fused and unfused paths. Each quad of threads
 * transposes its 4 x 4 words (bf16 pairs) by shuffles so that a thread
 * stores 16 contiguous bytes: whole 32-byte sectors, where the
 * accumulator layout's 4-byte pairs left every sector half written per
 * instruction. The stores run while the tensor cores wait (~130 us a
 * launch at the model's shape); staging them for the bulk copy engine
 * instead cost a stage of the pipeline and was slower (round 12, version
 * 4). */
#include "kernel_util.cuh"
#include "wgmma.cuh"

#define GM_WG 128             /* threads of a warpgroup */
#define GM_BM 128             /* rows of a tile */
#define GM_BN 256             /* columns of a tile */
#define GM_BK 64              /* the K slice of one stage */
#define GM_NS 4               /* stages */
#define GM_THREADS (3 * GM_WG)
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

__device__ __forceinline__ void gm_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void gm_bar_wait(uint32_t bar, int parity)
{
	asm volatile("{\n.reg .pred p;\nGM_WAIT:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
		     "@!p bra GM_WAIT;\n}\n" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}

/* d (64 x 256) = (acc ? d : 0) + A B, A K-major in shared memory, B
 * K-major (BMN = 0) or MN-major (BMN = 1). */
template <int BMN>
__device__ __forceinline__ void gm_mma(float *d, uint64_t da, uint64_t db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, %131;\n}\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		       "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
		       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
		       "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
		       "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
		       "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
		       "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
		       "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
		       "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
		     : "l"(da), "l"(db), "r"(acc), "n"(BMN));
}

/* ---- the producer warpgroup ------------------------------------------- */

/* Stage layouts (tiles 1024-byte aligned):
 *   A (128 rows), and B when K-major (256 rows): rows of 64 columns, row
 *     r's 16-byte chunk c at r * 128 + ((c ^ r % 8) << 4), one column
 *     block;
 *   B MN-major: 64 rows (K) x 256 columns (N), four column blocks of 64
 *     rows x 128 bytes, 8 KB apart, the same swizzle inside each.
 * K-major: thread i copies chunk i % 8 of rows i / 8 + 16 q, all with the
 * same swizzle (16 q keeps r % 8). */
template <int ROWS>
__device__ __forceinline__ void load_rows_kmajor(uint32_t s, const bf16 *g, long ld, int i)
{
	int c = i % 8, r = i / 8;
	s += r * 128 + ((c ^ (r & 7)) << 4);
	g += r * ld + c * 8;
#pragma unroll
	for (int q = 0; q < ROWS / 16; q++)
		gm_cp16(s + q * 16 * 128, g + q * 16 * ld);
}

/* MN-major: thread i copies chunk i % 32 (column block i % 32 / 8) of
 * rows i / 32 + 4 q. */
__device__ __forceinline__ void load_rows_mnmajor(uint32_t s, const bf16 *g, long ld, int i)
{
	int c = i % 32, r = i / 32;
	s += (c >> 3) * (64 * 128);
	g += r * ld + c * 8;
#pragma unroll
	for (int q = 0; q < GM_BK / 4; q++) {
		int rr = r + 4 * q;
		gm_cp16(s + rr * 128 + (((c & 7) ^ (rr & 7)) << 4), g + q * 4 * ld);
	}
}

template <int BMN>
__device__ void gemm_produce(uint32_t stages, uint32_t bars, const bf16 *A, const bf16 *B, int N, int K,
			     int tiles, int i)
{
	const int nk = K / GM_BK, nt = N / GM_BN;
	int it = 0; /* k slices copied so far, over all of this block's tiles */
	for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
		int m0 = tile / nt * GM_BM, n0 = tile % nt * GM_BN;
		for (int kb = 0; kb < nk; kb++, it++) {
			int st = it % GM_NS;
			uint32_t sa = stages + st * GM_STAGE, sb = sa + GM_TILE_A;
			gm_bar_wait(bars + (GM_NS + st) * 8, ((it / GM_NS) & 1) ^ 1); /* fresh: parity 1 passes */
			load_rows_kmajor<GM_BM>(sa, A + (long)m0 * K + kb * GM_BK, K, i);
			if (BMN)
				load_rows_mnmajor(sb, B + (long)kb * GM_BK * N + n0, N, i);
			else
				load_rows_kmajor<GM_BN>(sb, B + (long)n0 * K + kb * GM_BK, K, i);
			gm_arrive_on_copies(bars + st * 8);
		}
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

/* One tile's products into acc; it counts k slices as the producer does. */
template <int BMN>
__device__ __forceinline__ void gemm_consume(float *acc, uint32_t stages, uint32_t bars, int K, int cw, int lane,
					     int &it)
{
	const int nk = K / GM_BK;
	for (int kb = 0; kb < nk; kb++, it++) {
		int st = it % GM_NS;
		uint32_t sa = stages + st * GM_STAGE + cw * (64 * 128), sb = stages + st * GM_STAGE + GM_TILE_A;
		gm_bar_wait(bars + st * 8, (it / GM_NS) & 1);
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* cp.async wrote, wgmma reads */
		wg_fence();
#pragma unroll
		for (int kk = 0; kk < GM_BK / 16; kk++)
			gm_mma<BMN>(acc, gm_desc_k(sa, kk), BMN ? gm_desc_mn(sb, kk) : gm_desc_k(sb, kk), kb | kk);
		wg_commit();
		wg_wait<1>(); /* the previous slice's products are done: give its stage back */
		wg_hold<128>(acc);
		if (kb > 0) {
			__syncwarp();
			if (lane == 0)
				gm_arrive(bars + (GM_NS + (it - 1) % GM_NS) * 8);
		}
	}
	wg_wait<0>();
	wg_hold<128>(acc);
	__syncwarp();
	if (lane == 0) /* the tile's last stage: the producer is already on the next tile */
		gm_arrive(bars + (GM_NS + (it - 1) % GM_NS) * 8);
}

__device__ __forceinline__ uint32_t gm_pack(float lo, float hi)
{
	__nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
	return *reinterpret_cast<uint32_t *>(&v);
}

__device__ __forceinline__ float2 gm_unpack(uint32_t w)
{
	return __bfloat1622float2(*reinterpret_cast<__nv_bfloat162 *>(&w));
}

/* Quad transpose: thread t of the quad holds words w[i] = M[t][i]; after,
 * w[s] = M[s][t]. Two butterfly stages: swap the off-diagonal 2 x 2
 * blocks across lanes t, t ^ 2, then the off-diagonal words inside each
 * block across t, t ^ 1. */
__device__ __forceinline__ void quad_transpose(uint32_t w[4], int t)
{
	int hi = t & 2, odd = t & 1;
	uint32_t s0 = hi ? w[0] : w[2], s1 = hi ? w[1] : w[3];
	uint32_t r0 = __shfl_xor_sync(0xffffffffu, s0, 2), r1 = __shfl_xor_sync(0xffffffffu, s1, 2);
	if (hi) {
		w[0] = r0;
		w[1] = r1;
	} else {
		w[2] = r0;
		w[3] = r1;
	}
	s0 = odd ? w[0] : w[1];
	s1 = odd ? w[2] : w[3];
	r0 = __shfl_xor_sync(0xffffffffu, s0, 1);
	r1 = __shfl_xor_sync(0xffffffffu, s1, 1);
	if (odd) {
		w[0] = r0;
		w[2] = r1;
	} else {
		w[1] = r0;
		w[3] = r1;
	}
}

/* Each thread's accumulators: row 16 w + g + 8 h of its warpgroup's 64
 * (w the warp in the group, g = lane / 4), columns 8 j + 2 t, +1 (t =
 * lane % 4), j = 0..31, in acc[4 j + 2 h], acc[4 j + 2 h + 1]. Slices
 * 4q..4q+3 as bf16 pairs, quad-transposed: thread t then holds the 8
 * columns of slice 4q + t. */
#define GM_GROUPS (2 * GM_BN / 32) /* (h, q) pairs: 16-byte stores a thread a tile, per output */

/* The epilogue's H (impl.relu2's drelu2): a thread's 16 groups of 16
 * bytes, loaded before the tile's products so that their latency runs
 * under them (loaded in the epilogue, one group at a time, they made the
 * kernel 2.3x slower than the plain product in round 12's second call). */
__device__ __forceinline__ void gemm_load_aux(uint4 *pre, const bf16 *aux, int N, int row0, int col0, int lane)
{
	int g = lane / 4, t = lane % 4;
#pragma unroll
	for (int h = 0; h < 2; h++)
#pragma unroll
		for (int q = 0; q < GM_BN / 32; q++)
			pre[h * (GM_BN / 32) + q] =
				*reinterpret_cast<const uint4 *>(aux + (long)(row0 + g + 8 * h) * N + col0 + 8 * t + 32 * q);
}

template <int EPI>
__device__ __forceinline__ void gemm_epilogue(const float *acc, const uint4 *pre, bf16 *out0, bf16 *out1, int N,
					      int row0, int col0, int lane)
{
	int g = lane / 4, t = lane % 4;
#pragma unroll
	for (int h = 0; h < 2; h++) {
		long base = (long)(row0 + g + 8 * h) * N + col0 + 8 * t;
#pragma unroll
		for (int q = 0; q < GM_BN / 32; q++) {
			uint32_t w[4];
#pragma unroll
			for (int i = 0; i < 4; i++)
				w[i] = gm_pack(acc[4 * (4 * q + i) + 2 * h], acc[4 * (4 * q + i) + 2 * h + 1]);
			quad_transpose(w, t);
			long o = base + 32 * q;
			if (EPI == GEMM_DRELU2) { /* dA * 2 relu(H), from dA rounded as cuBLASLt's output is */
				uint4 u = pre[h * (GM_BN / 32) + q];
				uint32_t uh[4] = { u.x, u.y, u.z, u.w };
#pragma unroll
				for (int i = 0; i < 4; i++) {
					float2 a = gm_unpack(w[i]), hh = gm_unpack(uh[i]);
					w[i] = gm_pack(2.f * fmaxf(hh.x, 0.f) * a.x, 2.f * fmaxf(hh.y, 0.f) * a.y);
				}
			}
			*reinterpret_cast<uint4 *>(out0 + o) = make_uint4(w[0], w[1], w[2], w[3]);
			if (EPI == GEMM_RELU2) { /* relu(H)^2 from H in bf16, as relu2.cu reads it */
#pragma unroll
				for (int i = 0; i < 4; i++) {
					float2 a = gm_unpack(w[i]);
					float r0 = fmaxf(a.x, 0.f), r1 = fmaxf(a.y, 0.f);
					w[i] = gm_pack(r0 * r0, r1 * r1);
				}
				*reinterpret_cast<uint4 *>(out1 + o) = make_uint4(w[0], w[1], w[2], w[3]);
			}
		}
	}
}

template <int BMN, int EPI>
__global__ void __launch_bounds__(GM_THREADS, 1)
	gemm_wgmma_kernel(bf16 *out0, bf16 *out1, const bf16 *aux, const bf16 *A, const bf16 *B, int N, int K,
			  int tiles)
{
	extern __shared__ unsigned char gm_smem[];
	uint32_t stages = ((uint32_t)__cvta_generic_to_shared(gm_smem) + 1023u) & ~1023u;
	uint32_t bars = stages + GM_NS * GM_STAGE; /* full[NS], then empty[NS] */
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	if (threadIdx.x == 0) {
		for (int i = 0; i < GM_NS; i++) {
			gm_bar_init(bars + i * 8, GM_WG);       /* full: one arrival a producer thread */
			gm_bar_init(bars + (GM_NS + i) * 8, 8); /* empty: one a consumer warp */
		}
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();
	if (warp >= 8) { /* the producer gives its registers to the consumers */
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
		gemm_produce<BMN>(stages, bars, A, B, N, K, tiles, threadIdx.x - 2 * GM_WG);
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
	int cw = warp / 4, nt = N / GM_BN, it = 0; /* consumer warpgroup cw: rows 64 cw.. of a tile */
	float acc[128];
	uint4 pre[EPI == GEMM_DRELU2 ? GM_GROUPS : 1];
	for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
		int row0 = tile / nt * GM_BM + 64 * cw + 16 * (warp % 4), col0 = tile % nt * GM_BN;
		if (EPI == GEMM_DRELU2)
			gemm_load_aux(pre, aux, N, row0, col0, lane);
		gemm_consume<BMN>(acc, stages, bars, K, cw, lane, it);
		gemm_epilogue<EPI>(acc, pre, out0, out1, N, row0, col0, lane);
	}
}

/* ---- launcher ------------------------------------------------------------ */

/* The SM count of a compute capability 9.0 device; 0 on any other. */
static int gemm_device_sms(void)
{
	static int sms = -1;
	if (sms < 0) {
		int dev = 0, major = 0, minor = 0, n = 0;
		sms = cudaGetDevice(&dev) == cudaSuccess &&
				      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
				      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess &&
				      cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
				      major == 9 && minor == 0
			      ? n
			      : 0;
		cudaGetLastError(); /* no device is an answer, not an error to carry */
	}
	return sms;
}

int gemm_wgmma_supported(int M, int N, int K)
{
	return gemm_device_sms() > 0 && M > 0 && N > 0 && K > 0 && M % GM_BM == 0 && N % GM_BN == 0 &&
	       K % GM_BK == 0 && (long)(M / GM_BM) * (N / GM_BN) <= 0x7fffffff;
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
	int tiles = M / GM_BM * (N / GM_BN), grid = tiles < gemm_device_sms() ? tiles : gemm_device_sms();
	gemm_wgmma_kernel<BMN, EPI><<<grid, GM_THREADS, GM_SMEM, s>>>(out0, out1, aux, A, B, N, K, tiles);
	KERNEL_CHECK();
	return 0;
}

int gemm_wgmma(bf16 *out0, bf16 *out1, const bf16 *aux, const bf16 *A, const bf16 *B, int tb, int M, int N,
	       int K, int epilogue, cudaStream_t s)
{
	if (!gemm_wgmma_supported(M, N, K)) {
		fprintf(stderr,
			"trainer: gemm_wgmma: %d x %d x %d is not a shape it runs (needs compute capability "
			"9.0, M a multiple of %d, N of %d, K of %d)\n",
			M, N, K, GM_BM, GM_BN, GM_BK);
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
