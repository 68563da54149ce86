/* daily.c — `report daily`: the digest of one UTC day (summary, frontier
 * timeline, per-hardware frontiers, overview since the first day, chart).
 * The run-list sections are in daily_runs.c. Frontier numbers come from
 * ledger/frontier.h so `ledger frontier` and the digest cannot disagree.
 * Reads the ledger; never writes it. */
#include <jansson.h>
#include "chart.h"
#include "daily.h"
#include "db.h"
#include "fmt.h"
#include "output.h"
#include "runpage.h"
#include "runs.h"
#include "util.h"

enum { O_DATE = 1, O_CHART_DAYS };
static const struct opt daily_opts[] = {
	{ .name = "--date", .id = O_DATE, .type = OPT_DATE, .value = "DAY", .flags = OPT_OWN,
	  .help = "the UTC day to report: 2026-03-16, today, yesterday, -1d\n"
		  "(default: the latest day with runs, named on stderr)" },
	{ .name = "--chart-days", .id = O_CHART_DAYS, .type = OPT_INT, .value = "N", .lo = 0, .hi = 100000,
	  .help = "days the chart shows, ending with DAY (default 7; 0 = all)",
	  .bad = "is not a number of days", .hint = "give a number of days, or 0 for the whole history" },
};
static const struct opt_group daily_group = { NULL, NULL, daily_opts, ARRAY_SIZE(daily_opts) };

const struct opt_cmd cmd_daily_spec = {
	.name = "daily",
	.summary = "the daily digest of one UTC day: frontier, agents, failures",
	.about = "Write DIR/YYYY-MM-DD.md and .html for one UTC day (runs whose t_finished\n"
		 "falls in it), the frontier chart under DIR/charts/, and refresh DIR/index.html.\n",
	.groups = { &daily_group, &report_out_group, &report_shared_group },
};

void day_bind(const struct day *d, sqlite3_stmt *st)
{
	sqlite3_bind_double(st, 1, d->t0);
	sqlite3_bind_double(st, 2, d->t1);
}

static void set_val(struct day *d, const char *name, double v)
{
	sb s = SB_INIT;
	if (!isnan(v))
		fmt_val(&s, v);
	tpl_set(&d->vars, name, s.buf);
	sb_release(&s);
}

static void set_delta(struct day *d, const char *name, double v)
{
	sb s = SB_INIT;
	if (!isnan(v))
		fmt_delta(&s, v);
	tpl_set(&d->vars, name, s.buf);
	sb_release(&s);
}

/* ---- summary ------------------------------------------------------------- */

/* v is a new best: lower than best, or best is still unset (NaN). */
static int beats(double v, double best)
{
	return isnan(best) || v < best;
}

/* Distinct values of a column over the day, "a (3), b (1)" by count.
 * col is a column name written in this file, never input. */
static void day_counts(struct day *d, const char *col, sb *out, int *n)
{
	sb sql = SB_INIT;
	sb_addf(&sql, "SELECT coalesce(%s, '(none)') k, count(*) FROM runs "
		      "WHERE t_finished >= ?1 AND t_finished < ?2 GROUP BY k ORDER BY 2 DESC, 1", col);
	sqlite3_stmt *st = db_prepare(d->db, sql.buf);
	day_bind(d, st);
	*n = 0;
	while (runs_step(&d->failed, st, "count the day's runs") == SQLITE_ROW) {
		sb_adds(out, (*n)++ ? ", " : "");
		fmt_text(out, runs_col_text(st, 0), 40);
		sb_addf(out, " (%d)", sqlite3_column_int(st, 1));
	}
	sqlite3_finalize(st);
	sb_release(&sql);
}

/* Runs with neither finished_at nor started_at belong to no day (a
 * results.tsv ingested without --started-at): say how many, and how to
 * give them times, rather than let an empty digest read "0 runs". */
