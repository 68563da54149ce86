/* gpu_model.cu — forward, backward and optimiser step of the GPT on one
 * CUDA GPU (gpu_model.h). Composes the launchers of kernels/ and cuBLASLt
 * GEMMs in the order of model.c's forward/backward, so the two can be read
 * side by side. Numerics: GEMM inputs and saved activations bf16, the
 * residual stream, logits, gradients and optimiser state fp32 (as PyTorch's
 * bf16 autocast keeps them). No data loading, schedule or records here.
 * The impl.* choices (struct gpu_options) pick kernels and buffers:
 * flash attention keeps no (T,T) buffers and reads q, k, v from the QKV
 * projection's output (kept per layer, q and k rotated in place), so v is
 * never copied and the flash backward writes dv into dqkv; recompute keeps
 * one set of block activations plus each block's input, and re-runs a
 * block's forward before its backward; fused_* pick the optimiser and loss
 * kernels. */
#include <stdlib.h>
#include <string.h>
#include "gpu_model.h"
#include "cuda_check.h"
extern "C" {
#include "config.h"
}

#define RMS_EPS 1e-6f   /* as trainer/ops.c */
#define ADAM_EPS 1e-8f  /* as trainer/optim.c */
#define CUBLAS_WORKSPACE (32u << 20) /* given to cuBLAS so graph capture never allocates */

void gpu_options_default(struct gpu_options *o, int muon)
{
	memset(o, 0, sizeof(*o));
	o->muon = muon;
	o->fused_adamw = o->fused_xent = 1;
}

void gpu_options_from_config(struct gpu_options *o, const struct config *c)
{
	gpu_options_default(o, !strcmp(c->matrix_optimizer, "muon"));
	o->flash = !strcmp(c->attention, "flash");
	o->recompute = c->recompute;
	o->fused_adamw = c->fused_adamw;
	o->fused_xent = c->fused_xent;
	o->autotune = !strcmp(c->compile_mode, "autotune");
	o->relu2_epilogue = !strcmp(c->relu2, "epilogue");
	o->rotary_epilogue = !strcmp(c->rotary, "epilogue");
	o->own_gemm = !strcmp(c->gemm, "wgmma");
}

/* ---- allocation ---------------------------------------------------------- */

static int dalloc(struct gpu_model *gm, void **p, size_t bytes)
{
	cudaError_t e = cudaMalloc(p, bytes);
	if (e == cudaErrorMemoryAllocation) {
		cudaGetLastError(); /* clear it: the run ends as oom, not crash */
		gm->oom = 1;
		fprintf(stderr, "trainer: cuda: out of device memory allocating %.1f MB (%.1f MB held)\n",
			bytes / 1048576.0, gm->bytes / 1048576.0);
		*p = NULL;
		return -1;
	}
	CUDA_CHECK(e);
	gm->bytes += bytes;
	return 0;
}

#define ALLOC(ptr, count) dalloc(gm, (void **)&(ptr), (size_t)(count) * sizeof(*(ptr)))

static int alloc_layer(struct gpu_model *gm, struct gpu_layer *L)
{
	const struct model_dims *d = &gm->d;
	size_t N = (size_t)gm->B * d->T, C = d->C, F = d->F, NH = N * d->NH;
	size_t TT = (size_t)gm->B * d->NH * d->T * d->T;
	return ALLOC(L->ln1, N * C) ||
	       (gm->opt.flash ? ALLOC(L->qkv, 3 * N * C) || ALLOC(L->lse, NH)
			      : ALLOC(L->q, N * C) || ALLOC(L->k, N * C) || ALLOC(L->v, N * C) ||
					ALLOC(L->P, TT)) ||
	       ALLOC(L->att, N * C) || ALLOC(L->ln2, N * C) || ALLOC(L->fc, N * F) ||
	       ALLOC(L->act, N * F) || ALLOC(L->rstd1, N) || ALLOC(L->rstd_q, NH) ||
	       ALLOC(L->rstd_k, NH) || ALLOC(L->rstd2, N);
}

/* Per-layer activations: one set each, or under recompute one set shared
 * by every layer plus each layer's saved input. */
