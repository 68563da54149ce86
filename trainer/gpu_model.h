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

struct gpu_layer {
	bf16 *ln1, *q, *k, *v, *P, *att, *ln2, *fc, *act;
	float *rstd1, *rstd_q, *rstd_k, *rstd2;
};

struct gpu_model {
	struct model_dims d;
	struct param_layout pl;
	int B;                    /* sequences the buffers were sized for */
	int cur_B;                /* of the last forward */
	/* parameters: fp32 master, bf16 copy for the GEMMs, fp32 gradients */
	float *params, *grads;
	bf16 *params_bf16;
	/* optimiser state */
	float *adam_m, *adam_v, *mom, *norm_dev;
	bf16 *muon_scratch;
	int muon, step;
	/* activations kept for backward */
	struct gpu_layer *layer;
	float *x, *rstdf, *logits, *losses, *loss_sum, *cos_sin;
	bf16 *lnf, *dlogits;
	int32_t *inputs, *targets;
	/* scratch shared by all layers */
	bf16 *qkv, *o, *y, *dx_bf16, *dh, *dqkv, *dq, *dk, *dv, *datt, *dfc;
	float *S, *dx;
	/* library handles */
	cudaStream_t stream;
	cublasHandle_t cublas;
	mm_ctx mm;
	size_t bytes;             /* device memory we allocated */
	int oom;                  /* an allocation failed for lack of memory */
};

/* Allocate everything for up to B sequences of d->T tokens; muon selects
 * the matrix optimiser's state. 0 = ok; -1 with a message (gm->oom set when
 * the device ran out of memory). gpu_model_release frees a partial model. */
int gpu_model_init(struct gpu_model *gm, const struct model_dims *d, int B, int muon);
void gpu_model_release(struct gpu_model *gm);
/* Copy fp32 parameters (model.h layout, pl.total floats) to the device. */
int gpu_model_set_params(struct gpu_model *gm, const float *host);
int gpu_model_get_params(struct gpu_model *gm, float *host);
int gpu_model_get_grads(struct gpu_model *gm, float *host);
/* Forward over (B,T) token ids; *loss = mean loss in nats. With train set,
 * also the gradient of the loss (times grad_scale) w.r.t. the logits, for
 * gpu_model_backward. targets must not be NULL. */
int gpu_model_forward(struct gpu_model *gm, const int *inputs, const int *targets, int B, int train,
		      float grad_scale, float *loss);
/* Backward of the last forward (train set): ACCUMULATES into grads. */
int gpu_model_backward(struct gpu_model *gm);
int gpu_model_zero_grad(struct gpu_model *gm);
/* One optimiser step, the same groups, learning rates, weight decay and
 * clipping as optim_step() (optim.c); *norm = gradient norm before
 * clipping. */
int gpu_model_step(struct gpu_model *gm, const struct config *c, double lr_mult, double *norm);

#endif
