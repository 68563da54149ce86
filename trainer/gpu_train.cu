/* gpu_train.cu — the entry points of gpu.h on CUDA: gpu_probe (is there a
 * usable GPU, and what is it) and gpu_train (a run on the GPU: the shared
 * loop of loop.h, so schedule, stopping rules, data order and val_bpb are
 * the CPU path's; this file supplies the GPU's step and validation batch
 * through gpu_model.h, and the GPU's memory and MFU figures). */
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

/* ---- the GPU's half of the loop (loop.h) ---------------------------------------- */

struct gloop {
	struct run *r;
	struct gpu_model gm;
	struct batch_plan bp;
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

static int loop_init(struct gloop *L, struct run *r)
{
	const struct config *c = &r->cfg;
	struct model_dims d;
	memset(L, 0, sizeof(*L));
	L->r = r;
	if (batch_plan_init(&L->bp, r))
		return -1;
	model_dims_from_config(&d, c);
	if (gpu_model_init(&L->gm, &d, L->bp.B, !strcmp(c->matrix_optimizer, "muon")))
		return run_fail(r, L->gm.oom ? "oom" : "crash", "startup",
				"cannot set up the model on the GPU (depth %d, dim %d, seq_len %d, "
				"device_batch_size %d)%s", c->depth, c->dim, c->seq_len,
				c->device_batch_size, L->gm.oom ? ": out of device memory" : "; see stderr");
	if (init_weights(L))
		return run_fail(r, "crash", "startup", "cannot initialise the weights on the GPU");
	r->m.num_params_M = L->gm.pl.total / 1e6;
	return 0;
}

static void loop_release(struct gloop *L)
{
	gpu_model_release(&L->gm);
	batch_plan_release(&L->bp);
}

static int gpu_failed(struct gloop *L, const char *phase)
{
	if (L->gm.oom || cudaPeekAtLastError() == cudaErrorMemoryAllocation)
		return run_fail(L->r, "oom", phase, "out of device memory");
	return run_fail(L->r, "crash", phase, "CUDA error during %s (message on stderr)", phase);
}

/* run_device.step: one optimiser step over `accum` micro-batches. */
static int gpu_step(void *ctx, double lr_mult, double *loss)
{
	struct gloop *L = (struct gloop *)ctx;
	double sum = 0.0, norm;
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
	if (gpu_model_step(&L->gm, &L->r->cfg, lr_mult, &norm))
		return gpu_failed(L, "optimizer");
	*loss = sum / L->bp.accum;
	return 0;
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
	loop_release(&L);
	if (!rc)
		snprintf(r->status, sizeof(r->status), "ok");
	return rc;
}
