/* run.h — one training run: resolved config, data, timing, stop signals,
 * metrics and how it ended. The driver (main.c) fills it, cpu_train()
 * (train.c) or gpu_train() (gpu.h) runs it, record.c turns it into a
 * runrec/1 record. Shared rules of the loop live here so both paths stop,
 * schedule and report progress the same way. */
#ifndef RL_TRAINER_RUN_H
#define RL_TRAINER_RUN_H
#include <signal.h>
#include "config.h"
#include "curve.h"
#include "data.h"
#include "gpu.h"

struct run_metrics {
	double val_bpb;           /* NAN until evaluated */
	double training_seconds;  /* time in the training loop (excl. eval) */
	double total_seconds;     /* since the trainer started */
	double peak_vram_mb;      /* GPU peak memory; peak RSS on the CPU */
	double mfu_percent;       /* 0 on the CPU (no peak table for CPUs) */
	double total_tokens_M;
	double num_params_M;
	double tokens_per_second;
	double train_loss;        /* last step's mean loss, nats; NAN before */
	long num_steps;
	int depth;
};

struct run {
	struct config cfg;
	char device[8];               /* resolved: "cpu" or "cuda" */
	struct gpu_probe gpu;         /* when device is cuda */
	struct dataset data;
	double t0;                    /* monotonic start of the process */
	volatile sig_atomic_t *stop;  /* set to the signal number by SIGINT/SIGTERM */
	struct run_metrics m;
	struct curve curve;           /* every step offered by run_train; ~20 KB whatever the length */
	char status[16];              /* runrec status: ok, crash, oom, nan, timeout, killed */
	char phase[16];               /* failure phase (runrec_phases) */
	char message[512];            /* failure message */
	int progress_tty;             /* stderr is a terminal: one updating line */
	int refused;                  /* set by run_refuse: a usage error, no record */
	/* Called by run_train before the first step, once the device has set
	 * the model up (a refusal at set-up comes before it): the driver
	 * writes the running record. 0 = ok. NULL: nothing to do. */
	int (*on_start)(const struct run *r, void *ctx);
	void *on_start_ctx;
};

double run_elapsed(const struct run *r);
/* Record a failure (first one wins). Returns -1 for `return run_fail(…)`. */
int run_fail(struct run *r, const char *status, const char *phase, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The model cannot be set up before training starts (it does not fit):
 * a usage error, exit 2 and no record; message in r->message. -1. */
int run_refuse(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Schedule progress in [0,1]: training time / train.time_budget_s, or
 * steps done / train.steps when that is set. The loop runs while < 1. */
double run_schedule_progress(const struct run *r);
/* LR multiplier at progress p = training time / budget in [0,1]:
 * warmup p/warmup_ratio; stable 1; warmdown w = (p - (1-warmdown_ratio)) /
 * warmdown_ratio: linear 1-(1-f)w, sqrt 1-(1-f)sqrt(w); f = final_lr_frac. */
double lr_multiplier(const struct config *c, double p);
/* Test hook: seconds of delay injected per eval batch, from the environment
 * variable RL_TRAINER_TEST_EVAL_DELAY_S (0 when unset). */
double test_eval_delay(void);
/* Test hook: the step whose loss is replaced by NaN, from
 * RL_TRAINER_TEST_NAN_STEP (-1 when unset). */
long test_nan_step(void);
/* 1 when the run must end as timeout (total time > budget + grace). */
int run_over_time(const struct run *r);
/* Progress on stderr: a line per step (or one updating line on a TTY). */
void run_progress(struct run *r, long step, double loss, double lr_mult, double tok_s);
void run_progress_end(struct run *r);
/* "SIGTERM" for 15 and the other signals that stop a run; "signal" else. */
const char *signal_name(int sig);
/* Peak resident set size of this process in MB. */
double peak_rss_mb(void);

/* The CPU training loop (train.c). 0 when the run ended ok. */
int cpu_train(struct run *r);
/* 0 when the model, activations and optimiser state of c fit in this
 * machine's RAM; -1 with the sizes in why. Checked before anything starts:
 * with overcommit, malloc would succeed and the OOM killer end the run. */
int cpu_fits(const struct config *c, char *why, size_t n);

#endif
