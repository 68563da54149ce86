/* model.h — the GPT of the trainer: dimensions, the parameter layout (one
 * contiguous fp32 buffer with named offsets) and the activation layout.
 * Shared by the CPU path (model.c) and the CUDA path, which must use the
 * same layout so checkpoints, initialisation and tests carry over.
 *
 * Architecture (decoder-only, pre-norm):
 *   x = wte[tokens]                                   (no positional table)
 *   per layer: h = rmsnorm(x); q,k,v = h·Wq^T, h·Wk^T, h·Wv^T
 *              [qk_norm: q,k = rmsnorm per head]; q,k = rotary(q,k)
 *              x += causal_attention(q,k,v)·Wo^T
 *              h = rmsnorm(x); x += relu(h·Wfc^T)^2 · Wproj^T
 *   logits = rmsnorm(x)·Wlm^T  (untied head), soft-capped, cross-entropy.
 * RMSNorm has no learned gain (so the model has no 1-D parameters). */
#ifndef RL_TRAINER_MODEL_H
#define RL_TRAINER_MODEL_H
#include <stddef.h>
#include <stdint.h>

struct config;

struct model_dims {
	int V;   /* vocabulary */
	int C;   /* width */
	int L;   /* layers */
	int NH;  /* heads */
	int HS;  /* head size, C/NH */
	int F;   /* MLP hidden width, round(mlp_ratio*C) */
	int T;   /* maximum sequence length */
	int qk_norm;
	float softcap;
};

void model_dims_from_config(struct model_dims *d, const struct config *c);

/* Optimiser groups: each has its own learning rate (optim.*_lr). */
enum param_group { PG_EMBEDDING, PG_MATRIX, PG_UNEMBEDDING };

/* Parameter tensors in buffer order:
 *   wte (V,C) | layer 0: wq (C,C) wk (C,C) wv (C,C) wo (C,C) wfc (F,C)
 *   wproj (C,F) | layer 1 … | lm_head (V,C)
 * A matrix (rows,cols) maps cols inputs to rows outputs (y = x·W^T). */
enum { LP_WQ, LP_WK, LP_WV, LP_WO, LP_WFC, LP_WPROJ, LP_COUNT };

struct param_tensor {
	char name[24];        /* "wte", "h3.wfc", "lm_head" */
	size_t offset;        /* in floats from the start of the buffer */
	int rows, cols;
	enum param_group group;
};

struct param_layout {
	int ntensors;         /* 2 + LP_COUNT * L */
	struct param_tensor *t;
	size_t total;         /* floats */
	size_t wte, lm_head;  /* offsets */
};

/* -1 (errno ENOMEM) when the table cannot be allocated or sizes overflow. */
int param_layout_init(struct param_layout *pl, const struct model_dims *d);
void param_layout_release(struct param_layout *pl);
static inline size_t param_offset(const struct param_layout *pl, int layer, int which)
{
	return pl->t[1 + layer * LP_COUNT + which].offset;
}

/* Activations kept for backward, one fp32 buffer, for B sequences of T.
 * Per layer (in this order): x_in, ln1 (B,T,C); ln1_rstd (B,T);
 * q_raw, k_raw (B,T,C); q_rstd, k_rstd (B,T,NH); q, k, v (B,T,C) (q,k after
 * qk-norm and rotary); att (B,NH,T,T); atty (B,T,C); x_mid, ln2 (B,T,C);
 * ln2_rstd (B,T); fc, act (B,T,F).  Then: x_out, lnf (B,T,C); lnf_rstd
 * (B,T); logits, probs (B,T,V); losses (B,T). */
struct layer_acts {
	float *x_in, *ln1, *ln1_rstd, *q_raw, *k_raw, *q_rstd, *k_rstd, *q, *k, *v;
	float *att, *atty, *x_mid, *ln2, *ln2_rstd, *fc, *act;
};

struct acts {
	struct layer_acts *layer;
	float *x_out, *lnf, *lnf_rstd, *logits, *probs, *losses;
	/* backward scratch (B,T,·): residual gradient dres, per-op gradients;
	 * dqn, dkn hold q/k gradients before qk-norm. */
	float *dres, *dx, *dq, *dk, *dv, *dqn, *dkn, *datt, *datty, *dfc, *dact, *dlogits;
};

struct model {
	struct model_dims d;
	struct param_layout pl;
	int B;                /* sequences the activations were sized for */
	float *params, *grads;
	float *act_mem;
	struct acts a;
	int *inputs, *targets; /* (B,T) of the last forward */
	int cur_B, cur_T;
	float loss;           /* mean loss of the last forward, nats */
};

/* Allocate parameters, gradients and activations for up to B x d->T tokens.
 * 0 = ok; -1 with errno = ENOMEM when memory runs out (the run ends as
 * oom), leaving m empty. */
int model_init(struct model *m, const struct model_dims *d, int B);
void model_release(struct model *m);
/* Bytes model_init would allocate (parameters, gradients, activations,
 * batch buffers); SIZE_MAX when the sizes overflow. Lets a run refuse a
 * model larger than the machine before the kernel's OOM killer (which
 * leaves no record) gets a chance. */
size_t model_bytes_needed(const struct model_dims *d, int B);
size_t model_num_params(const struct model *m);
/* Training FLOPs per token: 6 * (matrix parameters incl. lm_head, not the
 * embedding lookup) + 12 * L * T * C for attention scores and values
 * (forward 2+2 per (t,t') pair and channel, backward twice that). */
double model_flops_per_token(const struct model_dims *d);

/* Initialisation from seed: wte ~ N(0,1); wq, wk, wv, wfc ~ U(±sqrt(3/C))
 * (std 1/sqrt(C)); wo, wproj = 0; lm_head ~ N(0, 0.001^2). */
void model_init_weights(struct model *m, uint64_t seed);

/* Forward over inputs/targets (B,T), B <= m->B, T <= d.T. Returns the mean
 * cross-entropy in nats (also m->loss). targets NULL: logits only. */
float model_forward(struct model *m, const int *inputs, const int *targets, int B, int T);
/* Backward of scale * mean loss of the last forward. ACCUMULATES into
 * m->grads (so micro-batches add up); zero them with model_zero_grad(). */
void model_backward(struct model *m, float scale);
void model_zero_grad(struct model *m);

#endif
