/* tophits.h — the "top hits" table of autoresearch's analysis: kept runs
 * ranked by their gain over the previous keep (of the same hardware
 * class), with the total. Shared by the daily digest and the campaign
 * report, which each collect the keeps their own way. */
#ifndef RL_TOPHITS_H
#define RL_TOPHITS_H
#include "sb.h"

struct top_hit {
	char *run_id, *description, *prev_run;       /* owned; prev_run: the previous keep */
	const char *hardware;                        /* the group's name, owned by top_hits */
	double value, prev_value;
	double gain;                                 /* prev - value (min), value - prev (max) */
	int order;                                   /* time order, for ties */
};

/* Running state: the last keep of each group, fed runs in time order. */
struct top_hits {
	struct top_hit *v;
	int n, cap;
	/* last keep per group (hardware class) */
	char **group;
	char **last_run;             /* owned */
	double *last_value;
	int ngroups;
	int maximize;
};

void top_hits_init(struct top_hits *h, int maximize);
/* A kept run (keep or baseline, valid value) in time order. Its gain is
 * recorded when counted (a keep of the period reported, not a baseline)
 * and an earlier keep of its group exists; either way it becomes the
 * group's last keep. Strings are copied as needed. */
void top_hits_keep(struct top_hits *h, const char *group, const char *run_id, const char *description,
		   double value, int counted);
/* The table, best gain first, at most limit rows (0 = all), then a total
 * line; "" when there is no hit. */
void top_hits_md(struct top_hits *h, int limit, const char *metric, sb *out);
void top_hits_release(struct top_hits *h);

#endif
