/* gpu_train.cu — the entry points of gpu.h on CUDA: gpu_probe (is there a
 * usable GPU, and what is it) and gpu_train (a run on the GPU: the shared
 * loop of loop.h, so schedule, stopping rules, data order and val_bpb are
 * the CPU path's; this file supplies the GPU's step and validation batch
 * through gpu_model.h, and the GPU's memory and MFU figures).
 * impl.cuda_graphs=true: the whole optimiser step (every micro-batch's
 * upload, forward and backward, clipping, the optimiser, the loss copy) is
 * enqueued with no host synchronisation inside it, captured once as a CUDA
 * graph at step 2 (step 1 runs the same sequence eagerly, which builds
 * every GEMM plan and cuBLAS state first) and replayed from then on; the
 * host fills pinned staging buffers with the step's batches and its
 * schedule scalars before each launch and waits once, at the end, for the
 * losses. Without graphs, each micro-step's loss is read back at once so a
 * NaN stops the step before its backward. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_model.h"
#include "cuda_check.h"
extern "C" {
#include "config.h"
#include "gpu.h"
#include "hw.h"
#include "loop.h"
#include "run.h"
}

/* ---- probe ------------------------------------------------------------------ */

/* The kernel driver's version ("580.159.04") from /proc: the first word
 * after "Kernel Module" that starts with a digit. The CUDA API only knows
 * the driver's CUDA level, used when /proc has nothing. */
static void driver_version(char *out, size_t n)
{
	char line[512];
	int api = 0;
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	out[0] = '\0';
	if (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "Kernel Module");
		while (p && *p) {
			p += strspn(p, " \t\n");
			size_t len = strcspn(p, " \t\n");
			if (!len)
				break;
			if (isdigit((unsigned char)*p) && memchr(p, '.', len)) {
				snprintf(out, n, "%.*s", (int)len, p);
				break;
			}
			p += len;
		}
	}
	if (f)
		fclose(f);
	if (!out[0] && cudaDriverGetVersion(&api) == cudaSuccess)
		snprintf(out, n, "cuda-driver-api %d.%d", api / 1000, api % 1000 / 10);
}

extern "C" int gpu_probe(struct gpu_probe *out, char *why, size_t n)
{
	int count = 0, rt = 0;
	cudaDeviceProp p;
	memset(out, 0, sizeof(*out));
	cudaError_t e = cudaGetDeviceCount(&count);
	cudaGetLastError(); /* a failed probe must not poison later calls */
	if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || (e == cudaSuccess && !count)) {
		cudaRuntimeGetVersion(&rt);
		snprintf(why, n, "no NVIDIA GPU with a driver for CUDA %d.%d is visible (%s)", rt / 1000,
			 rt % 1000 / 10, e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
		return -1;
	}
	if (e != cudaSuccess) {
		snprintf(why, n, "CUDA cannot start: %s", cudaGetErrorString(e));
		return -1;
	}
	e = cudaGetDeviceProperties(&p, 0);
	if (e != cudaSuccess) {
		snprintf(why, n, "cannot read device 0: %s", cudaGetErrorString(e));
		return -1;
	}
	snprintf(out->name, sizeof(out->name), "%s", p.name);
	out->mem_mb = p.totalGlobalMem / 1048576.0;
	snprintf(out->compute_capability, sizeof(out->compute_capability), "%d.%d", p.major, p.minor);
	driver_version(out->driver, sizeof(out->driver));
	cudaRuntimeGetVersion(&rt);
	snprintf(out->cuda, sizeof(out->cuda), "%d.%d", rt / 1000, rt % 1000 / 10);
	out->count = count;
	if (p.major < 8) {
		snprintf(why, n, "%s has compute capability %d.%d; the CUDA path needs bf16 tensor cores "
			 "(8.0 or newer)", p.name, p.major, p.minor);
		return -1;
	}
	return 0;
}

extern "C" int gpu_flash_supported(const struct config *c, char *why, size_t n)
{
	int D = c->heads > 0 ? c->dim / c->heads : 0;
	if (!flash_head_size_ok(D) || c->seq_len % FLASH_TILE) {
		snprintf(why, n, "the flash kernels need head size 64 or 128 and seq_len a multiple of %d "
			 "(here head size %d, seq_len %d)", FLASH_TILE, D, c->seq_len);
		return -1;
	}
	return 0;
}