static int alloc_layers(struct gpu_model *gm)
{
	const struct model_dims *d = &gm->d;
	size_t NC = (size_t)gm->B * d->T * d->C;
	if (!gm->opt.recompute) {
		for (int l = 0; l < d->L; l++)
			if (alloc_layer(gm, &gm->layer[l]))
				return -1;
		return 0;
	}
	if (alloc_layer(gm, &gm->layer[0]) || ALLOC(gm->xre, NC))
		return -1;
	for (int l = 0; l < d->L; l++) {
		float *xs = NULL;
		if (ALLOC(xs, NC))
			return -1;
		if (l)
			gm->layer[l] = gm->layer[0];
		gm->layer[l].xsave = xs;
	}
	return 0;
}

static int alloc_all(struct gpu_model *gm)
{
	const struct model_dims *d = &gm->d;
	size_t N = (size_t)gm->B * d->T, C = d->C, F = d->F, P = gm->pl.total;
	size_t TT = (size_t)gm->B * d->NH * d->T * d->T, NH = N * d->NH;
	long scratch = 0;
	for (int i = 0; i < gm->pl.ntensors; i++) {
		long s = muon_scratch_elems(gm->pl.t[i].rows, gm->pl.t[i].cols);
		scratch = s > scratch ? s : scratch;
	}
	if (ALLOC(gm->params, P) || ALLOC(gm->grads, P) || ALLOC(gm->params_bf16, P) ||
	    ALLOC(gm->adam_m, P) || ALLOC(gm->adam_v, P) || ALLOC(gm->norm_dev, 1) ||
	    ALLOC(gm->sched_dev, 1) ||
	    (gm->opt.muon && (ALLOC(gm->mom, P) || ALLOC(gm->muon_scratch, scratch))))
		return -1;
	if (alloc_layers(gm))
		return -1;
	if (ALLOC(gm->x, N * C) || ALLOC(gm->rstdf, N) || ALLOC(gm->logits, N * d->V) ||
	    ALLOC(gm->losses, N) || ALLOC(gm->loss_sum, 1) || ALLOC(gm->cos_sin, (size_t)d->T * d->HS) ||
	    ALLOC(gm->lnf, N * C) || ALLOC(gm->dlogits, N * d->V) || ALLOC(gm->inputs, N) ||
	    ALLOC(gm->targets, N) || ALLOC(gm->y, N * C) ||
	    ALLOC(gm->dx_bf16, N * C) || ALLOC(gm->dh, N * C) ||
	    ALLOC(gm->dqkv, 3 * N * C) || ALLOC(gm->datt, N * C) || ALLOC(gm->dfc, N * F) || ALLOC(gm->dx, N * C))
		return -1;
	/* dq, dk between attention's backward and rotary's, unless the rotary
	 * backward runs on the attention backward's way out */
	if (!gm->opt.rotary_epilogue && (ALLOC(gm->dq, N * C) || ALLOC(gm->dk, N * C)))
		return -1;
	/* naive attention: the shared QKV output, fp32 scores, the per-head
	 * output and dv; flash: row sums (its QKV output is per layer) */
	if (gm->opt.flash ? ALLOC(gm->dsum, NH)
			  : (ALLOC(gm->qkv, 3 * N * C) || ALLOC(gm->S, TT) || ALLOC(gm->o, N * C) ||
			     ALLOC(gm->dv, N * C)))
		return -1;
	if (!gm->opt.fused_xent && ALLOC(gm->xent_scratch, 2 * N * d->V))
		return -1;
	/* the fused flash backward's fp32 dQ sums, zero between calls (one
	 * buffer for all layers); only where the family in use takes them */
	if (gm->opt.flash && flash_backward_accumulates(d->T)) {
		if (ALLOC(gm->dq_acc, N * C))
			return -1;
		CUDA_CHECK(cudaMemset(gm->dq_acc, 0, N * C * sizeof(float)));
	}
	return 0;
}

/* q, k, v of a layer are adjacent in the buffer, so one (3C,C) GEMM
 * computes all three; check the layout really is so. */
