/* flash.cu — fused causal attention, forward and backward, on tensor cores
 * (mma.sync m16n8k16 bf16 -> fp32), FlashAttention-2 style: no (T,T)
 * buffer ever exists in device memory. CPU reference: attention_forward /
 * attention_backward in trainer/ops.c (scale 1/sqrt(D), causal).
 *
 * Tiles of 64 query rows x 64 key rows; a block of 4 warps, each warp owns
 * 16 rows of the block's tile. Scores live in registers in the mma
 * accumulator layout; for the next product they are repacked as bf16 A
 * operands (the accumulator of two n8 tiles is exactly an A fragment of
 * one k16 slice). Softmax in the log2 domain (exp2 by ex2.approx.ftz, flash_util.cuh; scale * log2 e).
 *   forward: per (b,h, query tile): online softmax over key tiles 0..qt;
 *            att (N,C) and lse2 (B,H,T) = log2 of each row's denominator.
 *   backward: dsum = rowsum(dO * O); one kernel per key tile for dK, dV
 *            (looping over query tiles qt >= kt), one per query tile for
 *            dQ (looping over key tiles kt <= qt): both recompute P from
 *            lse2, so there are no atomics and the result is deterministic.
 * Fragment layouts (PTX ISA, mma.m16n8k16, .bf16): g = lane/4, t = lane%4;
 *   A (16x16, row): reg0 (g, 2t..2t+1), reg1 (g+8, 2t..), reg2 (g, 2t+8..),
 *                   reg3 (g+8, 2t+8..)
 *   B (16x8, col):  reg0 (k 2t..2t+1, n g), reg1 (k 2t+8..2t+9, n g)
 *   C (16x8 fp32):  c0,c1 (g, 2t..2t+1), c2,c3 (g+8, 2t..2t+1)
 * Fragments come from shared memory by ldmatrix (.trans for the operands
 * stored k-major, V, dO and K as B of the second product). Shared tiles
 * are row-major with rows padded by 8 elements, so the eight 16-byte rows
 * of each 8x8 matrix fall in distinct banks.
 * On a compute capability 9.0 device (H100, H200) the launchers below hand
 * the work to flash_wgmma.cu instead: the same tiles and mathematics on
 * Hopper's warpgroup instructions, about 1.4x faster (docs/performance.md). */
#include "flash_util.cuh"

#define FWARPS 4 /* 16 rows each */

/* ---- device helpers ---------------------------------------------------- */

