/* flash_wgmma.cu — the flash attention kernels of flash.cu on Hopper's
 * warpgroup instructions (wgmma, sm_90a; this file is compiled for
 * compute_90a only, kernels/cuda.mk). Same mathematics, tiles and outputs
 * as flash.cu's mma.sync kernels (64 query rows x 64 key rows, scores in
 * registers, softmax in the log2 domain, dK/dV and dQ in two kernels with
 * no atomics); flash.cu picks these on a compute capability 9.0 device.
 *
 * Why: with mma.sync each warp owns 16 rows, so every B fragment it loads
 * from shared memory by ldmatrix serves 16 rows only — more shared-memory
 * traffic than the tensor cores can be fed (the mma.sync kernels ran at
 * 24–33% of the tensor-core ceiling). A wgmma instruction is issued by a
 * warpgroup for 64 rows and reads B straight from shared memory, once for
 * all 64; A comes from registers where it is reused (Q, P, dS) or from
 * shared memory (dO, and K, V of the dK/dV kernel: no registers left).
 *
 * A block is WGS warpgroups (4 warps, 128 threads each), each owning 64
 * rows and sharing the tiles it loops over, so a K/V (forward, dQ) or
 * Q/dO (dK, dV) tile crosses from L2 into shared memory once for 64 * WGS
 * rows. Measured (docs/performance.md): of these the forward is fastest
 * with two (one block an SM either way, by registers), the backward with
 * one (two independent blocks an SM beat two warpgroups kept in step);
 * the warp-specialised kernels further down (a producer warpgroup and
 * two consumers: forward, dQ, dK/dV) beat both and are the default.
 * Warp w of a
 * group holds rows 16w.. of every accumulator (wgmma.cuh gives the
 * layout, the mma.m16n8 C layout per 8-column slice, so the softmax code
 * is flash.cu's). Tiles of 64 rows x D are copied by cp.async into the
 * 128-byte swizzle layout (sw_off) and double-buffered: the next tile's
 * copies are in flight while this tile's products run (the default
 * forward and fused backward copy by tensor copies instead, the same
 * layout: tma.cuh, pp_produce_tma, dkdv_produce_tma). One layout serves
 * both uses of a tile: rows x D read K-major (S = Q K^T, the contraction
 * over D) and MN-major (P V, the contraction over the rows). */
#include "flash_util.cuh"
#include "mbarrier.cuh"
#include "rotary.cuh"
#include "tma.cuh"
#include "wgmma.cuh"

#define WG 128 /* threads of a warpgroup */

/* Byte offset of 16-byte chunk c (columns 8c..8c+7) of row r of a tile of
 * 64 rows: D/64 column blocks of 64 rows x 128 bytes (8 KB each), chunk
 * c%8 of row r stored at position (c%8) ^ (r%8) of its 128-byte row —
 * the 128B swizzle wgmma expects (tiles 1024-byte aligned). */
__device__ __forceinline__ uint32_t sw_off(int r, int c)
{
	return (uint32_t)((c >> 3) * (FT * 128) + r * 128 + (((c & 7) ^ (r & 7)) << 4));
}

/* Eight bf16 from a shared-memory address. */
__device__ __forceinline__ bf16x8 lds8(uint32_t at)
{
	bf16x8 v;
	asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(v.raw.x), "=r"(v.raw.y), "=r"(v.raw.z), "=r"(v.raw.w)
		     : "r"(at)
		     : "memory");
	return v;
}

/* 64 rows of D bf16 from global (row stride gstride elements) into a
 * swizzled shared tile, 16 bytes a thread at a time by cp.async, by the
 * 128 threads of one warpgroup. */
template <int D>
__device__ __forceinline__ void load_tile_sw(uint32_t s, const bf16 *g, long gstride)
{
	/* thread i copies chunk i % VEC of rows i / VEC + ROWS * it: the same
	 * chunk, the same swizzle (ROWS is a multiple of 8), ROWS rows further */
	constexpr int VEC = D / 8, ROWS = WG / VEC, PER_THREAD = FT / ROWS;
	int r = threadIdx.x % WG / VEC, c = threadIdx.x % VEC; /* by the thread's own warpgroup */
	s += sw_off(r, c);
	g += r * gstride + c * 8;
#pragma unroll 1 /* unrolled, the hoisted addresses cost registers the accumulators need */
	for (int it = 0; it < PER_THREAD; it++)
		cp_async16(s + it * ROWS * 128, g + it * ROWS * gstride);
}

/* 64 fp32 from global into shared by cp.async (threads 0..15). */
__device__ __forceinline__ void load_row_f32(uint32_t s, const float *g, int first_thread)
{
	int i = threadIdx.x - first_thread;
	if (i >= 0 && i < FT / 4)
		cp_async16(s + i * 16, g + i * 4);
}

/* Shared writes by cp.async (the generic proxy) before wgmma reads them
 * (the async proxy): each writing thread fences, then the block syncs. */
__device__ __forceinline__ void publish_tiles(void)
{
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
	__syncthreads();
}

/* Descriptor of k slice kk (16 columns) of a tile read K-major (rows =
 * the M or N dimension, columns = the contraction): inside a 128-byte
 * row, +32 bytes a slice; a new column block every 4 slices. */
__device__ __forceinline__ uint64_t desc_k(uint32_t tile, int kk)
{
	return sw128_desc(tile + (kk >> 2) * (FT * 128) + (kk & 3) * 32, 16);
}

/* Descriptor of k slice kk (rows 16kk..16kk+15) of a tile read MN-major
 * (rows = the contraction, columns = N): two 8-row groups 1024 bytes
 * apart, column blocks of 64 (the leading byte offset) 8 KB apart. With
 * one column block (D = 64) the leading offset is unused; it is given
 * the 8-row stride as well. */
template <int D> __device__ __forceinline__ uint64_t desc_mn(uint32_t tile, int kk)
{
	return sw128_desc(tile + kk * 2048, D == 64 ? 1024 : FT * 128);
}

/* A fragment (rows r0..r0+15 of the tile, k slice kk) of a swizzled tile. */
__device__ __forceinline__ void load_a_sw(uint32_t a[4], uint32_t tile, int r0, int kk, int lane)
{
	ldsm_x4_at(a, tile + sw_off(r0 + lane % 8 + (lane / 8 % 2) * 8, kk * 2 + lane / 16));
}

/* d (64 x D) += A (registers, k slice of 16) B, B MN-major in shared. */
template <int D> __device__ __forceinline__ void wg_rs_d(float *d, const uint32_t a[4], uint64_t db)
{
	if constexpr (D == 64)
		wg_rs_n64<1>(d, a, db, 1);
	else
		wg_rs_n128<1>(d, a, db, 1);
}

/* S (64 x 64 keys) = A B^T over D, A from registers (D/16 fragments), B a
 * K-major tile: S[i][j] = sum_d A[i][d] B[j][d]. Issued and committed. */
template <int D> __device__ __forceinline__ void scores_rs(float *s, const uint32_t a[][4], uint32_t tb)
{
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++)
		wg_rs_n64<0>(s, a[kk], desc_k(tb, kk), kk > 0);
	wg_commit();
}

/* The same with A a K-major tile in shared memory too. */
template <int D> __device__ __forceinline__ void scores_ss(float *s, uint32_t ta, uint32_t tb)
{
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++)
		wg_ss_n64(s, desc_k(ta, kk), desc_k(tb, kk), kk > 0);
	wg_commit();
}

/* O (64 x D) += P (64 x 64, accumulator layout, as bf16 A fragments pa)
 * times a (64, D) tile read MN-major. Issued and committed. */
template <int D> __device__ __forceinline__ void acc_times_tile_wg(float *o, const uint32_t pa[4][4], uint32_t tb)
{
#pragma unroll
	for (int kk = 0; kk < 4; kk++)
		wg_rs_d<D>(o, pa[kk], desc_mn<D>(tb, kk));
	wg_commit();
}

/* The four A fragments (keys 16kk..) of a 64 x 64 accumulator. */
__device__ __forceinline__ void acc_to_frags(uint32_t pa[4][4], const float *p)
{
#pragma unroll
	for (int kk = 0; kk < 4; kk++)
		acc_to_a(pa[kk], p + 8 * kk, p + 8 * kk + 4);
}

__device__ __forceinline__ uint32_t smem_base_1024(unsigned char *smem)
{
	return ((uint32_t)__cvta_generic_to_shared(smem) + 1023u) & ~1023u;
}

/* ---- forward ----------------------------------------------------------- */

/* The K and V tiles of key tile kt into a buffer (K, then V): one
 * warpgroup copies each where there are two. */
template <int D, int WGS>
__device__ __forceinline__ void load_pair(uint32_t buf, const bf16 *a, const bf16 *b, long gstride, int wg)
{
	if (WGS == 1 || wg == 0)
		load_tile_sw<D>(buf, a, gstride);
	if (WGS == 1 || wg == 1)
		load_tile_sw<D>(buf + FT * D * 2, b, gstride);
}

/* Software-pipelined over key tiles j (as FlashAttention-3 does inside a
 * warpgroup): iteration j issues S_j = Q K_j^T and O += P_{j-1} V_{j-1}
 * together, runs the softmax of S_j while the P V product is still on
 * the tensor cores, then rescales O. K and V tiles have separate double
 * buffers, V one tile behind K: iteration j reads K_j and V_{j-1} and
 * copies K_{j+1} and V_j. */
template <int D, int WGS>
__global__ void __launch_bounds__(WG * WGS, WGS == 1 ? 2 : 1)
flash_wg_forward_kernel(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
			int T, int H, float sl2)
{
	constexpr int TB = FT * D * 2;
	extern __shared__ unsigned char smem[];
	int wg = threadIdx.x / WG;
	/* each warpgroup's Q, then K buffers 0 and 1, then V buffers 0 and 1 (by
	 * arithmetic: an array indexed at run time would live in local memory) */
	uint32_t s0 = smem_base_1024(smem), sQ = s0 + wg * TB, sKb = s0 + WGS * TB, sVb = sKb + 2 * TB;
	int qb = gridDim.x - 1 - blockIdx.x; /* the longest rows first */
	int qt = qb * WGS + wg, last = qb * WGS + WGS - 1;
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int warp = threadIdx.x % WG / WARP, lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
	int r0 = warp * 16;
	long ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	const bf16 *kg = k + ib, *vg = v + ib;
	/* one warpgroup copies K, the other V, where there are two */
	int loads_k = WGS == 1 || wg == 0, loads_v = WGS == 1 || wg == 1;
	load_tile_sw<D>(sQ, q + ib + (long)qt * FT * is, is);
	if (loads_k)
		load_tile_sw<D>(sKb, kg, is);
	if (loads_v)
		load_tile_sw<D>(sVb, vg, is);
	load_commit();
	if (last >= 1 && loads_k)
		load_tile_sw<D>(sKb + TB, kg + (long)FT * is, is);
	load_commit();
	load_wait<1>();
	publish_tiles();
	uint32_t qa[D / 16][4];
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++)
		load_a_sw(qa[kk], sQ, r0, kk, lane);
	float o[D / 2], m[2] = { -INFINITY, -INFINITY }, l[2] = { 0.f, 0.f }, alpha[2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		o[i] = 0.f;
	float s[32];
	uint32_t pa[4][4]; /* P of the previous tile, as A fragments */
	wg_fence();
	scores_rs<D>(s, qa, sKb); /* S_0 */
	wg_wait<0>();
	wg_hold<32>(s);
	softmax_step<64>(s, m, l, alpha, qt == 0, 0, r0, g, t, sl2);
	acc_to_frags(pa, s);
	__syncthreads(); /* both warpgroups are done with K_0 before K_2 replaces it */
	for (int j = 1; j <= last; j++) {
		uint32_t sK = sKb + (j & 1) * TB, sVprev = sVb + (~j & 1) * TB;
		if (loads_v) /* V_j and K_{j+1}: used by the next iteration */
			load_tile_sw<D>(sVb + (j & 1) * TB, vg + (long)j * FT * is, is);
		if (j + 1 <= last && loads_k)
			load_tile_sw<D>(sKb + (~j & 1) * TB, kg + (long)(j + 1) * FT * is, is);
		load_commit();
		load_wait<1>(); /* K_j and V_{j-1} */
		publish_tiles();
		if (j <= qt) { /* uniform in a warpgroup: the lower one has no tile j = last */
			wg_fence();
			scores_rs<D>(s, qa, sK);             /* S_j */
			acc_times_tile_wg<D>(o, pa, sVprev); /* O += P_{j-1} V_{j-1} */
			wg_wait<1>();                        /* S_j; the P V product may still run */
			wg_hold<32>(s);
			int rescale = softmax_step<64>(s, m, l, alpha, j == qt, 0, r0, g, t, sl2);
			wg_wait<0>();
			wg_hold<D / 2>(o);
			if (rescale) /* warp-uniform */
#pragma unroll
				for (int i = 0; i < D / 2; i++)
					o[i] *= alpha[(i >> 1) & 1];
			acc_to_frags(pa, s);
		} else if (j - 1 == qt) { /* the lower warpgroup's last product */
			wg_fence();
			acc_times_tile_wg<D>(o, pa, sVprev);
			wg_wait<0>();
			wg_hold<D / 2>(o);
		}
		__syncthreads(); /* buffers j & 1 of V and ~j & 1 of K are refilled next */
	}
	load_wait<0>();
	publish_tiles();
	if (qt == last) { /* O += P_last V_last */
		wg_fence();
		acc_times_tile_wg<D>(o, pa, sVb + (last & 1) * TB);
		wg_wait<0>();
		wg_hold<D / 2>(o);
	}
#pragma unroll
	for (int i = 0; i < 2; i++) {
		float lt = quad_sum(l[i]), inv = 1.f / lt;
		int row = qt * FT + r0 + g + 8 * i;
		bf16 *out = att + ((long)b * T + row) * C + h * D + 2 * t;
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++)
			*reinterpret_cast<__nv_bfloat162 *>(out + dt * 8) =
				__floats2bfloat162_rn(o[dt * 4 + 2 * i] * inv, o[dt * 4 + 2 * i + 1] * inv);
		if (t == 0)
			lse2[(long)bh * T + row] = m[i] + log2f(lt);
	}
}

