/* frontier.c — running best per hardware class or VRAM tier; see frontier.h
 * for the definition. One streaming pass over (time, id, group, value) rows
 * keeps a best per group in a small hash table; only the runs that move a
 * frontier are kept, and their details are read afterwards by id. */
#include "db.h"
#include "frontier.h"
#include "util.h"

/* ---- per-group best: open addressing on the group name ------------------- */

struct best_slot {
	char *group;   /* NULL = empty slot */
	double best;
};

struct best_map {
	struct best_slot *slots;
	size_t cap, used; /* cap is a power of two */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void map_grow(struct best_map *m);

/* The slot for group, created (best = NAN) when new. */
static struct best_slot *map_get(struct best_map *m, const char *group)
{
	if (2 * (m->used + 1) > m->cap)
		map_grow(m);
	size_t i = hash_str(group) & (m->cap - 1);
	while (m->slots[i].group && strcmp(m->slots[i].group, group))
		i = (i + 1) & (m->cap - 1);
	if (!m->slots[i].group) {
		m->slots[i].group = xstrdup(group);
		m->slots[i].best = NAN;
		m->used++;
	}
	return &m->slots[i];
}

static void map_grow(struct best_map *m)
{
	struct best_map bigger = { NULL, m->cap ? 2 * m->cap : 16, 0 };
	bigger.slots = xcalloc(bigger.cap, sizeof(struct best_slot));
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].group)
			continue;
		size_t j = hash_str(m->slots[i].group) & (bigger.cap - 1);
		while (bigger.slots[j].group)
			j = (j + 1) & (bigger.cap - 1);
		bigger.slots[j] = m->slots[i];
		bigger.used++;
	}
	free(m->slots);
	*m = bigger;
}

static void map_release(struct best_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].group);
	free(m->slots);
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

static int scan(sqlite3 *db, const struct frontier_opts *o, int timed,
		struct best_map *bests, struct frontier *out)
{
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	build_sql(o, timed, &sql, &args);
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sql_args_bind(&args, st, 1);
	int rc;
	struct best_slot *last = NULL; /* runs of one class often come in a row */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double v = sqlite3_column_double(st, 2);
		const char *g = (const char *)sqlite3_column_text(st, 1);
		if (!g)
			g = "unknown";
		struct best_slot *s = last && !strcmp(last->group, g) ? last : map_get(bests, g);
		last = s;
		if (!isfinite(v) || !better(v, s->best, o->maximize))
			continue;
		struct frontier_point *p = add_point(out);
		p->id = sqlite3_column_int64(st, 0);
		p->group = xstrdup(g);
		p->value = v;
		p->prev = s->best;
		p->delta = v - s->best; /* NAN for a group's first run */
		s->best = v;
	}
	if (rc != SQLITE_DONE)
		rl_error("frontier: database: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	sql_args_release(&args);
	sb_release(&sql);
	return rc == SQLITE_DONE ? 0 : -1;
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? xstrdup((const char *)s) : NULL;
}

/* The few moving runs: everything else about them, by primary key. */
static void fill_details(sqlite3 *db, struct frontier *f)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT run_id, hw_class, vram_tier, gpu_name, agent, description,"
		" finished_at, t_finished FROM runs WHERE id = ?");
	for (int k = 0; k < f->n; k++) {
		struct frontier_point *p = &f->pts[k];
		sqlite3_bind_int64(st, 1, p->id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			p->run_id = col_dup(st, 0);
			p->hw_class = col_dup(st, 1);
			p->vram_tier = col_dup(st, 2);
			p->gpu_name = col_dup(st, 3);
			p->agent = col_dup(st, 4);
			p->description = col_dup(st, 5);
			p->finished_at = col_dup(st, 6);
			p->t_finished = sqlite3_column_type(st, 7) == SQLITE_NULL
				? NAN : sqlite3_column_double(st, 7);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

int frontier_compute(sqlite3 *db, const struct frontier_opts *o, struct frontier *out)
{
	struct best_map bests = { NULL, 0, 0 };
	int rc = -1;
	if (o->metric && metric_name_check(o->metric)) {
		rl_error("frontier: '%s' is not a metric name", o->metric);
		goto done;
	}
	/* timed runs first, then the untimed ones by id (frontier.h) */
	if (scan(db, o, 1, &bests, out) || scan(db, o, 0, &bests, out))
		goto done;
	fill_details(db, out);
	rc = 0;
done:
	map_release(&bests);
	return rc;
}

void frontier_release(struct frontier *f)
{
	for (int k = 0; k < f->n; k++) {
		struct frontier_point *p = &f->pts[k];
		free(p->run_id);
		free(p->group);
		free(p->hw_class);
		free(p->vram_tier);
		free(p->gpu_name);
		free(p->agent);
		free(p->description);
		free(p->finished_at);
	}
	free(f->pts);
	memset(f, 0, sizeof(*f));
}
