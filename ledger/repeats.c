/* repeats.c — repeat groups and their spread; see repeats.h.
 * One pass over the runs ordered by repeat_key (the runs_repeat index),
 * closing a group each time the key changes. */
#include "db.h"
#include "repeats.h"
#include "util.h"

void repeats_stats(const double *v, int n, double *mean, double *sd)
{
	double m = 0, m2 = 0;
	for (int k = 0; k < n; k++) {
		double d = v[k] - m;
		m += d / (k + 1);
		m2 += d * (v[k] - m);
	}
	*mean = n ? m : NAN;
	*sd = n >= 2 ? sqrt(m2 / (n - 1)) : NAN;
}

/* Columns: 0 id, 1 repeat_key, 2 run_id, 3 hw_class, 4 description,
 * 5 status, 6 metric, 7 t_finished. Rows of a key arrive in time order. */
static int row_valid(sqlite3_stmt *st)
{
	int type = sqlite3_column_type(st, 6);
	return !strcmp((const char *)sqlite3_column_text(st, 5), "ok") &&
	       (type == SQLITE_FLOAT || type == SQLITE_INTEGER) &&
	       isfinite(sqlite3_column_double(st, 6));
}

static void group_push(struct repeat_group *g, int *cap, sqlite3_stmt *st)
{
	if (g->n == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		g->run_ids = xrealloc(g->run_ids, (size_t)*cap * sizeof(char *));
		g->ids = xrealloc(g->ids, (size_t)*cap * sizeof(sqlite3_int64));
		g->values = xrealloc(g->values, (size_t)*cap * sizeof(double));
	}
	if (g->n == 0) {
		g->description = db_column_dup(st, 4);
		g->t_first = db_column_num(st, 7);
	}
	g->run_ids[g->n] = db_column_dup(st, 2);
	g->ids[g->n] = sqlite3_column_int64(st, 0);
	g->values[g->n] = sqlite3_column_double(st, 6);
	g->n++;
}

static void group_free(struct repeat_group *g)
{
	for (int j = 0; j < g->n; j++)
		free(g->run_ids[j]);
	free(g->run_ids);
	free(g->ids);
	free(g->values);
	free(g->key);
	free(g->hw_class);
	free(g->description);
	memset(g, 0, sizeof(*g));
}

/* Keep a finished group when it is large enough, with its statistics. */
static void group_close(struct repeat_group *g, int min_n, struct repeats *out)
{
	if (!g->key)
		return;
	if (g->n < min_n) {
		group_free(g);
		return;
	}
	repeats_stats(g->values, g->n, &g->mean, &g->sd);
	g->min = g->max = g->values[0];
	for (int k = 1; k < g->n; k++) {
		g->min = fmin(g->min, g->values[k]);
		g->max = fmax(g->max, g->values[k]);
	}
	if (out->n == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 16;
		out->groups = xrealloc(out->groups, (size_t)out->cap * sizeof(*out->groups));
	}
	out->groups[out->n++] = *g; /* ownership moves to out */
	memset(g, 0, sizeof(*g));
}

static void build_sql(const struct repeats_opts *o, sb *sql, struct sql_args *args)
{
	sb_adds(sql, "SELECT r.id, r.repeat_key, r.run_id, r.hw_class, r.description,"
		     " r.status, ");
	run_metric_sql(o->metric, "r", sql, args);
	sb_adds(sql, ", r.t_finished FROM runs r WHERE r.repeat_key IS NOT NULL");
	if (o->filter)
		run_filter_sql(o->filter, "r", sql, args);
	/* within a key: time order, untimed runs last, then ingest order */
	sb_adds(sql, " ORDER BY r.repeat_key, r.t_finished IS NULL, r.t_finished, r.id");
}

/* Groups by their earliest valid run: time (untimed last), then id. */
static int cmp_groups(const void *pa, const void *pb)
{
	const struct repeat_group *a = pa, *b = pb;
	int an = isnan(a->t_first), bn = isnan(b->t_first);
	if (an != bn)
		return an - bn;
	if (!an && a->t_first != b->t_first)
		return a->t_first < b->t_first ? -1 : 1;
	return (a->ids[0] > b->ids[0]) - (a->ids[0] < b->ids[0]);
}

int repeats_compute(sqlite3 *db, const struct repeats_opts *o, struct repeats *out)
{
	if (o->metric && metric_name_check(o->metric)) {
		rl_error("repeats: '%s' is not a metric name", o->metric);
		return -1;
	}
	int min_n = o->min_n < 2 ? 2 : o->min_n, cap = 0, rc;
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	build_sql(o, &sql, &args);
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sql_args_bind(&args, st, 1);
	struct repeat_group g = { 0 };
	while ((rc = db_step(st, "read the runs for repeats")) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 1);
		if (g.key && strcmp(g.key, key)) {
			group_close(&g, min_n, out);
			cap = 0;
		}
		if (!g.key) {
			g.key = xstrdup(key);
			g.hw_class = db_column_dup(st, 3);
		}
		if (row_valid(st))
			group_push(&g, &cap, st);
		else
			g.n_failed++;
	}
	group_close(&g, min_n, out);
	if (rc == SQLITE_DONE && out->n > 1)
		qsort(out->groups, (size_t)out->n, sizeof(*out->groups), cmp_groups);
	sqlite3_finalize(st);
	sql_args_release(&args);
	sb_release(&sql);
	return rc == SQLITE_DONE ? 0 : -1;
}

void repeats_release(struct repeats *r)
{
	for (int k = 0; k < r->n; k++)
		group_free(&r->groups[k]);
	free(r->groups);
	memset(r, 0, sizeof(*r));
}