static void summary_untimed(struct day *d, int runs)
{
	sqlite3_stmt *st = db_prepare(d->db, "SELECT count(*) FROM runs WHERE t_finished IS NULL");
	int untimed = runs_step(&d->failed, st, "count the untimed runs") == SQLITE_ROW
			      ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	tpl_set(&d->vars, "untimed_only", !runs && untimed ? "yes" : "");
	tpl_set(&d->vars, "untimed_noun", untimed == 1 ? "run has" : "runs have");
	if (!untimed) {
		tpl_set(&d->vars, "untimed", "");
		return;
	}
	tpl_setf(&d->vars, "untimed", "%d", untimed);
	if (runs)
		return;
	rl_warn("daily: no run finished on %s, but %d run%s in the ledger %s no time and belong%s to no day",
		d->date, untimed, untimed == 1 ? "" : "s", untimed == 1 ? "has" : "have", untimed == 1 ? "s" : "");
	rl_hint("give a results.tsv times with 'ledger ingest --started-at TIME' (the first row's start), "
		"into a ledger that does not hold it yet");
}

static void summary_counts(struct day *d)
{
	sqlite3_stmt *st = db_prepare(d->db,
		"SELECT count(*), sum(" KEEP_SQL("") "), sum((status <> 'ok' OR val_bpb IS NULL) AND NOT "
		AUDIT_INADMISSIBLE_SQL("") "), "
		"sum(" DISCARD_SQL("") ") FROM runs WHERE t_finished >= ?1 AND t_finished < ?2");
	day_bind(d, st);
	if (runs_step(&d->failed, st, "count the day's runs") != SQLITE_ROW) {
		sqlite3_finalize(st);
		return; /* reported; build() publishes nothing */
	}
	int runs = sqlite3_column_int(st, 0);
	tpl_setf(&d->vars, "runs", "%d", runs);
	tpl_set(&d->vars, "runs_noun", runs == 1 ? "run" : "runs");
	int keeps = sqlite3_column_int(st, 1), discards = sqlite3_column_int(st, 3);
	tpl_setf(&d->vars, "keeps", "%d", keeps);
	tpl_setf(&d->vars, "discards", "%d", discards);
	tpl_setf(&d->vars, "failed", "%d", sqlite3_column_int(st, 2));
	sb rate = SB_INIT;
	if (keeps + discards)
		fmt_pct(&rate, keeps, keeps + discards);
	tpl_set(&d->vars, "keep_rate", rate.buf);
	sb_release(&rate);
	sqlite3_finalize(st);
	summary_untimed(d, runs);
	sb list = SB_INIT;
	int n;
	day_counts(d, "agent", &list, &n);
	tpl_setf(&d->vars, "agents", "%d", n);
	tpl_set(&d->vars, "agents_noun", n == 1 ? "agent" : "agents");
	tpl_set(&d->vars, "agent_list", list.buf);
	sb_reset(&list);
	day_counts(d, "hw_class", &list, &n);
	tpl_setf(&d->vars, "hardware", "%d", n);
	tpl_set(&d->vars, "hardware_noun", n == 1 ? "hardware class" : "hardware classes");
	tpl_set(&d->vars, "hardware_list", list.buf);
	sb_release(&list);
}

/* The best value on any hardware before and after the day, and the first
 * valid value ever: all read off the per-class frontier points, whose
 * minimum is the global best at every moment. */
static void summary_global(struct day *d)
{
	double first = NAN, before = NAN, after = NAN;
	for (int i = 0; i < d->by_class.n; i++) {
		const struct frontier_point *p = &d->by_class.pts[i];
		if (isnan(first))
			first = p->value;
		if (p->row.t_finished < d->t0 && beats(p->value, before))
			before = p->value;
		if (beats(p->value, after))
			after = p->value;
	}
	set_val(d, "first_value", first);
	set_val(d, "global_before", before);
	set_val(d, "global_after", after);
	double change = after - before, earlier = first - before;
	set_delta(d, "global_change", change);
	tpl_set(&d->vars, "global_moved", change < 0 ? "yes" : "");
	tpl_set(&d->vars, "global_first_day", isnan(before) && !isnan(after) ? "yes" : "");
	set_val(d, "earlier_progress", earlier);
	sb share = SB_INIT;
	if (change < 0 && earlier > 0)
		fmt_pct(&share, -change, earlier);
	tpl_set(&d->vars, "day_share", share.buf);
	sb_release(&share);
	sb day = SB_INIT;
	if (d->by_class.n)
		fmt_date(&day, d->by_class.pts[0].row.t_finished);
	tpl_set(&d->vars, "first_day", day.buf);
	sb_release(&day);
}