static int check_layout(const struct gpu_model *gm)
{
	size_t CC = (size_t)gm->d.C * gm->d.C;
	for (int l = 0; l < gm->d.L; l++)
		if (param_offset(&gm->pl, l, LP_WK) != param_offset(&gm->pl, l, LP_WQ) + CC ||
		    param_offset(&gm->pl, l, LP_WV) != param_offset(&gm->pl, l, LP_WK) + CC) {
			fprintf(stderr, "trainer: cuda: layer %d: wq, wk, wv are not adjacent\n", l);
			return -1;
		}
	return 0;
}

static int check_dims(const struct model_dims *d)
{
	if (d->C % 8 || d->HS % 8 || d->T % 8 || d->F % 8) {
		fprintf(stderr, "trainer: cuda: dim %d, head size %d, seq_len %d and MLP width %d "
			"must be multiples of 8 on the GPU path\n", d->C, d->HS, d->T, d->F);
		return -1;
	}
	return 0;
}

int gpu_model_init(struct gpu_model *gm, const struct model_dims *d, int B, const struct gpu_options *o)
{
	memset(gm, 0, sizeof(*gm));
	gm->d = *d;
	gm->B = B;
	gm->opt = *o;
	if (check_dims(d) || param_layout_init(&gm->pl, d) || check_layout(gm))
		return -1;
	if (o->flash && (!flash_head_size_ok(d->HS) || d->T % FLASH_TILE)) {
		fprintf(stderr, "trainer: cuda: flash attention needs head size 64 or 128 and seq_len a "
			"multiple of %d (head size %d, seq_len %d)\n", FLASH_TILE, d->HS, d->T);
		return -1;
	}
	if (o->rotary_epilogue && (!o->flash || d->T % 128 || !gemm_wgmma_rotary_supported(128, d->C, d->HS) ||
				   !flash_backward_accumulates(d->T))) {
		fprintf(stderr, "trainer: cuda: the rotary epilogues (QKV product, fused attention backward) "
			"need flash attention and its fused backward, a compute capability 9.0 GPU, head size 128, "
			"dim a multiple of 256 and seq_len of 128 (flash %d, fused backward %d, head size %d, dim %d, "
			"seq_len %d)\n", o->flash, flash_backward_accumulates(d->T), d->HS, d->C, d->T);
		return -1;
	}
	if (o->own_gemm && !gemm_wgmma_block_products_supported(d->T, d->C, d->F)) {
		fprintf(stderr, "trainer: cuda: our own GEMM (impl.gemm=wgmma) needs a compute capability 9.0 GPU, "
			"seq_len a multiple of 128 and dim and the MLP width multiples of 256 (seq_len %d, dim %d, "
			"MLP width %d)\n", d->T, d->C, d->F);
		return -1;
	}
	gm->layer = (struct gpu_layer *)calloc((size_t)d->L, sizeof(struct gpu_layer));
	if (!gm->layer)
		return -1;
	CUDA_CHECK(cudaStreamCreate(&gm->stream));
	CUBLAS_CHECK(cublasCreate(&gm->cublas));
	CUBLAS_CHECK(cublasSetStream(gm->cublas, gm->stream));
	CUDA_CHECK(cudaMallocHost((void **)&gm->sched_host, sizeof(*gm->sched_host)));
	if (mm_init(&gm->mm) || dalloc(gm, &gm->cublas_workspace, CUBLAS_WORKSPACE) || alloc_all(gm))
		return -1;
	CUBLAS_CHECK(cublasSetWorkspace(gm->cublas, gm->cublas_workspace, CUBLAS_WORKSPACE));
	gm->mm.autotune = o->autotune;
	gm->bytes += gm->mm.workspace_size;
	float *cs = (float *)malloc(sizeof(float) * d->T * d->HS);
	if (!cs)
		return -1;
	rotary_table(cs, d->T, d->HS);
	cudaError_t e = cudaMemcpy(gm->cos_sin, cs, sizeof(float) * d->T * d->HS, cudaMemcpyHostToDevice);
	free(cs);
	CUDA_CHECK(e);
	return gpu_model_zero_grad(gm);
}

