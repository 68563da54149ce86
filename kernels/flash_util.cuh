/* flash_util.cuh — device helpers shared by the two families of flash
 * attention kernels: flash.cu (mma.sync, any sm_90 build) and
 * flash_wgmma.cu (warpgroup wgmma, sm_90a). Fragment layouts (PTX ISA,
 * mma.m16n8k16 .bf16; g = lane/4, t = lane%4):
 *   A (16x16, row): reg0 (g, 2t..2t+1), reg1 (g+8, 2t..), reg2 (g, 2t+8..),
 *                   reg3 (g+8, 2t+8..)
 *   C (16x8 fp32):  c0,c1 (g, 2t..2t+1), c2,c3 (g+8, 2t..2t+1)
 * The wgmma accumulator of each 8-column slice has the C layout, and a
 * wgmma A operand from registers has the A layout, per warp. */
#ifndef RL_FLASH_UTIL_CUH
#define RL_FLASH_UTIL_CUH
#include "kernel_util.cuh"

#define FT FLASH_TILE /* 64 rows a tile */
#define LOG2E 1.4426950408889634f

/* 2^x by the special-function unit alone. exp2f() without -ftz compiles
 * to ex2.approx.f32, which ptxas wraps in a range test and two predicated
 * multiplies so that results below 2^-126 come out denormal: three more
 * instructions on every score, in kernels whose exponentials are the
 * largest share of the non-tensor-core work. Here such results (and
 * denormal inputs, which give 2^0 either way) are flushed to zero: a
 * probability under 1.2e-38 next to the row maximum's 1 changes no sum and
 * no bf16 product. exp2(-inf) is +0, as the masks need. */
__device__ __forceinline__ float exp2_ftz(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

/* A fragment of k slice kk from two accumulator tiles (cols 16kk..16kk+15). */
__device__ __forceinline__ void acc_to_a(uint32_t a[4], const float lo[4], const float hi[4])
{
	a[0] = pack_bf16(lo[0], lo[1]);
	a[1] = pack_bf16(lo[2], lo[3]);
	a[2] = pack_bf16(hi[0], hi[1]);
	a[3] = pack_bf16(hi[2], hi[3]);
}

/* Four 8x8 bf16 matrices from shared memory in mma fragment layout: lane
 * l gives the address of row l%8 of matrix l/8 and receives, of matrix i,
 * the two elements (row l/4, cols 2(l%4), +1) in register i — or, with
 * .trans, those of the transposed matrix. */
__device__ __forceinline__ void ldsm_x4_at(uint32_t r[4], uint32_t saddr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(saddr));
}

__device__ __forceinline__ void ldsm_x4_t_at(uint32_t r[4], uint32_t saddr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(saddr));
}

/* cp.async copies are grouped (load_commit); load_wait<n>() waits until at
 * most n groups are still in flight. */
__device__ __forceinline__ void load_commit(void)
{
	asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N> __device__ __forceinline__ void load_wait(void)
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Where q, k, v (and dv) of head (b, h) live, in the layout ld names
 * (kernels.h, flash_attention_forward): element (b, h, t, d) at
 * b * bs + h * hs + t * row + d. A kernel parameter, so the strides stay
 * in the constant bank instead of registers the accumulators need. */
struct qkv_layout {
	long bs, hs;
	int row;
};

static inline qkv_layout qkv_layout_of(int ld, int H, int T, int D)
{
	qkv_layout l;
	l.bs = ld ? (long)T * ld : (long)H * T * D;
	l.hs = ld ? D : (long)T * D;
	l.row = ld ? ld : D;
	return l;
}

__device__ __forceinline__ float quad_max(float v)
{
	v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 1));
	return fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 2));
}

__device__ __forceinline__ float quad_sum(float v)
{
	v += __shfl_xor_sync(0xffffffffu, v, 1);
	return v + __shfl_xor_sync(0xffffffffu, v, 2);
}

/* How far (log2 units) a row maximum may grow before O and the sums are
 * rescaled to it: until then P = exp2(s sl2 - m) uses the old maximum and
 * is at most 2^8, which bf16 and fp32 hold with their usual relative
 * precision; O / l and lse2 = m + log2(l) are the same function of the
 * same m either way. FLASH_EAGER_RESCALE (a build of its own, for the
 * harness) rescales on every increase, as before round 7. */
#ifdef FLASH_EAGER_RESCALE
#define FLASH_RESCALE_LOG2 0.f
#else
#define FLASH_RESCALE_LOG2 8.f
#endif

/* One step of the online softmax on a 64 x KN score tile s (the wgmma
 * accumulator layout; flash.cu's s[KN/8][4] is the same order): mask the
 * diagonal tile (there query row r of the 64 sees key columns <= r +
 * roff), row maxima m (in the log2 domain, i.e. of s * sl2), the factor
 * alpha the old sums (and O) are scaled by, s replaced by
 * P = exp2(s sl2 - m), l the rescaled sums plus this thread's part of the
 * new ones (summed over the quad at the end). Rows r0 + g and r0 + g + 8
 * are this thread's. The maxima are taken over the raw scores (sl2 > 0,
 * so max(s) sl2 = max(s sl2)) and the scaling goes into the exponent's
 * FFMA: one instruction a score less than scaling first. The maxima move
 * only when one of the warp's 16 rows grew by more than
 * FLASH_RESCALE_LOG2 (a warp-uniform choice); returns whether they did —
 * if not, alpha is 1 and the caller may skip rescaling O (64 multiplies
 * a thread on the path from the P V product to the next tile's). */
template <int KN>
__device__ __forceinline__ int softmax_step(float *s, float m[2], float l[2], float alpha[2], int diag, int roff,
					    int r0, int g, int t, float sl2)
{
	float mx[2] = { -INFINITY, -INFINITY };
	if (diag) {
#pragma unroll
		for (int i = 0; i < KN / 2; i++) {
			int e = i & 3, row = roff + r0 + g + (e >= 2 ? 8 : 0), col = (i >> 2) * 8 + 2 * t + (e & 1);
			if (col > row)
				s[i] = -INFINITY;
		}
	}
#pragma unroll
	for (int i = 0; i < KN / 2; i++)
		mx[(i >> 1) & 1] = fmaxf(mx[(i >> 1) & 1], s[i]);
	float mt[2];
	int grew = 0;
#pragma unroll
	for (int i = 0; i < 2; i++) {
		mt[i] = quad_max(mx[i]) * sl2; /* finite where a column is visible: column 0 always is */
		grew |= mt[i] > m[i] + FLASH_RESCALE_LOG2; /* m = -inf: always */
	}
	int rescale = __any_sync(0xffffffffu, grew);
#pragma unroll
	for (int i = 0; i < 2; i++) {
		float mnew = rescale ? fmaxf(m[i], mt[i]) : m[i];
		alpha[i] = exp2_ftz(m[i] - mnew); /* 1 when unchanged; 0 from -inf */
		m[i] = mnew;
		l[i] *= alpha[i];
	}
#pragma unroll
	for (int i = 0; i < KN / 2; i++) {
		float p = exp2_ftz(fmaf(s[i], sl2, -m[(i >> 1) & 1]));
		s[i] = p;
		l[(i >> 1) & 1] += p;
	}
	return rescale;
}

#endif
