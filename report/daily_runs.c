/* daily_runs.c — the digest sections that list the day's runs: agent
 * profiles, failed approaches by variable family, crashes and invalid runs,
 * runs that changed several variables, repeat groups. Each sets one
 * template value to a markdown table, or to "" when the section is empty
 * (the template then says so in one line). */
#include "daily.h"
#include "tophits.h"
#include "db.h"
#include "fmt.h"
#include "metrics.h"
#include "repeats.h"
#include "runpage.h"
#include "runrow.h"
#include "runs.h"
#include "util.h"

/* The day's runs of table alias a: ?1 <= t_finished < ?2. */
#define DAY(a) a "t_finished >= ?1 AND " a "t_finished < ?2"

static void set_table(struct day *d, const char *name, table *t)
{
	sb md = SB_INIT;
	if (t->nrows)
		md_table_limited(&md, t, d->o->limit);
	tpl_set(&d->vars, name, md.buf);
	sb_release(&md);
}

/* The time a run finished, linked to the run's page. */
static void set_time(table *t, int r, int c, double when, const char *run_id)
{
	sb s = SB_INIT;
	fmt_hm(&s, when);
	runpage_cell(t, r, c, run_id, s.buf);
	sb_release(&s);
}

/* ---- agent profiles -------------------------------------------------------- */

void daily_agents(struct day *d)
{
	static const char *const cols[] = { "agent", "runs", "keeps", "discards", "keep rate", "failed",
					    "best val_bpb", "hardware" };
	static const char sql[] =
		"SELECT coalesce(r.agent, '(none)'), count(*), sum(" KEEP_SQL("r.") "), "
		" sum(r.status <> 'ok' OR r.val_bpb IS NULL), min(r.val_bpb), "
		" (SELECT group_concat(h, ', ') FROM (SELECT DISTINCT coalesce(r2.hw_class, 'unknown') h "
		"   FROM runs r2 WHERE r2.agent IS r.agent AND " DAY("r2.") " ORDER BY h)) "
		", sum(" DISCARD_SQL("r.") ") "
		"FROM runs r WHERE " DAY("r.") " GROUP BY r.agent ORDER BY count(*) DESC, 1";
	table t;
	table_init(&t, 8, cols);
	sqlite3_stmt *st = db_prepare(d->db, sql);
	day_bind(d, st);
	sb pct = SB_INIT;
	while (runs_step(&d->failed, st, "read the day's agents") == SQLITE_ROW) {
		int r = table_add_row(&t);
		int runs = sqlite3_column_int(st, 1), keeps = sqlite3_column_int(st, 2);
		int discards = sqlite3_column_int(st, 6);
		table_set_text(&t, r, 0, runs_col_text(st, 0));
		table_set_int(&t, r, 1, runs);
		table_set_int(&t, r, 2, keeps);
		table_set_int(&t, r, 3, discards);
		sb_reset(&pct);
		fmt_pct(&pct, keeps, keeps + discards); /* crashes apart, as analysis.ipynb */
		table_set_text(&t, r, 4, pct.buf);
		table_set_int(&t, r, 5, sqlite3_column_int(st, 3));
		table_set_num(&t, r, 6, db_column_num(st, 4), fmt_decimals());
		table_set_text(&t, r, 7, runs_col_text(st, 5));
	}
	sqlite3_finalize(st);
	sb_release(&pct);
	set_table(d, "agent_profiles", &t);
	table_release(&t);
}

/* ---- top hits ----------------------------------------------------------------- */

/* The day's keeps ranked by gain over the keep they were built on
 * (tophits.h): the parent, or the previous keep of their line of research
 * on their hardware class — the same campaign, or without one the same
 * agent, or without one the same source file (one results.tsv is one
 * session). Another agent's keep that merely finished just before says
 * nothing about what this change gained. Any earlier day counts. One pass
 * over every kept run up to the day's end, in frontier order. */