void gpu_model_release(struct gpu_model *gm)
{
	void **ptrs[] = {
		(void **)&gm->params, (void **)&gm->grads, (void **)&gm->params_bf16,
		(void **)&gm->adam_m, (void **)&gm->adam_v, (void **)&gm->mom, (void **)&gm->norm_dev,
		(void **)&gm->sched_dev, (void **)&gm->muon_scratch, (void **)&gm->x, (void **)&gm->rstdf,
		(void **)&gm->logits, (void **)&gm->losses, (void **)&gm->loss_sum, (void **)&gm->cos_sin,
		(void **)&gm->lnf, (void **)&gm->dlogits, (void **)&gm->inputs, (void **)&gm->targets,
		(void **)&gm->qkv, (void **)&gm->o, (void **)&gm->y, (void **)&gm->dx_bf16, (void **)&gm->dh,
		(void **)&gm->dqkv, (void **)&gm->dq, (void **)&gm->dk, (void **)&gm->dv,
		(void **)&gm->datt, (void **)&gm->dfc, (void **)&gm->S, (void **)&gm->dx,
		(void **)&gm->xent_scratch, (void **)&gm->xre, (void **)&gm->dsum, (void **)&gm->dq_acc,
		(void **)&gm->cublas_workspace,
	};
	for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++)
		cudaFree(*ptrs[i]);
	/* under recompute the layers share layer 0's buffers */
	int owners = gm->opt.recompute ? 1 : gm->d.L;
	for (int l = 0; gm->layer && l < gm->d.L; l++) {
		struct gpu_layer *L = &gm->layer[l];
		void *lp[] = { L->ln1, L->q, L->k, L->v, L->qkv, L->P, L->att, L->ln2, L->fc, L->act,
			       L->rstd1, L->rstd_q, L->rstd_k, L->rstd2, L->lse };
		for (size_t i = 0; l < owners && i < sizeof(lp) / sizeof(lp[0]); i++)
			cudaFree(lp[i]);
		cudaFree(L->xsave);
	}
	free(gm->layer);
	mm_release(&gm->mm);
	if (gm->sched_host)
		cudaFreeHost(gm->sched_host);
	if (gm->cublas)
		cublasDestroy(gm->cublas);
	if (gm->stream)
		cudaStreamDestroy(gm->stream);
	param_layout_release(&gm->pl);
	memset(gm, 0, sizeof(*gm));
}

/* ---- parameters ----------------------------------------------------------- */

int gpu_model_set_params(struct gpu_model *gm, const float *host)
{
	size_t n = gm->pl.total;
	CUDA_CHECK(cudaMemcpy(gm->params, host, n * sizeof(float), cudaMemcpyHostToDevice));
	if (cast_f32_to_bf16(gm->params_bf16, gm->params, (long)n, gm->stream))
		return -1;
	CUDA_CHECK(cudaStreamSynchronize(gm->stream));
	return 0;
}

int gpu_model_get_params(struct gpu_model *gm, float *host)
{
	CUDA_CHECK(cudaStreamSynchronize(gm->stream));
	CUDA_CHECK(cudaMemcpy(host, gm->params, gm->pl.total * sizeof(float), cudaMemcpyDeviceToHost));
	return 0;
}

int gpu_model_get_grads(struct gpu_model *gm, float *host)
{
	CUDA_CHECK(cudaStreamSynchronize(gm->stream));
	CUDA_CHECK(cudaMemcpy(host, gm->grads, gm->pl.total * sizeof(float), cudaMemcpyDeviceToHost));
	return 0;
}

int gpu_model_zero_grad(struct gpu_model *gm)
{
	CUDA_CHECK(cudaMemsetAsync(gm->grads, 0, gm->pl.total * sizeof(float), gm->stream));
	return 0;
}

/* ---- forward ---------------------------------------------------------------- */

static const bf16 *W(const struct gpu_model *gm, int l, int which)
{
	return gm->params_bf16 + param_offset(&gm->pl, l, which);
}

static float *DW(const struct gpu_model *gm, int l, int which)
{
	return gm->grads + param_offset(&gm->pl, l, which);
}

/* out (M,N) = A (M,K) op(W), bf16, op(W) = W^T when tb (y = x W^T): a
 * block's product with no epilogue of ours, on our own GEMM under
 * impl.gemm=wgmma (start-up checked the shapes; gemm_wgmma fails rather
 * than fall back), else on cuBLASLt. */
