/* run.c — rules shared by the CPU and GPU loops (run.h): the run clock, the LR
 * schedule, failure bookkeeping, test hooks, progress lines. No model or
 * device code here. */
#include <sys/resource.h>
#include "run.h"
#include "util.h"

double run_elapsed(const struct run *r)
{
	return mono_now() - r->t0;
}

int run_fail(struct run *r, const char *status, const char *phase, const char *fmt, ...)
{
	va_list ap;
	if (r->status[0] && strcmp(r->status, "ok"))
		return -1; /* the first failure is the cause; keep it */
	snprintf(r->status, sizeof(r->status), "%s", status);
	snprintf(r->phase, sizeof(r->phase), "%s", phase);
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
	return -1;
}

int run_refuse(struct run *r, const char *fmt, ...)
{
	va_list ap;
	r->refused = 1;
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
	return -1;
}

double run_schedule_progress(const struct run *r)
{
	if (r->cfg.steps > 0)
		return (double)r->m.num_steps / r->cfg.steps;
	return r->m.training_seconds / r->cfg.time_budget_s;
}

double lr_multiplier(const struct config *c, double p)
{
	double f = c->final_lr_frac, stable_end = 1.0 - c->warmdown_ratio;
	if (p < 0)
		p = 0;
	if (p > 1)
		p = 1;
	if (c->warmup_ratio > 0 && p < c->warmup_ratio)
		return p / c->warmup_ratio;
	if (c->warmdown_ratio <= 0 || p < stable_end)
		return 1.0;
	double w = (p - stable_end) / c->warmdown_ratio;
	return 1.0 - (1.0 - f) * (!strcmp(c->warmdown_shape, "sqrt") ? sqrt(w) : w);
}

double test_eval_delay(void)
{
	const char *s = getenv("RL_TRAINER_TEST_EVAL_DELAY_S");
	double d;
	return s && !parse_double(s, &d) && d > 0 ? d : 0.0;
}

long test_nan_step(void)
{
	const char *s = getenv("RL_TRAINER_TEST_NAN_STEP");
	long n;
	return s && !parse_long(s, &n) ? n : -1;
}

int run_over_time(const struct run *r)
{
	return run_elapsed(r) > r->cfg.time_budget_s + r->cfg.timeout_grace_s;
}

void run_progress(struct run *r, long step, double loss, double lr_mult, double tok_s)
{
	double left = r->cfg.time_budget_s - r->m.training_seconds;
	if (r->cfg.steps > 0 && step > 0) /* fixed step count: estimate from the pace */
		left = r->m.training_seconds / step * (r->cfg.steps - step);
	fprintf(stderr, "%sstep %5ld | loss %.4f | lr x%.3f | %8.0f tok/s | %5.1fs left%s",
		r->progress_tty ? "\r" : "", step, loss, lr_mult, tok_s, left > 0 ? left : 0.0,
		r->progress_tty ? "   " : "\n");
	fflush(stderr);
}

void run_progress_end(struct run *r)
{
	if (r->progress_tty)
		fputc('\n', stderr);
}

const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGPIPE: return "SIGPIPE";
	default: return "signal";
	}
}

double peak_rss_mb(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru))
		return 0.0;
	return ru.ru_maxrss / 1024.0; /* Linux reports KiB */
}
