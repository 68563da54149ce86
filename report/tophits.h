/* tophits.h — the "top hits" table of autoresearch's analysis: kept runs
 * ranked by their gain over the keep they were built on, with the total.
 * That keep is the run's parent when the parent is a kept run on the same
 * hardware class (in a swarm an agent builds on another's keep; a
 * results.tsv row's parent is the keep before it), else the previous keep
 * of the run's line of research on that class (a group the caller names).
 * Shared by the daily digest and the campaign report, which each collect
 * the keeps their own way. */
#ifndef RL_TOPHITS_H
#define RL_TOPHITS_H
#include "sb.h"
#include "strmap.h"

struct top_hit {
	char *run_id, *description, *prev_run;       /* owned; prev_run: the previous keep */
	char *hardware;                              /* owned: the run's hardware class */
	double value, prev_value;
	double gain;                                 /* prev - value (min), value - prev (max) */
	int order;                                   /* time order, for ties */
};

/* Running state: the last keep of each group, fed runs in time order. */
struct top_hits {
	struct top_hit *v;
	int n, cap;
	/* last keep per group (a line of research on one hardware class) */
	char **group;
	char **last_run;             /* owned */
	double *last_value;
	int ngroups;
	int maximize;
	/* every kept run fed: run_id -> index into kept_value and kept_hw */
	struct strmap kept;
	double *kept_value;
	char **kept_hw;
	int nkept, capkept;
};

void top_hits_init(struct top_hits *h, int maximize);
/* A kept run (keep or baseline, valid value) in time order, with its
 * parent (may be NULL). group names the line of research whose previous
 * keep it is compared with when its parent is no kept run of its
 * hardware (a campaign on one class, say: never another agent's keep that
 * merely finished before it); hardware is its class, shown in the table.
 * Its gain is recorded when counted (a keep of the period reported, not a
 * baseline) and it has such a keep before it; either way it becomes the
 * group's last keep. Strings are copied as needed. */
void top_hits_keep(struct top_hits *h, const char *group, const char *hardware, const char *run_id,
		   const char *parent, const char *description, double value, int counted);
/* The table, best gain first, at most limit rows (0 = all), then a total
 * line; "" when there is no hit. */
void top_hits_md(struct top_hits *h, int limit, const char *metric, sb *out);
void top_hits_release(struct top_hits *h);

#endif