/* ---- per-group frontier rows (hardware class or VRAM tier) --------------- */

struct group_row {
	const char *name;
	double before, after;
	const struct frontier_point *best; /* the point that set "after" */
	int moves;                         /* moves on the day */
};

static int find_group(struct group_row *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name))
			return i;
	return -1;
}

static int cmp_rows(const void *a, const void *b)
{
	return strcmp(((const struct group_row *)a)->name, ((const struct group_row *)b)->name);
}

/* One row per group, sorted by name, from the frontier points. */
static struct group_row *group_rows(const struct day *d, const struct frontier *f, int *n)
{
	struct group_row *rows = xcalloc((size_t)f->n + 1, sizeof(*rows));
	*n = 0;
	for (int i = 0; i < f->n; i++) {
		const struct frontier_point *p = &f->pts[i];
		int g = find_group(rows, *n, p->group);
		if (g < 0) {
			g = (*n)++;
			rows[g].name = p->group;
			rows[g].before = NAN;
		}
		if (p->row.t_finished < d->t0)
			rows[g].before = p->value;
		else
			rows[g].moves++;
		rows[g].after = p->value;
		rows[g].best = p;
	}
	if (*n > 1)
		qsort(rows, (size_t)*n, sizeof(*rows), cmp_rows);
	return rows;
}

/* Runs and valid runs on the day per hardware class. */
static void class_runs(struct day *d, const char *cls, int *runs, int *valid)
{
	static const char sql[] =
		"SELECT count(*), count(val_bpb) FROM runs "
		"WHERE t_finished >= ?1 AND t_finished < ?2 AND hw_class IS ?3";
	sqlite3_stmt *st = db_prepare(d->db, sql);
	day_bind(d, st);
	db_bind_text(st, 3, cls);
	int rc = runs_step(&d->failed, st, "count the day's runs per class");
	*runs = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	*valid = rc == SQLITE_ROW ? sqlite3_column_int(st, 1) : 0;
	sqlite3_finalize(st);
}

/* Per-group table: best before and after the day and the run holding it;
 * with_runs adds the day's run counts per class. */
static void frontier_table(struct day *d, const struct group_row *rows, int n,
			   const char *group_col, int with_runs, sb *md)
{
	const char *cols[9] = { group_col, "runs today", "valid today", "before", "after",
				"change", "best by", "best run", "reached (UTC)" };
	if (!with_runs) /* drop the two run-count columns */
		memmove(cols + 1, cols + 3, 6 * sizeof(*cols));
	table t;
	table_init(&t, with_runs ? 9 : 7, cols);
	sb s = SB_INIT;
	for (int i = 0; i < n; i++) {
		const struct group_row *g = &rows[i];
		int r = table_add_row(&t), c = 0;
		table_set_text(&t, r, c++, g->name);
		if (with_runs) {
			int runs, valid;
			class_runs(d, g->name, &runs, &valid);
			table_set_int(&t, r, c++, runs);
			table_set_int(&t, r, c++, valid);
		}
		table_set_num(&t, r, c++, g->before, fmt_decimals());
		table_set_num(&t, r, c++, g->after, fmt_decimals());
		table_set_num(&t, r, c++, g->after - g->before, fmt_decimals());
		table_set_text(&t, r, c++, g->best->row.agent);
		runpage_cell(&t, r, c++, g->best->row.run_id, NULL);
		sb_reset(&s);
		fmt_datetime(&s, g->best->row.t_finished);
		table_set_text(&t, r, c++, s.buf);
	}
	if (n)
		md_table(md, &t);
	sb_release(&s);
	table_release(&t);
}

