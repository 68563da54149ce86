/* cmd_summary.c — `ledger summary`: where a series of runs stands, for an
 * agent to read between experiments: counts, keep rate, crashes, the best
 * per hardware class, runs since the frontier last moved, the trend (rule
 * in docs/ledger.md, "summary"), the current crash streak and, for a
 * declared campaign, the part of its search space no valid run has tested
 * alone. Reads only; the runs are query's (filters, archived hidden). */
#include <jansson.h>
#include "audit.h"
#include "campaign.h"
#include "db.h"
#include "filter.h"
#include "frontier.h"
#include "ledger.h"
#include "util.h"
#include "varreg.h"

enum { O_METRIC = 1, O_MAXIMIZE };
static const struct opt summary_opts[] = {
	{ .name = "--metric", .id = O_METRIC, .type = OPT_STRING, .value = "NAME",
	  .help = "the metric (default: the campaign's, else val_bpb)" },
	{ .name = "--maximize", .id = O_MAXIMIZE, .help = "higher is better (default: the campaign's direction)" },
};
static const struct opt_group summary_group = { NULL, NULL, summary_opts, ARRAY_SIZE(summary_opts) };

const struct opt_cmd cmd_summary_spec = {
	.name = "summary",
	.summary = "where a campaign stands: keeps, crashes, best, trend, untested",
	.about = "Where the runs stand: n_runs, n_valid, n_keeps, n_discards, keep_rate\n"
		 "(as autoresearch's analysis.ipynb: keeps / (keeps + discards), the baseline a\n"
		 "keep, failed runs apart), n_crashes (runs that failed: any status but ok and\n"
		 "running), n_crash_streak (failed runs in a row at the end), best per hardware\n"
		 "class, n_runs_since_frontier_moved, trend (improving, plateau, stuck; the rule is\n"
		 "in docs/ledger.md) and, with --campaign of a declared campaign, the\n"
		 "variables of its search space no valid run has changed alone (untested).\n",
	.notes = "Formats: table prints 'field  value' lines; json one object; tsv, csv, md\n"
		 "two columns, field and value.\n",
	.groups = { &run_filter_opts, &summary_group, &archived_opts },
};

/* The trend rule (docs/ledger.md), counted in runs of any outcome since
 * the last run that improved a frontier (beat its class's best; a class's
 * first valid run is no improvement): improving below TREND_PLATEAU_RUNS,
 * plateau from there (or when nothing improved yet), stuck from
 * TREND_STUCK_RUNS or after TREND_STUCK_CRASHES failed runs in a row. */
#define TREND_PLATEAU_RUNS 10 /* no improvement in this many runs: plateau */
#define TREND_STUCK_RUNS 20   /* … in this many, or: */
#define TREND_STUCK_CRASHES 5 /* this many failed runs in a row: stuck */

struct summary_args {
	struct run_filter filter;
	const char *metric;
	int maximize, maximize_given;
};

struct summary {
	long runs, valid, keeps, discards, crashes, crash_streak, since_move, since_improved;
	int moved_ever, improved_ever;
	char *last_run;
	struct frontier f;
	json_t *untested; /* array of keys, or NULL without a declared campaign */
	long in_scope;
};

static int parse_args(int argc, char **argv, struct summary_args *a)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_summary_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR || run_filter_take_opt(&a->filter, &p) < 0)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("summary: unexpected argument '%s'", p.val);
			rl_hint("summary takes options only; run 'ledger summary --help'");
			return -1;
		} else if (r == O_METRIC) {
			if (metric_name_check(p.val)) {
				rl_error("summary: --metric '%s' is not a metric name", p.val);
				return -1;
			}
			a->metric = p.val;
		} else if (r == O_MAXIMIZE) {
			a->maximize = a->maximize_given = 1;
		}
	}
	return 0;
}

/* 1 when a status is a failure: anything but ok and running. */
static int failed(const char *status)
{
	return status && strcmp(status, "ok") && strcmp(status, "running");
}

