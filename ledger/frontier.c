/* frontier.c — running best per hardware class or VRAM tier; see frontier.h
 * for the definition. One streaming pass over (time, id, group, value) rows
 * keeps a best per group in a small hash table; only the runs that move a
 * frontier are kept, and their details are read afterwards by id. */
#include "db.h"
#include "frontier.h"
#include "strmap.h"
#include "util.h"

/* The best value so far of each group (hardware class) lives in a strmap
 * slot's v.d; NAN until the group's first valid run. */
static struct strmap_slot *group_best(struct strmap *bests, const char *group)
{
	int created;
	struct strmap_slot *s = strmap_get(bests, group, &created);
	if (created)
		s->v.d = NAN;
	return s;
}

/* ---- the scan ------------------------------------------------------------ */

static struct frontier_point *add_point(struct frontier *f)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 32;
		f->pts = xrealloc(f->pts, (size_t)f->cap * sizeof(*f->pts));
	}
	struct frontier_point *p = &f->pts[f->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

static int better(double v, double best, int maximize)
{
	return isnan(best) || (maximize ? v > best : v < best);
}

/* SELECT id, group, value over valid runs, timed or untimed, in frontier
 * order. For val_bpb with no filter this reads only the runs_frontier
 * covering index (db.c). */
static void build_sql(const struct frontier_opts *o, int timed, sb *sql, struct sql_args *args)
{
	const char *group = o->by == FRONTIER_BY_TIER ? "r.vram_tier" : "r.hw_class";
	int column = !o->metric || !strcmp(o->metric, "val_bpb");
	sb_addf(sql, "SELECT r.id, %s, ", group);
	run_metric_sql(o->metric, "r", sql, args);
	if (column) {
		/* NULL unless a valid measurement (db.c); "IS NOT NULL" is also
		 * what lets the planner use the partial index */
		sb_adds(sql, " FROM runs r WHERE r.val_bpb IS NOT NULL");
	} else {
		/* read from the record: only numbers of ok runs count */
		sb_adds(sql, " FROM runs r WHERE r.status = 'ok' AND typeof(");
		run_metric_sql(o->metric, "r", sql, args);
		sb_adds(sql, ") IN ('integer', 'real')");
	}
	if (o->filter)
		run_filter_sql(o->filter, "r", sql, args);
	sb_adds(sql, timed ? " AND r.t_finished IS NOT NULL ORDER BY r.t_finished, r.id"
			   : " AND r.t_finished IS NULL ORDER BY r.id");
}

/* A discarded run does not move the frontier (frontier.h). Asked only of
 * the few runs that would move it, so the scan stays on the covering
 * index, which has no decision column. 1 discarded, 0 not, DB_ERROR. */
static int discarded(sqlite3_stmt *dec, sqlite3_int64 id)
{
	sqlite3_reset(dec);
	sqlite3_bind_int64(dec, 1, id);
	int rc = db_step(dec, "read the runs' decisions");
	int d = rc == SQLITE_ROW ? sqlite3_column_int(dec, 0) != 0 : rc == SQLITE_DONE ? 0 : DB_ERROR;
	sqlite3_reset(dec);
	return d;
}

static int scan(sqlite3 *db, const struct frontier_opts *o, int timed,
		struct strmap *bests, struct frontier *out)
{
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	build_sql(o, timed, &sql, &args);
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sqlite3_stmt *dec = o->all ? NULL : db_prepare(db, "SELECT decision = 'discard' FROM runs WHERE id = ?");
	sql_args_bind(&args, st, 1);
	int rc = o->all || dec ? SQLITE_ROW : DB_ERROR; /* a failed prepare: reported */
	struct strmap_slot *last = NULL; /* runs of one class often come in a row */
	while (rc == SQLITE_ROW && (rc = db_step(st, "read the runs for the frontier")) == SQLITE_ROW) {
		double v = sqlite3_column_double(st, 2);
		const char *g = (const char *)sqlite3_column_text(st, 1);
		if (!g)
			g = "unknown";
		struct strmap_slot *s = last && !strcmp(last->key, g) ? last : group_best(bests, g);
		last = s;
		if (!isfinite(v) || !better(v, s->v.d, o->maximize))
			continue;
		int d = dec ? discarded(dec, sqlite3_column_int64(st, 0)) : 0;
		if (d == DB_ERROR) {
			rc = DB_ERROR;
			break;
		}
		if (d)
			continue;
		struct frontier_point *p = add_point(out);
		p->row.id = sqlite3_column_int64(st, 0);
		p->row.t_finished = NAN;
		p->group = xstrdup(g);
		p->value = v;
		p->prev = s->v.d;
		p->delta = v - s->v.d; /* NAN for a group's first run */
		s->v.d = v;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(dec);
	sql_args_release(&args);
	sb_release(&sql);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The few moving runs: everything else about them, by primary key.
 * 0, or -1 when the ledger cannot be read (reported). */
static int fill_details(sqlite3 *db, struct frontier *f)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT " RUNROW_COLS("") " FROM runs WHERE id = ?");
	for (int k = 0; k < f->n; k++) {
		struct frontier_point *p = &f->pts[k];
		sqlite3_bind_int64(st, 1, p->row.id);
		int rc = db_step(st, "read the frontier's runs");
		if (rc == DB_ERROR) {
			sqlite3_finalize(st);
			return -1;
		}
		if (rc == SQLITE_ROW)
			runrow_read(st, &p->row);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

int frontier_compute(sqlite3 *db, const struct frontier_opts *o, struct frontier *out)
{
	struct strmap bests = STRMAP_INIT;
	int rc = -1;
	if (o->metric && metric_name_check(o->metric)) {
		rl_error("frontier: '%s' is not a metric name", o->metric);
		goto done;
	}
	/* timed runs first, then the untimed ones by id (frontier.h) */
	if (scan(db, o, 1, &bests, out) || scan(db, o, 0, &bests, out))
		goto done;
	if (fill_details(db, out))
		goto done;
	rc = 0;
done:
	strmap_release(&bests);
	return rc;
}

void frontier_release(struct frontier *f)
{
	for (int k = 0; k < f->n; k++) {
		runrow_release(&f->pts[k].row);
		free(f->pts[k].group);
	}
	free(f->pts);
	memset(f, 0, sizeof(*f));
}