void daily_top_hits(struct day *d)
{
	sqlite3_stmt *st = db_prepare(d->db,
		"SELECT run_id, coalesce(hw_class, 'unknown'), description, val_bpb, decision = 'keep'"
		" AND t_finished >= ?1, coalesce('campaign ' || campaign, 'agent ' || agent,"
		" 'file ' || source_file, '') || ' on ' || coalesce(hw_class, 'unknown'), parent"
		" FROM runs WHERE " KEEP_SQL("") " AND t_finished < ?2 ORDER BY t_finished, id");
	day_bind(d, st);
	struct top_hits h;
	top_hits_init(&h, 0);
	while (runs_step(&d->failed, st, "read the kept runs") == SQLITE_ROW)
		top_hits_keep(&h, (const char *)sqlite3_column_text(st, 5), (const char *)sqlite3_column_text(st, 1),
			      (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 6),
			      (const char *)sqlite3_column_text(st, 2), sqlite3_column_double(st, 3),
			      sqlite3_column_int(st, 4));
	sqlite3_finalize(st);
	sb md = SB_INIT;
	top_hits_md(&h, d->o->limit, "val_bpb", &md);
	tpl_set(&d->vars, "top_hits", md.buf);
	sb_release(&md);
	top_hits_release(&h);
}

/* ---- failed approaches ------------------------------------------------------- */

struct failed_row {
	char *family;     /* " + "-joined families, "(no recorded change)" when none */
	char *change;
	struct runrow row; /* the run (runrow.h) */
	double value, ref;
	int order;        /* time order, to keep the sort stable */
};

static int cmp_failed(const void *pa, const void *pb)
{
	const struct failed_row *a = pa, *b = pb;
	int c = strcmp(a->family, b->family);
	return c ? c : a->order - b->order;
}

/* The day's discarded runs with a valid measurement, each with its changed
 * variables and the parent's value it was compared against. */
static struct failed_row *load_failed(struct day *d, int *n)
{
	static const char sql[] =
		"SELECT " RUNROW_COLS("r.") ", r.val_bpb, p.val_bpb "
		"FROM runs r LEFT JOIN runs p ON p.run_id = r.parent "
		"WHERE " DAY("r.") " AND r.decision = 'discard' AND r.val_bpb IS NOT NULL "
		"ORDER BY r.t_finished, r.id";
	sqlite3_stmt *st = db_prepare(d->db, sql), *ch = runs_changes_stmt(d->db);
	struct failed_row *rows = NULL;
	int cap = 0;
	sb text = SB_INIT, fam = SB_INIT;
	*n = 0;
	day_bind(d, st);
	while (runs_step(&d->failed, st, "read the day's discarded runs") == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			rows = xrealloc(rows, (size_t)cap * sizeof(*rows));
		}
		struct failed_row *f = &rows[*n];
		int nch;
		sb_reset(&text);
		sb_reset(&fam);
		runrow_read(st, &f->row);
		runs_changes(&d->failed, ch, f->row.id, &text, &fam, &nch);
		f->family = xstrdup(nch ? fam.buf : "(no recorded change)");
		f->change = xstrdup(text.buf);
		f->value = db_column_num(st, RUNROW_NCOLS);
		f->ref = db_column_num(st, RUNROW_NCOLS + 1);
		f->order = (*n)++;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(ch);
	sb_release(&text);
	sb_release(&fam);
	if (*n > 1) /* qsort(NULL, 0, …) is undefined */
		qsort(rows, (size_t)*n, sizeof(*rows), cmp_failed);
	return rows;
}

static void failed_family(struct day *d, sb *md, const struct failed_row *rows, int n)
{
	static const char *const cols[] = { "time (UTC)", "result vs reference", "change", "variables",
					    "agent", "hardware", "description" };
	table t;
	table_init(&t, 7, cols);
	sb s = SB_INIT;
	for (int i = 0; i < n; i++) {
		const struct failed_row *f = &rows[i];
		int r = table_add_row(&t);
		set_time(&t, r, 0, f->row.t_finished, f->row.run_id);
		sb_reset(&s);
		fmt_val(&s, f->value);
		sb_adds(&s, " vs ");
		fmt_val(&s, f->ref);
		table_set_text(&t, r, 1, s.buf);
		table_set_num(&t, r, 2, f->value - f->ref, fmt_decimals());
		table_set_text(&t, r, 3, *f->change ? f->change : NULL);
		table_set_text(&t, r, 4, f->row.agent);
		table_set_text(&t, r, 5, f->row.hw_class);
		table_set_text(&t, r, 6, f->row.description);
	}
	sb_adds(md, md->len ? "\n\n### " : "### ");
	md_escape(md, rows[0].family);
	sb_addf(md, " (%d run%s)\n\n", n, n == 1 ? "" : "s");
	md_table_limited(md, &t, d->o->limit);
	sb_release(&s);
	table_release(&t);
}

