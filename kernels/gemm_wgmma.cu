/* gemm_wgmma.cu — our own Hopper GEMM (wgmma, sm_90a; compiled for
 * compute_90a only, kernels/cuda.mk), for the products whose outputs
 * have elementwise work that cuBLASLt has no epilogue for:
 *   the fc forward        H = x Wfc^T,  with relu^2(H) written beside H;
 *   the projection's dX   dH = (dY Wproj) * 2 relu(H);
 *   the QKV projection    qkv = x Wqkv^T, q and k QK-normalised and
 *                         rotated in place (rotary.cu's forward).
 * Each removes one pass over the activations (relu2.cu: 4.9 ms of a
 * depth-8 step on the H200; rotary.cu's forward: 1.8 ms;
 * docs/performance.md, rounds 12 and 13).
 *
 * out (M x N) = A (M x K, row-major: K-major) times B^T, where B is
 * (N x K) row-major (K-major: y = x W^T, tb = 1) or (K x N) row-major
 * (MN-major: y = x W, tb = 0), bf16 operands, fp32 accumulators.
 *
 * Persistent: one block an SM walks 128 x 256 tiles of out, row of tiles
 * by row (the blocks running at once share A's rows in L2; B, a weight,
 * stays there). Two consumer warpgroups of 64 rows each (m64n256k16
 * wgmma, both operands read from shared memory) and one producer thread
 * that loads 64-column slices of A and B (the K dimension) by tensor
 * copies (TMA) into NS stages, each on an mbarrier that counts the bytes,
 * and runs on into the next tile; the consumers give a stage back when
 * their products have read it. Why these sizes: round 12's first version
 * (128 x 128 tiles, two blocks an SM) ran at 306 TFLOP/s, bound by L2: 64
 * FLOP per byte copied needs 10 TB/s at cuBLASLt's rate, 128 x 256 tiles
 * need 7.8. Tensor copies in place of a warpgroup's cp.async (24 a
 * thread a stage) took the plain product from 453 to 403 us at the fc
 * shape, past cuBLASLt's 416 (round 13). Tiles in the 128-byte swizzle
 * layout of the flash kernels (flash_wgmma.cu), the descriptors of
 * wgmma.cuh.
 *
 * The epilogue rounds the product to bf16 first and works on those
 * values, as cuBLASLt's bf16 output followed by relu2.cu or rotary.cu
 * does: where the products agree bit for bit (at the model's shapes they
 * did in every check), so do the fused and unfused paths (rotary: up to
 * the rms's summation order). Each quad of threads transposes its 4 x 4
 * words (bf16 pairs) by shuffles so that a thread stores 16 contiguous
 * bytes: whole 32-byte sectors. A tile's stores are deferred under the
 * next tile's products (gemm_wgmma_kernel); staging them in shared memory
 * for the bulk copy engine cost a stage of the pipeline and was slower
 * (round 12, version 4). */
#include "kernel_util.cuh"
#include "mbarrier.cuh"
#include "tma.cuh"
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

/* ---- the producer --------------------------------------------------------- */

/* Stage layouts (tiles 1024-byte aligned), the 128-byte swizzle that the
 * tensor copies write (CU_TENSOR_MAP_SWIZZLE_128B) and wgmma's
 * descriptors read:
 *   A (128 rows), and B when K-major (256 rows): rows of 64 columns, row
 *     r's 16-byte chunk c at r * 128 + ((c ^ r % 8) << 4), one box;
 *   B MN-major: 64 rows (K) x 256 columns (N), four boxes of 64 rows x 64
 *     columns (128 bytes), 8 KB apart, the same swizzle inside each.
 * One thread issues a stage's 2 (5) tensor copies on its full barrier
 * with the bytes they bring; copies by cp.async instead took 24
 * instructions a thread of a whole warpgroup each stage (round 12). */