/* ---- forward, warp-specialised (FlashAttention-3's structure) ----------

   The two-warpgroup forward above keeps its warpgroups in step: both copy
   tiles and meet at a block barrier every tile, so both issue their
   products at once and both run their softmax at once, and the tensor
   cores idle through it. Here the roles are split: warpgroup 2 of the
   block only copies K and V tiles (NS stages each) and signals each
   landed tile on an mbarrier; the consumers give each stage back on
   another when their products have read it. No block barrier inside the
   loop. The producer gives its registers to the consumers (setmaxnreg:
   40 a thread for it, 232 for them; 168 each otherwise, the share of 384
   threads, and the consumers would spill). The two consumer warpgroups
   (warps 0-3 and 4-7, 64 query rows each) take turns issuing their
   products (ping-pong: named barriers 2 and 3), so one warpgroup's
   products run while the other's softmax does. Inside a warpgroup the
   loop is the software pipeline above: S_j and O += P_{j-1} V_{j-1}
   issued together, the softmax of S_j under the P V product. Key tiles
   of KN = 64 or 128 rows; 128 (the default family) is the fastest, 782
   µs a layer against 840 (64 keys, 3 stages) and 868 (2 stages) and the
   in-step kernel's 904 (docs/performance.md, round 5): m64n128 score
   products and half the turns, barrier waits and row reductions a key.
   The copies are one producer thread's tensor copies (pp_produce_tma):
   the warpgroup's cp.async, 32 a thread a key tile, cost 671 against 564
   us a layer at the default shape (round 14). */

#define PP_THREADS (3 * WG) /* two consumer warpgroups and a producer */

