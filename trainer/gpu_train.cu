/* gpu_train.cu — the entry points of gpu.h on CUDA: gpu_probe (is there a
 * usable GPU, and what is it) and gpu_train (the training loop of train.c
 * with the compute on the GPU: same data order, schedule, stopping rules,
 * evaluation and metrics; only forward, backward and the optimiser step go
 * through gpu_model.h). Keep the loop in step with train.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpu_model.h"
#include "cuda_check.h"
extern "C" {
#include "gpu.h"
#include "hw.h"
#include "run.h"
}

/* ---- probe ------------------------------------------------------------------ */

/* The kernel driver's version ("580.159.04") from /proc; the CUDA API
 * only knows the driver's CUDA level. */
static void driver_version(char *out, size_t n)
{
	char line[256];
	int api = 0;
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	out[0] = '\0';
	if (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "Kernel Module");
		if (p) {
			p += strlen("Kernel Module");
			while (*p == ' ')
				p++;
			size_t len = strcspn(p, " \n");
			snprintf(out, n, "%.*s", (int)len, p);
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

/* ---- the loop (mirrors train.c) --------------------------------------------------- */

struct gloop {
	struct run *r;
	struct gpu_model gm;
	int B, T, accum;
	int *inputs, *targets;
	uint64_t rng;
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
	L->B = c->device_batch_size;
	L->T = c->seq_len;
	L->accum = (int)(c->total_batch_size / ((long)L->B * L->T));
	L->rng = (uint64_t)c->seed * 0x2545F4914F6CDD1Dull + 1; /* as train.c */
	model_dims_from_config(&d, c);
	if (gpu_model_init(&L->gm, &d, L->B, !strcmp(c->matrix_optimizer, "muon")))
		return run_fail(r, L->gm.oom ? "oom" : "crash", "startup",
				"cannot set up the model on the GPU (depth %d, dim %d, seq_len %d, "
				"device_batch_size %d)%s", c->depth, c->dim, c->seq_len,
				c->device_batch_size, L->gm.oom ? ": out of device memory" : "; see stderr");
	L->inputs = (int *)malloc(sizeof(int) * (size_t)L->B * L->T);
	L->targets = (int *)malloc(sizeof(int) * (size_t)L->B * L->T);
	if (!L->inputs || !L->targets)
		return run_fail(r, "oom", "startup", "cannot allocate the batch buffers");
	if (init_weights(L))
		return run_fail(r, "crash", "startup", "cannot initialise the weights on the GPU");
	r->m.num_params_M = L->gm.pl.total / 1e6;
	return 0;
}

static void loop_release(struct gloop *L)
{
	gpu_model_release(&L->gm);
	free(L->inputs);
	free(L->targets);
}

static int gpu_failed(struct gloop *L, const char *phase)
{
	if (L->gm.oom || cudaPeekAtLastError() == cudaErrorMemoryAllocation)
		return run_fail(L->r, "oom", phase, "out of device memory");
	return run_fail(L->r, "crash", phase, "CUDA error during %s (message on stderr)", phase);
}

/* One optimiser step over `accum` micro-batches; *loss = their mean. */
static int train_step(struct gloop *L, double lr_mult, double *loss)
{
	double sum = 0.0, norm;
	if (gpu_model_zero_grad(&L->gm))
		return gpu_failed(L, "forward");
	for (int i = 0; i < L->accum; i++) {
		float l;
		data_train_batch(&L->r->data, &L->rng, L->B, L->T, L->inputs, L->targets);
		if (gpu_model_forward(&L->gm, L->inputs, L->targets, L->B, 1, 1.0f / L->accum, &l))
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
	*loss = sum / L->accum;
	return 0;
}

static int train_until_budget(struct gloop *L)
{
	struct run *r = L->r;
	double t_start = mono_now(), budget = r->cfg.time_budget_s;
	long nan_step = test_nan_step();
	while (r->m.training_seconds < budget) {
		double loss;
		if (*r->stop)
			return run_fail(r, "killed", "forward", "stopped by signal %d after %ld steps",
					(int)*r->stop, r->m.num_steps);
		double mult = lr_multiplier(&r->cfg, r->m.training_seconds / budget);
		if (train_step(L, mult, &loss))
			return -1;
		if (r->m.num_steps == nan_step)
			loss = NAN; /* test hook: RL_TRAINER_TEST_NAN_STEP */
		r->m.num_steps++;
		r->m.total_tokens_M += (double)L->accum * L->B * L->T / 1e6;
		r->m.training_seconds = mono_now() - t_start;
		r->m.tokens_per_second = r->m.total_tokens_M * 1e6 / r->m.training_seconds;
		r->m.train_loss = loss;
		if (!isfinite(loss))
			return run_fail(r, "nan", "forward", "loss is %g at step %ld", loss, r->m.num_steps);
		run_progress(r, r->m.num_steps, loss, mult, r->m.tokens_per_second);
		if (run_over_time(r))
			return run_fail(r, "timeout", "forward", "one step took past budget + grace (%.0fs)",
					budget + r->cfg.timeout_grace_s);
	}
	return 0;
}

/* val_bpb exactly as train.c's evaluate(). */
static int evaluate(struct gloop *L)
{
	struct run *r = L->r;
	int B = L->B;
	long nb = data_val_batches(&r->data, B, L->T, r->cfg.eval_tokens);
	if (nb == 0) {
		B = 1;
		nb = data_val_batches(&r->data, 1, L->T, r->cfg.eval_tokens);
	}
	if (nb == 0)
		return run_fail(r, "crash", "eval", "the validation split (%zu tokens) is shorter than "
				"one sequence of %d", r->data.nval, L->T + 1);
	double sum = 0.0, delay = test_eval_delay();
	for (long i = 0; i < nb; i++) {
		float l;
		if (*r->stop)
			return run_fail(r, "killed", "eval", "stopped by signal %d during evaluation",
					(int)*r->stop);
		data_val_batch(&r->data, i, B, L->T, L->inputs, L->targets);
		if (gpu_model_forward(&L->gm, L->inputs, L->targets, B, 0, 0.f, &l))
			return gpu_failed(L, "eval");
		sum += l;
		if (delay > 0) {
			struct timespec ts = { (time_t)delay, (long)((delay - (time_t)delay) * 1e9) };
			nanosleep(&ts, NULL);
		}
		if (run_over_time(r))
			return run_fail(r, "timeout", "eval", "evaluation ran past budget + grace (%.0fs) "
					"after %ld of %ld batches", r->cfg.time_budget_s + r->cfg.timeout_grace_s,
					i + 1, nb);
	}
	if (!isfinite(sum))
		return run_fail(r, "nan", "eval", "validation loss is %g", sum);
	r->m.val_bpb = sum / nb / M_LN2;
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
	if (!rc)
		rc = train_until_budget(&L);
	run_progress_end(r);
	if (!rc)
		rc = evaluate(&L);
	r->m.peak_vram_mb = L.gm.bytes / 1048576.0;
	r->m.mfu_percent = mfu_percent(r, &L.gm.d);
	loop_release(&L);
	if (!rc)
		snprintf(r->status, sizeof(r->status), "ok");
	return rc;
}