template <int BMN>
__device__ void gemm_produce(uint32_t stages, uint32_t bars, const CUtensorMap *mapA, const CUtensorMap *mapB,
			     int N, int K, int tiles)
{
	const int nk = K / GM_BK, nt = N / GM_BN;
	int it = 0; /* k slices loaded so far, over all of this block's tiles */
	for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
		int m0 = tile / nt * GM_BM, n0 = tile % nt * GM_BN;
		for (int kb = 0; kb < nk; kb++, it++) {
			int st = it % GM_NS;
			uint32_t sa = stages + st * GM_STAGE, sb = sa + GM_TILE_A, full = bars + st * 8;
			mbar_wait(bars + (GM_NS + st) * 8, ((it / GM_NS) & 1) ^ 1); /* fresh: parity 1 passes */
			mbar_arrive_expect_tx(full, GM_STAGE);
			tma_load_2d(sa, mapA, kb * GM_BK, m0, full);
			if (BMN)
#pragma unroll
				for (int c = 0; c < GM_BN / 64; c++)
					tma_load_2d(sb + c * (64 * 128), mapB, n0 + 64 * c, kb * GM_BK, full);
			else
				tma_load_2d(sb, mapB, kb * GM_BK, n0, full);
		}
	}
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

/* A thread's share of an output tile, as bf16 (GM_GROUPS 16-byte groups
 * a tensor), and the epilogue's H for drelu2: group j = 8 h + q is row
 * 16 w + g + 8 h of the warpgroup's 64 (w the warp in the group, g =
 * lane / 4), columns 32 q + 8 t.. (t = lane % 4) of the tile. */
#define GM_GROUPS (2 * GM_BN / 32)
/* The k slices over which the previous tile's groups are stored, two a
 * slice: a tile of K = 512 (the model's fc forward and projection dX at
 * depth 8) has exactly these; more slices run with nothing beside them,
 * fewer leave the rest to be stored after the products. */
#define GM_SPREAD (GM_GROUPS / 2)

/* Group k (0, 1) stored in slice s: the pair (h, q), (h, q + 2) with q in
 * 0, 1, 4, 5, that is columns c and c + 64 of one head row, the pairs
 * rotary rotates together (GEMM_ROTARY rotates them as it stores). */
__device__ __forceinline__ constexpr int gemm_slice_group(int s, int k)
{
	return 8 * (s / 4) + (s % 4) / 2 * 4 + s % 2 + 2 * k;
}

/* k slice kb of a tile: wait for its stage, issue its four products. */
template <int BMN>
__device__ __forceinline__ void gemm_issue(float *acc, uint32_t stages, uint32_t bars, int cw, int kb, int it)
{
	int st = it % GM_NS;
	uint32_t sa = stages + st * GM_STAGE + cw * (64 * 128), sb = stages + st * GM_STAGE + GM_TILE_A;
	stage_acquire(bars + st * 8, (it / GM_NS) & 1);
	wg_fence();
#pragma unroll
	for (int kk = 0; kk < GM_BK / 16; kk++)
		wg_ss_n256<BMN>(acc, gm_desc_k(sa, kk), BMN ? gm_desc_mn(sb, kk) : gm_desc_k(sb, kk), kb | kk);
	wg_commit();
}

/* The previous slice's products are done: give its stage back (the
 * producer refills it while this slice's run). */
__device__ __forceinline__ void gemm_retire(float *acc, uint32_t bars, int kb, int it, int lane)
{
	wg_wait<1>();
	wg_hold<128>(acc);
	if (kb > 0)
		stage_release(bars + (GM_NS + (it - 1) % GM_NS) * 8, lane);
}

/* The tile's last products are done; its last stage goes back (the
 * producer is already on the next tile). */
