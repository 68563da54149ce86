/* train.c — the CPU path of a run (cpu_train in run.h): memory check,
 * model and optimiser set-up, and the CPU's half of the loop (loop.h): one
 * step with gradient accumulation, one validation batch. The schedule and
 * every stopping rule live in loop.c, shared with the GPU path. */
#include <errno.h>
#include <omp.h>
#include <unistd.h>
#include "loop.h"
#include "model.h"
#include "optim.h"
#include "run.h"
#include "util.h"

struct cpu_run {
	struct run *r;
	struct model model;
	struct optim opt;
	struct batch_plan bp;
};

/* Physical memory in bytes (0 when unknown). */
static double physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
	return pages > 0 && size > 0 ? (double)pages * size : 0.0;
}

int cpu_fits(const struct config *c, char *why, size_t n)
{
	struct model_dims d;
	struct param_layout pl;
	model_dims_from_config(&d, c);
	size_t need = model_bytes_needed(&d, c->device_batch_size);
	double ram = physical_memory(), params = 0;
	if (need == SIZE_MAX) {
		snprintf(why, n, "the model's memory size overflows size_t (depth %d, dim %d, seq_len %d, "
			 "device_batch_size %d)", d.L, d.C, d.T, c->device_batch_size);
		return -1;
	}
	if (!param_layout_init(&pl, &d)) {
		params = (double)pl.total * sizeof(float);
		param_layout_release(&pl);
	}
	/* optimiser state adds up to 3 more copies of the parameters */
	double total = (double)need + 3 * params;
	if (ram > 0 && total > ram) {
		snprintf(why, n, "the model needs %.0f MB (parameters, activations, optimiser state) but "
			 "this machine has %.0f MB of RAM", total / 1048576, ram / 1048576);
		return -1;
	}
	return 0;
}

static int loop_init(struct cpu_run *L, struct run *r)
{
	const struct config *c = &r->cfg;
	struct model_dims d;
	memset(L, 0, sizeof(*L));
	L->r = r;
	if (batch_plan_init(&L->bp, r))
		return -1;
	model_dims_from_config(&d, c);
	/* cpu_fits passed before the run started; malloc can still fail
	 * (ulimit -v): the model does not fit either, before training starts */
	if (model_init(&L->model, &d, L->bp.B) || optim_init(&L->opt, &L->model, c))
		return run_refuse(r, "cannot allocate the model, activations or optimiser state "
				"(depth %d, dim %d, seq_len %d, device_batch_size %d)",
				c->depth, c->dim, c->seq_len, c->device_batch_size);
	model_init_weights(&L->model, (uint64_t)c->seed);
	r->m.num_params_M = model_num_params(&L->model) / 1e6;
	return 0;
}

static void loop_release(struct cpu_run *L)
{
	model_release(&L->model);
	optim_release(&L->opt);
	batch_plan_release(&L->bp);
}

/* run_device.step: one optimiser step over `accum` micro-batches. */
static int cpu_step(void *ctx, double lr_mult, double *loss)
{
	struct cpu_run *L = ctx;
	double sum = 0.0;
	model_zero_grad(&L->model);
	for (int i = 0; i < L->bp.accum; i++) {
		data_train_batch(&L->r->data, &L->bp.rng, L->bp.B, L->bp.T, L->bp.inputs, L->bp.targets);
		float l = model_forward(&L->model, L->bp.inputs, L->bp.targets, L->bp.B, L->bp.T);
		sum += l;
		if (!isfinite(l)) {
			*loss = l; /* fail fast: no backward through a NaN */
			return 0;
		}
		model_backward(&L->model, 1.0f / L->bp.accum);
	}
	optim_step(&L->opt, &L->model, &L->r->cfg, lr_mult);
	*loss = sum / L->bp.accum;
	return 0;
}

/* run_device.eval: mean loss of validation batch i. */
static int cpu_eval(void *ctx, long i, int B, double *loss)
{
	struct cpu_run *L = ctx;
	data_val_batch(&L->r->data, i, B, L->bp.T, L->bp.inputs, L->bp.targets);
	*loss = model_forward(&L->model, L->bp.inputs, L->bp.targets, B, L->bp.T);
	return 0;
}

int cpu_train(struct run *r)
{
	struct cpu_run L;
	int rc;
	if (r->cfg.threads > 0)
		omp_set_num_threads(r->cfg.threads);
	rc = loop_init(&L, r);
	struct run_device dev = { &L, L.bp.B, L.bp.T, L.bp.accum, cpu_step, cpu_eval };
	if (!rc)
		rc = run_train(r, &dev);
	run_progress_end(r);
	if (!rc)
		rc = run_evaluate(r, &dev);
	r->m.peak_vram_mb = peak_rss_mb();
	r->m.mfu_percent = 0.0; /* no peak-FLOPS table for CPUs; see docs/trainer.md */
	loop_release(&L);
	if (!rc)
		snprintf(r->status, sizeof(r->status), "ok");
	return rc;
}