/* One pass in frontier order (time, untimed last): counts, the streak at
 * the end, and the position of the last run that moved a frontier. */
static int count_runs(sqlite3 *db, const struct summary_args *a, struct summary *s)
{
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	sb_adds(&sql, "SELECT r.id, r.run_id, " RUN_STATUS_SQL("r.") ", r.decision, "
		AUDIT_INADMISSIBLE_SQL("r.") ", ");
	run_metric_sql(a->metric, "r", &sql, &args);
	sb_adds(&sql, " FROM runs r WHERE 1");
	run_filter_sql(&a->filter, "r", &sql, &args);
	sb_adds(&sql, " ORDER BY r.t_finished IS NULL, r.t_finished, r.id");
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sql_args_bind(&args, st, 1);
	int rc;
	while ((rc = db_step(st, "read the runs")) == SQLITE_ROW) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		const char *status = (const char *)sqlite3_column_text(st, 2);
		const char *decision = (const char *)sqlite3_column_text(st, 3);
		int inadmissible = sqlite3_column_int(st, 4); /* measured, not admitted: a discard */
		int type = sqlite3_column_type(st, 5);
		s->runs++;
		int valid = status && !strcmp(status, "ok") && (type == SQLITE_FLOAT || type == SQLITE_INTEGER);
		s->valid += valid;
		/* keeps and discards as the audit and the digest count them: valid
		 * measurements only, the baseline a keep (a crash is never either) */
		s->keeps += valid && decision && (!strcmp(decision, "keep") || !strcmp(decision, "baseline"));
		s->discards += (valid && decision && !strcmp(decision, "discard")) || inadmissible;
		s->crashes += failed(status) && !inadmissible;
		s->crash_streak = failed(status) && !inadmissible ? s->crash_streak + 1 : 0;
		s->since_move++;
		s->since_improved++;
		for (int k = 0; k < s->f.n; k++) {
			if (s->f.pts[k].row.id != id)
				continue;
			s->since_move = 0;
			s->moved_ever = 1;
			if (!isnan(s->f.pts[k].prev)) { /* beat a best, not a group's first */
				s->since_improved = 0;
				s->improved_ever = 1;
			}
		}
		free(s->last_run);
		s->last_run = db_column_dup(st, 1);
	}
	sqlite3_finalize(st);
	sql_args_release(&args);
	sb_release(&sql);
	return rc == SQLITE_DONE ? 0 : -1;
}

static const char *trend(const struct summary *s)
{
	if (!s->runs)
		return "none";
	if (s->crash_streak >= TREND_STUCK_CRASHES || s->since_improved >= TREND_STUCK_RUNS)
		return "stuck";
	if (!s->improved_ever || s->since_improved >= TREND_PLATEAU_RUNS)
		return "plateau";
	return "improving";
}

/* In-scope variables of the campaign that no valid run changed alone:
 * registry keys matching its globs, and globs without wildcards that the
 * registry does not know, less audit_coverage's variables_tested. */
static int untested(sqlite3 *db, const struct campaign *c, struct summary *s)
{
	struct coverage cov = { 0 };
	if (audit_coverage(db, c->name, &cov))
		return -1;
	sb tested = SB_INIT;
	for (int k = 0; k < cov.n; k++)
		sb_addf(&tested, ",%s", cov.rows[k].vars_tested ? cov.rows[k].vars_tested : "");
	sb_adds(&tested, ",");
	coverage_release(&cov);
	s->untested = json_array();
	sb probe = SB_INIT;
	for (size_t i = 0; i < varreg_count(); i++) {
		const char *key = varreg_at(i)->key;
		if (!campaign_in_scope(c, key))
			continue;
		s->in_scope++;
		sb_reset(&probe);
		sb_addf(&probe, ",%s,", key);
		if (!strstr(tested.buf, probe.buf))
			json_array_append_new(s->untested, json_string(key));
	}
	for (int g = 0; g < c->nsearch; g++) {
		const char *glob = c->search_space[g];
		if (strpbrk(glob, "*?[") || varreg_find(glob))
			continue;
		s->in_scope++;
		sb_reset(&probe);
		sb_addf(&probe, ",%s,", glob);
		if (!strstr(tested.buf, probe.buf))
			json_array_append_new(s->untested, json_string(glob));
	}
	sb_release(&probe);
	sb_release(&tested);
	return 0;
}