__device__ __forceinline__ void gemm_finish(float *acc, uint32_t bars, int it, int lane)
{
	wg_wait<0>();
	wg_hold<128>(acc);
	stage_release(bars + (GM_NS + (it - 1) % GM_NS) * 8, lane);
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

/* Element offset of a thread's first group (row row0 + g, columns col0 +
 * 8t..), and of group j from it. */
__device__ __forceinline__ long gemm_thread_offset(int N, int row0, int col0, int lane)
{
	return (long)(row0 + lane / 4) * N + col0 + 8 * (lane % 4);
}

__device__ __forceinline__ long gemm_group_offset(int j, int N)
{
	return (long)(j / (GM_BN / 32)) * 8 * N + 32 * (j % (GM_BN / 32));
}

/* The accumulators as bf16, quad-transposed into groups: accumulator
 * pairs acc[4 c + 2 h], +1 are row g + 8 h, columns 8 c + 2 t, +1; slices
 * c = 4q..4q+3 transposed give the thread the 8 columns of slice 4q + t.
 * Rounding here is rounding cuBLASLt's bf16 output: what the epilogues
 * (applied as the groups are stored) work on. */
__device__ __forceinline__ void gemm_pack(const float *acc, uint4 *pk, int lane)
{
#pragma unroll
	for (int j = 0; j < GM_GROUPS; j++) {
		int h = j / (GM_BN / 32), q = j % (GM_BN / 32);
		uint32_t w[4];
#pragma unroll
		for (int i = 0; i < 4; i++)
			w[i] = pack_bf16(acc[4 * (4 * q + i) + 2 * h], acc[4 * (4 * q + i) + 2 * h + 1]);
		quad_transpose(w, lane % 4);
		pk[j] = make_uint4(w[0], w[1], w[2], w[3]);
	}
}

/* drelu2 on a group: dA (bf16, as cuBLASLt writes it) times 2 relu(H). */
__device__ __forceinline__ uint4 gemm_drelu2(uint4 g, uint4 h)
{
	uint32_t w[4] = { g.x, g.y, g.z, g.w }, uh[4] = { h.x, h.y, h.z, h.w };
#pragma unroll
	for (int i = 0; i < 4; i++) {
		float2 a = unpack_bf16(w[i]), hh = unpack_bf16(uh[i]);
		w[i] = pack_bf16(2.f * fmaxf(hh.x, 0.f) * a.x, 2.f * fmaxf(hh.y, 0.f) * a.y);
	}
	return make_uint4(w[0], w[1], w[2], w[3]);
}

/* ---- the QKV projection's epilogue (GEMM_ROTARY) ------------------------ */

#define GM_HEAD 128 /* head size: a tile's 256 columns are two heads, groups 4 hh.. of head hh */

__device__ __forceinline__ float round_bf16(float x)
{
	return __bfloat162float(__float2bfloat16(x));
}

/* At a q or k tile's end (part 0 or 1, heads head0 and head0 + 1): each
 * head row's rstd over the quad's 128 columns of the products rounded to
 * bf16 (cuBLASLt's output, which rotary.cu reads), into rs[2 h + hh] and,
 * by the quad's first thread, into rstd_q or rstd_k; 1 without QK-norm.
 * The rotation itself waits for the stores (gemm_rotate_pair), under the
 * next tile's products: at the tile's end it left the tensor cores idle
 * (~140 us a launch, round 13). */
__device__ __forceinline__ void gemm_rot_stats(float rs[4], const float *acc, const gemm_rotary &r, int part,
					       int head0, int row0, int lane)
{
#pragma unroll
	for (int h = 0; h < 2; h++)
#pragma unroll
		for (int hh = 0; hh < 2; hh++) {
			const float *a = acc + 4 * 16 * hh + 2 * h; /* a[4 j + e]: column 8 j + 2 t + e of the head */
			rs[2 * h + hh] = 1.f;
			if (r.qk_norm) {
				float ss = 0.f;
#pragma unroll
				for (int j = 0; j < 16; j++) {
					float x0 = round_bf16(a[4 * j]), x1 = round_bf16(a[4 * j + 1]);
					ss += x0 * x0 + x1 * x1;
				}
				ss += __shfl_xor_sync(0xffffffffu, ss, 1);
				ss += __shfl_xor_sync(0xffffffffu, ss, 2);
				rs[2 * h + hh] = rsqrtf(ss / GM_HEAD + r.eps);
				if (lane % 4 == 0) {
					int n = row0 + lane / 4 + 8 * h;
					long orow = ((long)(n / r.T) * r.H + head0 + hh) * r.T + n % r.T;
					(part ? r.rstd_k : r.rstd_q)[orow] = rs[2 * h + hh];
				}
			}
		}
}

/* The cosines and sines of slice s's pair of groups (gemm_rotate_pair)
 * for the tile whose first row is row0: cs[0..1] the cosines of angles
 * c..c+7, cs[2..3] the sines. Loaded GM_CS_AHEAD slices before the
 * rotation (at the rotation itself they cost 546 against 432 us a launch,
 * the warps waiting on L2; docs/performance.md, round 14). */
#ifndef GM_CS_AHEAD
#define GM_CS_AHEAD 1
#endif
__device__ __forceinline__ void gemm_load_cs(float4 cs[4], int s, const gemm_rotary &r, int row0, int lane)
{
	const int j = gemm_slice_group(s, 0);
	int pos = (row0 + lane / 4 + 8 * (j / 8)) % r.T;
	const float *c = r.cos_sin + (long)pos * (GM_HEAD / 2) + 32 * (j % 4) + 8 * (lane % 4);
	const float *sn = c + (long)r.T * (GM_HEAD / 2);
	cs[0] = *reinterpret_cast<const float4 *>(c);
	cs[1] = *reinterpret_cast<const float4 *>(c + 4);
	cs[2] = *reinterpret_cast<const float4 *>(sn);
	cs[3] = *reinterpret_cast<const float4 *>(sn + 4);
}

/* rotary_forward_packed on the pair of groups j (columns c..c+7 of a head
 * row, c = 32 (j % 4) + 8 t < 64) and j + 2 (c + 64..): normalised by rs,
 * pair (i, i + 64) rotated by angle i (cosines and sines cs). */
__device__ __forceinline__ void gemm_rotate_pair(uint4 *ga, uint4 *gb, float rs, const float4 cs[4])
{
	uint32_t wa[4] = { ga->x, ga->y, ga->z, ga->w }, wb[4] = { gb->x, gb->y, gb->z, gb->w };
#pragma unroll
	for (int i = 0; i < 4; i++) {
		const float4 &cc = cs[i / 2], &ss = cs[2 + i / 2];
		float c0 = i % 2 ? cc.z : cc.x, c1 = i % 2 ? cc.w : cc.y, s0 = i % 2 ? ss.z : ss.x, s1 = i % 2 ? ss.w : ss.y;
		float2 a = unpack_bf16(wa[i]), b = unpack_bf16(wb[i]);
		float x1 = a.x * rs, x2 = b.x * rs, y1 = a.y * rs, y2 = b.y * rs;
		wa[i] = pack_bf16(x1 * c0 - x2 * s0, y1 * c1 - y2 * s1);
		wb[i] = pack_bf16(x1 * s0 + x2 * c0, y1 * s1 + y2 * c1);
	}
	*ga = make_uint4(wa[0], wa[1], wa[2], wa[3]);
	*gb = make_uint4(wb[0], wb[1], wb[2], wb[3]);
}

/* Store group g as group j (and for relu2 its relu(H)^2, from H in bf16
 * as relu2.cu reads it). */
template <int EPI>
__device__ __forceinline__ void gemm_store_group(uint4 g, int j, bf16 *out0, bf16 *out1, int N, long base)
{
	long o = base + gemm_group_offset(j, N);
	*reinterpret_cast<uint4 *>(out0 + o) = g;
	if (EPI == GEMM_RELU2) {
		uint32_t w[4] = { g.x, g.y, g.z, g.w };
#pragma unroll
		for (int i = 0; i < 4; i++) {
			float2 a = unpack_bf16(w[i]);
			float r0 = fmaxf(a.x, 0.f), r1 = fmaxf(a.y, 0.f);
			w[i] = pack_bf16(r0 * r0, r1 * r1);
		}
		*reinterpret_cast<uint4 *>(out1 + o) = make_uint4(w[0], w[1], w[2], w[3]);
	}
}

/* The tile whose results a consumer thread holds until they are stored. */
struct gemm_held {
	long base;   /* its gemm_thread_offset; -1: none yet */
	int row0;    /* its first row (rotary: the positions) */
	int rotate;  /* rotary: a q or k tile */
	float rs[4]; /* rotary: the head rows' rstd (gemm_rot_stats) */
};

/* Slice s's two groups of the held tile, with their epilogue. */
template <int EPI>
__device__ __forceinline__ void gemm_store_slice(const uint4 *pk, const uint4 *pre, const float4 (*cs)[4], int s,
						 const gemm_held &hd, bf16 *out0, bf16 *out1, int N)
{
	const int j0 = gemm_slice_group(s, 0), j1 = gemm_slice_group(s, 1);
	uint4 a = pk[j0], b = pk[j1];
	if (EPI == GEMM_DRELU2) {
		a = gemm_drelu2(a, pre[j0]);
		b = gemm_drelu2(b, pre[j1]);
	}
	if (EPI == GEMM_ROTARY && hd.rotate)
		gemm_rotate_pair(&a, &b, hd.rs[2 * (j0 / 8) + j0 % 8 / 4], cs[s]);
	gemm_store_group<EPI>(a, j0, out0, out1, N, hd.base);
	gemm_store_group<EPI>(b, j1, out0, out1, N, hd.base);
}

/* drelu2's H for slice s's groups of the tile at base, loaded GM_H_AHEAD
 * slices before they are stored. */
#ifndef GM_H_AHEAD
#define GM_H_AHEAD 2
#endif
__device__ __forceinline__ void gemm_load_h(uint4 *pre, int s, const bf16 *aux, int N, long base)
{
#pragma unroll
	for (int k = 0; k < 2; k++) {
		int j = gemm_slice_group(s, k);
		pre[j] = *reinterpret_cast<const uint4 *>(aux + base + gemm_group_offset(j, N));
	}
}

/* Persistent tiles with the epilogue deferred: a tile's results wait as
 * bf16 (pk, 64 registers) and are stored two groups a k slice while the
 * next tile's products run, so the stores, and the epilogues' work on
 * them, and the tensor cores overlap (round 12's version 3 stored between
 * tiles, the tensor cores idle for ~130 us a launch). drelu2's H for a
 * slice's groups is loaded two slices ahead (those of slices 0 and 1 in
 * the held tile's last two), so each load has two slices' products to
 * arrive under and only six groups are in registers at once. */
template <int BMN, int EPI>
__global__ void __launch_bounds__(GM_THREADS, 1)
	gemm_wgmma_kernel(bf16 *out0, bf16 *out1, const bf16 *aux, const __grid_constant__ CUtensorMap mapA,
			  const __grid_constant__ CUtensorMap mapB, int N, int K, int tiles, gemm_rotary rot)
{
	extern __shared__ unsigned char gm_smem[];
	uint32_t stages = ((uint32_t)__cvta_generic_to_shared(gm_smem) + 1023u) & ~1023u;
	uint32_t bars = stages + GM_NS * GM_STAGE; /* full[NS], then empty[NS] */
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	if (threadIdx.x == 0) {
		for (int i = 0; i < GM_NS; i++) {
			mbar_init(bars + i * 8, 1);           /* full: the producer's, with the bytes */
			mbar_init(bars + (GM_NS + i) * 8, 8); /* empty: one a consumer warp */
		}
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();
	if (warp >= 8) { /* the producer warpgroup gives its registers to the consumers; one thread loads */
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
		if (threadIdx.x == 2 * GM_WG)
			gemm_produce<BMN>(stages, bars, &mapA, &mapB, N, K, tiles);
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
	int cw = warp / 4, nt = N / GM_BN, nk = K / GM_BK, it = 0; /* consumer warpgroup cw: rows 64 cw.. */
	gemm_held hd = { -1, 0, 0, { 1.f, 1.f, 1.f, 1.f } };
	float acc[128];
	uint4 pk[GM_GROUPS], pre[EPI == GEMM_DRELU2 ? GM_GROUPS : 1];
	float4 cs[EPI == GEMM_ROTARY ? GM_SPREAD : 1][4];
	for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
		int row0 = tile / nt * GM_BM + 64 * cw + 16 * (warp % 4), col0 = tile % nt * GM_BN;
		long base = gemm_thread_offset(N, row0, col0, lane);
#pragma unroll
		for (int s = 0; s < GM_SPREAD; s++) {
			if (s < nk)
				gemm_issue<BMN>(acc, stages, bars, cw, s, it);
			if (hd.base >= 0)
				gemm_store_slice<EPI>(pk, pre, cs, s, hd, out0, out1, N);
			if (EPI == GEMM_DRELU2) {
				/* unconditional (the first tile reads its own H, unused): loaded
				 * under a condition, pre would be live across the loop and spill */
				if (s + GM_H_AHEAD < GM_SPREAD)
					gemm_load_h(pre, s + GM_H_AHEAD, aux, N, hd.base >= 0 ? hd.base : base);
				else /* this tile's first slices, stored in the next's */
					gemm_load_h(pre, s + GM_H_AHEAD - GM_SPREAD, aux, N, base);
			}
			if (EPI == GEMM_ROTARY) { /* unconditional, as pre */
				if (s + GM_CS_AHEAD < GM_SPREAD)
					gemm_load_cs(cs[s + GM_CS_AHEAD], s + GM_CS_AHEAD, rot, hd.base >= 0 ? hd.row0 : row0,
						     lane);
				else
					gemm_load_cs(cs[s + GM_CS_AHEAD - GM_SPREAD], s + GM_CS_AHEAD - GM_SPREAD, rot, row0,
						     lane);
			}
			if (s < nk)
				gemm_retire(acc, bars, s, it++, lane);
		}
		for (int kb = GM_SPREAD; kb < nk; kb++) {
			gemm_issue<BMN>(acc, stages, bars, cw, kb, it);
			gemm_retire(acc, bars, kb, it++, lane);
		}
		gemm_finish(acc, bars, it, lane);
		/* rotary: q (part 0) and k (1) tiles; v's (2) are stored as they are */
		int part = EPI == GEMM_ROTARY ? col0 / (N / 3) : 2;
		hd.base = base;
		hd.row0 = row0;
		hd.rotate = part < 2;
		if (EPI == GEMM_ROTARY && hd.rotate)
			gemm_rot_stats(hd.rs, acc, rot, part, col0 % (N / 3) / GM_HEAD, row0, lane);
		gemm_pack(acc, pk, lane);
	}
	if (hd.base >= 0)
#pragma unroll
		for (int s = 0; s < GM_SPREAD; s++) {
			if (EPI == GEMM_DRELU2 && s + GM_H_AHEAD < GM_SPREAD)
				gemm_load_h(pre, s + GM_H_AHEAD, aux, N, hd.base);
			if (EPI == GEMM_ROTARY && s + GM_CS_AHEAD < GM_SPREAD)
				gemm_load_cs(cs[s + GM_CS_AHEAD], s + GM_CS_AHEAD, rot, hd.row0, lane);
			gemm_store_slice<EPI>(pk, pre, cs, s, hd, out0, out1, N);
		}
}

/* ---- launcher ------------------------------------------------------------ */

int gemm_wgmma_supported(int M, int N, int K)
{
	return hopper_sm_count() > 0 && M > 0 && N > 0 && K > 0 && M % GM_BM == 0 && N % GM_BN == 0 &&
	       K % GM_BK == 0 && (long)(M / GM_BM) * (N / GM_BN) <= 0x7fffffff;
}

static int tensor_map(CUtensorMap *map, const bf16 *p, int rows, int cols, int box_rows)
{
	return tma_map_2d(map, p, rows, cols, cols, box_rows, "gemm_wgmma");
}

template <int BMN, int EPI>
static int gemm_launch(bf16 *out0, bf16 *out1, const bf16 *aux, const bf16 *A, const bf16 *B, int M, int N,
		       int K, const gemm_rotary &rot, cudaStream_t s)
{
	static int configured;
	if (!configured) {
		CUDA_CHECK(cudaFuncSetAttribute(gemm_wgmma_kernel<BMN, EPI>,
						cudaFuncAttributeMaxDynamicSharedMemorySize, GM_SMEM));
		configured = 1;
	}
	CUtensorMap mapA, mapB; /* B: (N, K) in 256-row boxes, or (K, N) in 64 x 64 ones */
	if (tensor_map(&mapA, A, M, K, GM_BM) || (BMN ? tensor_map(&mapB, B, K, N, GM_BK)
						      : tensor_map(&mapB, B, N, K, GM_BN)))
		return -1;
	int tiles = M / GM_BM * (N / GM_BN), grid = tiles < hopper_sm_count() ? tiles : hopper_sm_count();
	gemm_wgmma_kernel<BMN, EPI><<<grid, GM_THREADS, GM_SMEM, s>>>(out0, out1, aux, mapA, mapB, N, K, tiles, rot);
	KERNEL_CHECK();
	return 0;
}

static int gemm_args_ok(const bf16 *A, const bf16 *B, int M, int N, int K)
{
	if (!gemm_wgmma_supported(M, N, K)) {
		fprintf(stderr,
			"trainer: gemm_wgmma: %d x %d x %d is not a shape it runs (needs compute capability "
			"9.0, M a multiple of %d, N of %d, K of %d)\n",
			M, N, K, GM_BM, GM_BN, GM_BK);
		return 0;
	}
	if (((uintptr_t)A | (uintptr_t)B) % 16) { /* what a tensor map takes */
		fprintf(stderr, "trainer: gemm_wgmma: operands at %p, %p: not 16-byte aligned\n", (const void *)A,
			(const void *)B);
		return 0;
	}
	return 1;
}

int gemm_wgmma(bf16 *out0, bf16 *out1, const bf16 *aux, const bf16 *A, const bf16 *B, int tb, int M, int N,
	       int K, int epilogue, cudaStream_t s)
{
	const gemm_rotary none = {};
	if (!gemm_args_ok(A, B, M, N, K))
		return -1;
	if ((epilogue == GEMM_RELU2 && !out1) || (epilogue == GEMM_DRELU2 && !aux)) {
		fprintf(stderr, "trainer: gemm_wgmma: epilogue %d needs its second tensor\n", epilogue);
		return -1;
	}
	trace_kernel(epilogue == GEMM_RELU2 ? "gemm_wgmma_relu2" : epilogue == GEMM_DRELU2 ? "gemm_wgmma_drelu2"
											 : "gemm_wgmma");
	/* tb = 1: B is (N, K), K-major (BMN = 0); tb = 0: (K, N), MN-major */
	switch (epilogue * 2 + !tb) {
	case GEMM_STORE * 2: return gemm_launch<0, GEMM_STORE>(out0, out1, aux, A, B, M, N, K, none, s);
	case GEMM_STORE * 2 + 1: return gemm_launch<1, GEMM_STORE>(out0, out1, aux, A, B, M, N, K, none, s);
	case GEMM_RELU2 * 2: return gemm_launch<0, GEMM_RELU2>(out0, out1, aux, A, B, M, N, K, none, s);
	case GEMM_RELU2 * 2 + 1: return gemm_launch<1, GEMM_RELU2>(out0, out1, aux, A, B, M, N, K, none, s);
	case GEMM_DRELU2 * 2: return gemm_launch<0, GEMM_DRELU2>(out0, out1, aux, A, B, M, N, K, none, s);
	case GEMM_DRELU2 * 2 + 1: return gemm_launch<1, GEMM_DRELU2>(out0, out1, aux, A, B, M, N, K, none, s);
	}
	fprintf(stderr, "trainer: gemm_wgmma: unknown epilogue %d (GEMM_ROTARY: gemm_wgmma_qkv_rotary)\n", epilogue);
	return -1;
}

int gemm_wgmma_block_products_supported(int T, int C, int F)
{
	/* widths N and depths K: C, F, 3C (QKV is (3C, C), fc (F, C), proj (C, F)) */
	return T % GM_BM == 0 && gemm_wgmma_supported(GM_BM, C, F) && gemm_wgmma_supported(GM_BM, F, 3 * C) &&
	       gemm_wgmma_supported(GM_BM, 3 * C, C);
}

int gemm_wgmma_rotary_supported(int M, int C, int D)
{
	return D == GM_HEAD && C % GM_BN == 0 && gemm_wgmma_supported(M, 3 * C, C);
}

int gemm_wgmma_qkv_rotary(bf16 *qkv, const bf16 *x, const bf16 *wqkv, int M, int C, const struct gemm_rotary *r,
			  cudaStream_t s)
{
	if (r->H <= 0 || r->H * GM_HEAD != C || C % GM_BN || r->T <= 0) { /* gemm_args_ok: the rest of the shape */
		fprintf(stderr,
			"trainer: gemm_wgmma: the rotary epilogue runs head size %d and C a multiple of %d on M a "
			"multiple of %d (here M %d, C %d, %d heads)\n",
			GM_HEAD, GM_BN, GM_BM, M, C, r->H);
		return -1;
	}
	if (!gemm_args_ok(x, wqkv, M, 3 * C, C))
		return -1;
	trace_kernel("gemm_wgmma_rotary");
	return gemm_launch<0, GEMM_ROTARY>(qkv, NULL, NULL, x, wqkv, M, 3 * C, C, *r, s);
}
