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

__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi)
{
	__nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
	return *reinterpret_cast<uint32_t *>(&v);
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

__device__ __forceinline__ void cp_async16(uint32_t saddr, const void *g)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(g));
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

/* One step of the online softmax on a 64 x KN score tile s (the wgmma
 * accumulator layout; flash.cu's s[KN/8][4] is the same order): scale to
 * the log2 domain, mask the diagonal tile (there query row r of the 64
 * sees key columns <= r + roff), new row maxima m, the factor alpha the
 * old sums (and O) are scaled by, s replaced by P = exp2(s - m), l the
 * rescaled sums plus this thread's part of the new ones (summed over the
 * quad at the end). Rows r0 + g and r0 + g + 8 are this thread's. */
template <int KN>
__device__ __forceinline__ void softmax_step(float *s, float m[2], float l[2], float alpha[2], int diag, int roff,
					     int r0, int g, int t, float sl2)
{
	float mx[2] = { -INFINITY, -INFINITY };
#pragma unroll
	for (int i = 0; i < KN / 2; i++) {
		int e = i & 3, row = roff + r0 + g + (e >= 2 ? 8 : 0), col = (i >> 2) * 8 + 2 * t + (e & 1);
		float x = s[i] * sl2;
		if (diag && col > row)
			x = -INFINITY;
		s[i] = x;
		mx[e >> 1] = fmaxf(mx[e >> 1], x);
	}
#pragma unroll
	for (int i = 0; i < 2; i++) {
		float mnew = fmaxf(m[i], quad_max(mx[i])); /* finite: column 0 is always visible */
		alpha[i] = exp2f(m[i] - mnew);
		m[i] = mnew;
		l[i] *= alpha[i];
	}
#pragma unroll
	for (int i = 0; i < KN / 2; i++) {
		float p = exp2f(s[i] - m[(i >> 1) & 1]);
		s[i] = p;
		l[(i >> 1) & 1] += p;
	}
}

#endif