void daily_failed(struct day *d)
{
	int n;
	struct failed_row *rows = load_failed(d, &n);
	sb md = SB_INIT;
	for (int i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(rows[j].family, rows[i].family); j++)
			;
		failed_family(d, &md, rows + i, j - i);
	}
	tpl_set(&d->vars, "failed_approaches", md.buf);
	for (int i = 0; i < n; i++) {
		free(rows[i].family);
		free(rows[i].change);
		runrow_release(&rows[i].row);
	}
	free(rows);
	sb_release(&md);
}

/* ---- every run of the day ----------------------------------------------------- */

/* Throughput, MFU and peak memory, as the campaign report shows them:
 * columns of the day's run table when a run of the day records them. */
static const struct {
	const char *metric, *column;
	int decimals;
} perf_cols[3] = {
	{ "tokens_per_second", "tok/s", 0 },
	{ "mfu_percent", "MFU %", 1 },
	{ "peak_vram_mb", "peak VRAM MB", 0 },
};

#define PERF_SQL(m) METRIC_SQL("runs.", m)

void daily_all_runs(struct day *d)
{
	static const char sql[] =
		"SELECT t_finished, run_id, " RUN_STATUS_SQL("") ", decision, val_bpb, agent, hw_class, description, "
		PERF_SQL("tokens_per_second") ", " PERF_SQL("mfu_percent") ", " PERF_SQL("peak_vram_mb") " "
		"FROM runs WHERE " DAY("") " ORDER BY t_finished, id";
	static const char any_sql[] =
		"SELECT count(" PERF_SQL("tokens_per_second") "), count(" PERF_SQL("mfu_percent") "), "
		"count(" PERF_SQL("peak_vram_mb") ") FROM runs WHERE " DAY("");
	const char *cols[11] = { "time (UTC)", "run", "status", "decision", "val_bpb" };
	int ncols = 5, perf_at[3] = { -1, -1, -1 };
	sqlite3_stmt *st = db_prepare(d->db, any_sql);
	day_bind(d, st);
	if (runs_step(&d->failed, st, "read the day's measures") == SQLITE_ROW)
		for (int k = 0; k < 3; k++)
			if (sqlite3_column_int(st, k)) {
				perf_at[k] = ncols;
				cols[ncols++] = perf_cols[k].column;
			}
	sqlite3_finalize(st);
	cols[ncols++] = "agent";
	cols[ncols++] = "hardware";
	cols[ncols++] = "description";
	table t;
	table_init(&t, ncols, cols);
	st = db_prepare(d->db, sql);
	day_bind(d, st);
	while (runs_step(&d->failed, st, "read the day's runs") == SQLITE_ROW) {
		int r = table_add_row(&t);
		sb s = SB_INIT;
		fmt_hm(&s, sqlite3_column_double(st, 0));
		table_set_text(&t, r, 0, s.buf);
		sb_release(&s);
		runpage_cell(&t, r, 1, runs_col_text(st, 1), NULL);
		table_set_text(&t, r, 2, runs_col_text(st, 2));
		table_set_text(&t, r, 3, runs_col_text(st, 3));
		table_set_num(&t, r, 4, db_column_num(st, 4), fmt_decimals());
		for (int k = 0; k < 3; k++)
			if (perf_at[k] >= 0)
				table_set_num(&t, r, perf_at[k], db_column_num(st, 8 + k), perf_cols[k].decimals);
		for (int c = 0; c < 3; c++)
			table_set_text(&t, r, ncols - 3 + c, runs_col_text(st, 5 + c));
	}
	sqlite3_finalize(st);
	set_table(d, "runs_table", &t);
	table_release(&t);
}

/* ---- crashes and invalid runs ------------------------------------------------- */

void daily_crashes(struct day *d)
{
	static const char *const cols[] = { "time (UTC)", "status", "phase", "message", "agent",
					    "hardware", "description" };
	static const char sql[] =
		"SELECT t_finished, " RUN_STATUS_SQL("") ", json_extract(record, '$.failure.phase'), "
		" json_extract(record, '$.failure.message'), agent, hw_class, description, run_id "
		"FROM runs WHERE " DAY("") " AND (status <> 'ok' OR val_bpb IS NULL) "
		"ORDER BY t_finished, id";
	table t;
	table_init(&t, 7, cols);
	sqlite3_stmt *st = db_prepare(d->db, sql);
	day_bind(d, st);
	while (runs_step(&d->failed, st, "read the day's failed runs") == SQLITE_ROW) {
		int r = table_add_row(&t);
		set_time(&t, r, 0, sqlite3_column_double(st, 0), runs_col_text(st, 7));
		const char *status = runs_col_text(st, 1);
		/* status ok without a value: the measurement itself was unusable */
		table_set_text(&t, r, 1, strcmp(status, "ok") ? status : "ok (no valid value)");
		for (int c = 2; c <= 6; c++)
			table_set_text(&t, r, c, runs_col_text(st, c));
	}
	sqlite3_finalize(st);
	set_table(d, "crashes", &t);
	table_release(&t);
}