/* "B200 0.9598 → 0.9264 (-0.0334); H200 0.9650 (no change)" for the summary. */
static void hardware_line(const struct group_row *rows, int n, sb *line)
{
	for (int i = 0; i < n; i++) {
		const struct group_row *g = &rows[i];
		sb_adds(line, i ? "; " : "");
		md_escape(line, g->name);
		sb_adds(line, " ");
		if (isnan(g->before)) {
			sb_adds(line, "first valid ");
			fmt_val(line, g->after);
		} else if (!g->moves) {
			fmt_val(line, g->after);
			sb_adds(line, " (no change)");
		} else {
			fmt_val(line, g->before);
			sb_adds(line, " → ");
			fmt_val(line, g->after);
			sb_adds(line, " (");
			fmt_delta(line, g->after - g->before);
			sb_adds(line, ")");
		}
	}
}

static void daily_hardware(struct day *d)
{
	sb md = SB_INIT;
	int n;
	struct group_row *rows = group_rows(d, &d->by_class, &n);
	frontier_table(d, rows, n, "hardware", 1, &md);
	tpl_set(&d->vars, "hardware_frontiers", md.buf);
	sb_reset(&md);
	hardware_line(rows, n, &md);
	tpl_set(&d->vars, "hardware_line", md.buf);
	free(rows);
	sb_reset(&md);
	rows = group_rows(d, &d->by_tier, &n);
	frontier_table(d, rows, n, "VRAM tier", 0, &md);
	tpl_set(&d->vars, "tier_frontiers", md.buf);
	free(rows);
	sb_release(&md);
}

/* ---- frontier timeline ----------------------------------------------------- */

static void daily_timeline(struct day *d)
{
	static const char *const cols[] = { "time (UTC)", "val_bpb", "change", "agent", "hardware",
					    "frontier", "description" };
	table t;
	table_init(&t, 7, cols);
	double global = NAN;
	sb s = SB_INIT;
	for (int i = 0; i < d->by_class.n; i++) {
		const struct frontier_point *p = &d->by_class.pts[i];
		int moves_global = beats(p->value, global);
		if (moves_global)
			global = p->value;
		if (p->row.t_finished < d->t0)
			continue;
		int r = table_add_row(&t);
		sb_reset(&s);
		fmt_hm(&s, p->row.t_finished);
		runpage_cell(&t, r, 0, p->row.run_id, s.buf);
		table_set_num(&t, r, 1, p->value, fmt_decimals());
		table_set_num(&t, r, 2, p->delta, fmt_decimals());
		table_set_text(&t, r, 3, p->row.agent);
		table_set_text(&t, r, 4, p->row.hw_class);
		sb_reset(&s);
		sb_addf(&s, "%s%s", isnan(p->prev) ? "first " : "", p->group);
		if (moves_global)
			sb_adds(&s, " + all hardware");
		table_set_text(&t, r, 5, s.buf);
		table_set_text(&t, r, 6, p->row.description);
	}
	sb md = SB_INIT;
	if (t.nrows)
		md_table_limited(&md, &t, d->o->limit);
	tpl_set(&d->vars, "timeline", md.buf);
	sb_release(&md);
	sb_release(&s);
	table_release(&t);
}

/* ---- overview since the first day ------------------------------------------ */