extern "C" int gpu_relu2_epilogue_supported(const struct config *c, char *why, size_t n)
{
	int F = (int)lround(c->mlp_ratio * c->dim);
	if (!hopper_sm_count()) {
		snprintf(why, n, "the fused relu^2 GEMM (kernels/gemm_wgmma.cu) runs on compute capability "
			 "9.0 (H100, H200) only, and this machine has no such GPU");
		return -1;
	}
	/* every batch of whole sequences is then a multiple of 128 rows */
	if (c->seq_len % 128 || !gemm_wgmma_supported(128, F, c->dim)) {
		snprintf(why, n, "the fused relu^2 GEMM needs seq_len a multiple of 128, the MLP width of 256 and "
			 "dim a multiple of 64 (here seq_len %d, MLP width %d, dim %d)", c->seq_len, F, c->dim);
		return -1;
	}
	return 0;
}

extern "C" int gpu_rotary_epilogue_supported(const struct config *c, char *why, size_t n)
{
	int D = c->heads > 0 ? c->dim / c->heads : 0;
	if (!hopper_sm_count()) {
		snprintf(why, n, "the fused QKV + rotary GEMM (kernels/gemm_wgmma.cu) runs on compute capability "
			 "9.0 (H100, H200) only, and this machine has no such GPU");
		return -1;
	}
	if (strcmp(c->attention, "flash")) {
		snprintf(why, n, "the fused QKV + rotary GEMM writes flash attention's packed q, k, v: it needs "
			 "impl.attention=flash (here %s)", c->attention);
		return -1;
	}
	if (c->seq_len % 128 || !gemm_wgmma_rotary_supported(128, c->dim, D)) {
		snprintf(why, n, "the fused QKV + rotary GEMM needs head size 128, dim a multiple of 256 and seq_len "
			 "of 128 (here head size %d, dim %d, seq_len %d)", D, c->dim, c->seq_len);
		return -1;
	}
	if (!flash_backward_accumulates(c->seq_len)) { /* the harness's other flash families */
		snprintf(why, n, "the rotary backward runs on the way out of the fused attention backward "
			 "(flash family %d), which is not the family in use", FLASH_WGMMA_FUSEDQ);
		return -1;
	}
	return 0;
}

extern "C" int gpu_gemm_wgmma_supported(const struct config *c, char *why, size_t n)
{
	int C = c->dim, F = (int)lround(c->mlp_ratio * c->dim);
	if (!hopper_sm_count()) {
		snprintf(why, n, "our own GEMM (kernels/gemm_wgmma.cu) runs on compute capability 9.0 (H100, H200) "
			 "only, and this machine has no such GPU");
		return -1;
	}
	if (!gemm_wgmma_block_products_supported(c->seq_len, C, F)) {
		snprintf(why, n, "our own GEMM needs seq_len a multiple of 128 and dim and the MLP width multiples of "
			 "256, its tiles' columns (here seq_len %d, dim %d, MLP width %d)", c->seq_len, C, F);
		return -1;
	}
	return 0;
}

/* ---- the GPU's half of the loop (loop.h) ---------------------------------------- */

struct gloop {
	struct run *r;
	struct gpu_model gm;
	struct batch_plan bp;
	/* impl.cuda_graphs */
	int graphs;
	long steps;                 /* optimiser steps run */
	int *h_inputs, *h_targets;  /* pinned: accum micro-batches */
	float *h_loss, *loss_dev;   /* per micro-batch loss sums */
	cudaGraph_t graph;
	cudaGraphExec_t exec;
};

/* The CPU path's initialisation (model_init_weights) on a host buffer,
 * so both paths start from the same weights for the same seed. */
static int init_weights(struct gloop *L)
{
	struct model hm;
	int rc = -1;
	memset(&hm, 0, sizeof(hm));
	hm.d = L->gm.d;
	if (param_layout_init(&hm.pl, &hm.d))
		return -1;
	hm.params = (float *)malloc(hm.pl.total * sizeof(float));
	if (hm.params) {
		model_init_weights(&hm, (uint64_t)L->r->cfg.seed);
		rc = gpu_model_set_params(&L->gm, hm.params);
	}
	free(hm.params);
	param_layout_release(&hm.pl);
	return rc;
}

static int graph_buffers(struct gloop *L)
{
	size_t n = (size_t)L->bp.accum * L->bp.B * L->bp.T;
	CUDA_CHECK(cudaMallocHost((void **)&L->h_inputs, n * sizeof(int)));
	CUDA_CHECK(cudaMallocHost((void **)&L->h_targets, n * sizeof(int)));
	CUDA_CHECK(cudaMallocHost((void **)&L->h_loss, L->bp.accum * sizeof(float)));
	CUDA_CHECK(cudaMalloc((void **)&L->loss_dev, L->bp.accum * sizeof(float)));
	L->gm.bytes += L->bp.accum * sizeof(float);
	return 0;
}