/* ---- output ------------------------------------------------------------ */

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The last point of each group is its best (frontier.h: points in the
 * order they moved it). */
static int cmp_point_group(const void *a, const void *b)
{
	return strcmp((*(const struct frontier_point *const *)a)->group,
		      (*(const struct frontier_point *const *)b)->group);
}

static json_t *best_list(const struct frontier *f, const char *metric)
{
	json_t *arr = json_array();
	const struct frontier_point **best = xcalloc((size_t)f->n + 1, sizeof(*best));
	int nbest = 0;
	for (int k = 0; k < f->n; k++) {
		int later = 0;
		for (int j = k + 1; j < f->n && !later; j++)
			later = !strcmp(f->pts[j].group, f->pts[k].group);
		if (!later)
			best[nbest++] = &f->pts[k];
	}
	qsort(best, (size_t)nbest, sizeof(*best), cmp_point_group); /* by class name */
	for (int k = 0; k < nbest; k++) {
		json_t *b = json_object();
		json_object_set_new(b, "hardware", json_string(best[k]->group));
		json_object_set_new(b, "run_id", best[k]->row.run_id ? json_string(best[k]->row.run_id) : json_null());
		json_object_set_new(b, metric, number_or_null(best[k]->value));
		json_object_set_new(b, "finished_at", best[k]->row.finished_at ? json_string(best[k]->row.finished_at) : json_null());
		json_array_append_new(arr, b);
	}
	free(best);
	return arr;
}

static json_t *summary_json(const struct summary *s, const char *metric, const char *campaign)
{
	json_t *o = json_object();
	json_object_set_new(o, "campaign", campaign ? json_string(campaign) : json_null());
	json_object_set_new(o, "metric", json_string(metric));
	json_object_set_new(o, "n_runs", json_integer(s->runs));
	json_object_set_new(o, "n_valid", json_integer(s->valid));
	json_object_set_new(o, "n_keeps", json_integer(s->keeps));
	json_object_set_new(o, "n_discards", json_integer(s->discards));
	json_object_set_new(o, "keep_rate",
			    s->keeps + s->discards ? json_real((double)s->keeps / (double)(s->keeps + s->discards))
						   : json_null());
	json_object_set_new(o, "n_crashes", json_integer(s->crashes));
	json_object_set_new(o, "n_crash_streak", json_integer(s->crash_streak));
	json_object_set_new(o, "best", best_list(&s->f, metric));
	json_object_set_new(o, "n_runs_since_frontier_moved", s->moved_ever ? json_integer(s->since_move) : json_null());
	json_object_set_new(o, "n_runs_since_improvement", s->improved_ever ? json_integer(s->since_improved) : json_null());
	json_object_set_new(o, "trend", json_string(trend(s)));
	json_object_set_new(o, "last_run", s->last_run ? json_string(s->last_run) : json_null());
	json_object_set_new(o, "untested", s->untested ? json_incref(s->untested) : json_null());
	return o;
}

static void add_field(table *t, const char *name, const char *value)
{
	int r = table_add_row(t);
	table_set_text(t, r, 0, name);
	table_set_text(t, r, 1, value);
}

/* field/value rows: numbers as text (6 decimals for val_bpb, as query),
 * the best as "VALUE RUN_ID" per class, untested comma-separated. */
