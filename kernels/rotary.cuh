/* rotary.cuh — the QK-norm + rotary backward of eight pairs, shared by
 * rotary.cu's 16-byte kernel and the kernels that do it on their way out
 * (flash_wgmma.cu: the fused attention backward's dK, and dQ's
 * conversion, under impl.rotary=epilogue). One formula in one place, so
 * that the fused outputs are the kernel path's bits: the same bf16
 * inputs, the same products in the same order, the same G-lane sum.
 *
 * Pairs (i, i + D/2), angles from rotary_table (cos at t D/2 + i, sin
 * T D/2 further); a head row is G = D/16 lanes, lane c owning pairs
 * 8c..8c+7 (i0 = 8c). */
#ifndef RL_ROTARY_CUH
#define RL_ROTARY_CUH
#include "kernel_util.cuh"

/* sum over the G lanes of one head row (G divides 32: one warp) */
__device__ __forceinline__ float group_sum(float v, int G)
{
	for (int o = G / 2; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

/* the cosines and sines of pairs i0..i0+7 at position t */
__device__ __forceinline__ void load_cs(float *c, float *s, const float *cos_sin, int T, int half, int t, int i0)
{
	const float *cp = cos_sin + (long)t * half + i0, *sp = cos_sin + (long)T * half + (long)t * half + i0;
	float4 c0 = *reinterpret_cast<const float4 *>(cp), c1 = *reinterpret_cast<const float4 *>(cp + 4);
	float4 s0 = *reinterpret_cast<const float4 *>(sp), s1 = *reinterpret_cast<const float4 *>(sp + 4);
	c[0] = c0.x; c[1] = c0.y; c[2] = c0.z; c[3] = c0.w; c[4] = c1.x; c[5] = c1.y; c[6] = c1.z; c[7] = c1.w;
	s[0] = s0.x; s[1] = s0.y; s[2] = s0.z; s[3] = s0.w; s[4] = s1.x; s[5] = s1.y; s[6] = s1.z; s[7] = s1.w;
}

/* d loss / d(q or k before QK-norm) of one lane's eight pairs (o1: the
 * first halves, o2: the second) from the gradient g of the rotated
 * output and the rotated output y itself (read only under qk_norm):
 * g' = R^T g; with QK-norm, yhat = R^T y is the normalised input and the
 * gradient is rs (g' - yhat mean(g' . yhat)), the mean over the row's D
 * elements by group_sum, so all G lanes of the row must be here. */
__device__ __forceinline__ void rotary_backward8(bf16x8 *o1, bf16x8 *o2, bf16x8 g1, bf16x8 g2, bf16x8 y1, bf16x8 y2,
						 const float *c, const float *s, float rs, int qk_norm, int D, int G)
{
	float a1[8], a2[8], h1[8], h2[8], dot = 0.f;
	for (int i = 0; i < 8; i++) { /* g' = R^T g */
		a1[i] = g1.get(i) * c[i] + g2.get(i) * s[i];
		a2[i] = -g1.get(i) * s[i] + g2.get(i) * c[i];
	}
	if (qk_norm) { /* yhat = R^T y, the normalised input */
		for (int i = 0; i < 8; i++) {
			h1[i] = y1.get(i) * c[i] + y2.get(i) * s[i];
			h2[i] = -y1.get(i) * s[i] + y2.get(i) * c[i];
			dot += a1[i] * h1[i] + a2[i] * h2[i];
		}
		float mean = group_sum(dot, G) / D;
		for (int i = 0; i < 8; i++) {
			a1[i] = rs * (a1[i] - h1[i] * mean);
			a2[i] = rs * (a2[i] - h2[i] * mean);
		}
	}
	for (int i = 0; i < 8; i++) {
		o1->set(i, a1[i]);
		o2->set(i, a2[i]);
	}
}

#endif