__device__ __forceinline__ void mma16816(float c[4], const uint32_t a[4], uint32_t b0, uint32_t b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
		     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ void ldsm_x4(uint32_t r[4], const bf16 *p)
{
	ldsm_x4_at(r, (uint32_t)__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldsm_x4_t(uint32_t r[4], const bf16 *p)
{
	ldsm_x4_t_at(r, (uint32_t)__cvta_generic_to_shared(p));
}

/* A fragment of rows r0.., cols k0.. of a row-major shared matrix:
 * matrices (r0, k0), (r0+8, k0), (r0, k0+8), (r0+8, k0+8). */
__device__ __forceinline__ void load_a(uint32_t a[4], const bf16 *s, int ld, int r0, int k0, int lane)
{
	ldsm_x4(a, s + (r0 + lane % 8 + (lane / 8 % 2) * 8) * ld + k0 + (lane / 16) * 8);
}

/* 64 rows of D bf16 from global (row stride gstride) into shared (row
 * stride D + 8), 16 bytes a thread at a time by cp.async: every copy of
 * the tile is in flight at once and none passes through registers.
 * Copies are grouped (load_commit); load_wait<n>() waits until at most n
 * groups are still in flight, before the __syncthreads that publishes a
 * tile — so the second operand of a tile pair can still be arriving while
 * the first product runs. */
template <int D>
__device__ __forceinline__ void load_tile(bf16 *s, const bf16 *g, int gstride)
{
	constexpr int LD = D + 8, VEC = D / 8, PER_THREAD = FT * VEC / (FWARPS * WARP);
#pragma unroll 1 /* unrolled, the hoisted addresses cost up to 70 registers */
	for (int it = 0; it < PER_THREAD; it++) {
		int i = threadIdx.x + it * FWARPS * WARP, r = i / VEC, c = (i % VEC) * 8;
		cp_async16((uint32_t)__cvta_generic_to_shared(s + r * LD + c), g + r * gstride + c);
	}
}

/* S (16 x 64) += A rows (from shared, row-major, k = D) times B^T, where
 * B is a row-major (64, D) shared tile: S[i][j] = sum_d A[i][d] B[j][d].
 * One ldmatrix gives the B fragments of two n8 tiles: matrices (n, k0),
 * (n, k0+8), (n+8, k0), (n+8, k0+8) of the stored tile. */
template <int D>
__device__ __forceinline__ void rows_times_tile_t(float s[8][4], const bf16 *sa, int r0, const bf16 *sb,
						  int lane)
{
	constexpr int LD = D + 8;
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++) {
		uint32_t a[4];
		load_a(a, sa, LD, r0, kk * 16, lane);
#pragma unroll
		for (int nt = 0; nt < 8; nt += 2) {
			uint32_t b[4];
			ldsm_x4(b, sb + (nt * 8 + lane % 8 + (lane / 16) * 8) * LD + kk * 16 + (lane / 8 % 2) * 8);
			mma16816(s[nt], a, b[0], b[1]);
			mma16816(s[nt + 1], a, b[2], b[3]);
		}
	}
}

/* O (16 x D) += P (16 x 64, accumulator layout) times a row-major (64, D)
 * shared tile; the B fragments by ldmatrix.trans: matrices (j, d),
 * (j+8, d), (j, d+8), (j+8, d+8) of the stored tile. */
template <int D>
__device__ __forceinline__ void acc_times_tile(float o[D / 8][4], const float p[8][4], const bf16 *sv,
					       int lane)
{
	constexpr int LD = D + 8;
#pragma unroll
	for (int kk = 0; kk < 4; kk++) {
		uint32_t a[4];
		acc_to_a(a, p[2 * kk], p[2 * kk + 1]);
#pragma unroll
		for (int dt = 0; dt < D / 8; dt += 2) {
			uint32_t b[4];
			ldsm_x4_t(b, sv + (kk * 16 + lane % 8 + (lane / 8 % 2) * 8) * LD + dt * 8 + (lane / 16) * 8);
			mma16816(o[dt], a, b[0], b[1]);
			mma16816(o[dt + 1], a, b[2], b[3]);
		}
	}
}

/* ---- forward ----------------------------------------------------------- */

template <int D>
__global__ void __launch_bounds__(FWARPS * WARP, 4) /* 4 blocks an SM: <= 128 registers */
flash_forward_kernel(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
		     int T, int H, float sl2)
{
	constexpr int LD = D + 8;
	extern __shared__ __align__(16) unsigned char smem[];
	bf16 *sQ = reinterpret_cast<bf16 *>(smem), *sK = sQ + FT * LD, *sV = sK + FT * LD;
	int qt = gridDim.x - 1 - blockIdx.x; /* the longest rows first */
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
	int r0 = warp * 16;
	long ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	k += ib; /* one pointer each: this kernel is held to 128 registers */
	v += ib;
	load_tile<D>(sQ, q + ib + (long)qt * FT * is, is);
	float o[D / 8][4], m[2] = { -INFINITY, -INFINITY }, l[2] = { 0.f, 0.f };
#pragma unroll
	for (int dt = 0; dt < D / 8; dt++)
		o[dt][0] = o[dt][1] = o[dt][2] = o[dt][3] = 0.f;
	for (int kt = 0; kt <= qt; kt++) {
		__syncthreads(); /* the last tile's readers are done */
		load_tile<D>(sK, k + (long)kt * FT * is, is); /* with Q on the first tile */
		load_commit();
		load_tile<D>(sV, v + (long)kt * FT * is, is);
		load_commit();
		load_wait<1>(); /* K here; V may still be on its way */
		__syncthreads();
		float s[8][4];
#pragma unroll
		for (int nt = 0; nt < 8; nt++)
			s[nt][0] = s[nt][1] = s[nt][2] = s[nt][3] = 0.f;
		rows_times_tile_t<D>(s, sQ, r0, sK, lane);
		float alpha[2];
		if (softmax_step<64>(&s[0][0], m, l, alpha, kt == qt, 0, r0, g, t, sl2)) /* warp-uniform */
#pragma unroll
			for (int dt = 0; dt < D / 8; dt++) {
				o[dt][0] *= alpha[0];
				o[dt][1] *= alpha[0];
				o[dt][2] *= alpha[1];
				o[dt][3] *= alpha[1];
			}
		load_wait<0>();
		__syncthreads(); /* V */
		acc_times_tile<D>(o, s, sV, lane);
	}
#pragma unroll
	for (int i = 0; i < 2; i++) {
		float lt = quad_sum(l[i]), inv = 1.f / lt;
		int row = qt * FT + r0 + g + 8 * i;
		bf16 *out = att + ((long)b * T + row) * C + h * D + 2 * t;
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++)
			*reinterpret_cast<__nv_bfloat162 *>(out + dt * 8) =
				__floats2bfloat162_rn(o[dt][2 * i] * inv, o[dt][2 * i + 1] * inv);
		if (t == 0)
			lse2[(long)bh * T + row] = m[i] + log2f(lt);
	}
}

/* ---- backward ---------------------------------------------------------- */

/* dsum[b,h,t] = sum_d dO * O over one head's D channels; a warp a row. */
__global__ void flash_dsum_kernel(float *dsum, const bf16 *att, const bf16 *datt, int B, int T, int H,
				  int D)
{
	long w = blockIdx.x * (long)(blockDim.x / WARP) + threadIdx.x / WARP;
	int lane = threadIdx.x % WARP;
	if (w >= (long)B * H * T)
		return;
	int tt = w % T;
	long bh = w / T;
	int h = bh % H, b = bh / H;
	long off = ((long)b * T + tt) * H * D + (long)h * D;
	float acc = 0.f;
	for (int d = lane; d < D; d += WARP)
		acc += __bfloat162float(att[off + d]) * __bfloat162float(datt[off + d]);
	acc = warp_sum(acc);
	if (lane == 0)
		dsum[w] = acc;
}

/* dK, dV of one key tile kt: warp rows are key rows j. Works with the
 * transposed scores S^T[j][i] = k_j . q_i so that P^T, dP^T and dS^T sit
 * in registers as A operands of dV += P^T dO and dK += dS^T Q. */
template <int D>
__global__ void __launch_bounds__(FWARPS * WARP)
flash_backward_dkdv_kernel(bf16 *dk, bf16 *dv, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
			   const bf16 *datt, const float *lse2, const float *dsum, int T, int H, float sl2,
			   float scale)
{
	constexpr int LD = D + 8;
	extern __shared__ __align__(16) unsigned char smem[];
	bf16 *sK = reinterpret_cast<bf16 *>(smem), *sV = sK + FT * LD, *sQ = sV + FT * LD,
	     *sO = sQ + FT * LD;
	float *sL = reinterpret_cast<float *>(sO + FT * LD), *sD = sL + FT;
	int nT = T / FT, kt = blockIdx.x;
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
	int r0 = warp * 16;
	long base = (long)bh * T * D, ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	load_tile<D>(sK, k + ib + (long)kt * FT * is, is);
	load_tile<D>(sV, v + ib + (long)kt * FT * is, is);
	float dK[D / 8][4], dV[D / 8][4];
#pragma unroll
	for (int dt = 0; dt < D / 8; dt++)
#pragma unroll
		for (int e = 0; e < 4; e++)
			dK[dt][e] = dV[dt][e] = 0.f;
	for (int qt = kt; qt < nT; qt++) {
		__syncthreads();
		load_tile<D>(sQ, q + ib + (long)qt * FT * is, is); /* with K, V on the first tile */
		load_commit();
		load_tile<D>(sO, datt + ((long)b * T + (long)qt * FT) * C + h * D, C);
		load_commit();
		for (int i = threadIdx.x; i < FT; i += FWARPS * WARP) {
			sL[i] = lse2[(long)bh * T + qt * FT + i];
			sD[i] = dsum[(long)bh * T + qt * FT + i];
		}
		load_wait<1>(); /* Q here; dO may still be on its way */
		__syncthreads();
		float p[8][4], dp[8][4];
#pragma unroll
		for (int nt = 0; nt < 8; nt++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				p[nt][e] = dp[nt][e] = 0.f;
		rows_times_tile_t<D>(p, sK, r0, sQ, lane); /* S^T: rows j, cols i */
#pragma unroll
		for (int nt = 0; nt < 8; nt++)
#pragma unroll
			for (int e = 0; e < 4; e++) {
				int j = r0 + g + (e >= 2 ? 8 : 0), i = nt * 8 + 2 * t + (e & 1);
				float x = exp2_ftz(p[nt][e] * sl2 - sL[i]);
				p[nt][e] = qt == kt && i < j ? 0.f : x;
			}
		load_wait<0>();
		__syncthreads(); /* dO */
		acc_times_tile<D>(dV, p, sO, lane);          /* dV += P^T dO */
		rows_times_tile_t<D>(dp, sV, r0, sO, lane);   /* dP^T = V dO^T */
#pragma unroll
		for (int nt = 0; nt < 8; nt++)
#pragma unroll
			for (int e = 0; e < 4; e++) {
				int i = nt * 8 + 2 * t + (e & 1);
				dp[nt][e] = p[nt][e] * (dp[nt][e] - sD[i]); /* dS^T */
			}
		acc_times_tile<D>(dK, dp, sQ, lane);          /* dK += dS^T Q */
	}
#pragma unroll
	for (int i = 0; i < 2; i++) {
		long r = (long)kt * FT + r0 + g + 8 * i, row = base + r * D + 2 * t, vrow = ib + r * is + 2 * t;
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++) {
			*reinterpret_cast<__nv_bfloat162 *>(dk + row + dt * 8) =
				__floats2bfloat162_rn(dK[dt][2 * i] * scale, dK[dt][2 * i + 1] * scale);
			*reinterpret_cast<__nv_bfloat162 *>(dv + vrow + dt * 8) =
				__floats2bfloat162_rn(dV[dt][2 * i], dV[dt][2 * i + 1]);
		}
	}
}

/* dQ of one query tile qt: warp rows are query rows i. */
template <int D>
__global__ void __launch_bounds__(FWARPS * WARP)
flash_backward_dq_kernel(bf16 *dq, const bf16 *q, const bf16 *k, const bf16 *v, qkv_layout lay,
			 const bf16 *datt, const float *lse2, const float *dsum, int T, int H, float sl2, float scale)
{
	constexpr int LD = D + 8;
	extern __shared__ __align__(16) unsigned char smem[];
	bf16 *sQ = reinterpret_cast<bf16 *>(smem), *sO = sQ + FT * LD, *sK = sO + FT * LD,
	     *sV = sK + FT * LD;
	int qt = gridDim.x - 1 - blockIdx.x;
	int bh = blockIdx.y, b = bh / H, h = bh % H, C = H * D;
	int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP, g = lane / 4, t = lane % 4;
	int r0 = warp * 16;
	long base = (long)bh * T * D, ib = b * lay.bs + h * lay.hs;
	const int is = lay.row;
	load_tile<D>(sQ, q + ib + (long)qt * FT * is, is);
	load_tile<D>(sO, datt + ((long)b * T + (long)qt * FT) * C + h * D, C);
	float L[2], Ds[2];
	for (int i = 0; i < 2; i++) {
		long row = (long)bh * T + qt * FT + r0 + g + 8 * i;
		L[i] = lse2[row];
		Ds[i] = dsum[row];
	}
	float dQ[D / 8][4];
#pragma unroll
	for (int dt = 0; dt < D / 8; dt++)
		dQ[dt][0] = dQ[dt][1] = dQ[dt][2] = dQ[dt][3] = 0.f;
	for (int kt = 0; kt <= qt; kt++) {
		__syncthreads();
		load_tile<D>(sK, k + ib + (long)kt * FT * is, is); /* with Q, dO on the first tile */
		load_tile<D>(sV, v + ib + (long)kt * FT * is, is);
		load_commit();
		/* both at once: splitting them here (as the other kernels do) took
		 * this kernel from 164 to 254 registers */
		load_wait<0>();
		__syncthreads();
		float p[8][4], dp[8][4];
#pragma unroll
		for (int nt = 0; nt < 8; nt++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				p[nt][e] = dp[nt][e] = 0.f;
		rows_times_tile_t<D>(p, sQ, r0, sK, lane);  /* S */
		rows_times_tile_t<D>(dp, sO, r0, sV, lane); /* dP = dO V^T */
#pragma unroll
		for (int nt = 0; nt < 8; nt++)
#pragma unroll
			for (int e = 0; e < 4; e++) {
				int i = r0 + g + (e >= 2 ? 8 : 0), j = nt * 8 + 2 * t + (e & 1);
				float pr = kt == qt && j > i ? 0.f : exp2_ftz(p[nt][e] * sl2 - L[e >> 1]);
				dp[nt][e] = pr * (dp[nt][e] - Ds[e >> 1]); /* dS */
			}
		acc_times_tile<D>(dQ, dp, sK, lane); /* dQ += dS K */
	}
#pragma unroll
	for (int i = 0; i < 2; i++) {
		long row = base + ((long)qt * FT + r0 + g + 8 * i) * D + 2 * t;
#pragma unroll
		for (int dt = 0; dt < D / 8; dt++)
			*reinterpret_cast<__nv_bfloat162 *>(dq + row + dt * 8) =
				__floats2bfloat162_rn(dQ[dt][2 * i] * scale, dQ[dt][2 * i + 1] * scale);
	}
}

/* ---- launchers --------------------------------------------------------- */

static int flash_shape_ok(int T, int D, int H, int ld)
{
	if (!flash_head_size_ok(D) || T % FT) {
		fprintf(stderr, "trainer: flash attention: head size %d (64 or 128) or seq_len %d "
			"(a multiple of %d) not supported\n", D, T, FT);
		return 0;
	}
	/* token-major rows are copied 16 bytes at a time and hold every head */
	if (ld < 0 || ld % 8 || (ld > 0 && ld < H * D)) {
		fprintf(stderr, "trainer: flash attention: row stride %d of q, k, v must be 0 or a multiple "
			"of 8 of at least heads x head size (%d)\n", ld, H * D);
		return 0;
	}
	return 1;
}

/* Opt a kernel into more than 48 KB of dynamic shared memory, once. */
template <typename K> static int smem_opt_in(K kernel, size_t bytes)
{
	CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
	return 0;
}

template <int D>
static int forward_d(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B,
		     int T, int H, cudaStream_t s)
{
	static int ready;
	size_t bytes = 3 * FT * (D + 8) * sizeof(bf16);
	if (!ready && smem_opt_in(flash_forward_kernel<D>, bytes))
		return -1;
	ready = 1;
	float sl2 = LOG2E / sqrtf((float)D);
	qkv_layout lay = qkv_layout_of(ld, H, T, D);
	trace_kernel("flash_forward");
	flash_forward_kernel<D><<<dim3(T / FT, B * H), FWARPS * WARP, bytes, s>>>(att, lse2, q, k, v, lay, T, H,
										  sl2);
	KERNEL_CHECK();
	return 0;
}

template <int D>
static int backward_d(bf16 *dq, bf16 *dk, bf16 *dv, const float *dsum, const bf16 *datt,
		      const float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B, int T,
		      int H, cudaStream_t s)
{
	static int ready;
	size_t kv_bytes = 4 * FT * (D + 8) * sizeof(bf16) + 2 * FT * sizeof(float);
	size_t q_bytes = 4 * FT * (D + 8) * sizeof(bf16);
	if (!ready && (smem_opt_in(flash_backward_dkdv_kernel<D>, kv_bytes) ||
		       smem_opt_in(flash_backward_dq_kernel<D>, q_bytes)))
		return -1;
	ready = 1;
	float scale = 1.f / sqrtf((float)D), sl2 = LOG2E * scale;
	dim3 grid(T / FT, B * H);
	qkv_layout lay = qkv_layout_of(ld, H, T, D);
	trace_kernel("flash_backward_dkdv");
	flash_backward_dkdv_kernel<D><<<grid, FWARPS * WARP, kv_bytes, s>>>(dk, dv, q, k, v, lay, datt, lse2,
									    dsum, T, H, sl2, scale);
	KERNEL_CHECK();
	trace_kernel("flash_backward_dq");
	flash_backward_dq_kernel<D><<<grid, FWARPS * WARP, q_bytes, s>>>(dq, q, k, v, lay, datt, lse2, dsum, T,
									 H, sl2, scale);
	KERNEL_CHECK();
	return 0;
}

/* Which kernel family runs: flash_select_kernels' choice, else the wgmma
 * kernels (flash_wgmma.cu, built for sm_90a) on a compute capability 9.0
 * device and the mma.sync kernels above anywhere else. */
static int selected_family = -1;

void flash_select_kernels(int family)
{
	selected_family = family;
}

static int family_for(void)
{
	int f = selected_family >= 0 ? selected_family : hopper_sm_count() ? FLASH_WGMMA_FUSEDQ : FLASH_MMA_SYNC;
	static int noted = -1;
	if (f != noted) {
		static const char *names[] = { "mma.sync", "wgmma (sm_90a), one warpgroup a block",
					       "wgmma (sm_90a), two warpgroups a block",
					       "wgmma (sm_90a), forward two warpgroups a block, backward one",
					       "wgmma (sm_90a), forward warp-specialised ping-pong (2 stages), backward one warpgroup",
					       "wgmma (sm_90a), forward warp-specialised ping-pong (3 stages), backward one warpgroup",
					       "wgmma (sm_90a), forward warp-specialised ping-pong (128-key tiles), backward one warpgroup",
					       "wgmma (sm_90a), forward ping-pong (128-key tiles), dQ warp-specialised ping-pong, dK/dV one warpgroup",
					       "wgmma (sm_90a), forward ping-pong (128-key tiles), dQ ping-pong with dO in registers, dK/dV one warpgroup",
					       "wgmma (sm_90a), forward ping-pong (128-key tiles), dQ ping-pong, dK/dV warp-specialised",
					       "wgmma (sm_90a), forward ping-pong (128-key tiles), dQ warp-specialised without turns, dK/dV warp-specialised",
					       "wgmma (sm_90a), forward ping-pong (128-key tiles), dQ ping-pong, dK/dV warp-specialised (3 stages)",
					       "wgmma (sm_90a), forward ping-pong (128-key tiles), dQ warp-specialised (128-key tiles), dK/dV warp-specialised",
					       "wgmma (sm_90a), forward ping-pong (128-key tiles), fused backward (dQ reduced by the bulk copy engine)" };
		trace_note("flash: %s kernels", names[f]);
		noted = f;
	}
	return f;
}

/* flash_wgmma_forward's wide argument for a wgmma family */
static int forward_width(int family)
{
	return family == FLASH_WGMMA_PP    ? 2
	       : family == FLASH_WGMMA_PP3 ? 3
	       : family >= FLASH_WGMMA_PPN ? 4
					   : family != FLASH_WGMMA_NARROW;
}

/* flash_wgmma_backward's mode for a wgmma family */
static int backward_mode(int family)
{
	return family == FLASH_WGMMA_PPQ     ? 2
	       : family == FLASH_WGMMA_PPQR  ? 3
	       : family == FLASH_WGMMA_PPQKV ? 4
	       : family == FLASH_WGMMA_PPQKV_NT ? 5
	       : family == FLASH_WGMMA_PPQKV3 ? 6
	       : family == FLASH_WGMMA_PPQ128KV || family == FLASH_WGMMA_FUSEDQ ? 7
					     : family == FLASH_WGMMA_WIDE;
}

int flash_attention_forward(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v,
			    int ld, int B, int T, int H, int D, cudaStream_t s)
{
	if (!flash_shape_ok(T, D, H, ld))
		return -1;
	int f = family_for();
	if (f != FLASH_MMA_SYNC)
		return flash_wgmma_forward(att, lse2, q, k, v, ld, B, T, H, D, forward_width(f), s);
	return D == 64 ? forward_d<64>(att, lse2, q, k, v, ld, B, T, H, s)
		       : forward_d<128>(att, lse2, q, k, v, ld, B, T, H, s);
}

/* Whether the backward of the family in use sums dQ into dq_acc at
 * sequence length T (the fused kernel takes 128 rows a block; elsewhere
 * its family falls back to the dQ and dK/dV pair). */
int flash_backward_accumulates(int T)
{
	return family_for() == FLASH_WGMMA_FUSEDQ && T % (2 * FLASH_TILE) == 0;
}

int flash_attention_backward(bf16 *dq, bf16 *dk, bf16 *dv, float *dsum, float *dq_acc, const bf16 *att,
			     const bf16 *datt, const float *lse2, const bf16 *q, const bf16 *k,
			     const bf16 *v, int ld, int B, int T, int H, int D, cudaStream_t s)
{
	if (!flash_shape_ok(T, D, H, ld))
		return -1;
	int f = family_for();
	if (flash_backward_accumulates(T)) {
		if (!dq_acc) {
			fprintf(stderr, "%s:%d: flash: the fused backward (family %d) needs the dq_acc scratch; "
				"the caller passed none\n", __FILE__, __LINE__, f);
			return -1;
		}
		return flash_wgmma_backward_fused(dq, dq_acc, dk, dv, dsum, att, datt, lse2, q, k, v, ld, B, T, H,
						  D, NULL, s);
	}
	if (f != FLASH_MMA_SYNC)
		return flash_wgmma_backward(dq, dk, dv, dsum, att, datt, lse2, q, k, v, ld, B, T, H, D,
					    backward_mode(f), s);
	long rows = (long)B * H * T;
	trace_kernel("flash_dsum");
	flash_dsum_kernel<<<ceil_div(rows, 8), 256, 0, s>>>(dsum, att, datt, B, T, H, D);
	KERNEL_CHECK();
	return D == 64 ? backward_d<64>(dq, dk, dv, dsum, datt, lse2, q, k, v, ld, B, T, H, s)
		       : backward_d<128>(dq, dk, dv, dsum, datt, lse2, q, k, v, ld, B, T, H, s);
}

int flash_attention_backward_rotary(bf16 *dqkv, float *dsum, float *dq_acc, const bf16 *att, const bf16 *datt,
				    const float *lse2, const bf16 *qkv, const struct flash_rotary *rot, int B,
				    int T, int H, int D, cudaStream_t s)
{
	int C = H * D;
	if (!flash_shape_ok(T, D, H, 3 * C))
		return -1;
	if (!flash_backward_accumulates(T) || !dq_acc) {
		fprintf(stderr, "%s:%d: flash: the rotary backward on the way out needs the fused backward "
			"(family %d, seq_len a multiple of %d) and its dq_acc scratch (family %d, seq_len %d%s)\n",
			__FILE__, __LINE__, FLASH_WGMMA_FUSEDQ, 2 * FLASH_TILE, family_for(), T,
			dq_acc ? "" : ", no dq_acc");
		return -1;
	}
	return flash_wgmma_backward_fused(dqkv, dq_acc, dqkv + C, dqkv + 2 * C, dsum, att, datt, lse2, qkv, qkv + C,
					  qkv + 2 * C, 3 * C, B, T, H, D, rot, s);
}
