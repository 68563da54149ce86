/* curve.h — a run's training curve in bounded memory, and its runrec/1
 * form (docs/run-record.md, "curve"): columnar arrays step, tokens,
 * train_loss, lr_mult, tok_per_s, all of one length of at most
 * CURVE_MAX_POINTS, null where unknown, plus optional eval points.
 *
 * Down-sampling keeps every stride-th point offered (indices 0, k, 2k, …)
 * and the last one: when the buffer is full, every other kept point is
 * dropped and the stride doubles. So memory is O(CURVE_MAX_POINTS) for any
 * run length, kept points stay evenly spaced, the first and last step are
 * always there, and a run of at most CURVE_MAX_POINTS steps keeps all of
 * them. The trainer (trainer/loop.c) and ingest of a run.log
 * (ledger/ingest_runlog.c) both use it, so both curves look alike. */
#ifndef RL_CURVE_H
#define RL_CURVE_H
#include <jansson.h>
#include "sb.h"

#define CURVE_MAX_POINTS 512
#define CURVE_MAX_EVALS 64

struct curve_point {
	double step, tokens, train_loss, lr_mult, tok_per_s; /* NAN = unknown */
};

struct curve {
	struct curve_point kept[CURVE_MAX_POINTS - 1]; /* offered points 0, stride, 2·stride, … */
	int n;
	long stride;
	long offered;
	struct curve_point last;  /* the latest point offered (index offered-1) */
	double eval_step[CURVE_MAX_EVALS], eval_bpb[CURVE_MAX_EVALS];
	int neval;
};

/* An empty curve; a zeroed struct curve is one as well. */
void curve_init(struct curve *c);
/* Offer the next point (in step order). O(1) amortised; no allocation. */
void curve_add(struct curve *c, const struct curve_point *p);
/* Record an evaluation (val_bpb at step); beyond CURVE_MAX_EVALS the
 * last one is replaced, so the final evaluation is always kept. */
void curve_add_eval(struct curve *c, double step, double val_bpb);
/* v rounded to a multiple of 2^-12 (0.00024): such a value prints in at
 * most 12 decimals even at the 17 significant digits records are written
 * with, where 2.3457 would print as 2.3456999999999999 — a 512-point
 * curve stays near 25 KB. The trainer rounds losses and LR multipliers. */
double curve_round(double v);
/* Points the JSON form will have: kept + the last when it is not kept. */
int curve_points(const struct curve *c);
/* The runrec/1 "curve" object (new reference), or JSON null when nothing
 * was offered and no evaluation recorded. */
json_t *curve_to_json(const struct curve *c);

/* Check v as a record's "curve" member; appends "field 'curve.…': …" lines
 * to err (runrec_validate's wording) and returns how many problems. */
int curve_validate(const json_t *v, sb *err);

#endif
