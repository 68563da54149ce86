/* train.c — the CPU training loop (cpu_train in run.h): micro-batches with
 * gradient accumulation, the time-based LR schedule, fail-fast on NaN,
 * SIGINT/SIGTERM and timeout checks, then val_bpb on the held-out split.
 * The GPU path (gpu_train) follows the same rules; keep them in step. */
#include <errno.h>
#include <omp.h>
#include <time.h>
#include <unistd.h>
#include "model.h"
#include "optim.h"
#include "run.h"
#include "util.h"

struct loop {
	struct run *r;
	struct model model;
	struct optim opt;
	int B, T, accum;
	int *inputs, *targets;
	uint64_t rng;
};

/* Physical memory in bytes (0 when unknown). */
static double physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
	return pages > 0 && size > 0 ? (double)pages * size : 0.0;
}

/* Refuse a model that cannot fit in RAM: with overcommit, malloc would
 * succeed and the OOM killer would end the run later without a record.
 * Optimiser state adds up to 3 more copies of the parameters. */
static int check_memory(struct run *r, const struct model_dims *d, int B)
{
	size_t need = model_bytes_needed(d, B);
	double ram = physical_memory(), params = 0;
	struct param_layout pl;
	if (need != SIZE_MAX && !param_layout_init(&pl, d)) {
		params = (double)pl.total * sizeof(float);
		param_layout_release(&pl);
	}
	if (need == SIZE_MAX)
		return run_fail(r, "oom", "startup", "the model's memory size overflows size_t "
				"(depth %d, dim %d, seq_len %d, device_batch_size %d)", d->L, d->C, d->T, B);
	double total = (double)need + 3 * params;
	if (ram > 0 && total > ram)
		return run_fail(r, "oom", "startup", "the model needs %.0f MB (parameters, activations, "
				"optimiser state) but this machine has %.0f MB of RAM", total / 1048576,
				ram / 1048576);
	return 0;
}

static int loop_init(struct loop *L, struct run *r)
{
	const struct config *c = &r->cfg;
	struct model_dims d;
	memset(L, 0, sizeof(*L));
	L->r = r;
	L->B = c->device_batch_size;
	L->T = c->seq_len;
	L->accum = (int)(c->total_batch_size / ((long)L->B * L->T));
	L->rng = (uint64_t)c->seed * 0x2545F4914F6CDD1Dull + 1;
	model_dims_from_config(&d, c);
	if (check_memory(r, &d, L->B))
		return -1;
	if (model_init(&L->model, &d, L->B) || optim_init(&L->opt, &L->model, c))
		return run_fail(r, "oom", "startup",
				"cannot allocate the model, activations or optimiser state "
				"(depth %d, dim %d, seq_len %d, device_batch_size %d)",
				c->depth, c->dim, c->seq_len, c->device_batch_size);
	L->inputs = malloc(sizeof(int) * (size_t)L->B * L->T);
	L->targets = malloc(sizeof(int) * (size_t)L->B * L->T);
	if (!L->inputs || !L->targets)
		return run_fail(r, "oom", "startup", "cannot allocate the batch buffers");
	model_init_weights(&L->model, (uint64_t)c->seed);
	r->m.num_params_M = model_num_params(&L->model) / 1e6;
	return 0;
}

static void loop_release(struct loop *L)
{
	model_release(&L->model);
	optim_release(&L->opt);
	free(L->inputs);
	free(L->targets);
}

/* One optimiser step over `accum` micro-batches. Returns the mean loss. */
static double train_step(struct loop *L, double lr_mult)
{
	double sum = 0.0;
	model_zero_grad(&L->model);
	for (int i = 0; i < L->accum; i++) {
		data_train_batch(&L->r->data, &L->rng, L->B, L->T, L->inputs, L->targets);
		float loss = model_forward(&L->model, L->inputs, L->targets, L->B, L->T);
		sum += loss;
		if (!isfinite(loss))
			return loss; /* fail fast: no backward through a NaN */
		model_backward(&L->model, 1.0f / L->accum);
	}
	optim_step(&L->opt, &L->model, &L->r->cfg, lr_mult);
	return sum / L->accum;
}

static int train_until_budget(struct loop *L)
{
	struct run *r = L->r;
	double t_start = mono_now(), budget = r->cfg.time_budget_s;
	long nan_step = test_nan_step();
	while (run_schedule_progress(r) < 1.0) {
		if (*r->stop)
			return run_fail(r, "killed", "forward", "stopped by signal %d after %ld steps",
					(int)*r->stop, r->m.num_steps);
		double mult = lr_multiplier(&r->cfg, run_schedule_progress(r));
		double loss = train_step(L, mult);
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

/* val_bpb: mean nats per byte over the first eval_tokens of the held-out
 * split, divided by ln 2 (one token = one byte). */
static int evaluate(struct loop *L)
{
	struct run *r = L->r;
	int B = L->B;
	long nb = data_val_batches(&r->data, B, L->T, r->cfg.eval_tokens);
	if (nb == 0) { /* small splits: fall back to single sequences */
		B = 1;
		nb = data_val_batches(&r->data, 1, L->T, r->cfg.eval_tokens);
	}
	if (nb == 0)
		return run_fail(r, "crash", "eval", "the validation split (%zu tokens) is shorter than "
				"one sequence of %d", r->data.nval, L->T + 1);
	double sum = 0.0, delay = test_eval_delay();
	for (long i = 0; i < nb; i++) {
		if (*r->stop)
			return run_fail(r, "killed", "eval", "stopped by signal %d during evaluation",
					(int)*r->stop);
		data_val_batch(&r->data, i, B, L->T, L->inputs, L->targets);
		sum += model_forward(&L->model, L->inputs, L->targets, B, L->T);
		if (delay > 0) /* test hook: RL_TRAINER_TEST_EVAL_DELAY_S */
			nanosleep(&(struct timespec){ (time_t)delay, (long)((delay - (time_t)delay) * 1e9) },
				  NULL);
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

int cpu_train(struct run *r)
{
	struct loop L;
	int rc;
	if (r->cfg.threads > 0)
		omp_set_num_threads(r->cfg.threads);
	rc = loop_init(&L, r);
	if (!rc)
		rc = train_until_budget(&L);
	run_progress_end(r);
	if (!rc)
		rc = evaluate(&L);
	r->m.peak_vram_mb = peak_rss_mb();
	r->m.mfu_percent = 0.0; /* no peak-FLOPS table for CPUs; see docs/trainer.md */
	loop_release(&L);
	if (!rc)
		snprintf(r->status, sizeof(r->status), "ok");
	return rc;
}