static void daily_overview(struct day *d)
{
	static const char *const cols[] = { "day (UTC)", "runs", "agents", "keeps", "failed",
					    "best (any hardware)", "change" };
	table t;
	table_init(&t, 7, cols);
	sqlite3_stmt *st = db_prepare(d->db,
		"SELECT date(t_finished, 'unixepoch') AS day, count(*), count(DISTINCT agent), "
		"sum(" KEEP_SQL("") "), sum(status <> 'ok' OR val_bpb IS NULL) "
		"FROM runs WHERE t_finished < ?2 GROUP BY day ORDER BY day");
	day_bind(d, st);
	int k = 0;
	double best = NAN, prev = NAN;
	while (runs_step(&d->failed, st, "read the runs per day") == SQLITE_ROW) {
		double start, end;
		if (parse_day(runs_col_text(st, 0), &start))
			continue;
		end = start + 86400;
		for (; k < d->by_class.n && d->by_class.pts[k].row.t_finished < end; k++)
			if (beats(d->by_class.pts[k].value, best))
				best = d->by_class.pts[k].value;
		int r = table_add_row(&t);
		table_set_text(&t, r, 0, runs_col_text(st, 0));
		for (int c = 1; c <= 4; c++)
			table_set_int(&t, r, c, sqlite3_column_int(st, c));
		table_set_num(&t, r, 5, best, fmt_decimals());
		table_set_num(&t, r, 6, best - prev, fmt_decimals());
		prev = best;
	}
	sqlite3_finalize(st);
	sb md = SB_INIT;
	if (t.nrows)
		md_table(&md, &t);
	tpl_set(&d->vars, "overview", md.buf);
	/* The whole way since the first valid run, relative to where it began. */
	double v0 = d->by_class.n ? d->by_class.pts[0].value : NAN;
	sb_reset(&md);
	if (best < v0) /* false while either is NaN */
		sb_addf(&md, "%.*f (%.1f%%)", fmt_decimals(), v0 - best, 100.0 * (v0 - best) / v0);
	tpl_set(&d->vars, "total_progress", md.buf);
	sb_release(&md);
	table_release(&t);
}

/* ---- chart ------------------------------------------------------------------ */

