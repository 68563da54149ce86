/* ops.h — CPU reference ops of the trainer: forward and backward of every
 * layer, and the optimiser steps. Plain C + OpenMP, no intrinsics, no CUDA;
 * the tests treat these as ground truth and the CUDA kernels (kernels/NAME.cu)
 * keep the same argument order and shape comments.
 *
 * Conventions: row-major fp32; B batch, T time, C channels, NH heads,
 * HS head size (C = NH*HS), V vocabulary, N = number of rows (often B*T).
 * Every backward says whether it ACCUMULATES (+=) into its gradient outputs
 * or OVERWRITES them. Threads never share an output element and every sum
 * runs in a fixed order, so results do not depend on the thread count. */
#ifndef RL_TRAINER_OPS_H
#define RL_TRAINER_OPS_H
#include <stddef.h>

/* out (B,T,C) = wte[inp] ; inp (B,T) token ids in 0..V-1, wte (V,C). */
void encoder_forward(float *out, const int *inp, const float *wte, int B, int T, int C);
/* dwte (V,C) += scatter of dout (B,T,C).  ACCUMULATES. */
void encoder_backward(float *dwte, const float *dout, const int *inp, int B, int T, int C);

/* RMSNorm without a learned gain, per row of C:
 * out (N,C) = inp * rstd, rstd (N) = 1/sqrt(mean(inp^2) + 1e-6). */
void rmsnorm_forward(float *out, float *rstd, const float *inp, int N, int C);
/* dinp (N,C) += d/dinp.  ACCUMULATES.  dinp must not alias dout. */
void rmsnorm_backward(float *dinp, const float *dout, const float *inp, const float *rstd,
		      int N, int C);

/* out (N,OC) = inp (N,C) · w (OC,C)^T.  OVERWRITES out. */
void matmul_forward(float *out, const float *inp, const float *w, int N, int C, int OC);
/* dinp (N,C) += dout·w ; dw (OC,C) += dout^T·inp.  ACCUMULATES both;
 * dinp may be NULL (no input gradient wanted). */
void matmul_backward(float *dinp, float *dw, const float *dout, const float *inp,
		     const float *w, int N, int C, int OC);

/* Rotary position embedding on (B,T,NH,HS): pairs (i, i+HS/2) of each head
 * rotate by angle t * 10000^(-2i/HS).  OVERWRITES out; out may equal inp. */
void rotary_forward(float *out, const float *inp, int B, int T, int NH, int HS);
/* dinp = R(t)^T dout.  OVERWRITES dinp; dinp may equal dout. */
void rotary_backward(float *dinp, const float *dout, int B, int T, int NH, int HS);

/* Causal self-attention. q, k, v, out (B,T,C) with C = NH*HS;
 * att (B,NH,T,T) keeps the softmax probabilities for backward (entries
 * above the diagonal are written as 0).  OVERWRITES out and att. */
void attention_forward(float *out, float *att, const float *q, const float *k, const float *v,
		       int B, int T, int NH, int HS);
/* dq, dk, dv (B,T,C) += gradients.  ACCUMULATES.  datt (B,NH,T,T) is
 * scratch, overwritten. */
void attention_backward(float *dq, float *dk, float *dv, float *datt, const float *dout,
			const float *q, const float *k, const float *v, const float *att,
			int B, int T, int NH, int HS);

/* out (N) = relu(inp)^2.  OVERWRITES out. */
void relu2_forward(float *out, const float *inp, size_t N);
/* dinp (N) += 2 relu(inp) dout.  ACCUMULATES. */
void relu2_backward(float *dinp, const float *dout, const float *inp, size_t N);

/* Logit soft-cap and cross-entropy: z' = cap*tanh(z/cap) (cap 0 = off),
 * probs (N,V) = softmax(z'), losses (N) = -log probs[target] in nats.
 * OVERWRITES losses and probs; logits (N,V) are left as they are. */
void softcap_xent_forward(float *losses, float *probs, const float *logits, const int *targets,
			  float cap, int N, int V);
/* dlogits (N,V) = scale * d(sum of losses)/dlogits (scale is usually 1/N
 * for a mean loss).  OVERWRITES dlogits; it may alias probs. */
void softcap_xent_backward(float *dlogits, const float *probs, const float *logits,
			   const int *targets, float cap, float scale, int N, int V);

/* AdamW on n parameters, step t >= 1 (bias-corrected), decoupled weight
 * decay p -= lr*wd*p.  Updates p, m, v in place. */
void adamw_step(float *p, const float *g, float *m, float *v, size_t n, float lr,
		float beta1, float beta2, float eps, float wd, int t);

/* Muon on one (rows,cols) matrix: mom = mu*mom + g; u = g + mu*mom
 * (Nesterov); o = NewtonSchulz5(u) (approximately the orthogonal factor
 * U V^T of u); p -= lr*wd*p; p -= lr*sqrt(max(1, rows/cols)) * o.
 * scratch holds muon_scratch_floats(rows, cols) floats. */
void muon_step(float *p, const float *g, float *mom, int rows, int cols, float lr,
	       float mu, float wd, float *scratch);
size_t muon_scratch_floats(int rows, int cols);
/* Newton–Schulz quintic iteration (5 steps) on x (rows,cols), in place,
 * after scaling to unit Frobenius norm; exposed for tests. scratch holds
 * newton_schulz_scratch_floats(rows, cols) floats. */
void newton_schulz5(float *x, int rows, int cols, float *scratch);
size_t newton_schulz_scratch_floats(int rows, int cols);

#endif