__device__ __forceinline__ void named_sync(int id, int threads)
{
	asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ void named_arrive(int id, int threads)
{
	asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

/* Tiles of R rows x D (R = 64 or 128 keys): the layout of sw_off with
 * R-row column blocks (R x 128 bytes each). */
template <int R> __device__ __forceinline__ uint32_t sw_off_rows(int r, int c)
{
	return (uint32_t)((c >> 3) * (R * 128) + r * 128 + (((c & 7) ^ (r & 7)) << 4));
}

/* R rows of D bf16 into such a tile by the 128 threads of a warpgroup. */
template <int D, int R>
__device__ __forceinline__ void load_tile_rows(uint32_t s, const bf16 *g, long gstride)
{
	constexpr int VEC = D / 8, ROWS = WG / VEC;
	int r = threadIdx.x % WG / VEC, c = threadIdx.x % VEC;
	s += sw_off_rows<R>(r, c); /* ROWS is a multiple of 8: the same swizzle ROWS rows further */
	g += r * gstride + c * 8;
#pragma unroll 1
	for (int it = 0; it < R / ROWS; it++)
		cp_async16(s + it * ROWS * 128, g + it * ROWS * gstride);
}

/* K-major descriptor of k slice kk of an R-row tile; MN-major one of
 * rows 16kk.. (column blocks R x 128 bytes apart; D = 64: one block, the
 * unused leading offset given the 8-row stride as in desc_mn). */
template <int R> __device__ __forceinline__ uint64_t desc_k_rows(uint32_t tile, int kk)
{
	return sw128_desc(tile + (kk >> 2) * (R * 128) + (kk & 3) * 32, 16);
}

template <int D, int R> __device__ __forceinline__ uint64_t desc_mn_rows(uint32_t tile, int kk)
{
	return sw128_desc(tile + kk * 2048, D == 64 ? 1024 : R * 128);
}

/* The producer warpgroup: K_j then V_j (KN keys each) for j = 0..last,
 * each into stage j % NS once the consumers have given that stage back.
 * Barriers: full K, full V, empty K, empty V, NS of each, 8 bytes apart. */
template <int D, int NS, int KN>
__device__ __forceinline__ void pp_produce(uint32_t sKb, uint32_t sVb, uint32_t bars, const bf16 *kg,
					   const bf16 *vg, int is, int last)
{
	constexpr int TK = KN * D * 2;
	for (int j = 0; j <= last; j++) {
		int st = j % NS, free_parity = ((j / NS) & 1) ^ 1; /* a fresh barrier passes parity 1 */
		mbar_wait(bars + (2 * NS + st) * 8, free_parity);
		load_tile_rows<D, KN>(sKb + st * TK, kg + (long)j * KN * is, is);
		mbar_arrive_on_copies(bars + st * 8);
		mbar_wait(bars + (3 * NS + st) * 8, free_parity);
		load_tile_rows<D, KN>(sVb + st * TK, vg + (long)j * KN * is, is);
		mbar_arrive_on_copies(bars + (NS + st) * 8);
	}
	load_wait<0>();
}

/* A tensor map of q, k or v (p) in layout lay (qkv_layout_of) as rows:
 * (B T) x (H D) with row stride ld, or (B H T) x D; head (b, h) is at row
 * ib / lay.row, column ib % lay.row of it (ib = b bs + h hs). */
static int qkv_tensor_map(CUtensorMap *map, const bf16 *p, qkv_layout lay, int B, int T, int H, int D,
			  int box_rows, const char *who)
{
	int packed = lay.row != D;
	return tma_map_2d(map, p, packed ? (long)B * T : (long)B * H * T, packed ? (long)H * D : D, lay.row, box_rows,
			  who);
}

/* R rows x D columns from (x, y) of map into a tile of sw_off_rows<R>'s
 * layout (D / 64 column blocks of R x 128 bytes, each one box), counted
 * on bar: load_tile_rows by one thread's tensor copies. */
template <int D, int R>
__device__ __forceinline__ void tma_load_tile_rows(uint32_t s, const CUtensorMap *map, int x, int y, uint32_t bar)
{
#pragma unroll
	for (int cb = 0; cb < D / 64; cb++)
		tma_load_2d(s + cb * (R * 128), map, x + 64 * cb, y, bar);
}

/* The forward's producer: the same walk as pp_produce, by one thread's
 * tensor copies (D / 64 boxes of KN rows x 64 columns a tile, the layout
 * of sw_off_rows) on full barriers that count the bytes. Key tile j of
 * the head is rows y0 + j KN, columns x0.. of the maps. */
template <int D, int NS, int KN>
__device__ __forceinline__ void pp_produce_tma(uint32_t sKb, uint32_t sVb, uint32_t bars, const CUtensorMap *mk,
					       const CUtensorMap *mv, int x0, int y0, int last)
{
	constexpr int TK = KN * D * 2;
	for (int j = 0; j <= last; j++) {
		int st = j % NS, free_parity = ((j / NS) & 1) ^ 1; /* a fresh barrier passes parity 1 */
		uint32_t fk = bars + st * 8, fv = bars + (NS + st) * 8;
		mbar_wait(bars + (2 * NS + st) * 8, free_parity);
		mbar_arrive_expect_tx(fk, TK);
		tma_load_tile_rows<D, KN>(sKb + st * TK, mk, x0, y0 + j * KN, fk);
		mbar_wait(bars + (3 * NS + st) * 8, free_parity);
		mbar_arrive_expect_tx(fv, TK);
		tma_load_tile_rows<D, KN>(sVb + st * TK, mv, x0, y0 + j * KN, fv);
	}
}

/* A consumer warpgroup's turn: wait for it (named barrier 2 + cw, which the
 * other warpgroup arrives on), and after issuing, hand it over. Warpgroup
 * 0 has N0 = qt0 + 2 turns, warpgroup 1 one more (its extra diagonal
 * tile); warpgroup 1 waits only for turns warpgroup 0 also has, and
 * hands over only to turns warpgroup 0 still has, so every arrival is
 * waited for. */
__device__ __forceinline__ void pp_turn_begin(int cw, int turn, int n0)
{
	if (cw == 0 || turn < n0)
		named_sync(2 + cw, 2 * WG);
}

__device__ __forceinline__ void pp_turn_end(int cw, int turn, int n0)
{
	if (cw == 0 || turn + 1 < n0)
		named_arrive(3 - cw, 2 * WG);
}

/* S (64 x KN keys) = Q K^T, Q from registers, K an R = KN row tile. */
template <int D, int KN> __device__ __forceinline__ void pp_scores(float *s, const uint32_t qa[][4], uint32_t tk)
{
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++) {
		if constexpr (KN == 64)
			wg_rs_n64<0>(s, qa[kk], desc_k_rows<KN>(tk, kk), kk > 0);
		else
			wg_rs_n128<0>(s, qa[kk], desc_k_rows<KN>(tk, kk), kk > 0);
	}
	wg_commit();
}

/* O += P (64 x KN, as KN/16 A fragments) V (a KN-row tile, MN-major). */
template <int D, int KN>
__device__ __forceinline__ void pp_pv(float *o, const uint32_t pa[][4], uint32_t tv)
{
#pragma unroll
	for (int kk = 0; kk < KN / 16; kk++)
		wg_rs_d<D>(o, pa[kk], desc_mn_rows<D, KN>(tv, kk));
	wg_commit();
}

template <int KN> __device__ __forceinline__ void pp_frags(uint32_t pa[][4], const float *p)
{
#pragma unroll
	for (int kk = 0; kk < KN / 16; kk++)
		acc_to_a(pa[kk], p + 8 * kk, p + 8 * kk + 4);
}

/* KN keys a tile: 64 (the block's 128 query rows see key tiles
 * 0..2qb+1, warpgroup 0 the last but one) or 128 (tiles 0..qb for both;
 * on the diagonal tile warpgroup 0's rows see only its first half). */
template <int D, int NS, int KN>
__global__ void __launch_bounds__(PP_THREADS, 1)
flash_wg_forward_pp_kernel(bf16 *att, float *lse2, const bf16 *q, const __grid_constant__ CUtensorMap mapK,
			   const __grid_constant__ CUtensorMap mapV, qkv_layout lay, int T, int H, float sl2)
{
	constexpr int TB = FT * D * 2, TK = KN * D * 2;
	extern __shared__ unsigned char smem[];
	/* Q of each consumer, K stages, V stages, then the 4 NS barriers */
	uint32_t s0 = smem_base_1024(smem), sKb = s0 + 2 * TB, sVb = sKb + NS * TK, bars = sVb + NS * TK;
	int qb = gridDim.x - 1 - blockIdx.x; /* the longest rows first */
	int last = KN == 64 ? qb * 2 + 1 : qb;
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int lane = threadIdx.x % WARP;
	long ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	if (threadIdx.x == 0) {
		for (int i = 0; i < 2 * NS; i++)
			mbar_init(bars + i * 8, 1); /* full: the producer's, with the bytes */
		for (int i = 2 * NS; i < 4 * NS; i++)
			mbar_init(bars + i * 8, 8); /* empty: one a consumer warp */
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads(); /* the last block-wide barrier: the producer leaves the consumers' loop */
	if (threadIdx.x >= 2 * WG) { /* one thread of the producer warpgroup copies */
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
		if (threadIdx.x == 2 * WG)
			pp_produce_tma<D, NS, KN>(sKb, sVb, bars, &mapK, &mapV, (int)(ib % is), (int)(ib / is), last);
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
	int cw = threadIdx.x / WG, qt = qb * 2 + cw; /* this warpgroup's 64-row query tile */
	int jl = KN == 64 ? qt : qb;                 /* its last key tile */
	int roff = KN == 64 ? 0 : cw * FT;           /* its rows' offset in the diagonal tile */
	int n0 = (KN == 64 ? qb * 2 : qb) + 2;       /* warpgroup 0's turns */
	int warp = threadIdx.x % WG / WARP, g = lane / 4, t = lane % 4, r0 = warp * 16;
	uint32_t sQ = s0 + cw * TB;
	load_tile_sw<D>(sQ, q + ib + (long)qt * FT * is, is);
	load_commit();
	load_wait<0>();
	named_sync(4 + cw, WG); /* this warpgroup's Q has landed */
	uint32_t qa[D / 16][4];
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++)
		load_a_sw(qa[kk], sQ, r0, kk, lane);
	float o[D / 2], m[2] = { -INFINITY, -INFINITY }, l[2] = { 0.f, 0.f }, alpha[2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		o[i] = 0.f;
	float s[KN / 2];
	uint32_t pa[KN / 16][4]; /* P of the previous tile, as A fragments */
	if (cw == 1)
		named_arrive(2, 2 * WG); /* warpgroup 0 takes the first turn */
	stage_acquire(bars, 0);         /* K_0 */
	pp_turn_begin(cw, 0, n0);
	wg_fence();
	pp_scores<D, KN>(s, qa, sKb); /* S_0 */
	pp_turn_end(cw, 0, n0);
	wg_wait<0>();
	wg_hold<KN / 2>(s);
	stage_release(bars + 2 * NS * 8, lane);
	softmax_step<KN>(s, m, l, alpha, jl == 0, roff, r0, g, t, sl2);
	pp_frags<KN>(pa, s);
	for (int j = 1; j <= jl; j++) {
		int st = j % NS, sp = (j - 1) % NS;
		stage_acquire(bars + st * 8, (j / NS) & 1);              /* K_j */
		stage_acquire(bars + (NS + sp) * 8, ((j - 1) / NS) & 1); /* V_{j-1} */
		pp_turn_begin(cw, j, n0);
		wg_fence();
		pp_scores<D, KN>(s, qa, sKb + st * TK); /* S_j */
		pp_pv<D, KN>(o, pa, sVb + sp * TK);     /* O += P_{j-1} V_{j-1} */
		pp_turn_end(cw, j, n0);
		wg_wait<1>(); /* S_j; the P V product may still run */
		wg_hold<KN / 2>(s);
		stage_release(bars + (2 * NS + st) * 8, lane);
		int rescale = softmax_step<KN>(s, m, l, alpha, j == jl, roff, r0, g, t, sl2);
		wg_wait<0>();
		wg_hold<D / 2>(o);
		stage_release(bars + (3 * NS + sp) * 8, lane);
		if (rescale) /* warp-uniform */
#pragma unroll
			for (int i = 0; i < D / 2; i++)
				o[i] *= alpha[(i >> 1) & 1];
		pp_frags<KN>(pa, s);
	}
	{ /* O += P_jl V_jl: the last turn */
		int sp = jl % NS;
		stage_acquire(bars + (NS + sp) * 8, (jl / NS) & 1);
		pp_turn_begin(cw, jl + 1, n0);
		wg_fence();
		pp_pv<D, KN>(o, pa, sVb + sp * TK);
		pp_turn_end(cw, jl + 1, n0);
		wg_wait<0>();
		wg_hold<D / 2>(o);
	}
#pragma unroll
	for (int i = 0; i < 2; i++) {
		float lt = quad_sum(l[i]), inv = 1.f / lt;
		int row = qt * FT + r0 + g + 8 * i;
		bf16 *out = att + ((long)b * T + row) * C + h * D + 2 * t;
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++)
			*reinterpret_cast<__nv_bfloat162 *>(out + dt * 8) =
				__floats2bfloat162_rn(o[dt * 4 + 2 * i] * inv, o[dt * 4 + 2 * i + 1] * inv);
		if (t == 0)
			lse2[(long)bh * T + row] = m[i] + log2f(lt);
	}
}

/* ---- backward ---------------------------------------------------------- */

/* The first half of a key tile's backward, shared by the dK/dV kernels and
 * the fused one: S^T and dP^T of the tile (two products issued together),
 * P^T (causally masked on the diagonal tile), dV += P^T dO, and dS^T =
 * P^T (dP^T - dsum), returned as floats (dp, for the fused kernel's store)
 * and as bf16 A fragments (da, for dK += dS^T Q). */
template <int D>
__device__ __forceinline__ void dv_and_ds_tile(float dp[32], uint32_t da[4][4], float *dV, uint32_t sK, uint32_t sV,
					       uint32_t sQ, uint32_t sO, const float *sL, const float *sD, bool diag,
					       float sl2, int j0, int t)
{
	float p[32];
	wg_fence();
	scores_ss<D>(p, sK, sQ);  /* S^T = K Q^T: rows j, cols i */
	scores_ss<D>(dp, sV, sO); /* dP^T = V dO^T */
	wg_wait<1>();
	wg_hold<32>(p);
#pragma unroll
	for (int n = 0; n < 32; n++) {
		int e = n & 3, j = j0 + (e >= 2 ? 8 : 0), i = (n >> 2) * 8 + 2 * t + (e & 1);
		float x = exp2_ftz(p[n] * sl2 - sL[i]);
		p[n] = diag && i < j ? 0.f : x;
	}
	uint32_t pa[4][4];
	acc_to_frags(pa, p);
	wg_fence();
	acc_times_tile_wg<D>(dV, pa, sO); /* dV += P^T dO */
	wg_wait<1>();                      /* dP^T (the older group) */
	wg_hold<32>(dp);
#pragma unroll
	for (int n = 0; n < 32; n++) {
		int i = (n >> 2) * 8 + 2 * t + (n & 1);
		dp[n] = p[n] * (dp[n] - sD[i]); /* dS^T */
	}
	acc_to_frags(da, dp);
}

/* One query tile's part of a key tile's dK and dV, in the transposed
 * scores (rows j = this thread's key rows j0 and j0 + 8, columns i): S^T =
 * K Q^T and dP^T = V dO^T from shared memory, P^T from lse2 (sL), dS^T =
 * P^T (dP^T - dsum) (sD), then dV += P^T dO and dK += dS^T Q with P^T and
 * dS^T as register A operands. diag: the tile on the diagonal, where a key
 * after its query is masked. Shared by the one-warpgroup and the
 * warp-specialised dK/dV kernels. */
template <int D>
__device__ __forceinline__ void dkdv_tile(float *dK, float *dV, uint32_t sK, uint32_t sV, uint32_t sQ, uint32_t sO,
					  const float *sL, const float *sD, bool diag, float sl2, int j0, int t)
{
	float dp[32];
	uint32_t da[4][4];
	dv_and_ds_tile<D>(dp, da, dV, sK, sV, sQ, sO, sL, sD, diag, sl2, j0, t);
	wg_fence();
	acc_times_tile_wg<D>(dK, da, sQ); /* dK += dS^T Q */
	wg_wait<0>();
	wg_hold<D / 2>(dV);
	wg_hold<D / 2>(dK);
}

/* A key tile's dK (times scale) and dV as bf16: this thread's rows j0 and
 * j0 + 8 (of T), dk heads-major from base, dv in the packed layout from ib
 * with row stride is. */
template <int D>
__device__ __forceinline__ void dkdv_store(bf16 *dk, bf16 *dv, const float *dK, const float *dV, long base, long ib,
					   int is, int j0, int t, float scale)
{
#pragma unroll
	for (int i = 0; i < 2; i++) {
		long r = j0 + 8 * i, row = base + r * D + 2 * t, vrow = ib + r * is + 2 * t;
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++) {
			*reinterpret_cast<__nv_bfloat162 *>(dk + row + dt * 8) =
				__floats2bfloat162_rn(dK[dt * 4 + 2 * i] * scale, dK[dt * 4 + 2 * i + 1] * scale);
			*reinterpret_cast<__nv_bfloat162 *>(dv + vrow + dt * 8) =
				__floats2bfloat162_rn(dV[dt * 4 + 2 * i], dV[dt * 4 + 2 * i + 1]);
		}
	}
}

/* dK, dV of key tile kt (one a warpgroup): rows are key rows j; works with
 * the transposed scores S^T[j][i] = k_j . q_i so that P^T and dS^T sit in
 * registers as A operands of dV += P^T dO and dK += dS^T Q. */
template <int D, int WGS>
__global__ void __launch_bounds__(WG * WGS, WGS == 1 ? 2 : 1)
flash_wg_dkdv_kernel(bf16 *dk, bf16 *dv, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
		     const bf16 *datt, const float *lse2, const float *dsum, int T, int H, float sl2, float scale)
{
	constexpr int TB = FT * D * 2;
	extern __shared__ unsigned char smem[];
	int wg = threadIdx.x / WG;
	/* each warpgroup's K and V, then Q and dO of buffer 0, of buffer 1, then
	 * [2][2][64] fp32: lse2 and dsum of each buffer */
	uint32_t s0 = smem_base_1024(smem), sK = s0 + wg * 2 * TB, sV = sK + TB, sQO = s0 + WGS * 2 * TB,
		 sLD = sQO + 4 * TB;
	const float *fLD = reinterpret_cast<const float *>(smem + (sLD - (uint32_t)__cvta_generic_to_shared(smem)));
	int nT = T / FT, first = blockIdx.x * WGS, kt = first + wg; /* the longest loops (kt small) first */
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int warp = threadIdx.x % WG / WARP, lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
	int r0 = warp * 16;
	long base = (long)bh * T * D, ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	const bf16 *dO = datt + (long)b * T * C + h * D;
	load_tile_sw<D>(sK, k + ib + (long)kt * FT * is, is);
	load_tile_sw<D>(sV, v + ib + (long)kt * FT * is, is);
	/* query tile qt's Q and dO (and its rows of lse2, dsum) into buffer nb */
	auto load_q_tile = [&](int qt, int nb) {
		uint32_t buf = sQO + nb * 2 * TB;
		if (WGS == 1 || wg == 0)
			load_tile_sw<D>(buf, q + ib + (long)qt * FT * is, is);
		if (WGS == 1 || wg == 1)
			load_tile_sw<D>(buf + TB, dO + (long)qt * FT * C, C);
		load_row_f32(sLD + nb * 2 * FT * 4, lse2 + (long)bh * T + qt * FT, 0);
		load_row_f32(sLD + (nb * 2 + 1) * FT * 4, dsum + (long)bh * T + qt * FT, 16);
	};
	load_q_tile(first, 0);
	load_commit();
	float dK[D / 2], dV[D / 2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		dK[i] = dV[i] = 0.f;
	for (int qt = first; qt < nT; qt++) {
		int cur = (qt - first) & 1;
		uint32_t sQ = sQO + cur * 2 * TB, sO = sQ + TB;
		if (qt + 1 < nT) /* the next tile's copies run under this tile's products */
			load_q_tile(qt + 1, cur ^ 1);
		load_commit(); /* possibly empty: one group an iteration */
		load_wait<1>();
		publish_tiles();
		if (qt >= kt) { /* uniform in a warpgroup: the upper one skips the first tile */
			const float *sL = fLD + cur * 2 * FT, *sD = sL + FT;
			dkdv_tile<D>(dK, dV, sK, sV, sQ, sO, sL, sD, qt == kt, sl2, r0 + g, t);
		}
		__syncthreads(); /* every warp is done with buffer cur before it is refilled */
	}
	dkdv_store<D>(dk, dv, dK, dV, base, ib, is, kt * FT + r0 + g, t, scale);
}

/* This thread's two query rows (row0, row0 + 8 of head bh): lse2, and
 * dsum = rowsum(dO * O) (the four threads of a quad take D/4 columns
 * each), stored for the dK/dV kernel, which runs next. */
template <int D>
__device__ __forceinline__ void dq_row_stats(float L[2], float Ds[2], float *dsum, const bf16 *att, const bf16 *datt,
					     const float *lse2, int b, int bh, int h, int T, int C, int row0, int t)
{
#pragma unroll
	for (int i = 0; i < 2; i++) {
		long row = (long)bh * T + row0 + 8 * i;
		long off = ((long)b * T + row0 + 8 * i) * C + h * D + t * (D / 4);
		float acc = 0.f;
#pragma unroll
		for (int c = 0; c < D / 4; c += 8) {
			bf16x8 x = { *reinterpret_cast<const uint4 *>(att + off + c) };
			bf16x8 y = { *reinterpret_cast<const uint4 *>(datt + off + c) };
#pragma unroll
			for (int e = 0; e < 8; e++)
				acc += x.get(e) * y.get(e);
		}
		Ds[i] = quad_sum(acc);
		L[i] = lse2[row];
		if (t == 0)
			dsum[row] = Ds[i];
	}
}

/* A query tile's dQ (times scale) as bf16, heads-major from base: this
 * thread's rows i0 and i0 + 8. */
template <int D>
__device__ __forceinline__ void dq_store(bf16 *dq, const float *dQ, long base, int i0, int t, float scale)
{
#pragma unroll
	for (int i = 0; i < 2; i++) {
		long row = base + ((long)i0 + 8 * i) * D + 2 * t;
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++)
			*reinterpret_cast<__nv_bfloat162 *>(dq + row + dt * 8) =
				__floats2bfloat162_rn(dQ[dt * 4 + 2 * i] * scale, dQ[dt * 4 + 2 * i + 1] * scale);
	}
}

/* dQ of query tile qt (one a warpgroup): rows are query rows i. Q is
 * this warpgroup's own for the whole loop and comes from registers; dO
 * is read from shared memory (from registers as well it ran no faster,
 * with 31 more registers a thread). (A version that issued dQ += dS K of
 * the previous tile under this tile's exponentials, as the forward does,
 * needed a third K buffer, fell to one block an SM and ran no faster:
 * docs/performance.md.) */
template <int D, int WGS>
__global__ void __launch_bounds__(WG * WGS, WGS == 1 ? 2 : 1)
flash_wg_dq_kernel(bf16 *dq, float *dsum, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
		   const bf16 *att, const bf16 *datt, const float *lse2, int T, int H, float sl2, float scale)
{
	constexpr int TB = FT * D * 2;
	extern __shared__ unsigned char smem[];
	int wg = threadIdx.x / WG;
	/* each warpgroup's Q and dO, then K and V of buffer 0, of buffer 1 */
	uint32_t s0 = smem_base_1024(smem), sQ = s0 + wg * 2 * TB, sO = sQ + TB, sKV = s0 + WGS * 2 * TB;
	int qb = gridDim.x - 1 - blockIdx.x;
	int qt = qb * WGS + wg, last = qb * WGS + WGS - 1;
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int warp = threadIdx.x % WG / WARP, lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
	int r0 = warp * 16;
	long base = (long)bh * T * D, ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	load_tile_sw<D>(sQ, q + ib + (long)qt * FT * is, is);
	load_tile_sw<D>(sO, datt + ((long)b * T + (long)qt * FT) * C + h * D, C);
	load_pair<D, WGS>(sKV, k + ib, v + ib, is, wg);
	load_commit();
	/* this thread's two rows: lse2, and dsum = rowsum(dO * O) computed here
	 * (the four threads of a quad take D/4 columns each) and stored for
	 * the dK/dV kernel, which runs next */
	float L[2], Ds[2];
	dq_row_stats<D>(L, Ds, dsum, att, datt, lse2, b, bh, h, T, C, qt * FT + r0 + g, t);
	float dQ[D / 2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		dQ[i] = 0.f;
	uint32_t qa[D / 16][4];
	for (int kt = 0; kt <= last; kt++) {
		uint32_t sK = sKV + (kt & 1) * 2 * TB, sV = sK + TB, next = sKV + (~kt & 1) * 2 * TB;
		if (kt < last)
			load_pair<D, WGS>(next, k + ib + (long)(kt + 1) * FT * is, v + ib + (long)(kt + 1) * FT * is,
					  is, wg);
		load_commit();
		load_wait<1>();
		publish_tiles();
		if (kt == 0) {
#pragma unroll
			for (int kk = 0; kk < D / 16; kk++)
				load_a_sw(qa[kk], sQ, r0, kk, lane);
		}
		if (kt <= qt) { /* uniform in a warpgroup */
			float p[32], dp[32];
			wg_fence();
			scores_rs<D>(p, qa, sK);  /* S */
			scores_ss<D>(dp, sO, sV); /* dP = dO V^T */
			wg_wait<1>();
			wg_hold<32>(p);
#pragma unroll
			for (int n = 0; n < 32; n++) {
				int e = n & 3, i = r0 + g + (e >= 2 ? 8 : 0), j = (n >> 2) * 8 + 2 * t + (e & 1);
				p[n] = kt == qt && j > i ? 0.f : exp2_ftz(p[n] * sl2 - L[e >> 1]);
			}
			wg_wait<0>();
			wg_hold<32>(dp);
#pragma unroll
			for (int n = 0; n < 32; n++)
				dp[n] = p[n] * (dp[n] - Ds[(n >> 1) & 1]); /* dS */
			uint32_t da[4][4];
			acc_to_frags(da, dp);
			wg_fence();
			acc_times_tile_wg<D>(dQ, da, sK); /* dQ += dS K */
			wg_wait<0>();
			wg_hold<D / 2>(dQ);
		}
		__syncthreads();
	}
	dq_store<D>(dq, dQ, base, qt * FT + r0 + g, t, scale);
}

/* ---- backward dQ, warp-specialised --------------------------------------

   The dQ kernel's loop has the forward's shape (a query tile against a
   stream of K, V tiles), so it takes the forward's structure: warpgroup
   2 copies K and V tiles of 64 keys (pp_produce, NS stages each) and two
   consumer warpgroups of 64 query rows each (a block's 128) take turns
   issuing their products (pp_turn_*). Inside a warpgroup the loop is
   software-pipelined: iteration j issues S_j = Q K_j^T and dP_j = dO V_j^T
   (one group) and dQ += dS_{j-1} K_{j-1} (the next), and computes dS_j
   while the dQ product runs. V_j is given back once dP_j is read, K_j
   only after dQ += dS_j K_j (an iteration later): three stages keep the
   producer a tile ahead. dO is the A operand of dP from shared memory or,
   with DO_REG, from registers (32 more a thread). Without TURNS the two
   consumers issue whenever their operands are there (a measurement of
   what the turns are worth). dsum = rowsum(dO * O) is computed and
   stored here (dq_row_stats), as in flash_wg_dq_kernel. */

/* The turns, or none (TURNS false: both warpgroups issue when ready). */
template <bool TURNS> __device__ __forceinline__ void dq_turn_begin(int cw, int turn, int n0)
{
	if (TURNS)
		pp_turn_begin(cw, turn, n0);
}

template <bool TURNS> __device__ __forceinline__ void dq_turn_end(int cw, int turn, int n0)
{
	if (TURNS)
		pp_turn_end(cw, turn, n0);
}

/* S = Q K^T and dP = dO V^T for one 64-key tile, one commit group. */
template <int D, bool DO_REG>
__device__ __forceinline__ void dq_scores(float *s, float *dp, const uint32_t qa[][4], const uint32_t oa[][4],
					  uint32_t sO, uint32_t tk, uint32_t tv)
{
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++)
		wg_rs_n64<0>(s, qa[kk], desc_k(tk, kk), kk > 0);
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++) {
		if constexpr (DO_REG)
			wg_rs_n64<0>(dp, oa[kk], desc_k(tv, kk), kk > 0);
		else
			wg_ss_n64(dp, desc_k(sO, kk), desc_k(tv, kk), kk > 0);
	}
	wg_commit();
}

