/* kernels.h — the launchers of the GPU ops, one kernels/NAME.cu each.
 * Called by the GPU driver (trainer/gpu_*.cu) and the kernel harness
 * (bench/kernels.cu); C++ (nvcc) only, never from the C trainer.
 *
 * Conventions, shared with the CPU reference (trainer/ops.h):
 *  - shapes in the comments: B batch, T time, C channels (dim), H heads,
 *    D head dim (C = H*D), N = B*T rows, V vocabulary;
 *  - row-major, contiguous; bf16 = __nv_bfloat16; the residual stream,
 *    logits, losses, master weights, gradients and optimiser state are fp32;
 *  - every launcher runs on the given stream, checks its launch and returns
 *    0 or -1 (message already printed by CUDA_CHECK);
 *  - a backward says whether it OVERWRITES or ACCUMULATES (+=) its output. */
#ifndef RL_KERNELS_H
#define RL_KERNELS_H
#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>
#include <cublasLt.h>

typedef __nv_bfloat16 bf16;

/* ---- trace.cu: which launchers ran (RL_TRAINER_TRACE_KERNELS=1) ----------
 * trace_kernel counts one host launch of a named kernel (or library call);
 * trace_note keeps a line (GEMM choices, graph capture); trace_report
 * prints "trace: note …" and "trace: kernel NAME COUNT" lines. No-ops
 * unless the variable is set. */
int trace_enabled(void);
void trace_kernel(const char *name);
void trace_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void trace_report(FILE *f);

/* ---- device.cu: the device the launchers run on ------------------------
 * The SM count of a compute capability 9.0 device (H100, H200: where the
 * sm_90a kernels run), 0 on any other or none; asked once. */
int hopper_sm_count(void);

/* ---- matmul.cu: row-major GEMMs through cuBLASLt ----------------------- */
typedef struct mm_ctx {
	cublasLtHandle_t lt;
	void *workspace;
	size_t workspace_size;
	struct mm_plan *plans; /* cached descriptors + algorithm per shape */
	int nplans;
	int autotune;          /* 1: time the candidates at a shape's first use */
} mm_ctx;
int mm_init(mm_ctx *m);
void mm_release(mm_ctx *m);
/* out(M,N) = alpha * op(A)(M,K) · op(B)(K,N) + beta * out.
 * A is stored (M,K), or (K,M) when ta; B is (K,N), or (N,K) when tb.
 * A, B bf16; out bf16 (out_f32 = 0) or fp32 (out_f32 = 1). beta = 1
 * accumulates (used for fp32 weight gradients over micro-steps). */
int mm(mm_ctx *m, void *out, int out_f32, const bf16 *A, int ta, const bf16 *B, int tb,
       int M, int N, int K, float alpha, float beta, cudaStream_t s);
/* Strided-batched version through cuBLAS (attention, Newton-Schulz):
 * batch b uses A + b*sA, B + b*sB, out + b*sO (in elements); lda/ldb/ldo
 * are row strides of the stored row-major matrices. */
int mm_batched(cublasHandle_t h, void *out, int out_f32, long ldo, long sO,
	       const bf16 *A, int ta, long lda, long sA, const bf16 *B, int tb, long ldb, long sB,
	       int M, int N, int K, float alpha, float beta, int batch);

/* ---- convert.cu: casts and reductions ----------------------------------- */
int cast_f32_to_bf16(bf16 *out, const float *in, long n, cudaStream_t s);
/* *out (device) = sum of in[i]^2, OVERWRITTEN (block order varies). */
int sumsq_f32(float *out, const float *in, long n, cudaStream_t s);
/* *out (device) = sum of in[i], OVERWRITTEN, in a fixed order. */
int sum_f32(float *out, const float *in, long n, cudaStream_t s);
/* gradient clipping: x *= min(1, max_norm / sqrt(*sumsq_dev)). */
int scale_f32(float *x, long n, const float *sumsq_dev, float max_norm, cudaStream_t s);

/* ---- embedding.cu -------------------------------------------------------
 * forward: x(N,C) = wte[tok[n]] (OVERWRITES x; fp32 table and output)
 * backward: dwte[tok[n]] += dx(N,C) (ACCUMULATES into fp32 dwte(V,C)) */
int embedding_forward(float *x, const int32_t *tok, const float *wte, int N, int C, cudaStream_t s);
int embedding_backward(float *dwte, const int32_t *tok, const float *dx, int N, int C, int V,
		       cudaStream_t s);

