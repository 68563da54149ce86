/* gpu_model.h — the GPT of model.h on one CUDA GPU: bf16 weights and
 * activations with fp32 master weights, gradients and optimiser state.
 * Used by the GPU training loop (gpu_train.cu) and the GPU checks
 * (bench/kernels_model.cu). C++ (nvcc) only; the C trainer sees gpu.h.
 * Only compute lives here: data, schedule and records belong to the loop.
 * Parameters use the CPU buffer layout of model.h, so the same host
 * initialisation and the same gradient comparison apply. */
#ifndef RL_TRAINER_GPU_MODEL_H
#define RL_TRAINER_GPU_MODEL_H
#include "kernels.h"
extern "C" {
#include "model.h"
}

struct config;

/* The implementation choices of the CUDA path (the impl.* variables and
 * the matrix optimiser); each selects different kernels, none changes
 * the mathematics. */
struct gpu_options {
	int muon;         /* optim.matrix_optimizer=muon: momentum + Newton-Schulz state */
	int flash;        /* impl.attention=flash: fused attention, no (T,T) buffers */
	int recompute;    /* impl.recompute: keep block inputs only, recompute in backward */
	int fused_adamw;  /* impl.fused_adamw */
	int fused_xent;   /* impl.fused_xent */
	int autotune;     /* impl.compile_mode=autotune */
	int relu2_epilogue; /* impl.relu2=epilogue: relu^2 in our own GEMM's epilogues (gemm_wgmma.cu) */
	int own_gemm;     /* impl.gemm=wgmma: the blocks' products with no epilogue of ours on gemm_wgmma.cu */
	int rotary_epilogue; /* impl.rotary=epilogue: QK-norm + rotary in our QKV GEMM's epilogue and on the fused attention backward's way out (flash only) */
};
/* The options of a resolved config (impl.* after impl_resolve). */
void gpu_options_from_config(struct gpu_options *o, const struct config *c);
/* The defaults: fused kernels, naive attention, no recompute, cuBLASLt
 * GEMMs with relu2.cu between them (impl.relu2=kernel). */
void gpu_options_default(struct gpu_options *o, int muon);

struct gpu_layer {
	bf16 *ln1, *q, *k, *v, *P, *att, *ln2, *fc, *act;
	bf16 *qkv;                /* flash: the QKV projection's (N,3C) output, q and k rotated in
				     place; read by the flash kernels as it is (q, k, v unused) */
	float *rstd1, *rstd_q, *rstd_k, *rstd2, *lse;
	float *xsave;             /* recompute: the block's input (residual after the add) */
};

struct gpu_model {
	struct model_dims d;
	struct param_layout pl;
	struct gpu_options opt;
	int B;                    /* sequences the buffers were sized for */
	int cur_B;                /* of the last forward */
	/* parameters: fp32 master, bf16 copy for the GEMMs, fp32 gradients */
	float *params, *grads;
	bf16 *params_bf16;
	/* optimiser state; sched: the step's scalars, read by the kernels */
	float *adam_m, *adam_v, *mom, *norm_dev;
	bf16 *muon_scratch;
	struct opt_sched *sched_dev, *sched_host; /* host copy pinned */
	int step;
	/* activations kept for backward (all layers share one set under recompute) */
	struct gpu_layer *layer;
	float *x, *rstdf, *logits, *losses, *loss_sum, *cos_sin, *xent_scratch, *xre, *dsum, *dq_acc;
	bf16 *lnf, *dlogits;
	int32_t *inputs, *targets;
	/* scratch shared by all layers */
	bf16 *qkv, *o, *y, *dx_bf16, *dh, *dqkv, *dq, *dk, *dv, *datt, *dfc;
	float *S, *dx;
	/* library handles */
	cudaStream_t stream;
	cublasHandle_t cublas;
	void *cublas_workspace;
	mm_ctx mm;
	size_t bytes;             /* device memory we allocated */
	int oom;                  /* an allocation failed for lack of memory */
};

/* Allocate everything for up to B sequences of d->T tokens with the given
 * options. 0 = ok; -1 with a message (gm->oom set when the device ran out
 * of memory). gpu_model_release frees a partial model. */
int gpu_model_init(struct gpu_model *gm, const struct model_dims *d, int B, const struct gpu_options *o);
void gpu_model_release(struct gpu_model *gm);
/* Copy fp32 parameters (model.h layout, pl.total floats) to the device. */
int gpu_model_set_params(struct gpu_model *gm, const float *host);
int gpu_model_get_params(struct gpu_model *gm, float *host);
int gpu_model_get_grads(struct gpu_model *gm, float *host);
/* Forward over (B,T) token ids; *loss = mean loss in nats (synchronises).
 * With train set, also the gradient of the loss (times grad_scale) w.r.t.
 * the logits, for gpu_model_backward. targets must not be NULL. */
int gpu_model_forward(struct gpu_model *gm, const int *inputs, const int *targets, int B, int train,
		      float grad_scale, float *loss);
/* The same on the stream only, nothing synchronised (CUDA graphs): copy a
 * batch from host memory (pinned, for a graph), then forward leaving the
 * SUM of the B*T losses in *loss_sum_dev (device). */
int gpu_model_upload(struct gpu_model *gm, const int *inputs, const int *targets, int B);
int gpu_model_forward_dev(struct gpu_model *gm, int B, int train, float grad_scale, float *loss_sum_dev);
/* Backward of the last forward (train set): ACCUMULATES into grads. */
int gpu_model_backward(struct gpu_model *gm);
int gpu_model_zero_grad(struct gpu_model *gm);
/* One optimiser step, the same groups, learning rates, weight decay and
 * clipping as optim_step() (optim.c). gpu_model_step = set_schedule +
 * step_dev, and *norm (if not NULL) = the gradient norm before clipping
 * (synchronises). set_schedule counts the step and copies its scalars to
 * the device; step_dev only enqueues kernels (no host sync), so a graph
 * can hold it and replay it after each step's set_schedule. */
int gpu_model_step(struct gpu_model *gm, const struct config *c, double lr_mult, double *norm);
int gpu_model_set_schedule(struct gpu_model *gm, const struct config *c, double lr_mult);
int gpu_model_step_dev(struct gpu_model *gm, const struct config *c);

#endif