/* ---- several variables changed together --------------------------------------- */

void daily_confounded(struct day *d)
{
	static const char *const cols[] = { "time (UTC)", "variables", "n", "val_bpb", "status",
					    "decision", "agent", "hardware", "description" };
	static const char sql[] =
		"SELECT r.id, r.t_finished, r.val_bpb, " RUN_STATUS_SQL("r.") ", r.decision, r.agent, r.hw_class, "
		" r.description, r.run_id FROM runs r "
		"WHERE " DAY("r.") " AND (SELECT count(*) FROM changes c WHERE c.run = r.id) >= 2 "
		"ORDER BY r.t_finished, r.id";
	table t;
	table_init(&t, 9, cols);
	sqlite3_stmt *st = db_prepare(d->db, sql), *ch = runs_changes_stmt(d->db);
	sb text = SB_INIT;
	day_bind(d, st);
	while (runs_step(&d->failed, st, "read the day's runs with several changes") == SQLITE_ROW) {
		int r = table_add_row(&t), n;
		sb_reset(&text);
		runs_changes(&d->failed, ch, sqlite3_column_int64(st, 0), &text, NULL, &n);
		set_time(&t, r, 0, sqlite3_column_double(st, 1), runs_col_text(st, 8));
		table_set_text(&t, r, 1, text.buf);
		table_set_int(&t, r, 2, n);
		table_set_num(&t, r, 3, db_column_num(st, 2), fmt_decimals());
		for (int c = 3; c <= 7; c++)
			table_set_text(&t, r, c + 1, runs_col_text(st, c));
	}
	sqlite3_finalize(st);
	sqlite3_finalize(ch);
	sb_release(&text);
	set_table(d, "confounded", &t);
	table_release(&t);
}

/* ---- repeat groups ----------------------------------------------------------- */

/* True when one of the group's runs finished on the day. */
static int touches_day(struct day *d, sqlite3_stmt *st, const struct repeat_group *g)
{
	for (int i = 0; i < g->n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 3, g->ids[i]);
		if (runs_step(&d->failed, st, "read the repeat groups' days") == SQLITE_ROW)
			return 1;
	}
	return 0;
}

int daily_repeats(struct day *d)
{
	static const char *const cols[] = { "hardware", "n", "mean ± sd", "min", "max", "range",
					    "failed", "description" };
	struct run_filter f;
	run_filter_init(&f);
	f.until = d->t1;
	struct repeats_opts ro = { &f, NULL, 2 };
	struct repeats rep = { 0 };
	int rc = repeats_compute(d->db, &ro, &rep);
	run_filter_release(&f);
	if (rc)
		return -1;
	table t;
	table_init(&t, 8, cols);
	sqlite3_stmt *st = db_prepare(d->db, "SELECT 1 FROM runs WHERE " DAY("") " AND id = ?3");
	day_bind(d, st);
	sb s = SB_INIT;
	for (int i = 0; i < rep.n; i++) {
		const struct repeat_group *g = &rep.groups[i];
		if (!touches_day(d, st, g))
			continue;
		int r = table_add_row(&t);
		table_set_text(&t, r, 0, g->hw_class);
		table_set_int(&t, r, 1, g->n);
		sb_reset(&s);
		fmt_val(&s, g->mean);
		sb_adds(&s, " ± ");
		fmt_val(&s, g->sd);
		table_set_text(&t, r, 2, s.buf);
		table_set_num(&t, r, 3, g->min, fmt_decimals());
		table_set_num(&t, r, 4, g->max, fmt_decimals());
		table_set_num(&t, r, 5, g->max - g->min, fmt_decimals());
		table_set_int(&t, r, 6, g->n_failed);
		table_set_text(&t, r, 7, g->description);
	}
	sqlite3_finalize(st);
	sb_release(&s);
	set_table(d, "repeats", &t);
	table_release(&t);
	repeats_release(&rep);
	return 0;
}