/* ---- rmsnorm.cu: weightless RMSNorm, y = x / sqrt(mean(x^2) + eps) -------
 * forward: if y_add: x += y_add first (the residual add, fp32 x updated in
 * place); out(N,C) bf16 = normalised x; rstd(N) saved.
 * backward: given dout and out (the saved normalised bf16 output, which is
 * x*rstd), dx = rstd * (dout - out * mean(dout*out)); dx ACCUMULATES into
 * fp32 dx when accumulate, else OVERWRITES; dx_bf16 (if not NULL) gets a
 * bf16 copy of the resulting dx, the input of the next GEMMs. */
int rmsnorm_forward(bf16 *out, float *rstd, float *x, const bf16 *y_add, int N, int C, float eps,
		    cudaStream_t s);
int rmsnorm_backward(float *dx, bf16 *dx_bf16, const bf16 *dout, const bf16 *out, const float *rstd,
		     int N, int C, int accumulate, cudaStream_t s);

/* ---- rotary.cu: QK-norm + rotary + head split ---------------------------
 * forward: qkv(N,3C) bf16 -> q,k,v (B,H,T,D) bf16; q and k RMS-normalised
 * per head when qk_norm (rstd_q, rstd_k (B,H,T) saved), then rotated:
 * pairs (i, i+D/2), angle t * 10000^(-2i/D):  y1 = x1 cos - x2 sin,
 * y2 = x1 sin + x2 cos (cos_sin: (T, D/2) cos then (T, D/2) sin, fp32,
 * from rotary_table()).
 * backward: dq,dk,dv (B,H,T,D) -> dqkv(N,3C) bf16 (OVERWRITES).
 * The _packed pair is the same mathematics for flash attention, which
 * reads q, k, v where the QKV projection wrote them (flash_attention_*
 * with ld = 3C): forward normalises and rotates the q and k parts of qkv
 * IN PLACE and leaves v alone; backward writes the q and k parts of dqkv
 * from dq, dk (B,H,T,D), reading the rotated q, k from the packed qkv,
 * and leaves dqkv's v part to the flash backward, which writes it. */
int rotary_forward_packed(bf16 *qkv, float *rstd_q, float *rstd_k, const float *cos_sin, int B, int T,
			  int H, int D, int qk_norm, float eps, cudaStream_t s);
int rotary_backward_packed(bf16 *dqkv, const bf16 *dq, const bf16 *dk, const bf16 *qkv,
			   const float *rstd_q, const float *rstd_k, const float *cos_sin, int B, int T,
			   int H, int D, int qk_norm, cudaStream_t s);
int rotary_forward(bf16 *q, bf16 *k, bf16 *v, float *rstd_q, float *rstd_k, const bf16 *qkv,
		   const float *cos_sin, int B, int T, int H, int D, int qk_norm, float eps,
		   cudaStream_t s);
/* 1 = always use the simple (warp per row) kernels; for the harness. */
extern int rotary_simple;
/* host: fill cos_sin (2*T*D/2 floats) exactly as the CPU reference does. */
void rotary_table(float *cos_sin, int T, int D);
int rotary_backward(bf16 *dqkv, const bf16 *dq, const bf16 *dk, const bf16 *dv, const bf16 *q,
		    const bf16 *k, const float *rstd_q, const float *rstd_k, const float *cos_sin,
		    int B, int T, int H, int D, int qk_norm, cudaStream_t s);

/* ---- attention.cu: causal attention by batched GEMMs + softmax ----------
 * forward: P(B,H,T,T) bf16 = causal_softmax(q k^T / sqrt(D)) (zeros above
 * the diagonal), att(N,C) bf16 = (P v) with heads merged. S is an fp32
 * (B,H,T,T) scratch; o a (B,H,T,D) bf16 scratch.
 * backward: from datt(N,C): dq, dk, dv (B,H,T,D) OVERWRITTEN; P is
 * destroyed (dS is written over it); S and o are scratch again. */
int attention_forward(cublasHandle_t h, bf16 *att, bf16 *P, float *S, bf16 *o, const bf16 *q,
		      const bf16 *k, const bf16 *v, int B, int T, int H, int D, cudaStream_t s);
int attention_backward(cublasHandle_t h, bf16 *dq, bf16 *dk, bf16 *dv, bf16 *P, float *S, bf16 *o,
		       const bf16 *datt, const bf16 *q, const bf16 *k, const bf16 *v, int B, int T,
		       int H, int D, cudaStream_t s);