static int block_mm(struct gpu_model *gm, bf16 *out, const bf16 *A, const bf16 *W, int tb, int M, int N, int K)
{
	if (gm->opt.own_gemm)
		return gemm_wgmma(out, NULL, NULL, A, W, tb, M, N, K, GEMM_STORE, gm->stream);
	return mm(&gm->mm, out, 0, A, 0, W, tb, M, N, K, 1.f, 0.f, gm->stream);
}

/* QKV projection, QK-norm + rotary, attention: ln1 -> att */
static int attention_fwd(struct gpu_model *gm, int l, int B)
{
	const struct model_dims *d = &gm->d;
	struct gpu_layer *L = &gm->layer[l];
	int N = B * d->T, C = d->C;
	cudaStream_t s = gm->stream;
	bf16 *qkv = gm->opt.flash ? L->qkv : gm->qkv;
	if (gm->opt.rotary_epilogue) { /* start-up checked flash and the shape; no silent fallback */
		struct gemm_rotary r = { L->rstd_q, L->rstd_k, gm->cos_sin, d->T, d->NH, d->qk_norm, RMS_EPS };
		return gemm_wgmma_qkv_rotary(qkv, L->ln1, W(gm, l, LP_WQ), N, C, &r, s) ||
		       flash_attention_forward(L->att, L->lse, qkv, qkv + C, qkv + 2 * C, 3 * C, B, d->T, d->NH,
					       d->HS, s);
	}
	if (block_mm(gm, qkv, L->ln1, W(gm, l, LP_WQ), 1, N, 3 * C, C))
		return -1;
	if (gm->opt.flash)
		return rotary_forward_packed(qkv, L->rstd_q, L->rstd_k, gm->cos_sin, B, d->T, d->NH, d->HS,
					     d->qk_norm, RMS_EPS, s) ||
		       flash_attention_forward(L->att, L->lse, qkv, qkv + C, qkv + 2 * C, 3 * C, B, d->T, d->NH,
					       d->HS, s);
	if (rotary_forward(L->q, L->k, L->v, L->rstd_q, L->rstd_k, qkv, gm->cos_sin, B, d->T, d->NH, d->HS,
			   d->qk_norm, RMS_EPS, s))
		return -1;
	return attention_forward(gm->cublas, L->att, L->P, gm->S, gm->o, L->q, L->k, L->v, B, d->T,
				 d->NH, d->HS, gm->stream);
}

/* fc = ln2 Wfc^T and act = relu^2(fc): one GEMM of ours with relu^2 in
 * its epilogue (impl.relu2=epilogue; start-up checked that every shape
 * fits it, and gemm_wgmma fails rather than fall back), else cuBLASLt and
 * relu2.cu. */
static int mlp_fc_forward(struct gpu_model *gm, struct gpu_layer *L, const bf16 *wfc, int N)
{
	int C = gm->d.C, F = gm->d.F;
	if (gm->opt.relu2_epilogue)
		return gemm_wgmma(L->fc, L->act, NULL, L->ln2, wfc, 1, N, F, C, GEMM_RELU2, gm->stream);
	return block_mm(gm, L->fc, L->ln2, wfc, 1, N, F, C) ||
	       relu2_forward(L->act, L->fc, (long)N * F, gm->stream);
}

/* dfc = d loss / d fc from dy (d loss / d MLP output): (dy Wproj) *
 * 2 relu(fc), the product and the gradient of relu^2 in one GEMM of ours
 * (impl.relu2=epilogue), else cuBLASLt and relu2.cu. */
static int mlp_proj_dx(struct gpu_model *gm, struct gpu_layer *L, const bf16 *dy, const bf16 *wproj, int N)
{
	int C = gm->d.C, F = gm->d.F;
	if (gm->opt.relu2_epilogue)
		return gemm_wgmma(gm->dfc, NULL, L->fc, dy, wproj, 0, N, F, C, GEMM_DRELU2, gm->stream);
	return block_mm(gm, gm->dfc, dy, wproj, 0, N, F, C) ||
	       relu2_backward(gm->dfc, gm->dfc, L->fc, (long)N * F, gm->stream);
}

/* x holds the residual stream; y_add the previous block's output, added
 * to x inside the first norm (NULL for layer 0). Leaves the MLP output in
 * gm->y for the next norm to add. save: keep the block's input (x after
 * the add) for the recomputing backward. */