static int group_index(char ***names, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return i;
	*names = xrealloc(*names, (size_t)(*n + 1) * sizeof(**names));
	(*names)[*n] = xstrdup(name);
	return (*n)++;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Hardware classes of the chart, sorted by name so each keeps its colour:
 * those with runs in the window and those with frontier points. */
static void chart_groups(struct day *d, double ws, char ***groups, int *ng)
{
	sqlite3_stmt *st = db_prepare(d->db, "SELECT DISTINCT coalesce(hw_class, 'unknown') FROM runs "
					     "WHERE t_finished >= ?3 AND t_finished < ?2");
	day_bind(d, st);
	sqlite3_bind_double(st, 3, ws);
	while (runs_step(&d->failed, st, "read the chart's hardware classes") == SQLITE_ROW)
		group_index(groups, ng, runs_col_text(st, 0));
	sqlite3_finalize(st);
	for (int i = 0; i < d->by_class.n; i++)
		group_index(groups, ng, d->by_class.pts[i].group);
	if (*ng > 1) /* qsort(NULL, 0, …) is undefined */
		qsort(*groups, (size_t)*ng, sizeof(**groups), cmp_names);
}

/* "b200-fa4: val_bpb 0.9300 — FA4 CUTLASS custom op" (the status
 * instead of a value when there is none), plain text for the SVG's
 * hover; the caller frees it. */
static char *chart_tooltip(const char *run_id, double value, const char *status, const char *desc)
{
	sb s = SB_INIT;
	sb_addf(&s, "%s: ", run_id ? run_id : "?");
	if (isnan(value))
		sb_adds(&s, status ? status : "no value");
	else {
		sb_adds(&s, "val_bpb ");
		fmt_val(&s, value);
	}
	if (desc)
		sb_addf(&s, " — %s", desc);
	return sb_detach(&s);
}

/* Every run of the window as a point. */
static struct chart_run *chart_runs(struct day *d, double ws, char ***groups, int *ng, int *nr)
{
	struct chart_run *runs = NULL;
	int cap = 0;
	sqlite3_stmt *st = db_prepare(d->db, "SELECT t_finished, val_bpb, coalesce(hw_class, 'unknown'), run_id, "
					     "description, " RUN_STATUS_SQL("") " "
					     "FROM runs WHERE t_finished >= ?3 AND t_finished < ?2 ORDER BY t_finished, id");
	day_bind(d, st);
	sqlite3_bind_double(st, 3, ws);
	*nr = 0;
	while (runs_step(&d->failed, st, "read the chart's runs") == SQLITE_ROW) {
		if (*nr == cap) {
			cap = cap ? 2 * cap : 256;
			runs = xrealloc(runs, (size_t)cap * sizeof(*runs));
		}
		struct chart_run *r = &runs[(*nr)++];
		memset(r, 0, sizeof(*r));
		r->x = sqlite3_column_double(st, 0);
		r->value = db_column_num(st, 1);
		r->group = group_index(groups, ng, runs_col_text(st, 2));
		r->tooltip = chart_tooltip(runs_col_text(st, 3), r->value, runs_col_text(st, 5),
					   runs_col_text(st, 4));
	}
	sqlite3_finalize(st);
	return runs;
}

/* The frontier as steps inside the window: each class starts at its best
 * before the window (its last earlier move), then moves as it did. */
static struct chart_step *chart_steps(struct day *d, double ws, char ***groups, int *ng, int *ns)
{
	struct chart_step *steps = xcalloc((size_t)d->by_class.n + (size_t)*ng + 1, sizeof(*steps));
	double *start = xcalloc((size_t)*ng + 1, sizeof(double));
	int n = 0;
	for (int g = 0; g < *ng; g++)
		start[g] = NAN;
	for (int i = 0; i < d->by_class.n; i++) /* points are in time order: the last wins */
		if (d->by_class.pts[i].row.t_finished < ws)
			start[group_index(groups, ng, d->by_class.pts[i].group)] = d->by_class.pts[i].value;
	for (int g = 0; g < *ng; g++)
		if (!isnan(start[g]))
			steps[n++] = (struct chart_step){ ws, start[g], g };
	for (int i = 0; i < d->by_class.n; i++) {
		const struct frontier_point *p = &d->by_class.pts[i];
		if (p->row.t_finished >= ws)
			steps[n++] = (struct chart_step){ p->row.t_finished, p->value,
							  group_index(groups, ng, p->group) };
	}
	free(start);
	*ns = n;
	return steps;
}

/* Every run of the last --chart-days days up to the end of the reported
 * day as a point coloured by hardware class, with the frontier steps. */
static int daily_chart(struct day *d)
{
	if (!d->o->charts) {
		tpl_set(&d->vars, "chart_frontier", "_Chart skipped: --no-charts._");
		return 0;
	}
	double ws = d->chart_days ? d->t1 - 86400.0 * d->chart_days : -HUGE_VAL;
	char **groups = NULL;
	int ng = 0, nr, ns;
	chart_groups(d, ws, &groups, &ng);
	struct chart_run *runs = chart_runs(d, ws, &groups, &ng, &nr);
	struct chart_step *steps = chart_steps(d, ws, &groups, &ng, &ns);
	sb stem = SB_INIT, md = SB_INIT;
	sb_addf(&stem, "%s-frontier", d->date);
	sb title = SB_INIT;
	sb_addf(&title, "Frontier timeline to %s (the day shaded): val_bpb by hardware class", d->date);
	struct chart_spec c = { CHART_TIMELINE, d->o->out_dir, stem.buf,
				"Frontier timeline: every run by hardware class, best so far as steps, the reported day shaded",
				"val_bpb (lower is better)", (const char *const *)groups, ng, runs, nr, steps, ns,
				title.buf, d->t0, d->t1 };
	int rc = chart_draw(&c, &md);
	sb_release(&title);
	for (int i = 0; i < nr; i++)
		free((char *)runs[i].tooltip);
	tpl_set(&d->vars, "chart_frontier", md.buf);
	for (int i = 0; i < ng; i++)
		free(groups[i]);
	free(groups);
	free(runs);
	free(steps);
	sb_release(&stem);
	sb_release(&md);
	return rc;
}

/* ---- navigation and the index's numbers -------------------------------------- */

/* The nearest day before (dir < 0) or after the reported one with a run in
 * the ledger, "" when there is none: the ledger decides, not the files in
 * the directory, so the digest is the same wherever it is written (the
 * neighbour's digest may not be written yet). */
static void neighbour_day(struct day *d, int dir, sb *out)
{
	sqlite3_stmt *st = db_prepare(d->db, dir < 0
		? "SELECT date(max(t_finished), 'unixepoch') FROM runs WHERE t_finished < ?1"
		: "SELECT date(min(t_finished), 'unixepoch') FROM runs WHERE t_finished >= ?2");
	day_bind(d, st);
	if (runs_step(&d->failed, st, "find the neighbouring days") == SQLITE_ROW && runs_col_text(st, 0))
		sb_adds(out, runs_col_text(st, 0));
	sqlite3_finalize(st);
}

/* "[← 2026-03-15](2026-03-15.md) · [all reports](index.html) · [2026-03-17 →](2026-03-17.md)" */
static void daily_nav(struct day *d)
{
	sb prev = SB_INIT, next = SB_INIT, md = SB_INIT;
	neighbour_day(d, -1, &prev);
	neighbour_day(d, 1, &next);
	if (prev.len)
		sb_addf(&md, "[← %s](%s.md) · ", prev.buf, prev.buf);
	sb_adds(&md, "[all reports](index.html)");
	if (next.len)
		sb_addf(&md, " · [%s →](%s.md)", next.buf, next.buf);
	tpl_set(&d->vars, "nav", md.buf);
	sb_release(&prev);
	sb_release(&next);
	sb_release(&md);
}

/* DIR/YYYY-MM-DD.numbers.json: the day's numbers for the index (html.c),
 * which is rebuilt from the files in DIR and has no ledger to ask. */
static int write_numbers(struct day *d)
{
	json_t *o = json_object();
	static const char *const ints[] = { "runs", "keeps", "discards", "failed" };
	static const char *const reals[] = { "global_before", "global_after", "global_change" };
	for (size_t i = 0; i < ARRAY_SIZE(ints); i++) {
		long n;
		const char *v = tpl_get(&d->vars, ints[i]);
		json_object_set_new(o, ints[i], v && !parse_long(v, &n) ? json_integer(n) : json_null());
	}
	for (size_t i = 0; i < ARRAY_SIZE(reals); i++) {
		double x;
		const char *v = tpl_get(&d->vars, reals[i]);
		json_object_set_new(o, reals[i], v && *v && !parse_double(v, &x) ? json_real(x) : json_null());
	}
	json_object_set_new(o, "date", json_string(d->date));
	char *text = json_dumps(o, JSON_SORT_KEYS | JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	sb name = SB_INIT;
	sb_addf(&name, "%s.numbers.json", d->date);
	int rc = out_write(d->o->out_dir, name.buf, text, strlen(text));
	sb_release(&name);
	free(text);
	json_decref(o);
	return rc;
}

/* ---- the command ------------------------------------------------------------- */

static int parse_args(int argc, char **argv, struct report_opts *o, const char **date,
		      int *chart_days)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &report_prog, &cmd_daily_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("daily: unexpected argument '%s'", p.val);
			rl_hint("see 'report daily --help'");
			return -1;
		}
		if (r == O_DATE)
			*date = p.val;
		else if (r == O_CHART_DAYS)
			*chart_days = (int)p.num;
		else
			report_take(o, &p);
	}
	if (!o->out_dir) {
		rl_error("daily: --out DIR is required");
		rl_hint("for example: report daily --date 2026-03-16 --out reports");
		return -1;
	}
	return 0;
}