/* the softmax kernels alone (for the harness): rows of length T, row r
 * of a (T,T) block masks j > r % T. */
int causal_softmax_forward(bf16 *P, const float *S, long rows, int T, float scale, cudaStream_t s);
int causal_softmax_backward(bf16 *dS_inout_P, const float *dP, long rows, int T, float scale,
			    cudaStream_t s);

/* ---- flash.cu: fused causal attention (tensor cores, online softmax) -----
 * The same mathematics as attention_forward/backward, without any (T,T)
 * buffer: each block keeps a 64-row tile of scores in registers.
 * q, k, v and dv share one layout, given by ld: ld = 0, (B,H,T,D) bf16
 * (as the naive path's); ld > 0, token-major rows of ld elements with head
 * h at columns h*D.. (q = qkv, k = qkv + C, v = qkv + 2C, ld = 3C reads the
 * QKV projection's (N,3C) output as it is, and dv = dqkv + 2C writes v's
 * part of its gradient, so no copy of v or dv is made). dq, dk (B,H,T,D)
 * always; att, datt (N,C) bf16 with heads merged (as the naive path's att). forward OVERWRITES att and lse
 * lse2 (B,H,T) fp32, log2 of each row's softmax denominator in the log2
 * domain (scores * scale * log2 e), which backward needs. backward OVERWRITES dq, dk, dv; dsum (B,H,T) fp32
 * scratch (rowsum(dO * O)); dq_acc, B*H*T*D fp32 of scratch in the fused
 * kernel's own block layout (flash_wgmma.cu), for the fused backward
 * (family FLASH_WGMMA_FUSEDQ; flash_backward_accumulates(T) says
 * whether the family in use needs it at sequence length T), all zero on entry and left all
 * zero; NULL when the family does not need it (the fused family refuses
 * NULL). Head size 64 or 128; T a multiple of 64. */
#define FLASH_TILE 64
static inline int flash_head_size_ok(int D)
{
	return D == 64 || D == 128;
}
int flash_attention_forward(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v,
			    int ld, int B, int T, int H, int D, cudaStream_t s);
int flash_attention_backward(bf16 *dq, bf16 *dk, bf16 *dv, float *dsum, float *dq_acc, const bf16 *att,
			     const bf16 *datt, const float *lse2, const bf16 *q, const bf16 *k,
			     const bf16 *v, int ld, int B, int T, int H, int D, cudaStream_t s);
int flash_backward_accumulates(int T);
/* The backward with QK-norm + rotary's backward on its way out
 * (impl.rotary=epilogue): flash_attention_backward on the packed
 * (N,3C) qkv (ld = 3C) followed by rotary_backward_packed, in the fused
 * backward's kernels: the dK tile goes through the rotary backward
 * before it is stored, dQ's conversion from dq_acc does the same for q,
 * and dqkv's q, k and v parts are written with no dq or dk in between,
 * to the same bits (rotary.cuh). Runs where flash_backward_accumulates(T)
 * (the fused backward's family; elsewhere it says so and fails). */
struct flash_rotary {
	const float *rstd_q, *rstd_k; /* (B,H,T), as rotary_forward_packed wrote them */
	const float *cos_sin;         /* rotary_table(T, D) */
	int qk_norm;
};
int flash_attention_backward_rotary(bf16 *dqkv, float *dsum, float *dq_acc, const bf16 *att, const bf16 *datt,
				    const float *lse2, const bf16 *qkv, const struct flash_rotary *rot, int B,
				    int T, int H, int D, cudaStream_t s);
/* Kernel families that compute the same function: mma.sync (flash.cu,
 * any build) and Hopper's wgmma (flash_wgmma.cu, sm_90a) with one
 * warpgroup a block (narrow), two where T is a multiple of 128 (wide), or
 * the faster of the two for each direction (FLASH_WGMMA: forward wide,
 * backward narrow); then the warp-specialised ping-pong forward (a
 * producer warpgroup and two consumers taking turns) with 64-key tiles in
 * 2 or 3 stages (PP, PP3) or 128-key tiles in 2 (PPN), each with the
 * narrow backward; then PPN's forward with the dQ kernel warp-specialised
 * the same way (PPQ: dO read from shared memory, PPQR: from registers)
 * and the narrow dK/dV kernel; PPQKV: PPQ with the dK/dV kernel
 * warp-specialised too (a producer and two consumers, no turns, 2
 * stages); PPQKV_NT the same with no turns in dQ either, PPQKV3 with 3
 * dK/dV stages, PPQ128KV with dQ on 128-key tiles; FUSEDQ is PPQ128KV's
 * forward with one fused backward kernel (dK, dV and dQ's fp32 sums into
 * dq_acc, reduced by the bulk copy engine; docs/performance.md, rounds
 * 10 and 11), where T is a multiple of 128 (elsewhere PPQ128KV's
 * backward). FLASH_WGMMA_FUSEDQ, the fastest measured on the H200
 * (docs/performance.md, round 11; PPQ128KV before it), is the default
 * on a compute capability 9.0 device. flash_select_kernels(F)
 * forces one (the harness checks and times each), -1 goes back to the
 * default. flash_wgmma_* are flash.cu's calls into the second file (shape
 * already checked; the backward computes dsum itself; its mode is
 * flash.cu's backward_mode of the family). */