static int block_forward(struct gpu_model *gm, int l, int B, float *x, const bf16 *y_add, int save)
{
	const struct model_dims *d = &gm->d;
	struct gpu_layer *L = &gm->layer[l];
	int N = B * d->T, C = d->C;
	cudaStream_t s = gm->stream;
	if (rmsnorm_forward(L->ln1, L->rstd1, x, y_add, N, C, RMS_EPS, s))
		return -1;
	if (save)
		CUDA_CHECK(cudaMemcpyAsync(L->xsave, x, (size_t)N * C * sizeof(float),
					   cudaMemcpyDeviceToDevice, s));
	return attention_fwd(gm, l, B) ||
	       block_mm(gm, gm->y, L->att, W(gm, l, LP_WO), 1, N, C, C) ||
	       rmsnorm_forward(L->ln2, L->rstd2, x, gm->y, N, C, RMS_EPS, s) ||
	       mlp_fc_forward(gm, L, W(gm, l, LP_WFC), N) ||
	       block_mm(gm, gm->y, L->act, W(gm, l, LP_WPROJ), 1, N, C, d->F);
}

int gpu_model_upload(struct gpu_model *gm, const int *inputs, const int *targets, int B)
{
	size_t n = (size_t)B * gm->d.T * sizeof(int);
	static_assert(sizeof(int) == sizeof(int32_t), "token ids are 32-bit");
	if (B > gm->B) {
		fprintf(stderr, "trainer: cuda: batch of %d sequences > the %d allocated\n", B, gm->B);
		return -1;
	}
	CUDA_CHECK(cudaMemcpyAsync(gm->inputs, inputs, n, cudaMemcpyHostToDevice, gm->stream));
	CUDA_CHECK(cudaMemcpyAsync(gm->targets, targets, n, cudaMemcpyHostToDevice, gm->stream));
	return 0;
}

int gpu_model_forward_dev(struct gpu_model *gm, int B, int train, float grad_scale, float *loss_sum_dev)
{
	const struct model_dims *d = &gm->d;
	int N = B * d->T;
	cudaStream_t s = gm->stream;
	gm->cur_B = B;
	if (embedding_forward(gm->x, gm->inputs, gm->params + gm->pl.wte, N, d->C, s))
		return -1;
	for (int l = 0; l < d->L; l++)
		if (block_forward(gm, l, B, gm->x, l ? gm->y : NULL, train && gm->opt.recompute))
			return -1;
	return rmsnorm_forward(gm->lnf, gm->rstdf, gm->x, gm->y, N, d->C, RMS_EPS, s) ||
	       mm(&gm->mm, gm->logits, 1, gm->lnf, 0, gm->params_bf16 + gm->pl.lm_head, 1, N, d->V, d->C,
		  1.f, 0.f, s) ||
	       crossentropy_forward_backward(gm->losses, train ? gm->dlogits : NULL, gm->logits,
					     gm->targets, N, d->V, d->softcap, grad_scale / N,
					     gm->opt.fused_xent ? NULL : gm->xent_scratch, s) ||
	       sum_f32(loss_sum_dev, gm->losses, N, s);
}

int gpu_model_forward(struct gpu_model *gm, const int *inputs, const int *targets, int B, int train,
		      float grad_scale, float *loss)
{
	float sum;
	if (gpu_model_upload(gm, inputs, targets, B) ||
	    gpu_model_forward_dev(gm, B, train, grad_scale, gm->loss_sum))
		return -1;
	CUDA_CHECK(cudaMemcpyAsync(&sum, gm->loss_sum, sizeof(float), cudaMemcpyDeviceToHost, gm->stream));
	CUDA_CHECK(cudaStreamSynchronize(gm->stream));
	*loss = sum / (B * gm->d.T);
	return 0;
}

/* ---- backward --------------------------------------------------------------- */

