/* repeats.h — repeat measurements: runs sharing a repeat_key (the same
 * configuration on the same hardware class; ingest computes the key by the
 * rules of rkey.h), grouped with
 * their spread. Shared by `ledger repeats`, the audit's noise floor and
 * `report`. Reads the ledger; never writes it and never prints.
 *
 * Only valid measurements enter the statistics (status 'ok' and the metric
 * not NULL); runs of the same key that failed are counted in n_failed. */
#ifndef RL_REPEATS_H
#define RL_REPEATS_H
#include <sqlite3.h>
#include "filter.h"

struct repeats_opts {
	const struct run_filter *filter; /* NULL = all runs */
	const char *metric;              /* NULL or "val_bpb" = the column */
	int min_n;                       /* groups with n >= min_n (0 or 1 means 2: a repeat needs two) */
};

struct repeat_group {
	char *key;             /* repeat_key */
	int n;                 /* valid measurements */
	int n_failed;          /* runs of this key without a valid measurement */
	double mean;
	double sd;             /* sample standard deviation (n - 1) */
	double min, max;       /* range = max - min */
	char *hw_class;
	char *description;     /* representative: the earliest run's */
	char **run_ids;        /* n run ids of the valid runs, in time order */
	sqlite3_int64 *ids;    /* their runs.id, same order */
	double *values;        /* their metric values, same order */
	double t_first;        /* t_finished of ids[0]; NAN when it has no time */
};

/* Groups ordered by the time of their earliest valid run, then key. */
struct repeats {
	struct repeat_group *groups;
	int n, cap;
};

/* Fill out (zeroed or fresh); 0 = ok, -1 with a message printed. */
int repeats_compute(sqlite3 *db, const struct repeats_opts *o, struct repeats *out);
void repeats_release(struct repeats *r);

/* Mean and sample sd (n - 1; NAN when n < 2) of v[0..n), computed with
 * Welford's update so long groups of near-equal values keep their digits. */
void repeats_stats(const double *v, int n, double *mean, double *sd);

#endif