static int compute_frontiers(struct day *d)
{
	struct run_filter f;
	run_filter_init(&f);
	f.until = d->t1;
	struct frontier_opts fo = { &f, NULL, 0, FRONTIER_BY_CLASS, 0 };
	int rc = frontier_compute(d->db, &fo, &d->by_class);
	fo.by = FRONTIER_BY_TIER;
	if (!rc)
		rc = frontier_compute(d->db, &fo, &d->by_tier);
	run_filter_release(&f);
	return rc;
}

/* Fill every template value, render the template, publish. */
static int build(struct day *d, int *partial)
{
	if (compute_frontiers(d) || daily_repeats(d))
		return EXIT_FAILURE_RT;
	tpl_set(&d->vars, "date", d->date);
	daily_nav(d);
	summary_counts(d);
	summary_global(d);
	daily_hardware(d);
	daily_timeline(d);
	daily_agents(d);
	daily_top_hits(d);
	daily_failed(d);
	daily_crashes(d);
	daily_all_runs(d);
	daily_confounded(d);
	daily_overview(d);
	if (d->failed || out_mkdirs(d->o->out_dir))
		return EXIT_FAILURE_RT;
	*partial = daily_chart(d) != 0;
	if (d->failed)
		return EXIT_FAILURE_RT;
	sb origin = SB_INIT, md = SB_INIT, title = SB_INIT, err = SB_INIT;
	char *tpl = template_read("daily.md", d->o->template, &origin);
	int rc = EXIT_FAILURE_RT;
	if (!tpl)
		goto done;
	if (tpl_render(tpl, origin.buf, &d->vars, &md, &err)) {
		rl_error("daily: %s", err.buf);
		rl_hint("the template syntax and its values are in docs/report.md");
		rc = EXIT_USAGE;
		goto done;
	}
	sb_addf(&title, "runledger daily digest %s", d->date);
	if (!write_numbers(d) && !report_publish(d->o->out_dir, d->date, title.buf, md.buf) &&
	    !runpage_write_all(d->db, d->o->out_dir))
		rc = EXIT_OK;
done:
	free(tpl);
	sb_release(&origin);
	sb_release(&md);
	sb_release(&title);
	sb_release(&err);
	return rc;
}