/* attention and QK-norm + rotary backward: datt -> dqkv */
static int attention_bwd(struct gpu_model *gm, struct gpu_layer *L, int B)
{
	const struct model_dims *d = &gm->d;
	int C = d->C;
	cudaStream_t s = gm->stream;
	if (gm->opt.rotary_epilogue) { /* start-up checked the fused backward; no silent fallback */
		struct flash_rotary r = { L->rstd_q, L->rstd_k, gm->cos_sin, d->qk_norm };
		return flash_attention_backward_rotary(gm->dqkv, gm->dsum, gm->dq_acc, L->att, gm->datt, L->lse,
						       L->qkv, &r, B, d->T, d->NH, d->HS, s);
	}
	if (gm->opt.flash) /* dv straight into dqkv's v part */
		return flash_attention_backward(gm->dq, gm->dk, gm->dqkv + 2 * C, gm->dsum, gm->dq_acc, L->att, gm->datt,
						L->lse, L->qkv, L->qkv + C, L->qkv + 2 * C, 3 * C, B, d->T,
						d->NH, d->HS, s) ||
		       rotary_backward_packed(gm->dqkv, gm->dq, gm->dk, L->qkv, L->rstd_q, L->rstd_k,
					      gm->cos_sin, B, d->T, d->NH, d->HS, d->qk_norm, s);
	return attention_backward(gm->cublas, gm->dq, gm->dk, gm->dv, L->P, gm->S, gm->o, gm->datt, L->q,
				  L->k, L->v, B, d->T, d->NH, d->HS, s) ||
	       rotary_backward(gm->dqkv, gm->dq, gm->dk, gm->dv, L->q, L->k, L->rstd_q, L->rstd_k,
			       gm->cos_sin, B, d->T, d->NH, d->HS, d->qk_norm, s);
}

/* On entry dx (fp32) and dx_bf16 hold d loss / d(block output); on return
 * d loss / d(block input). */
static int block_backward(struct gpu_model *gm, int l, int B)
{
	const struct model_dims *d = &gm->d;
	struct gpu_layer *L = &gm->layer[l];
	int N = B * d->T, C = d->C, F = d->F;
	cudaStream_t s = gm->stream;
	mm_ctx *m = &gm->mm;
	/* MLP: out = x_mid + relu2(ln2 Wfc^T) Wproj^T */
	if (mlp_proj_dx(gm, L, gm->dx_bf16, W(gm, l, LP_WPROJ), N) ||
	    mm(m, DW(gm, l, LP_WPROJ), 1, gm->dx_bf16, 1, L->act, 0, C, F, N, 1.f, 1.f, s) ||
	    block_mm(gm, gm->dh, gm->dfc, W(gm, l, LP_WFC), 0, N, C, F) ||
	    mm(m, DW(gm, l, LP_WFC), 1, gm->dfc, 1, L->ln2, 0, F, C, N, 1.f, 1.f, s) ||
	    rmsnorm_backward(gm->dx, gm->dx_bf16, gm->dh, L->ln2, L->rstd2, N, C, 1, s))
		return -1;
	/* attention: x_mid = x_in + attn(ln1) Wo^T */
	return block_mm(gm, gm->datt, gm->dx_bf16, W(gm, l, LP_WO), 0, N, C, C) ||
	       mm(m, DW(gm, l, LP_WO), 1, gm->dx_bf16, 1, L->att, 0, C, C, N, 1.f, 1.f, s) ||
	       attention_bwd(gm, L, B) ||
	       block_mm(gm, gm->dh, gm->dqkv, W(gm, l, LP_WQ), 0, N, C, 3 * C) ||
	       mm(m, DW(gm, l, LP_WQ), 1, gm->dqkv, 1, L->ln1, 0, 3 * C, C, N, 1.f, 1.f, s) ||
	       rmsnorm_backward(gm->dx, gm->dx_bf16, gm->dh, L->ln1, L->rstd1, N, C, 1, s);
}