enum { FLASH_MMA_SYNC = 0, FLASH_WGMMA_NARROW = 1, FLASH_WGMMA_WIDE = 2, FLASH_WGMMA = 3, FLASH_WGMMA_PP = 4,
       FLASH_WGMMA_PP3 = 5, FLASH_WGMMA_PPN = 6, FLASH_WGMMA_PPQ = 7, FLASH_WGMMA_PPQR = 8,
       FLASH_WGMMA_PPQKV = 9, FLASH_WGMMA_PPQKV_NT = 10, FLASH_WGMMA_PPQKV3 = 11,
       FLASH_WGMMA_PPQ128KV = 12, FLASH_WGMMA_FUSEDQ = 13, FLASH_FAMILIES = 14 };
void flash_select_kernels(int family);
int flash_wgmma_forward(bf16 *att, float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B,
			int T, int H, int D, int wide, cudaStream_t s);
int flash_wgmma_backward(bf16 *dq, bf16 *dk, bf16 *dv, float *dsum, const bf16 *att, const bf16 *datt,
			 const float *lse2, const bf16 *q, const bf16 *k, const bf16 *v, int ld, int B, int T,
			 int H, int D, int mode, cudaStream_t s);
void flash_fq_diagnostic(int n); /* the harness's variants of family 13 (flash_wgmma.cu) */
/* rot: NULL, or dq and dk are dqkv's q and k parts in q's layout and get
 * the rotary backward (flash_attention_backward_rotary) */
int flash_wgmma_backward_fused(bf16 *dq, float *dq_acc, bf16 *dk, bf16 *dv, float *dsum, const bf16 *att,
			       const bf16 *datt, const float *lse2, const bf16 *q, const bf16 *k, const bf16 *v,
			       int ld, int B, int T, int H, int D, const struct flash_rotary *rot, cudaStream_t s);

/* ---- relu2.cu: a = relu(u)^2 -------------------------------------------
 * backward: du = da * 2 relu(u) (OVERWRITES du; du may alias da). */
int relu2_forward(bf16 *a, const bf16 *u, long n, cudaStream_t s);
int relu2_backward(bf16 *du, const bf16 *da, const bf16 *u, long n, cudaStream_t s);

/* ---- gemm_wgmma.cu: our own Hopper GEMM, relu^2 and rotary in epilogues --
 * out0 (M,N) = A (M,K) · op(B), B stored (N,K) when tb (y = x W^T), else
 * (K,N); bf16 in and out, fp32 accumulation. The epilogue:
 *   GEMM_STORE   out0 = the product (impl.gemm=wgmma's plain products);
 *   GEMM_RELU2   out0 = the product H, out1 = relu(H)^2 (the MLP forward);
 *   GEMM_DRELU2  out0 = the product * 2 relu(aux), aux (M,N) = H (the
 *                MLP's dH from dA = dY Wproj).
 * Runs where gemm_wgmma_supported: a compute capability 9.0 device, M a
 * multiple of 128, N of 256 (a tile's rows and columns), K of 64;
 * elsewhere gemm_wgmma returns -1 and says so. */
enum gemm_epilogue { GEMM_STORE, GEMM_RELU2, GEMM_DRELU2, GEMM_ROTARY };
int gemm_wgmma_supported(int M, int N, int K);
int gemm_wgmma(bf16 *out0, bf16 *out1, const bf16 *aux, const bf16 *A, const bf16 *B, int tb, int M, int N,
	       int K, int epilogue, cudaStream_t s);