static void summary_fields(const json_t *o, const char *metric, table *t)
{
	const char *key;
	json_t *v;
	sb s = SB_INIT, name = SB_INIT;
	json_object_foreach((json_t *)o, key, v) {
		sb_reset(&s);
		if (!strcmp(key, "best")) {
			size_t i;
			json_t *b;
			json_array_foreach(v, i, b) {
				sb_reset(&name);
				sb_reset(&s);
				sb_addf(&name, "best.%s", json_string_value(json_object_get(b, "hardware")));
				double x = json_number_value(json_object_get(b, metric));
				sb_addf(&s, metric_precision(metric) >= 0 ? "%.6f %s" : "%g %s", x,
					json_string_value(json_object_get(b, "run_id")));
				add_field(t, name.buf, s.buf);
			}
			continue;
		}
		if (json_is_array(v)) {
			size_t i;
			json_t *x;
			json_array_foreach(v, i, x) sb_addf(&s, "%s%s", i ? ", " : "", json_string_value(x));
			if (!json_array_size(v))
				sb_adds(&s, "(none)");
		} else if (json_is_real(v)) {
			sb_addf(&s, "%.3f", json_real_value(v));
		} else if (json_is_integer(v)) {
			sb_addf(&s, "%lld", (long long)json_integer_value(v));
		} else if (json_is_string(v)) {
			sb_adds(&s, json_string_value(v));
		}
		add_field(t, key, json_is_null(v) ? NULL : s.buf);
	}
	sb_release(&s);
	sb_release(&name);
}

static void render(const json_t *o, const char *metric, enum out_format fmt)
{
	if (fmt == FMT_JSON) {
		char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		printf("%s\n", s ? s : "{}");
		free(s);
		return;
	}
	static const char *const names[] = { "field", "value" };
	table t;
	table_init(&t, 2, names);
	summary_fields(o, metric, &t);
	if (fmt == FMT_TABLE) { /* "field  value" lines, like show */
		size_t w = 0;
		for (int r = 0; r < t.nrows; r++)
			w = strlen(t.cells[2 * r].text) > w ? strlen(t.cells[2 * r].text) : w;
		for (int r = 0; r < t.nrows; r++)
			printf("%-*s  %s\n", (int)w, t.cells[2 * r].text,
			       t.cells[2 * r + 1].text ? t.cells[2 * r + 1].text : "null");
	} else {
		table_render(&t, fmt, stdout);
	}
	table_release(&t);
}

/* The one campaign --campaign names, or NULL (none, or a list of several:
 * a summary across campaigns has no one search space). */
static const char *one_campaign(const struct summary_args *a)
{
	return a->filter.campaign.n == 1 ? a->filter.campaign.v[0] : NULL;
}

/* The declared campaign of --campaign, when there is one: its metric and
 * direction are the summary's unless given. 1 loaded, 0 none, -1 error. */
static int load_campaign(sqlite3 *db, struct summary_args *a, struct campaign *c)
{
	if (!one_campaign(a))
		return 0;
	int rc = campaign_load(db, one_campaign(a), c, 1);
	if (rc == -1)
		return 0; /* not declared: a campaign name on runs only */
	if (rc)
		return -1;
	if (!a->metric)
		a->metric = c->metric;
	if (!a->maximize_given)
		a->maximize = c->maximize;
	return 1;
}

int cmd_summary(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct summary_args a = { .metric = NULL };
	struct summary s = { 0 };
	struct campaign c = { 0 };
	run_filter_init(&a.filter);
	int rc = EXIT_USAGE, declared = 0;
	if (parse_args(argc, argv, &a))
		goto done;
	rc = EXIT_FAILURE_RT;
	if ((declared = load_campaign(ctx->db, &a, &c)) < 0)
		goto done;
	struct frontier_opts fo = { .filter = &a.filter, .metric = a.metric, .maximize = a.maximize };
	if (frontier_compute(ctx->db, &fo, &s.f) || count_runs(ctx->db, &a, &s) ||
	    (declared && untested(ctx->db, &c, &s)))
		goto done;
	const char *metric = a.metric ? a.metric : "val_bpb";
	json_t *o = summary_json(&s, metric, one_campaign(&a));
	render(o, metric, ctx->fmt);
	json_decref(o);
	rc = EXIT_OK;
done:
	if (declared > 0)
		campaign_release(&c);
	frontier_release(&s.f);
	json_decref(s.untested);
	free(s.last_run);
	run_filter_release(&a.filter);
	return rc;
}