static int loop_init(struct gloop *L, struct run *r)
{
	const struct config *c = &r->cfg;
	struct model_dims d;
	struct gpu_options o;
	memset(L, 0, sizeof(*L));
	L->r = r;
	L->graphs = c->cuda_graphs;
	if (batch_plan_init(&L->bp, r))
		return -1;
	model_dims_from_config(&d, c);
	gpu_options_from_config(&o, c);
	if (gpu_model_init(&L->gm, &d, L->bp.B, &o)) {
		if (L->gm.oom) /* before training starts: the model does not fit, no record */
			return run_refuse(r, "depth %d, dim %d, seq_len %d, device_batch_size %d need more "
					  "than the GPU's free memory (%.0f MB allocated when it ran out)",
					  c->depth, c->dim, c->seq_len, c->device_batch_size,
					  L->gm.bytes / 1048576.0);
		return run_fail(r, "crash", "startup", "cannot set up the model on the GPU (depth %d, "
				"dim %d, seq_len %d, device_batch_size %d); see stderr", c->depth, c->dim,
				c->seq_len, c->device_batch_size);
	}
	if (L->graphs && graph_buffers(L))
		return run_fail(r, "crash", "startup", "cannot allocate the CUDA graph's staging buffers");
	if (init_weights(L))
		return run_fail(r, "crash", "startup", "cannot initialise the weights on the GPU");
	r->m.num_params_M = L->gm.pl.total / 1e6;
	return 0;
}

static void loop_release(struct gloop *L)
{
	if (L->exec)
		cudaGraphExecDestroy(L->exec);
	if (L->graph)
		cudaGraphDestroy(L->graph);
	cudaFreeHost(L->h_inputs);
	cudaFreeHost(L->h_targets);
	cudaFreeHost(L->h_loss);
	cudaFree(L->loss_dev);
	gpu_model_release(&L->gm);
	batch_plan_release(&L->bp);
}

static int gpu_failed(struct gloop *L, const char *phase)
{
	if (L->gm.oom || cudaPeekAtLastError() == cudaErrorMemoryAllocation)
		return run_fail(L->r, "oom", phase, "out of device memory");
	return run_fail(L->r, "crash", phase, "CUDA error during %s (message on stderr)", phase);
}

/* run_device.step without graphs: one optimiser step over `accum`
 * micro-batches, each micro-step's loss read back before its backward. */
static int eager_step(struct gloop *L, double lr_mult, double *loss)
{
	double sum = 0.0;
	if (gpu_model_zero_grad(&L->gm))
		return gpu_failed(L, "forward");
	for (int i = 0; i < L->bp.accum; i++) {
		float l;
		data_train_batch(&L->r->data, &L->bp.rng, L->bp.B, L->bp.T, L->bp.inputs, L->bp.targets);
		if (gpu_model_forward(&L->gm, L->bp.inputs, L->bp.targets, L->bp.B, 1, 1.0f / L->bp.accum, &l))
			return gpu_failed(L, "forward");
		sum += l;
		if (!isfinite(l)) {
			*loss = l; /* fail fast: no backward through a NaN */
			return 0;
		}
		if (gpu_model_backward(&L->gm))
			return gpu_failed(L, "backward");
	}
	if (gpu_model_step(&L->gm, &L->r->cfg, lr_mult, NULL))
		return gpu_failed(L, "optimizer");
	*loss = sum / L->bp.accum;
	return 0;
}

/* Everything of one step on the stream, nothing synchronised: what the
 * graph holds. The batches are in the pinned staging buffers. */
static int enqueue_step(struct gloop *L)
{
	size_t N = (size_t)L->bp.B * L->bp.T;
	if (gpu_model_zero_grad(&L->gm))
		return -1;
	for (int i = 0; i < L->bp.accum; i++)
		if (gpu_model_upload(&L->gm, L->h_inputs + i * N, L->h_targets + i * N, L->bp.B) ||
		    gpu_model_forward_dev(&L->gm, L->bp.B, 1, 1.0f / L->bp.accum, L->loss_dev + i) ||
		    gpu_model_backward(&L->gm))
			return -1;
	if (gpu_model_step_dev(&L->gm, &L->r->cfg))
		return -1;
	CUDA_CHECK(cudaMemcpyAsync(L->h_loss, L->loss_dev, L->bp.accum * sizeof(float),
				   cudaMemcpyDeviceToHost, L->gm.stream));
	return 0;
}

