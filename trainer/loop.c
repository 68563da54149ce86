/* loop.c — the device-independent training loop (loop.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "loop.h"
#include "util.h"

int batch_plan_init(struct batch_plan *p, struct run *r)
{
	const struct config *c = &r->cfg;
	size_t tokens;
	memset(p, 0, sizeof(*p));
	p->B = c->device_batch_size;
	p->T = c->seq_len;
	p->accum = (int)(c->total_batch_size / ((long)p->B * p->T));
	p->rng = (uint64_t)c->seed * 0x2545F4914F6CDD1Dull + 1;
	tokens = (size_t)p->B * (size_t)p->T;
	p->inputs = malloc(sizeof(int) * tokens);
	p->targets = malloc(sizeof(int) * tokens);
	if (!p->inputs || !p->targets)
		return run_fail(r, "oom", "startup", "cannot allocate the batch buffers");
	return 0;
}

void batch_plan_release(struct batch_plan *p)
{
	free(p->inputs);
	free(p->targets);
	p->inputs = p->targets = NULL;
}

int run_train(struct run *r, const struct run_device *dev)
{
	double t_start = mono_now();
	double tokens_per_step = (double)dev->accum * dev->B * dev->T;
	long nan_step = test_nan_step();
	if (r->on_start && r->on_start(r, r->on_start_ctx))
		return run_fail(r, "crash", "startup", "cannot write the run's running record");
	if (*r->stop) /* a signal while starting: the handlers are installed first thing */
		return run_fail(r, "killed", "startup", "stopped by signal %d (%s) before the first step",
				(int)*r->stop, signal_name((int)*r->stop));
	while (run_schedule_progress(r) < 1.0) {
		double loss, mult = lr_multiplier(&r->cfg, run_schedule_progress(r));
		if (*r->stop)
			return run_fail(r, "killed", "forward", "stopped by signal %d (%s) after %ld steps",
					(int)*r->stop, signal_name((int)*r->stop), r->m.num_steps);
		if (dev->step(dev->ctx, mult, &loss))
			return -1;
		if (r->m.num_steps == nan_step)
			loss = NAN; /* test hook: RL_TRAINER_TEST_NAN_STEP */
		r->m.num_steps++;
		r->m.total_tokens_M += tokens_per_step / 1e6;
		r->m.training_seconds = mono_now() - t_start;
		r->m.tokens_per_second = r->m.total_tokens_M * 1e6 / r->m.training_seconds;
		r->m.train_loss = loss;
		/* before the NaN check: a diverged run's curve ends at its null loss */
		curve_add(&r->curve, &(struct curve_point){
			.step = (double)r->m.num_steps, .tokens = (double)r->m.num_steps * tokens_per_step,
			.train_loss = curve_round(loss), .lr_mult = curve_round(mult),
			.tok_per_s = round(r->m.tokens_per_second) });
		if (!isfinite(loss)) /* fail fast */
			return run_fail(r, "nan", "forward", "loss is %g at step %ld", loss, r->m.num_steps);
		run_progress(r, r->m.num_steps, loss, mult, r->m.tokens_per_second);
		if (run_over_time(r))
			return run_fail(r, "timeout", "forward", "one step took past budget + grace (%.0fs)",
					r->cfg.time_budget_s + r->cfg.timeout_grace_s);
	}
	return 0;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

int run_evaluate(struct run *r, const struct run_device *dev)
{
	int B = dev->B;
	long nb = data_val_batches(&r->data, B, dev->T, r->cfg.eval_tokens);
	if (nb == 0) { /* small splits: fall back to single sequences */
		B = 1;
		nb = data_val_batches(&r->data, 1, dev->T, r->cfg.eval_tokens);
	}
	if (nb == 0)
		return run_fail(r, "crash", "eval", "the validation split (%zu tokens) is shorter than "
				"one sequence of %d", r->data.nval, dev->T + 1);
	double sum = 0.0, delay = test_eval_delay();
	for (long i = 0; i < nb; i++) {
		double loss;
		if (*r->stop)
			return run_fail(r, "killed", "eval", "stopped by signal %d (%s) during evaluation",
					(int)*r->stop, signal_name((int)*r->stop));
		if (dev->eval(dev->ctx, i, B, &loss))
			return -1;
		sum += loss;
		if (delay > 0) /* test hook: RL_TRAINER_TEST_EVAL_DELAY_S */
			sleep_s(delay);
		if (run_over_time(r))
			return run_fail(r, "timeout", "eval", "evaluation ran past budget + grace (%.0fs) "
					"after %ld of %ld batches", r->cfg.time_budget_s + r->cfg.timeout_grace_s,
					i + 1, nb);
	}
	if (!isfinite(sum))
		return run_fail(r, "nan", "eval", "validation loss is %g", sum);
	r->m.val_bpb = sum / nb / M_LN2;
	curve_add_eval(&r->curve, (double)r->m.num_steps, r->m.val_bpb);
	return 0;
}