int gpu_model_backward(struct gpu_model *gm)
{
	const struct model_dims *d = &gm->d;
	int B = gm->cur_B, N = B * d->T, C = d->C, V = d->V;
	cudaStream_t s = gm->stream;
	const bf16 *wlm = gm->params_bf16 + gm->pl.lm_head;
	if (mm(&gm->mm, gm->dh, 0, gm->dlogits, 0, wlm, 0, N, C, V, 1.f, 0.f, s) ||
	    mm(&gm->mm, gm->grads + gm->pl.lm_head, 1, gm->dlogits, 1, gm->lnf, 0, V, C, N, 1.f, 1.f, s) ||
	    rmsnorm_backward(gm->dx, gm->dx_bf16, gm->dh, gm->lnf, gm->rstdf, N, C, 0, s))
		return -1;
	for (int l = d->L - 1; l >= 0; l--) {
		/* recompute: the shared buffers hold the last block's activations;
		 * any other block is re-run from its saved input first */
		if (gm->opt.recompute && l < d->L - 1) {
			CUDA_CHECK(cudaMemcpyAsync(gm->xre, gm->layer[l].xsave, (size_t)N * C * sizeof(float),
						   cudaMemcpyDeviceToDevice, s));
			if (block_forward(gm, l, B, gm->xre, NULL, 0))
				return -1;
		}
		if (block_backward(gm, l, B))
			return -1;
	}
	return embedding_backward(gm->grads + gm->pl.wte, gm->inputs, gm->dx, N, C, V, s);
}

/* ---- optimiser ------------------------------------------------------------------ */

static double group_lr(const struct config *c, enum param_group g)
{
	switch (g) {
	case PG_EMBEDDING: return c->embedding_lr;
	case PG_UNEMBEDDING: return c->unembedding_lr;
	default: return c->matrix_lr;
	}
}

/* Global norm clipping on the device: the kernel compares the norm with
 * the limit, so the host never waits for it. */
static int clip_grads(struct gpu_model *gm, const struct config *c)
{
	if (c->grad_clip <= 0)
		return 0;
	return sumsq_f32(gm->norm_dev, gm->grads, (long)gm->pl.total, gm->stream) ||
	       scale_f32(gm->grads, (long)gm->pl.total, gm->norm_dev, (float)c->grad_clip, gm->stream);
}

int gpu_model_set_schedule(struct gpu_model *gm, const struct config *c, double lr_mult)
{
	gm->step++;
	opt_sched_fill(gm->sched_host, (float)lr_mult, (float)c->beta1, (float)c->beta2, gm->step);
	CUDA_CHECK(cudaMemcpyAsync(gm->sched_dev, gm->sched_host, sizeof(*gm->sched_host),
				   cudaMemcpyHostToDevice, gm->stream));
	return 0;
}

int gpu_model_step_dev(struct gpu_model *gm, const struct config *c)
{
	if (clip_grads(gm, c))
		return -1;
	for (int i = 0; i < gm->pl.ntensors; i++) {
		const struct param_tensor *t = &gm->pl.t[i];
		float lr = (float)group_lr(c, t->group);
		/* weight decay on the block matrices only, as optim.c */
		float wd = t->group == PG_MATRIX ? (float)c->weight_decay : 0.0f;
		size_t o = t->offset;
		int rc = gm->opt.muon && t->group == PG_MATRIX
			? muon_update(gm->cublas, gm->params + o, gm->params_bf16 + o, gm->grads + o,
				      gm->mom + o, t->rows, t->cols, lr, (float)c->muon_momentum, wd,
				      gm->sched_dev, gm->muon_scratch, gm->norm_dev, gm->stream)
			: adamw_update(gm->params + o, gm->params_bf16 + o, gm->grads + o, gm->adam_m + o,
				       gm->adam_v + o, (long)t->rows * t->cols, lr, (float)c->beta1,
				       (float)c->beta2, ADAM_EPS, wd, gm->sched_dev, gm->opt.fused_adamw,
				       gm->stream);
		if (rc)
			return -1;
	}
	return 0;
}

int gpu_model_step(struct gpu_model *gm, const struct config *c, double lr_mult, double *norm)
{
	if (norm) { /* before clipping, as optim_step reports it */
		float ss;
		if (sumsq_f32(gm->norm_dev, gm->grads, (long)gm->pl.total, gm->stream))
			return -1;
		CUDA_CHECK(cudaMemcpyAsync(&ss, gm->norm_dev, sizeof(float), cudaMemcpyDeviceToHost,
					   gm->stream));
		CUDA_CHECK(cudaStreamSynchronize(gm->stream));
		*norm = sqrt((double)ss);
	}
	return gpu_model_set_schedule(gm, c, lr_mult) || gpu_model_step_dev(gm, c);
}
