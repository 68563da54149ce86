/* daily.h — private to the daily digest (daily.c, daily_runs.c): the state
 * one `report daily` run builds up, and the section builders. Each builder
 * reads the ledger for the day [t0, t1) and sets template values; none
 * writes files. */
#ifndef RL_DAILY_H
#define RL_DAILY_H
#include <sqlite3.h>
#include "audit.h"
#include "frontier.h"
#include "report.h"
#include "template.h"

struct day {
	sqlite3 *db;
	const char *date;          /* "YYYY-MM-DD" */
	double t0, t1;             /* the UTC day: t0 <= t_finished < t1 */
	const struct report_opts *o;
	int chart_days;            /* the chart's window in days ending at t1; 0 = all */
	struct frontier by_class;  /* every frontier move up to t1 */
	struct frontier by_tier;
	struct tpl_vars vars;
	int failed;                /* a read failed (reported): publish nothing */
};

/* Autoresearch's keep rate counts (analysis.ipynb): a keep is a valid run
 * kept or the baseline, a discard a valid run discarded; runs without a
 * valid measurement are counted apart. p is the table alias with its dot. */
#define KEEP_SQL(p) "(" p "decision IN ('keep', 'baseline') AND " p "val_bpb IS NOT NULL)"
/* a measured result not admitted (size_violation) is a discard, as the audit counts it */
#define DISCARD_SQL(p) "((" p "decision = 'discard' AND " p "val_bpb IS NOT NULL) OR " AUDIT_INADMISSIBLE_SQL(p) ")"

/* daily_runs.c: sections that list the day's runs. */
void daily_agents(struct day *d);
void daily_top_hits(struct day *d);
void daily_failed(struct day *d);
void daily_crashes(struct day *d);
void daily_all_runs(struct day *d);
void daily_confounded(struct day *d);
int daily_repeats(struct day *d);   /* 0 or -1 (message printed) */

/* Bind the day's bounds to parameters ?1 and ?2 of st. */
void day_bind(const struct day *d, sqlite3_stmt *st);

#endif