/* Whether every product of a transformer block (seq_len T, dim C, MLP
 * width F: N and K among C, F, 3C; rows whole sequences) fits
 * gemm_wgmma: impl.gemm=wgmma's condition. */
int gemm_wgmma_block_products_supported(int T, int C, int F);

/* The QKV projection with rotary_forward_packed in its epilogue
 * (GEMM_ROTARY, impl.rotary=epilogue): qkv (M, 3C) = x (M, C) wqkv^T
 * (wqkv stored (3C, C)), then q and k of each head QK-normalised (when
 * qk_norm) and rotated as rotary.cu does, from the product rounded to
 * bf16 as cuBLASLt's output is; rstd_q, rstd_k (B,H,T) as rotary.cu
 * writes them. Rows are tokens, row n at position n % T. Runs where
 * gemm_wgmma_rotary_supported: gemm_wgmma's device, M a multiple of 128,
 * head size 128 and C a multiple of 256 (a tile's 256 columns are two
 * whole heads of one of q, k, v). */
struct gemm_rotary {
	float *rstd_q, *rstd_k;
	const float *cos_sin; /* rotary_table(T, 128) */
	int T, H, qk_norm;
	float eps;
};
int gemm_wgmma_rotary_supported(int M, int C, int D);
int gemm_wgmma_qkv_rotary(bf16 *qkv, const bf16 *x, const bf16 *wqkv, int M, int C, const struct gemm_rotary *r,
			  cudaStream_t s);

/* ---- crossentropy.cu: soft-cap + cross-entropy (+ gradient) -------------
 * z = c tanh(logit/c) (c = softcap, 0 = off); loss[n] = logsumexp(z) - z[t].
 * When dlogits is not NULL it gets grad_scale * dloss/dlogit (bf16,
 * OVERWRITES), computed row by row without storing probabilities — or,
 * when scratch (2*N*V floats) is not NULL, by the unfused kernels
 * (impl.fused_xent=false): capped logits and probabilities stored there. */
int crossentropy_forward_backward(float *loss, bf16 *dlogits, const float *logits,
				  const int32_t *targets, int N, int V, float softcap,
				  float grad_scale, float *scratch, cudaStream_t s);

/* ---- adamw.cu: decoupled weight decay AdamW on fp32 master weights -------
 * p -= lr*wd*p; m,v updated; p -= lr * mhat / (sqrt(vhat) + eps);
 * p_bf16 (if not NULL) gets the bf16 copy used by the GEMMs. The step's
 * scalars come from device memory (sched_dev), so a captured CUDA graph
 * replays with each step's values; lr is the group's base rate, times
 * sched_dev->lr_mult. fused = one kernel; 0 = moments, update and cast as
 * three kernels (impl.fused_adamw=false), the same values. */
struct opt_sched {
	float lr_mult; /* the schedule's LR multiplier */
	float c1, c2;  /* AdamW bias corrections 1 - beta1^step, 1 - beta2^step */
};
void opt_sched_fill(struct opt_sched *s, float lr_mult, float beta1, float beta2, int step);
int adamw_update(float *p, bf16 *p_bf16, const float *g, float *m, float *v, long n, float lr,
		 float beta1, float beta2, float eps, float wd, const struct opt_sched *sched_dev,
		 int fused, cudaStream_t s);

/* ---- muon.cu: Newton-Schulz orthogonalised Nesterov momentum ------------
 * One (R,Cc) matrix: buf = mu*buf + g; u = g + mu*buf (Nesterov);
 * X = NS5(u / ||u||_F) in bf16 through cuBLAS; p -= lr*wd*p;
 * p -= lr * max(1, R/Cc)^0.5 * X, lr times sched_dev->lr_mult. scratch:
 * muon_scratch_elems(R, Cc) bf16 elements; norm_dev one device float. */
long muon_scratch_elems(int R, int Cc);
int muon_update(cublasHandle_t h, float *p, bf16 *p_bf16, const float *g, float *buf, int R, int Cc,
		float lr, float mu, float wd, const struct opt_sched *sched_dev, bf16 *scratch,
		float *norm_dev, cudaStream_t s);
/* the Newton-Schulz iteration alone: X (R,Cc) bf16 in place, already
 * normalised; 5 steps with the quintic coefficients (3.4445, -4.7750, 2.0315).
 * scratch: 2*min(R,Cc)^2 + R*Cc bf16 elements. */
int newton_schulz5(cublasHandle_t h, bf16 *X, int R, int Cc, bf16 *scratch, cudaStream_t s);

#endif
