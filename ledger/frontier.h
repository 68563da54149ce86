/* frontier.h — the running best of a metric per hardware class (or VRAM
 * tier), computed into C structs so `ledger frontier` and `report` share one
 * definition. Reads the ledger; never writes it and never prints.
 *
 * Definition (docs/ledger.md, "frontier"):
 *  - only valid measurements count: status 'ok' and the metric not NULL
 *    (for val_bpb the runs.val_bpb column, which ingest leaves NULL otherwise);
 *  - runs are taken in time order: t_finished, then runs.id (ingest order)
 *    for ties; runs without a time come after all timed runs, by id, so
 *    they can extend the dated history but never rewrite it;
 *  - a run "moves" the frontier of its group when it is the group's first
 *    valid run or strictly beats the best so far (lower, or higher with
 *    maximize); equal values do not move it;
 *  - the frontier follows what was kept: a run with decision 'discard'
 *    never moves it (keep, baseline and runs without a decision do), as
 *    autoresearch's analysis draws it; with `all` set, discarded runs
 *    count too.
 * Cost: one pass over a covering index, keeping only one best per group;
 * details are fetched for the moving runs only. */
#ifndef RL_FRONTIER_H
#define RL_FRONTIER_H
#include <sqlite3.h>
#include "filter.h"
#include "runrow.h"

enum frontier_by { FRONTIER_BY_CLASS, FRONTIER_BY_TIER };

struct frontier_opts {
	const struct run_filter *filter; /* NULL = all runs */
	const char *metric;              /* NULL or "val_bpb" = the column */
	int maximize;                    /* 1: higher is better */
	enum frontier_by by;
	int all;                         /* 1: discarded runs move the frontier too */
};

/* One run that moved its group's frontier. Strings are owned; NULL when the
 * run has no such field. */
struct frontier_point {
	struct runrow row;     /* the run (runrow.h) */
	char *group;           /* hw_class, or vram_tier with FRONTIER_BY_TIER ("unknown" if NULL) */
	double value;          /* the metric */
	double prev;           /* the group's best before this run; NAN for the first */
	double delta;          /* value - prev; NAN for the first */
};

/* Points in the order they moved the frontier (the time order above), all
 * groups interleaved; a group's own points are its step function. */
struct frontier {
	struct frontier_point *pts;
	int n, cap;
};

/* Fill out (which must be zeroed or fresh) and return 0; on a database or
 * option error return -1 with a message printed. */
int frontier_compute(sqlite3 *db, const struct frontier_opts *o, struct frontier *out);
void frontier_release(struct frontier *f);

#endif