/* Without --date: the latest UTC day on which a run finished, into day
 * (>= 11 bytes), said on stderr so that nobody mistakes it for today.
 * 0, EXIT_USAGE when no run has a time, EXIT_FAILURE_RT (reported). */
static int latest_day(sqlite3 *db, char *day, size_t n)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT date(max(t_finished), 'unixepoch') FROM runs");
	int rc = db_step(st, "find the latest day with runs");
	const char *v = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (v)
		snprintf(day, n, "%s", v);
	sqlite3_finalize(st);
	if (rc == DB_ERROR)
		return EXIT_FAILURE_RT;
	if (!v) {
		rl_error("daily: no run in the ledger has a time, so there is no latest day to report");
		rl_hint("give the day with --date YYYY-MM-DD; 'ledger query' lists the runs");
		return EXIT_USAGE;
	}
	rl_note("daily: no --date: reporting %s (UTC), the latest day with runs", day);
	return 0;
}

/* --date as people type it (filter.h parse_user_moment): a day, today,
 * yesterday, -1d, or an instant (the UTC day it falls in), into day as
 * YYYY-MM-DD. 0, or EXIT_USAGE (reported). */
static int given_day(const char *given, char *day, size_t n)
{
	double t;
	int is_day, r = parse_user_moment(given, db_now(), &t, &is_day);
	if (r) {
		rl_error(r > 0 ? "daily: --date '%s' names more than one day" : "daily: --date '%s' is not a day",
			 given);
		rl_hint("give one UTC day: 2026-03-16, today, yesterday or -1d (days before today)");
		return EXIT_USAGE;
	}
	char iso[32];
	format_iso_utc(floor(t / 86400) * 86400, iso, sizeof(iso));
	snprintf(day, n, "%.10s", iso);
	return 0;
}

int cmd_daily(int argc, char **argv, struct report_ctx *ctx)
{
	struct report_opts o = { NULL, NULL, REPORT_DEFAULT_LIMIT, 1, 0 };
	const char *date = NULL;
	int chart_days = 7;
	if (parse_args(argc, argv, &o, &date, &chart_days))
		return EXIT_USAGE;
	if (report_apply_archived(&o, ctx->db))
		return EXIT_FAILURE_RT;
	char day[32];
	int rc = date ? given_day(date, day, sizeof(day)) : latest_day(ctx->db, day, sizeof(day));
	if (rc)
		return rc;
	date = day;
	struct day d = { ctx->db, date, 0, 0, &o, chart_days, { 0 }, { 0 }, TPL_VARS_INIT, 0 };
	if (parse_day(date, &d.t0)) { /* cannot fail: given_day and latest_day write days */
		rl_error("daily: '%s' is not a day", date);
		return EXIT_FAILURE_RT;
	}
	d.t1 = d.t0 + 86400;
	int partial = 0;
	rc = build(&d, &partial);
	if (rc == EXIT_OK)
		report_list_written(o.out_dir, date);
	frontier_release(&d.by_class);
	frontier_release(&d.by_tier);
	tpl_vars_release(&d.vars);
	return rc == EXIT_OK && partial ? EXIT_FINDINGS : rc;
}