/* dS = P (dP - dsum) into dp, P = exp2(S sl2 - lse2), 0 above the
 * diagonal on the diagonal tile. */
__device__ __forceinline__ void dq_dscores(const float *s, float *dp, const float L[2], const float Ds[2], int diag,
					   int r0, int g, int t, float sl2)
{
#pragma unroll
	for (int n = 0; n < 32; n++) {
		int e = n & 3, i = r0 + g + (e >= 2 ? 8 : 0), j = (n >> 2) * 8 + 2 * t + (e & 1);
		float p = diag && j > i ? 0.f : exp2_ftz(s[n] * sl2 - L[e >> 1]);
		dp[n] = p * (dp[n] - Ds[e >> 1]);
	}
}

template <int D, int NS, bool DO_REG, bool TURNS>
__global__ void __launch_bounds__(PP_THREADS, 1)
flash_wg_dq_pp_kernel(bf16 *dq, float *dsum, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
		      const bf16 *att, const bf16 *datt, const float *lse2, int T, int H, float sl2, float scale)
{
	constexpr int TB = FT * D * 2;
	extern __shared__ unsigned char smem[];
	/* Q and dO of each consumer, K stages, V stages, then the 4 NS barriers */
	uint32_t s0 = smem_base_1024(smem), sKb = s0 + 4 * TB, sVb = sKb + NS * TB, bars = sVb + NS * TB;
	int qb = gridDim.x - 1 - blockIdx.x; /* the longest rows first */
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int lane = threadIdx.x % WARP;
	long ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	if (threadIdx.x == 0) {
		for (int i = 0; i < 2 * NS; i++)
			mbar_init(bars + i * 8, WG); /* full: one arrival a producer thread */
		for (int i = 2 * NS; i < 4 * NS; i++)
			mbar_init(bars + i * 8, 8); /* empty: one a consumer warp */
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads(); /* the last block-wide barrier */
	/* dO in registers too needs 240 a consumer thread (232 spills at D =
	 * 128), which leaves the producer 24 */
	if (threadIdx.x >= 2 * WG) {
		if constexpr (DO_REG)
			asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n" ::: "memory");
		else
			asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
		pp_produce<D, NS, FT>(sKb, sVb, bars, k + ib, v + ib, is, qb * 2 + 1);
		return;
	}
	if constexpr (DO_REG)
		asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n" ::: "memory");
	else
		asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
	int cw = threadIdx.x / WG, qt = qb * 2 + cw; /* this warpgroup's query tile, also its last key tile */
	int n0 = qb * 2 + 2;                         /* warpgroup 0's turns */
	int warp = threadIdx.x % WG / WARP, g = lane / 4, t = lane % 4, r0 = warp * 16;
	uint32_t sQ = s0 + cw * 2 * TB, sO = sQ + TB;
	load_tile_sw<D>(sQ, q + ib + (long)qt * FT * is, is);
	load_tile_sw<D>(sO, datt + ((long)b * T + (long)qt * FT) * C + h * D, C);
	load_commit();
	float L[2], Ds[2];
	dq_row_stats<D>(L, Ds, dsum, att, datt, lse2, b, bh, h, T, C, qt * FT + r0 + g, t);
	load_wait<0>();
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* dO is read by wgmma */
	named_sync(4 + cw, WG); /* this warpgroup's Q and dO have landed */
	uint32_t qa[D / 16][4], oa[DO_REG ? D / 16 : 1][4];
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++)
		load_a_sw(qa[kk], sQ, r0, kk, lane);
	if constexpr (DO_REG) {
#pragma unroll
		for (int kk = 0; kk < D / 16; kk++)
			load_a_sw(oa[kk], sO, r0, kk, lane);
	}
	float dQ[D / 2], s[32], dp[32];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		dQ[i] = 0.f;
	uint32_t da[4][4]; /* dS of the previous tile, as A fragments */
	if (TURNS && cw == 1)
		named_arrive(2, 2 * WG); /* warpgroup 0 takes the first turn */
	stage_acquire(bars, 0);            /* K_0 */
	stage_acquire(bars + NS * 8, 0);   /* V_0 */
	dq_turn_begin<TURNS>(cw, 0, n0);
	wg_fence();
	dq_scores<D, DO_REG>(s, dp, qa, oa, sO, sKb, sVb);
	dq_turn_end<TURNS>(cw, 0, n0);
	wg_wait<0>();
	wg_hold<32>(s);
	wg_hold<32>(dp);
	stage_release(bars + 3 * NS * 8, lane); /* V_0 */
	dq_dscores(s, dp, L, Ds, qt == 0, r0, g, t, sl2);
	acc_to_frags(da, dp);
	for (int j = 1; j <= qt; j++) {
		int st = j % NS, sp = (j - 1) % NS, par = (j / NS) & 1;
		stage_acquire(bars + st * 8, par);        /* K_j */
		stage_acquire(bars + (NS + st) * 8, par); /* V_j */
		dq_turn_begin<TURNS>(cw, j, n0);
		wg_fence();
		dq_scores<D, DO_REG>(s, dp, qa, oa, sO, sKb + st * TB, sVb + st * TB); /* S_j, dP_j */
		acc_times_tile_wg<D>(dQ, da, sKb + sp * TB);                           /* dQ += dS_{j-1} K_{j-1} */
		dq_turn_end<TURNS>(cw, j, n0);
		wg_wait<1>(); /* S_j, dP_j; the dQ product may still run */
		wg_hold<32>(s);
		wg_hold<32>(dp);
		stage_release(bars + (3 * NS + st) * 8, lane); /* V_j */
		dq_dscores(s, dp, L, Ds, j == qt, r0, g, t, sl2);
		wg_wait<0>();
		wg_hold<D / 2>(dQ);
		stage_release(bars + (2 * NS + sp) * 8, lane); /* K_{j-1} */
		acc_to_frags(da, dp);
	}
	/* dQ += dS_qt K_qt: the last turn (nobody waits for that stage again) */
	dq_turn_begin<TURNS>(cw, qt + 1, n0);
	wg_fence();
	acc_times_tile_wg<D>(dQ, da, sKb + (qt % NS) * TB);
	dq_turn_end<TURNS>(cw, qt + 1, n0);
	wg_wait<0>();
	wg_hold<D / 2>(dQ);
	long base = (long)bh * T * D;
	dq_store<D>(dq, dQ, base, qt * FT + r0 + g, t, scale);
}

/* dQ with 128-key K and V tiles (2 stages; 192 KB of shared memory at
   D = 128): S and dP as m64n128 products, half the waits, stage hand-overs
   and loop iterations a key of the 64-key kernel above — the change that
   gave the forward 7% (round 5). S, dP and dQ take 192 accumulator
   registers, so Q and dO are read from shared memory and there is no
   pipeline inside a warpgroup (dS of the previous tile would need 32
   more) and no turns (they measured nothing in the 64-key kernel). On
   the diagonal tile warpgroup 0's rows see only the first 64 keys. */