static int capture_step(struct gloop *L)
{
	cudaStream_t s = L->gm.stream;
	size_t nodes = 0;
	CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	int rc = enqueue_step(L);
	cudaError_t e = cudaStreamEndCapture(s, &L->graph); /* always end it, even after a failure */
	if (rc)
		return -1;
	CUDA_CHECK(e);
	CUDA_CHECK(cudaGraphInstantiate(&L->exec, L->graph, 0));
	CUDA_CHECK(cudaGraphGetNodes(L->graph, NULL, &nodes));
	trace_note("cuda graph: step %ld captured, %zu nodes, replayed from then on", L->steps + 1, nodes);
	return 0;
}

/* run_device.step with impl.cuda_graphs: stage the batches and the
 * schedule, run step 1 eagerly, capture step 2, replay after; one wait. */
static int graph_step(struct gloop *L, double lr_mult, double *loss)
{
	size_t N = (size_t)L->bp.B * L->bp.T;
	double sum = 0.0;
	for (int i = 0; i < L->bp.accum; i++)
		data_train_batch(&L->r->data, &L->bp.rng, L->bp.B, L->bp.T, L->h_inputs + i * N,
				 L->h_targets + i * N);
	if (gpu_model_set_schedule(&L->gm, &L->r->cfg, lr_mult))
		return gpu_failed(L, "forward");
	if (L->steps == 0) {
		if (enqueue_step(L))
			return gpu_failed(L, "forward");
	} else {
		if (!L->exec && capture_step(L))
			return gpu_failed(L, "forward");
		trace_kernel("graph_launch");
		if (cudaGraphLaunch(L->exec, L->gm.stream) != cudaSuccess) {
			fprintf(stderr, "trainer: cuda: cudaGraphLaunch: %s\n", cudaGetErrorString(cudaGetLastError()));
			return gpu_failed(L, "forward");
		}
	}
	cudaError_t e = cudaStreamSynchronize(L->gm.stream);
	if (e != cudaSuccess) {
		fprintf(stderr, "trainer: cuda: step %ld: %s\n", L->steps + 1, cudaGetErrorString(e));
		return gpu_failed(L, "forward");
	}
	for (int i = 0; i < L->bp.accum; i++)
		sum += L->h_loss[i] / N;
	*loss = sum / L->bp.accum; /* NaN here ends the run: no fail-fast inside a graph */
	return 0;
}

static int gpu_step(void *ctx, double lr_mult, double *loss)
{
	struct gloop *L = (struct gloop *)ctx;
	int rc = L->graphs ? graph_step(L, lr_mult, loss) : eager_step(L, lr_mult, loss);
	L->steps++;
	return rc;
}

/* run_device.eval: mean loss of validation batch i. */
static int gpu_eval(void *ctx, long i, int B, double *loss)
{
	struct gloop *L = (struct gloop *)ctx;
	float l;
	data_val_batch(&L->r->data, i, B, L->bp.T, L->bp.inputs, L->bp.targets);
	if (gpu_model_forward(&L->gm, L->bp.inputs, L->bp.targets, B, 0, 0.f, &l))
		return gpu_failed(L, "eval");
	*loss = l;
	return 0;
}

/* MFU from the peak table of common/hw.h; NAN (recorded as null) when
 * the GPU is not in it, never a made-up or negative number. */
static double mfu_percent(const struct run *r, const struct model_dims *d)
{
	hw_info hi;
	if (hw_lookup(r->gpu.name, &hi) || hi.peak_bf16_tflops <= 0 || r->m.tokens_per_second <= 0)
		return NAN;
	return 100.0 * r->m.tokens_per_second * model_flops_per_token(d) / (hi.peak_bf16_tflops * 1e12);
}

extern "C" int gpu_train(struct run *r)
{
	struct gloop L;
	int rc = loop_init(&L, r);
	struct run_device dev = { &L, L.bp.B, L.bp.T, L.bp.accum, gpu_step, gpu_eval };
	if (!rc)
		rc = run_train(r, &dev);
	run_progress_end(r);
	if (!rc)
		rc = run_evaluate(r, &dev);
	r->m.peak_vram_mb = L.gm.bytes / 1048576.0;
	r->m.mfu_percent = mfu_percent(r, &L.gm.d);
	if (trace_enabled()) {
		fprintf(stderr, "trace: device memory allocated %.1f MB\n", L.gm.bytes / 1048576.0);
		trace_report(stderr);
	}
	loop_release(&L);
	if (!rc)
		snprintf(r->status, sizeof(r->status), "ok");
	return rc;
}
