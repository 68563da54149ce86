/* loop.h — the device-independent training loop: the schedule, stopping
 * rules (budget or train.steps, SIGINT/SIGTERM, NaN, timeout), progress
 * and val_bpb. A device supplies one optimiser step and one validation
 * batch; cpu_train (train.c) does, and gpu_train can, so both paths stop,
 * schedule and fail alike. No model or device code here. */
#ifndef RL_TRAINER_LOOP_H
#define RL_TRAINER_LOOP_H
#include <stdint.h>
#include "run.h"

/* What both devices derive alike from the config: B sequences of T tokens
 * per micro-step, accum micro-steps per optimiser step (total_batch_size /
 * (B*T)), the data RNG seeded from train.seed (so the CPU and the GPU draw
 * the same batches), and the host buffers data_train_batch() and
 * data_val_batch() fill. */
struct batch_plan {
	int B, T, accum;
	uint64_t rng;
	int *inputs, *targets;
};

/* Fill p from r->cfg and allocate its buffers: 0, or -1 after
 * run_fail(oom). batch_plan_release(p) is safe either way. */
int batch_plan_init(struct batch_plan *p, struct run *r);
void batch_plan_release(struct batch_plan *p);

struct run_device {
	void *ctx;
	int B, T, accum;   /* sequences per micro-step, their length, micro-steps per step */
	/* One optimiser step at LR multiplier lr_mult over accum micro-batches
	 * from data_train_batch(); *loss = their mean loss (nats). Return 0 —
	 * also when the loss is not finite (the loop then ends the run as nan)
	 * — or -1 after run_fail() for a device failure. */
	int (*step)(void *ctx, double lr_mult, double *loss);
	/* Mean loss over validation batch i (data_val_batch with B sequences). */
	int (*eval)(void *ctx, long i, int B, double *loss);
};

/* Train until the schedule's progress reaches 1. 0 = ok; -1 with the
 * failure recorded in r (killed, nan, timeout, or the device's own). */
int run_train(struct run *r, const struct run_device *dev);
/* r->m.val_bpb = mean loss over the first train.eval_tokens of the
 * validation split / ln 2. 0 = ok; -1 with the failure recorded. */
int run_evaluate(struct run *r, const struct run_device *dev);

#endif