template <int D>
__global__ void __launch_bounds__(PP_THREADS, 1)
flash_wg_dq_pp128_kernel(bf16 *dq, float *dsum, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
			 const bf16 *att, const bf16 *datt, const float *lse2, int T, int H, float sl2, float scale)
{
	constexpr int TB = FT * D * 2, KN = 2 * FT, TK = KN * D * 2, NS = 2;
	extern __shared__ unsigned char smem[];
	/* Q and dO of each consumer, K stages, V stages, then the 4 NS barriers */
	uint32_t s0 = smem_base_1024(smem), sKb = s0 + 4 * TB, sVb = sKb + NS * TK, bars = sVb + NS * TK;
	int qb = gridDim.x - 1 - blockIdx.x; /* the longest rows first; also the last key tile */
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int lane = threadIdx.x % WARP;
	long ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	if (threadIdx.x == 0) {
		for (int i = 0; i < 2 * NS; i++)
			mbar_init(bars + i * 8, WG);
		for (int i = 2 * NS; i < 4 * NS; i++)
			mbar_init(bars + i * 8, 8);
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads(); /* the last block-wide barrier */
	if (threadIdx.x >= 2 * WG) {
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
		pp_produce<D, NS, KN>(sKb, sVb, bars, k + ib, v + ib, is, qb);
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
	int cw = threadIdx.x / WG, qt = qb * 2 + cw, roff = cw * FT;
	int warp = threadIdx.x % WG / WARP, g = lane / 4, t = lane % 4, r0 = warp * 16;
	uint32_t sQ = s0 + cw * 2 * TB, sO = sQ + TB;
	load_tile_sw<D>(sQ, q + ib + (long)qt * FT * is, is);
	load_tile_sw<D>(sO, datt + ((long)b * T + (long)qt * FT) * C + h * D, C);
	load_commit();
	float L[2], Ds[2];
	dq_row_stats<D>(L, Ds, dsum, att, datt, lse2, b, bh, h, T, C, qt * FT + r0 + g, t);
	load_wait<0>();
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* Q, dO are read by wgmma */
	named_sync(4 + cw, WG);
	float dQ[D / 2];
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		dQ[i] = 0.f;
	for (int j = 0; j <= qb; j++) {
		int st = j % NS, par = (j / NS) & 1;
		uint32_t sK = sKb + st * TK, sV = sVb + st * TK;
		stage_acquire(bars + st * 8, par);        /* K_j */
		stage_acquire(bars + (NS + st) * 8, par); /* V_j */
		float s[KN / 2], dp[KN / 2];
		wg_fence();
#pragma unroll
		for (int kk = 0; kk < D / 16; kk++)
			wg_ss_n128(s, desc_k(sQ, kk), desc_k_rows<KN>(sK, kk), kk > 0); /* S = Q K^T */
#pragma unroll
		for (int kk = 0; kk < D / 16; kk++)
			wg_ss_n128(dp, desc_k(sO, kk), desc_k_rows<KN>(sV, kk), kk > 0); /* dP = dO V^T */
		wg_commit();
		wg_wait<0>();
		wg_hold<KN / 2>(s);
		wg_hold<KN / 2>(dp);
		stage_release(bars + (3 * NS + st) * 8, lane); /* V_j */
#pragma unroll
		for (int n = 0; n < KN / 2; n++) {
			int e = n & 3, i = roff + r0 + g + (e >= 2 ? 8 : 0), c = (n >> 2) * 8 + 2 * t + (e & 1);
			float p = j == qb && c > i ? 0.f : exp2_ftz(s[n] * sl2 - L[e >> 1]);
			dp[n] = p * (dp[n] - Ds[e >> 1]); /* dS */
		}
		uint32_t da[KN / 16][4];
		pp_frags<KN>(da, dp);
		wg_fence();
		pp_pv<D, KN>(dQ, da, sK); /* dQ += dS K */
		wg_wait<0>();
		wg_hold<D / 2>(dQ);
		stage_release(bars + (2 * NS + st) * 8, lane); /* K_j */
	}
	long base = (long)bh * T * D;
	dq_store<D>(dq, dQ, base, qt * FT + r0 + g, t, scale);
}

/* ---- backward dK/dV, warp-specialised -----------------------------------

   The dK/dV kernel with a producer: warpgroup 2 copies each query tile's
   Q and dO (and its 64 rows of lse2 and dsum) into one of NS stages and
   signals it on an mbarrier; two consumer warpgroups, each with its own
   64 key rows (a block's 128), read every stage and give it back once
   their dV and dK products have read it. Both consumers share each Q, dO
   tile (half the copies of the one-warpgroup kernel) and neither copies
   nor waits at a block barrier. No turns: each iteration issues three
   groups of products with elementwise work between them, and dK, dV (128
   registers) leave no room for a software pipeline. The consumers hold
   240 registers a thread (the one-warpgroup kernel uses 242 under its cap
   of 255), the producer 24. */

template <int D, int NS>
__device__ __forceinline__ void dkdv_produce(uint32_t sQO, uint32_t bars, const bf16 *qg, const bf16 *dO,
					     const float *lse2, const float *dsum, int is, int C, int first,
					     int nT)
{
	constexpr int TB = FT * D * 2, STAGE = 2 * TB + 1024 /* lse2, dsum; padded: tiles 1024-byte aligned */;
	for (int i = first; i < nT; i++) {
		int n = i - first, st = n % NS;
		uint32_t buf = sQO + st * STAGE;
		mbar_wait(bars + (NS + st) * 8, ((n / NS) & 1) ^ 1);
		load_tile_sw<D>(buf, qg + (long)i * FT * is, is);
		load_tile_sw<D>(buf + TB, dO + (long)i * FT * C, C);
		load_row_f32(buf + 2 * TB, lse2 + (long)i * FT, 2 * WG);
		load_row_f32(buf + 2 * TB + FT * 4, dsum + (long)i * FT, 2 * WG + 16);
		mbar_arrive_on_copies(bars + st * 8);
	}
	load_wait<0>();
}

/* The fused backward's producer: dkdv_produce's walk by one thread, Q and
 * dO by tensor copies (D / 64 boxes of 64 rows a tile), lse2 and dsum by
 * bulk copies, all on the stage's full barrier with their bytes. Query
 * tile i of the head: rows qy + i FT, columns qx.. of mapQ; dO's rows
 * oy + i FT, columns ox.. of mapO. */
template <int D, int NS>
__device__ __forceinline__ void dkdv_produce_tma(uint32_t sQO, uint32_t bars, const CUtensorMap *mq,
						 const CUtensorMap *mo, int qx, int qy, int ox, int oy,
						 const float *lse2, const float *dsum, int first, int nT)
{
	constexpr int TB = FT * D * 2, STAGE = 2 * TB + 1024;
	for (int i = first; i < nT; i++) {
		int n = i - first, st = n % NS;
		uint32_t buf = sQO + st * STAGE, full = bars + st * 8;
		mbar_wait(bars + (NS + st) * 8, ((n / NS) & 1) ^ 1);
		mbar_arrive_expect_tx(full, 2 * TB + 2 * FT * 4);
		tma_load_tile_rows<D, FT>(buf, mq, qx, qy + i * FT, full);
		tma_load_tile_rows<D, FT>(buf + TB, mo, ox, oy + i * FT, full);
		bulk_load(buf + 2 * TB, lse2 + (long)i * FT, FT * 4, full);
		bulk_load(buf + 2 * TB + FT * 4, dsum + (long)i * FT, FT * 4, full);
	}
}

/* A dK/dV consumer's start (the dK/dV kernel's and the fused one's): its
 * key tile's K and V into shared memory, made visible to wgmma and to the
 * whole warpgroup; query tile `first`, above the second consumer's
 * diagonal, given back unread by it; dK and dV zeroed. */
template <int D, int NS>
__device__ __forceinline__ void dkdv_consumer_start(float *dK, float *dV, uint32_t sK, uint32_t sV, const bf16 *k,
						    const bf16 *v, long ib, int is, int kt, int cw, uint32_t bars,
						    int lane)
{
	load_tile_sw<D>(sK, k + ib + (long)kt * FT * is, is);
	load_tile_sw<D>(sV, v + ib + (long)kt * FT * is, is);
	load_commit();
	load_wait<0>();
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* K, V are read by wgmma */
	named_sync(4 + cw, WG);
	if (cw == 1)
		stage_release(bars + NS * 8, lane);
#pragma unroll
	for (int i = 0; i < D / 2; i++)
		dK[i] = dV[i] = 0.f;
}

template <int D, int NS>
__global__ void __launch_bounds__(PP_THREADS, 1)
flash_wg_dkdv_pp_kernel(bf16 *dk, bf16 *dv, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
			const bf16 *datt, const float *lse2, const float *dsum, int T, int H, float sl2, float scale)
{
	constexpr int TB = FT * D * 2, STAGE = 2 * TB + 1024 /* lse2, dsum; padded: tiles 1024-byte aligned */;
	extern __shared__ unsigned char smem[];
	/* each consumer's K and V, then NS stages of Q, dO, lse2, dsum, then the
	 * 2 NS barriers (full, empty) */
	uint32_t s0 = smem_base_1024(smem), sQO = s0 + 4 * TB, bars = sQO + NS * STAGE;
	int nT = T / FT, first = blockIdx.x * 2; /* the longest loops (small key tiles) first */
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int lane = threadIdx.x % WARP;
	long ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	const bf16 *dO = datt + (long)b * T * C + h * D;
	if (threadIdx.x == 0) {
		for (int i = 0; i < NS; i++)
			mbar_init(bars + i * 8, WG); /* full: one arrival a producer thread */
		for (int i = NS; i < 2 * NS; i++)
			mbar_init(bars + i * 8, 8); /* empty: one a consumer warp */
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads(); /* the last block-wide barrier */
	if (threadIdx.x >= 2 * WG) {
		asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n" ::: "memory");
		dkdv_produce<D, NS>(sQO, bars, q + ib, dO, lse2 + (long)bh * T, dsum + (long)bh * T, is, C, first,
				    nT);
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n" ::: "memory");
	int cw = threadIdx.x / WG, kt = first + cw;
	int warp = threadIdx.x % WG / WARP, g = lane / 4, t = lane % 4, r0 = warp * 16;
	uint32_t sK = s0 + cw * 2 * TB, sV = sK + TB;
	float dK[D / 2], dV[D / 2];
	dkdv_consumer_start<D, NS>(dK, dV, sK, sV, k, v, ib, is, kt, cw, bars, lane);
	const float *fbase = reinterpret_cast<const float *>(smem + (sQO - (uint32_t)__cvta_generic_to_shared(smem)));
	for (int qt = kt; qt < nT; qt++) {
		int n = qt - first, st = n % NS;
		uint32_t sQ = sQO + st * STAGE, sO = sQ + TB;
		const float *sL = fbase + st * (STAGE / 4) + 2 * TB / 4, *sD = sL + FT;
		stage_acquire(bars + st * 8, (n / NS) & 1);
		dkdv_tile<D>(dK, dV, sK, sV, sQ, sO, sL, sD, qt == kt, sl2, r0 + g, t);
		stage_release(bars + (NS + st) * 8, lane);
	}
	dkdv_store<D>(dk, dv, dK, dV, (long)bh * T * D, ib, is, kt * FT + r0 + g, t, scale);
}

/* ---- fused backward, dQ reduced by the bulk copy engine (family 13) -----

   One kernel of 5 products a tile instead of the dQ and dK/dV kernels'
   7: flash_wg_dkdv_pp_kernel's block (two consumer warpgroups of 64 key
   rows each, accumulating dK and dV in registers; a producer copying each
   query tile's Q, dO, lse2 and dsum into NS stages: dkdv_produce's walk,
   by one thread's tensor and bulk copies, dkdv_produce_tma, since round
   14: 2418 -> 2366 us a layer fwd + bwd), and in each iteration the query tile's
   dQ = dS K over the block's 128 key rows, split by columns: consumer c
   computes columns 64c.. (at D = 128; at D = 64 consumer 0 all of them).
   Each consumer issues its dK product (dS^T from registers), stores the
   same dS^T as bf16 in shared memory under it, both meet at a barrier,
   and each reads both dS^T tiles and both K tiles (8 wgmma of k16, both
   operands MN-major; on the block's first query tile, above consumer 1's
   keys, consumer 1 stores a zero dS^T and takes part in dQ only). Its 64 x 64
   fp32 result goes to a 16 KB staging tile in the accumulator's fragment
   order (below), and one thread of the consumer hands the tile to the
   bulk copy engine: cp.reduce.async.bulk .add.f32 into dq_acc. No
   partials to add (the columns are disjoint), no handshake with the
   producer, one instruction a tile: round 10's design (the producer
   warpgroup adding the two consumers' row partials and issuing
   red.global.add) kept its reductions hidden but cost the consumers
   ~605 us a layer around them (docs/performance.md, round 10). The
   staging tile is reused a tile later: its issuing thread waits for the
   engine to have read it (cp.async.bulk.wait_group.read) before the next
   tile's barrier, which every thread of the consumer passes before its
   staging stores. dS^T tiles alternate between two pairs, so a consumer
   overwrites a pair only after both have passed the barrier of the tile
   after the one that read it. Measured on the H200 (docs/performance.md,
   round 11): fwd+bwd 2489-2540 us a layer against family 12's 2690-2702,
   a step 2-3% shorter at both shapes; the default since.

   dq_acc layout: 16 KB blocks, one a (bh, query tile, 64-column block),
   in that order (the same total as (B,H,T,D)), each holding the
   accumulator fragments as a warpgroup owns them: float4 j * 128 + x of
   a block is thread x's d[4j..4j+3], that is rows 16w + g (d[4j],
   d[4j+1]) and 16w + g + 8 (d[4j+2], d[4j+3]) at columns 8j + 2t, +1
   (wgmma.cuh; w = x / 32, g = x % 32 / 4, t = x % 4). So the staging
   stores are 16 bytes a thread, 512 contiguous bytes a warp (no bank
   conflicts), and the convert kernel after the fused one puts the rows
   back in order through shared memory. dsum comes from a kernel before;
   a memset after the convert leaves the accumulator zero again. */

#define FQ_BOTH 6                          /* named barrier of the two consumers' 256 threads */
#define FQ_BLOCK (FT * 64)                 /* fp32 elements of a dq_acc block (16 KB) */

/* A 64 x 64 accumulator (rows r0 + g, + 8 of a warpgroup's 64; columns
 * 8j + 2t, + 1) as bf16 into a swizzled 64 x 64 tile, rows first: the 32
 * lanes of a warp hit 32 distinct banks (8 rows, each a different
 * swizzled chunk, 4 pairs). */
__device__ __forceinline__ void store_acc_tile(uint32_t tile, const float *d, int r0, int g, int t)
{
#pragma unroll
	for (int j = 0; j < 8; j++)
#pragma unroll
		for (int h = 0; h < 2; h++) {
			__nv_bfloat162 v = __floats2bfloat162_rn(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
			uint32_t u = *reinterpret_cast<uint32_t *>(&v);
			asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(tile + sw_off(r0 + g + 8 * h, j) + 4 * t), "r"(u)
				     : "memory");
		}
}

/* [g] += [s] for bytes bytes of fp32, by the bulk copy engine, in this
 * thread's bulk group. */
__device__ __forceinline__ void bulk_reduce_add(float *g, uint32_t s, int bytes)
{
	asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;\n"
		     "cp.async.bulk.commit_group;\n" ::"l"(g),
		     "r"(s), "r"(bytes)
		     : "memory");
}

/* Wait until at most N of this thread's bulk groups still read their
 * shared source (N = -1: until they have completed, writes included). */
template <int N> __device__ __forceinline__ void bulk_wait(void)
{
	if constexpr (N < 0)
		asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
	else
		asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}

/* This consumer's dS^T (rows j) into its tile of the pair, made visible
 * to the wgmma that read it after the consumers' barrier. Issued after
 * the dK product (which takes dS^T from registers), so the stores and the
 * proxy fence run under it: stored before it (variant 4, round 11's first
 * order) they cost ~170 us a layer. */
__device__ __forceinline__ void fq_store_ds(uint32_t tile, const float *dp, int r0, int g, int t)
{
	store_acc_tile(tile, dp, r0, g, t);
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* Consumer cw's 64 dQ columns of query tile qt from the dS^T pair ds
 * (both consumers', 8 KB apart) and both K tiles (from sK0, 2 TB
 * apart): issued and committed. */
template <int D>
__device__ __forceinline__ void fq_dq_issue(float *dq, uint32_t ds, uint32_t sK0, int cw)
{
	constexpr int TB = FT * D * 2;
	wg_fence();
#pragma unroll
	for (int src = 0; src < 2; src++)
#pragma unroll
		for (int kk = 0; kk < 4; kk++)
			wg_ss_n64_t<1, 1>(dq, desc_mn<64>(ds + src * FT * FT * 2, kk),
					  desc_mn<64>(sK0 + src * 2 * TB + cw * FT * 128, kk), src + kk > 0);
	wg_commit();
}

/* The finished dQ columns staged in fragment order and handed to the
 * bulk copy engine (by thread 0 of the consumer, after the warpgroup's
 * stores). */
template <int DIAG>
__device__ __forceinline__ void fq_dq_stage(float *dst, const float *dq, uint32_t stg, int cw)
{
	int x = threadIdx.x % WG;
#pragma unroll
	for (int j = 0; j < 8; j++)
		asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(stg + (j * WG + x) * 16),
			     "f"(dq[4 * j]), "f"(dq[4 * j + 1]), "f"(dq[4 * j + 2]), "f"(dq[4 * j + 3])
			     : "memory");
	asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* read next by the copy engine */
	named_sync(4 + cw, WG);
	if (x == 0 && DIAG != 1) /* 1, timing only: the staged tile dropped */
		bulk_reduce_add(dst, stg, FQ_BLOCK * 4);
}

template <int D, int DIAG>
__device__ __forceinline__ void fq_dq_tile(float *dst, uint32_t ds, uint32_t sK0, uint32_t stg, int cw)
{
	float dq[32];
	fq_dq_issue<D>(dq, ds, sK0, cw);
	wg_wait<0>();
	wg_hold<32>(dq);
	fq_dq_stage<DIAG>(dst, dq, stg, cw);
}

/* The consumers' meeting point of a query tile: both dS^T tiles stored,
 * and this consumer's staging tile read by the copy engine (only its
 * issuing thread has bulk groups to wait for; every thread passes the
 * barrier after it). */
template <int DIAG> __device__ __forceinline__ void fq_meet(void)
{
	if constexpr (DIAG != 2) {
		bulk_wait<0>();
		named_sync(FQ_BOTH, 2 * WG);
	}
}

/* This consumer's dQ columns of the tile, where it has some (at D = 64
 * consumer 0 has them all). */
template <int D, int DIAG>
__device__ __forceinline__ void fq_dq(float *dst, uint32_t ds, uint32_t sK0, uint32_t stg, int cw)
{
	if constexpr (DIAG != 2 && DIAG != 3) /* 2 and 3, timing only: no dQ product */
		if (D == 128 || cw == 0)
			fq_dq_tile<D, DIAG>(dst, ds, sK0, stg, cw);
}

/* One query tile of a consumer at or below its diagonal: dkdv_tile with
 * its dS^T stored for both consumers' dQ products, the dK product
 * running while the consumers meet. stage_empty: the stage's barrier,
 * given back once dK and dV have read it. */
template <int D, int DIAG>
__device__ __forceinline__ void fq_tile(float *dK, float *dV, uint32_t sK, uint32_t sV, uint32_t sQ, uint32_t sO,
					const float *sL, const float *sD, bool diag, float sl2, int r0, int g, int t,
					int cw, uint32_t sK0, uint32_t ds, uint32_t stg, float *dst,
					uint32_t stage_empty, int lane)
{
	float dp[32];
	uint32_t da[4][4];
	dv_and_ds_tile<D>(dp, da, dV, sK, sV, sQ, sO, sL, sD, diag, sl2, r0 + g, t);
	if constexpr (DIAG == 4)
		fq_store_ds(ds + cw * FT * FT * 2, dp, r0, g, t);
	wg_fence();
	acc_times_tile_wg<D>(dK, da, sQ); /* dK += dS^T Q */
	if constexpr (DIAG != 2 && DIAG != 4)
		fq_store_ds(ds + cw * FT * FT * 2, dp, r0, g, t); /* under the dK product */
	fq_meet<DIAG>();
	if constexpr (DIAG == 5 && D == 128) { /* dQ issued behind dK, before dK is waited for */
		float dq[32];
		fq_dq_issue<D>(dq, ds, sK0, cw);
		wg_wait<1>(); /* dV, dK */
		wg_hold<D / 2>(dV);
		wg_hold<D / 2>(dK);
		stage_release(stage_empty, lane);
		wg_wait<0>();
		wg_hold<32>(dq);
		fq_dq_stage<DIAG>(dst, dq, stg, cw);
		return;
	}
	wg_wait<0>(); /* dV, dK */
	wg_hold<D / 2>(dV);
	wg_hold<D / 2>(dK);
	stage_release(stage_empty, lane); /* Q, dO, lse2, dsum of this stage are read */
	fq_dq<D, DIAG>(dst, ds, sK0, stg, cw);
}

/* Consumer 1 on the block's first query tile, which lies above its keys:
 * no dK or dV, but its dQ columns, from consumer 0's dS^T and a zero
 * dS^T of its own (so that every dQ product reads both pairs). */
template <int D, int DIAG>
__device__ __forceinline__ void fq_first_tile_above(float *dst, uint32_t ds, uint32_t sK0, uint32_t stg, int r0,
						    int g, int t)
{
	float zero[32];
#pragma unroll
	for (int i = 0; i < 32; i++)
		zero[i] = 0.f;
	if constexpr (DIAG != 2)
		fq_store_ds(ds + FT * FT * 2, zero, r0, g, t);
	fq_meet<DIAG>();
	fq_dq<D, DIAG>(dst, ds, sK0, stg, 1);
}

/* impl.rotary=epilogue: dkdv_store's dV, and its dK (rounded as it rounds
 * it) through rotary.cu's QK-norm + rotary backward on the way out, into
 * dk in the layout of dv (dqkv's k part): staged row-major in this
 * consumer's staging tile (free once its last reduction has landed; 16-
 * byte chunks XOR-swizzled by row, so a warp's stores of 8 rows hit 32
 * banks), then each of the tile's 64 rows by D/16 lanes as rotary.cu's
 * 16-byte kernel takes it, the rotated k read from the consumer's own K
 * tile. Rows are key rows kt FT.. of head bh. */
template <int D>
__device__ __forceinline__ void dkdv_store_rotary(bf16 *dk, bf16 *dv, const float *dK, const float *dV, long ib,
						  int is, int kt, int r0, int g, int t, float scale, uint32_t sK,
						  uint32_t stg, const flash_rotary &rot, long bh, int T, int cw)
{
	constexpr int ROWB = D * 2, G = D / 16, ROWS = WG / G;
	named_sync(4 + cw, WG); /* the issuing thread has seen the tile's last reduction land */
#pragma unroll
	for (int i = 0; i < 2; i++) {
		int rl = r0 + g + 8 * i;
		long vrow = ib + (long)(kt * FT + rl) * is + 2 * t;
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++) {
			*reinterpret_cast<__nv_bfloat162 *>(dv + vrow + dt * 8) =
				__floats2bfloat162_rn(dV[dt * 4 + 2 * i], dV[dt * 4 + 2 * i + 1]);
			uint32_t at = stg + rl * ROWB + ((dt ^ (rl & 7)) << 4) + 4 * t;
			asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(at),
				     "r"(pack_bf16(dK[dt * 4 + 2 * i] * scale, dK[dt * 4 + 2 * i + 1] * scale))
				     : "memory");
		}
	}
	named_sync(4 + cw, WG);
	int x = threadIdx.x % WG, c = x % G, i0 = 8 * c;
#pragma unroll 1
	for (int rl = x / G; rl < FT; rl += ROWS) {
		int pos = kt * FT + rl;
		bf16x8 g1 = lds8(stg + rl * ROWB + ((c ^ (rl & 7)) << 4));
		bf16x8 g2 = lds8(stg + rl * ROWB + (((G + c) ^ (rl & 7)) << 4));
		bf16x8 y1 = lds8(sK + sw_off(rl, c)), y2 = lds8(sK + sw_off(rl, G + c)), o1, o2;
		float cs[8], sn[8], rs = rot.qk_norm ? rot.rstd_k[bh * T + pos] : 1.f;
		load_cs(cs, sn, rot.cos_sin, T, D / 2, pos, i0);
		rotary_backward8(&o1, &o2, g1, g2, y1, y2, cs, sn, rs, rot.qk_norm, D, G);
		bf16 *dst = dk + ib + (long)pos * is;
		store8(dst + i0, o1);
		store8(dst + D / 2 + i0, o2);
	}
}

template <int D, int NS, int DIAG, bool ROT>
__global__ void __launch_bounds__(PP_THREADS, 1)
flash_wg_bwd_fq_kernel(float *dq_acc, bf16 *dk, bf16 *dv, const __grid_constant__ CUtensorMap mapQ,
		       const bf16 *k, const bf16 *v, qkv_layout lay, const __grid_constant__ CUtensorMap mapO,
		       const float *lse2, const float *dsum, int T, int H, float sl2, float scale, flash_rotary rot)
{
	constexpr int TB = FT * D * 2, STAGE = 2 * TB + 1024, DS = FT * FT * 2;
	extern __shared__ unsigned char smem[];
	/* each consumer's K and V; NS stages of Q, dO, lse2, dsum; two pairs
	 * of dS^T tiles (64 x 64 bf16, one a consumer); each consumer's
	 * staging tile (16 KB); the 2 NS stage barriers (full, empty) */
	uint32_t s0 = smem_base_1024(smem), sQO = s0 + 4 * TB, sDS = sQO + NS * STAGE, stg = sDS + 4 * DS,
		 bars = stg + 2 * FQ_BLOCK * 4;
	int nT = T / FT, first = blockIdx.x * 2; /* the longest loops (small key tiles) first */
	int bh = blockIdx.y, b = bh / H, h = bh % H;
	int lane = threadIdx.x % WARP;
	long ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	if (threadIdx.x == 0) {
		for (int i = 0; i < NS; i++)
			mbar_init(bars + i * 8, 1); /* full: the producer's, with the bytes */
		for (int i = NS; i < 2 * NS; i++)
			mbar_init(bars + i * 8, 8); /* empty: one a consumer warp */
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads(); /* the last block-wide barrier */
	if (threadIdx.x >= 2 * WG) { /* one thread of the producer warpgroup copies */
		asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n" ::: "memory");
		if (threadIdx.x == 2 * WG) /* dO: (B T) x C, head h at columns h D */
			dkdv_produce_tma<D, NS>(sQO, bars, &mapQ, &mapO, (int)(ib % is), (int)(ib / is), h * D, b * T,
						lse2 + (long)bh * T, dsum + (long)bh * T, first, nT);
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n" ::: "memory");
	int cw = threadIdx.x / WG, kt = first + cw;
	int warp = threadIdx.x % WG / WARP, g = lane / 4, t = lane % 4, r0 = warp * 16;
	uint32_t sK = s0 + cw * 2 * TB, sV = sK + TB, mystg = stg + cw * FQ_BLOCK * 4;
	float dK[D / 2], dV[D / 2];
	dkdv_consumer_start<D, NS>(dK, dV, sK, sV, k, v, ib, is, kt, cw, bars, lane);
	const float *fbase = reinterpret_cast<const float *>(smem + (sQO - (uint32_t)__cvta_generic_to_shared(smem)));
	float *acc = dq_acc + (long)bh * T * D + cw * FQ_BLOCK; /* this consumer's blocks of query tile 0 */
	if (cw == 1)
		fq_first_tile_above<D, DIAG>(acc + (long)first * FT * D, sDS, s0, mystg, r0, g, t);
	for (int qt = kt; qt < nT; qt++) {
		int n = qt - first, st = n % NS;
		uint32_t sQ = sQO + st * STAGE, sO = sQ + TB;
		const float *sL = fbase + st * (STAGE / 4) + 2 * TB / 4, *sD = sL + FT;
		stage_acquire(bars + st * 8, (n / NS) & 1);
		fq_tile<D, DIAG>(dK, dV, sK, sV, sQ, sO, sL, sD, qt == kt, sl2, r0, g, t, cw, s0,
				 sDS + (n & 1) * 2 * DS, mystg, acc + (long)qt * FT * D, bars + (NS + st) * 8, lane);
	}
	bulk_wait<-1>(); /* the last reduction has landed (the staging tile outlives it) */
	if constexpr (ROT)
		dkdv_store_rotary<D>(dk, dv, dK, dV, ib, is, kt, r0, g, t, scale, sK, mystg, rot, bh, T, cw);
	else
		dkdv_store<D>(dk, dv, dK, dV, (long)bh * T * D, ib, is, kt * FT + r0 + g, t, scale);
}

/* dsum (B,H,T) = rowsum(dO * O) before the fused kernel: D/8 threads a
 * row, 16-byte loads. */
template <int D>
__global__ void flash_wg_dsum_kernel(float *dsum, const bf16 *att, const bf16 *datt, long rows, int T, int H)
{
	constexpr int PER = D / 8; /* threads a row: 8 or 16, within a warp */
	long row = (blockIdx.x * (long)blockDim.x + threadIdx.x) / PER;
	int c = threadIdx.x % PER;
	float acc = 0.f;
	if (row < rows) { /* no early return: the whole warp takes part in the shuffles */
		long bh = row / T;
		int tt = row % T, hh = bh % H, b = bh / H;
		long off = ((long)b * T + tt) * H * D + (long)hh * D + c * 8;
		bf16x8 x = { *reinterpret_cast<const uint4 *>(att + off) };
		bf16x8 y = { *reinterpret_cast<const uint4 *>(datt + off) };
#pragma unroll
		for (int e = 0; e < 8; e++)
			acc += x.get(e) * y.get(e);
	}
#pragma unroll
	for (int m = PER / 2; m > 0; m /= 2)
		acc += __shfl_xor_sync(0xffffffffu, acc, m);
	if (c == 0 && row < rows)
		dsum[row] = acc;
}

/* dq (B,H,T,D) bf16 = scale * dq_acc: a block of 128 threads a 16 KB
 * block of dq_acc (64 rows x 64 columns in the fused kernel's fragment
 * order). The fragments are read 16 bytes a thread and go as bf16 into a
 * row-major tile in shared memory (rows padded by 16 bytes: a warp's
 * 4-byte stores of 8 rows land in 32 distinct banks), whose rows are then
 * written 16 bytes a thread. (Zeroing dq_acc here as well, stores
 * interleaved with the loads, ran at 1.3 TB/s under ncu in round 10; a
 * memset after it does that part.) */
/* One block of dq_acc (64 rows x 64 columns in the fused kernel's
 * fragment order) as bf16 scale * dq_acc into columns col0.. of a
 * row-major shared tile of ROW bytes a row, by the block's 128 threads. */
template <int ROW>
__device__ __forceinline__ void dq_block_to_tile(unsigned char *tile, const float *block, int col0, float scale)
{
	const float4 *a = reinterpret_cast<const float4 *>(block);
	int x = threadIdx.x, r = 16 * (x / WARP) + x % WARP / 4, t = x % 4;
#pragma unroll
	for (int j = 0; j < 8; j++) {
		float4 f = a[j * WG + x];
		unsigned char *p = tile + r * ROW + (col0 + 8 * j + 2 * t) * 2;
		*reinterpret_cast<__nv_bfloat162 *>(p) = __floats2bfloat162_rn(f.x * scale, f.y * scale);
		*reinterpret_cast<__nv_bfloat162 *>(p + 8 * ROW) = __floats2bfloat162_rn(f.z * scale, f.w * scale);
	}
}

template <int D>
__global__ void __launch_bounds__(WG) flash_wg_dq_convert_kernel(bf16 *dq, const float *dq_acc, float scale)
{
	constexpr int NH = D / 64, ROW = 64 * 2 + 16; /* bytes of a row in shared memory */
	__shared__ __align__(16) unsigned char tile[FT * ROW];
	long blk = blockIdx.x;
	int x = threadIdx.x;
	dq_block_to_tile<ROW>(tile, dq_acc + blk * FQ_BLOCK, 0, scale);
	__syncthreads();
	long row0 = blk / NH * FT;
	int col0 = blk % NH * 64;
#pragma unroll
	for (int i = x; i < FT * 8; i += WG) { /* 8 chunks of 16 bytes a row */
		int rr = i / 8, c = i % 8;
		*reinterpret_cast<uint4 *>(dq + (row0 + rr) * D + col0 + c * 8) =
			*reinterpret_cast<const uint4 *>(tile + rr * ROW + c * 16);
	}
}

/* impl.rotary=epilogue: flash_wg_dq_convert_kernel and rotary.cu's
 * QK-norm + rotary backward of q in one pass. A block of 128 threads
 * takes a 64-row tile of one head (its D / 64 blocks of dq_acc), rounds
 * scale * dq_acc to bf16 as the conversion does into a row-major tile
 * in shared memory (rows padded by 16 bytes, as there), and takes each
 * row from there by D/16 lanes as rotary.cu's 16-byte kernel does, the
 * rotated q read from q (layout lay), into dq in the same layout (dqkv's
 * q part). */
template <int D>
__global__ void __launch_bounds__(WG)
flash_wg_dq_rotary_kernel(bf16 *dq, const bf16 *q, const float *dq_acc, float scale, flash_rotary rot,
			  qkv_layout lay, int T, int H)
{
	constexpr int NH = D / 64, ROW = D * 2 + 16, G = D / 16, ROWS = WG / G;
	__shared__ __align__(16) unsigned char tile[FT * ROW];
	int x = threadIdx.x;
#pragma unroll
	for (int cb = 0; cb < NH; cb++)
		dq_block_to_tile<ROW>(tile, dq_acc + (blockIdx.x * (long)NH + cb) * FQ_BLOCK, cb * 64, scale);
	__syncthreads();
	long row0 = blockIdx.x * (long)FT, bh = row0 / T; /* rows of (B,H,T) */
	long ib = bh / H * lay.bs + bh % H * lay.hs;
	int c = x % G, i0 = 8 * c;
#pragma unroll 1
	for (int rl = x / G; rl < FT; rl += ROWS) {
		int pos = (int)(row0 % T) + rl;
		long off = ib + (long)pos * lay.row;
		const unsigned char *p = tile + rl * ROW;
		bf16x8 g1 = { *reinterpret_cast<const uint4 *>(p + i0 * 2) };
		bf16x8 g2 = { *reinterpret_cast<const uint4 *>(p + (D / 2 + i0) * 2) };
		bf16x8 y1 = g1, y2 = g2, o1, o2; /* y: read under qk_norm only */
		if (rot.qk_norm) {
			y1 = load8(q + off + i0);
			y2 = load8(q + off + D / 2 + i0);
		}
		float cs[8], sn[8], rs = rot.qk_norm ? rot.rstd_q[row0 + rl] : 1.f;
		load_cs(cs, sn, rot.cos_sin, T, D / 2, pos, i0);
		rotary_backward8(&o1, &o2, g1, g2, y1, y2, cs, sn, rs, rot.qk_norm, D, G);
		store8(dq + off + i0, o1);
		store8(dq + off + D / 2 + i0, o2);
	}
}

/* ---- launchers (called by flash.cu) ------------------------------------ */

template <typename K> static int smem_opt_in(K kernel, size_t bytes)
{
	CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
	return 0;
}

static size_t tiles_bytes(int tiles, int D, size_t extra)
{
	return (size_t)tiles * FT * D * sizeof(bf16) + extra + 1024; /* + 1024: the base is aligned up */
}

template <int D, int WGS>
static int wg_forward_d(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B,
			int T, int H, cudaStream_t s)
{
	static int ready;
	size_t bytes = tiles_bytes(WGS + 4, D, 0);
	if (!ready && smem_opt_in(flash_wg_forward_kernel<D, WGS>, bytes))
		return -1;
	ready = 1;
	float sl2 = LOG2E / sqrtf((float)D);
	flash_wg_forward_kernel<D, WGS><<<dim3(T / (FT * WGS), B * H), WG * WGS, bytes, s>>>(
		att, lse2, q, k, v, qkv_layout_of(ld, H, T, D), T, H, sl2);
	KERNEL_CHECK();
	return 0;
}

template <int D, int NS, int KN>
static int wg_forward_pp_d(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B,
			   int T, int H, cudaStream_t s)
{
	static int ready;
	size_t bytes = 2 * FT * D * sizeof(bf16) + 2 * NS * KN * D * sizeof(bf16) + 4 * NS * 8 + 1024;
	if (!ready && smem_opt_in(flash_wg_forward_pp_kernel<D, NS, KN>, bytes))
		return -1;
	ready = 1;
	float sl2 = LOG2E / sqrtf((float)D);
	qkv_layout lay = qkv_layout_of(ld, H, T, D);
	CUtensorMap mapK, mapV;
	if (qkv_tensor_map(&mapK, k, lay, B, T, H, D, KN, "flash forward") ||
	    qkv_tensor_map(&mapV, v, lay, B, T, H, D, KN, "flash forward"))
		return -1;
	flash_wg_forward_pp_kernel<D, NS, KN><<<dim3(T / (2 * FT), B * H), PP_THREADS, bytes, s>>>(
		att, lse2, q, mapK, mapV, lay, T, H, sl2);
	KERNEL_CHECK();
	return 0;
}

template <int D, int WGS>
static int wg_dq_d(bf16 *dq, float *dsum, const bf16 *att, const bf16 *datt, const float *lse2, const bf16 *q,
		   const bf16 *k, const bf16 *v, qkv_layout lay, int B, int T, int H, cudaStream_t s)
{
	static int ready;
	size_t bytes = tiles_bytes(2 * WGS + 4, D, 0);
	if (!ready && smem_opt_in(flash_wg_dq_kernel<D, WGS>, bytes))
		return -1;
	ready = 1;
	float scale = 1.f / sqrtf((float)D), sl2 = LOG2E * scale;
	trace_kernel("flash_backward_dq");
	flash_wg_dq_kernel<D, WGS><<<dim3(T / (FT * WGS), B * H), WG * WGS, bytes, s>>>(dq, dsum, q, k, v, lay, att,
										      datt, lse2, T, H, sl2, scale);
	KERNEL_CHECK();
	return 0;
}

/* The warp-specialised dQ: 3 stages of K and V tiles (2 would make the
 * producer wait for dQ += dS K of the tile before last). */
template <int D, bool DO_REG, bool TURNS>
static int wg_dq_pp_d(bf16 *dq, float *dsum, const bf16 *att, const bf16 *datt, const float *lse2, const bf16 *q,
		      const bf16 *k, const bf16 *v, qkv_layout lay, int B, int T, int H, cudaStream_t s)
{
	constexpr int NS = 3;
	static int ready;
	size_t bytes = tiles_bytes(4 + 2 * NS, D, 4 * NS * 8);
	if (!ready && smem_opt_in(flash_wg_dq_pp_kernel<D, NS, DO_REG, TURNS>, bytes))
		return -1;
	ready = 1;
	float scale = 1.f / sqrtf((float)D), sl2 = LOG2E * scale;
	trace_kernel("flash_backward_dq");
	flash_wg_dq_pp_kernel<D, NS, DO_REG, TURNS><<<dim3(T / (2 * FT), B * H), PP_THREADS, bytes, s>>>(
		dq, dsum, q, k, v, lay, att, datt, lse2, T, H, sl2, scale);
	KERNEL_CHECK();
	return 0;
}

template <int D>
static int wg_dq_pp128_d(bf16 *dq, float *dsum, const bf16 *att, const bf16 *datt, const float *lse2, const bf16 *q,
			 const bf16 *k, const bf16 *v, qkv_layout lay, int B, int T, int H, cudaStream_t s)
{
	constexpr int NS = 2;
	static int ready;
	size_t bytes = tiles_bytes(4 + 4 * NS, D, 4 * NS * 8); /* K, V stages of 128 rows: 2 tiles each */
	if (!ready && smem_opt_in(flash_wg_dq_pp128_kernel<D>, bytes))
		return -1;
	ready = 1;
	float scale = 1.f / sqrtf((float)D), sl2 = LOG2E * scale;
	trace_kernel("flash_backward_dq");
	flash_wg_dq_pp128_kernel<D><<<dim3(T / (2 * FT), B * H), PP_THREADS, bytes, s>>>(dq, dsum, q, k, v, lay, att,
											 datt, lse2, T, H, sl2, scale);
	KERNEL_CHECK();
	return 0;
}

template <int D, int WGS>
static int wg_dkdv_d(bf16 *dk, bf16 *dv, const float *dsum, const bf16 *datt, const float *lse2, const bf16 *q,
		     const bf16 *k, const bf16 *v, qkv_layout lay, int B, int T, int H, cudaStream_t s)
{
	static int ready;
	size_t bytes = tiles_bytes(2 * WGS + 4, D, 4 * FT * sizeof(float));
	if (!ready && smem_opt_in(flash_wg_dkdv_kernel<D, WGS>, bytes))
		return -1;
	ready = 1;
	float scale = 1.f / sqrtf((float)D), sl2 = LOG2E * scale;
	trace_kernel("flash_backward_dkdv");
	flash_wg_dkdv_kernel<D, WGS><<<dim3(T / (FT * WGS), B * H), WG * WGS, bytes, s>>>(
		dk, dv, q, k, v, lay, datt, lse2, dsum, T, H, sl2, scale);
	KERNEL_CHECK();
	return 0;
}

template <int D, int NS>
static int wg_dkdv_pp_d(bf16 *dk, bf16 *dv, const float *dsum, const bf16 *datt, const float *lse2, const bf16 *q,
			const bf16 *k, const bf16 *v, qkv_layout lay, int B, int T, int H, cudaStream_t s)
{
	static int ready;
	size_t bytes = tiles_bytes(4 + 2 * NS, D, NS * 1024 + 2 * NS * 8);
	if (!ready && smem_opt_in(flash_wg_dkdv_pp_kernel<D, NS>, bytes))
		return -1;
	ready = 1;
	float scale = 1.f / sqrtf((float)D), sl2 = LOG2E * scale;
	trace_kernel("flash_backward_dkdv");
	flash_wg_dkdv_pp_kernel<D, NS><<<dim3(T / (2 * FT), B * H), PP_THREADS, bytes, s>>>(
		dk, dv, q, k, v, lay, datt, lse2, dsum, T, H, sl2, scale);
	KERNEL_CHECK();
	return 0;
}

/* flash_fq_diagnostic(N): timing-only variants of the fused kernel for
 * the harness (their dq is wrong): 1 the staged dQ tiles not reduced, 2
 * no dQ work at all (the dK/dV kernel's loop), 3 the dS^T stores and the
 * consumers' barrier kept, no dQ product, staging or reduction; and one
 * correct variants, checked too: 4 the dS^T stores before the dK product
 * is issued, 5 the dQ product issued before dK is waited for (at head
 * size 128; the default elsewhere); 0, the default. */
static int fq_diag;
void flash_fq_diagnostic(int n)
{
	fq_diag = n;
}

template <int D, int DIAG, bool ROT = false>
static int launch_fq(float *dq_acc, bf16 *dk, bf16 *dv, const float *dsum, const bf16 *datt, const float *lse2,
		     const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay, int B, int T, int H,
		     const flash_rotary &rot, cudaStream_t s)
{
	constexpr int NS = 2;
	static int ready;
	/* K, V of both consumers and the NS stages' Q, dO tiles (4 + 2 NS), the
	 * stages' lse2 and dsum, 4 dS^T tiles, 2 staging tiles, the barriers */
	size_t bytes = tiles_bytes(4 + 2 * NS, D, NS * 1024 + 4 * FT * FT * 2 + 2 * FQ_BLOCK * 4 + 2 * NS * 8);
	if (!ready && smem_opt_in(flash_wg_bwd_fq_kernel<D, NS, DIAG, ROT>, bytes))
		return -1;
	ready = 1;
	float scale = 1.f / sqrtf((float)D), sl2 = LOG2E * scale;
	trace_kernel("flash_backward_fused");
	CUtensorMap mapQ, mapO;
	if (qkv_tensor_map(&mapQ, q, lay, B, T, H, D, FT, "flash backward") ||
	    tma_map_2d(&mapO, datt, (long)B * T, (long)H * D, (long)H * D, FT, "flash backward"))
		return -1;
	flash_wg_bwd_fq_kernel<D, NS, DIAG, ROT><<<dim3(T / (2 * FT), B * H), PP_THREADS, bytes, s>>>(
		dq_acc, dk, dv, mapQ, k, v, lay, mapO, lse2, dsum, T, H, sl2, scale, rot);
	KERNEL_CHECK();
	return 0;
}

/* rot: NULL, or the rotary backward on the way out (dq, dk then in q's
 * layout; the timing-only variants of fq_diag are not built for it) */
template <int D>
static int wg_backward_fq_d(bf16 *dq, float *dq_acc, bf16 *dk, bf16 *dv, float *dsum, const bf16 *att,
			    const bf16 *datt, const float *lse2, const bf16 *q, const bf16 *k, const bf16 *v,
			    qkv_layout lay, int B, int T, int H, const flash_rotary *rot, cudaStream_t s)
{
	float scale = 1.f / sqrtf((float)D);
	long rows = (long)B * H * T, n = rows * D;
	if (rot && fq_diag) {
		fprintf(stderr, "%s:%d: flash: diagnostic variant %d of the fused backward has no rotary "
			"backward\n", __FILE__, __LINE__, fq_diag);
		return -1;
	}
	const flash_rotary none = {};
	const flash_rotary &r = rot ? *rot : none;
	trace_kernel("flash_dsum");
	flash_wg_dsum_kernel<D><<<ceil_div(rows * (D / 8), 256), 256, 0, s>>>(dsum, att, datt, rows, T, H);
	KERNEL_CHECK();
	int rc = rot	       ? launch_fq<D, 0, true>(dq_acc, dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, r, s)
		 : fq_diag == 5 ? launch_fq<D, 5>(dq_acc, dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, r, s)
		 : fq_diag == 4 ? launch_fq<D, 4>(dq_acc, dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, r, s)
		 : fq_diag == 3 ? launch_fq<D, 3>(dq_acc, dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, r, s)
		 : fq_diag == 2 ? launch_fq<D, 2>(dq_acc, dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, r, s)
		 : fq_diag == 1 ? launch_fq<D, 1>(dq_acc, dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, r, s)
				: launch_fq<D, 0>(dq_acc, dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, r, s);
	if (rc)
		return rc;
	if (rot) {
		trace_kernel("flash_dq_rotary");
		flash_wg_dq_rotary_kernel<D><<<rows / FT, WG, 0, s>>>(dq, q, dq_acc, scale, r, lay, T, H);
	} else {
		trace_kernel("flash_dq_convert");
		flash_wg_dq_convert_kernel<D><<<n / FQ_BLOCK, WG, 0, s>>>(dq, dq_acc, scale);
	}
	KERNEL_CHECK();
	CUDA_CHECK(cudaMemsetAsync(dq_acc, 0, n * sizeof(float), s)); /* zero again for the next call */
	return 0;
}

/* mode: 0 one warpgroup a block, 1 two in step, 2 (3) the warp-specialised
 * dQ with dO from shared memory (registers) and the one-warpgroup dK/dV;
 * 4 both warp-specialised (dO from shared memory, dK/dV in 2 stages), 5
 * the same with dQ's turns left out, 6 with 3 dK/dV stages, 7 with dQ on
 * 128-key tiles. dQ first: it computes dsum, which the dK/dV kernel
 * reads. */
template <int D>
static int wg_backward_d(bf16 *dq, bf16 *dk, bf16 *dv, float *dsum, const bf16 *att, const bf16 *datt,
			 const float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B, int T,
			 int H, int mode, cudaStream_t s)
{
	qkv_layout lay = qkv_layout_of(ld, H, T, D);
	int rc = mode == 7   ? wg_dq_pp128_d<D>(dq, dsum, att, datt, lse2, q, k, v, lay, B, T, H, s)
		 : mode == 3 ? wg_dq_pp_d<D, true, true>(dq, dsum, att, datt, lse2, q, k, v, lay, B, T, H, s)
		 : mode == 5 ? wg_dq_pp_d<D, false, false>(dq, dsum, att, datt, lse2, q, k, v, lay, B, T, H, s)
		 : mode >= 2 ? wg_dq_pp_d<D, false, true>(dq, dsum, att, datt, lse2, q, k, v, lay, B, T, H, s)
		 : mode == 1 ? wg_dq_d<D, 2>(dq, dsum, att, datt, lse2, q, k, v, lay, B, T, H, s)
			     : wg_dq_d<D, 1>(dq, dsum, att, datt, lse2, q, k, v, lay, B, T, H, s);
	if (rc)
		return rc;
	if (mode == 6)
		return wg_dkdv_pp_d<D, 3>(dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, s);
	if (mode >= 4)
		return wg_dkdv_pp_d<D, 2>(dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, s);
	return mode == 1 ? wg_dkdv_d<D, 2>(dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, s)
			 : wg_dkdv_d<D, 1>(dk, dv, dsum, datt, lse2, q, k, v, lay, B, T, H, s);
}

/* wide: 0 one warpgroup a block; 1 two, in step; 2 (3) two consumer
 * warpgroups and a producer, 2 (3) stages of 64-key K and V tiles; 4
 * the same with 2 stages of 128-key tiles. Two warpgroups
 * only where T is a multiple of 128, else one. */
int flash_wgmma_forward(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B,
			int T, int H, int D, int wide, cudaStream_t s)
{
	trace_kernel("flash_forward");
	wide = T % (2 * FT) == 0 ? wide : 0;
	if (wide >= 2) {
		if (D == 64)
			return wide == 2   ? wg_forward_pp_d<64, 2, 64>(att, lse2, q, k, v, ld, B, T, H, s)
			       : wide == 3 ? wg_forward_pp_d<64, 3, 64>(att, lse2, q, k, v, ld, B, T, H, s)
					   : wg_forward_pp_d<64, 2, 128>(att, lse2, q, k, v, ld, B, T, H, s);
		return wide == 2   ? wg_forward_pp_d<128, 2, 64>(att, lse2, q, k, v, ld, B, T, H, s)
		       : wide == 3 ? wg_forward_pp_d<128, 3, 64>(att, lse2, q, k, v, ld, B, T, H, s)
				   : wg_forward_pp_d<128, 2, 128>(att, lse2, q, k, v, ld, B, T, H, s);
	}
	if (D == 64)
		return wide ? wg_forward_d<64, 2>(att, lse2, q, k, v, ld, B, T, H, s)
			    : wg_forward_d<64, 1>(att, lse2, q, k, v, ld, B, T, H, s);
	return wide ? wg_forward_d<128, 2>(att, lse2, q, k, v, ld, B, T, H, s)
		    : wg_forward_d<128, 1>(att, lse2, q, k, v, ld, B, T, H, s);
}

int flash_wgmma_backward(bf16 *dq, bf16 *dk, bf16 *dv, float *dsum, const bf16 *att, const bf16 *datt,
			 const float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B, int T,
			 int H, int D, int mode, cudaStream_t s)
{
	mode = T % (2 * FT) == 0 ? mode : 0; /* the two-warpgroup kernels take 128 rows a block */
	if (D == 64)
		return wg_backward_d<64>(dq, dk, dv, dsum, att, datt, lse2, q, k, v, ld, B, T, H, mode, s);
	return wg_backward_d<128>(dq, dk, dv, dsum, att, datt, lse2, q, k, v, ld, B, T, H, mode, s);
}

/* The fused backward (family FLASH_WGMMA_FUSEDQ): dsum, one kernel for
 * dK, dV and dQ's fp32 sums in dq_acc (all zero on entry), dq from those
 * (dq_acc zero again on return). T a multiple of 128 (flash.cu falls
 * back to the two-kernel backward otherwise). */
int flash_wgmma_backward_fused(bf16 *dq, float *dq_acc, bf16 *dk, bf16 *dv, float *dsum, const bf16 *att,
			       const bf16 *datt, const float *lse2, const bf16 *q, const bf16 *k, const bf16 *v,
			       int ld, int B, int T, int H, int D, const struct flash_rotary *rot, cudaStream_t s)
{
	if (D == 64)
		return wg_backward_fq_d<64>(dq, dq_acc, dk, dv, dsum, att, datt, lse2, q, k, v,
					    qkv_layout_of(ld, H, T, 64), B, T, H, rot, s);
	return wg_backward_fq_d<128>(dq, dq_acc, dk, dv, dsum, att, datt, lse2, q, k, v,
				     qkv_layout_of(ld, H, T, 128), B, T, H, rot, s);
}
