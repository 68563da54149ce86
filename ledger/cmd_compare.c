/* cmd_compare.c — `ledger compare`: N runs side by side (compare.h), one column each,
 * like `dvc exp show` turned on its side: what each run is (description,
 * status, decision, hardware), the config keys whose values differ
 * between them (every key with --all), what each changed against its
 * parent, and every metric. Runs are named (run references, lookup.h) or
 * chosen by the shared filters (filter.h), or both. Reads only. */
#include "annot.h"
#include "compare.h"
#include "db.h"
#include "filter.h"
#include "ledger.h"
#include "lookup.h"
#include "util.h"

enum { O_ALL = 1, O_LIMIT };
static const struct opt compare_opts[] = {
	{ .name = "--all", .id = O_ALL, .help = "every config key, not only those that differ" },
	{ .name = "--limit", .id = O_LIMIT, .type = OPT_INT, .value = "N", .lo = 1, .hi = 1e15,
	  .help = "with filters, the N most recent matching runs (default 20)",
	  .bad = "is not a positive count" },
};
static const struct opt_group compare_group = { NULL, NULL, compare_opts, ARRAY_SIZE(compare_opts) };

const struct opt_cmd cmd_compare_spec = {
	.name = "compare",
	.args = "[RUN...]",
	.summary = "runs side by side: the config keys that differ and the metrics",
	.about = "Compare runs side by side: one column per run, one row per key, in\n"
		 "sections: run (description, status, decision, hardware, finished_at,\n"
		 "parent), config (the keys whose values differ between the runs), changed\n"
		 "(each run's changes against its parent, OLD -> NEW; '~' marks an inferred\n"
		 "one), metrics (every metric any of them has).\n"
		 "\n"
		 "RUN is a run id, a unique prefix, #N or a commit prefix; filters select\n"
		 "runs too (in time order, after the named ones), archived ones only with\n"
		 "--archived (a named run always counts). A run appears once.\n",
	.notes = "Formats: table, tsv, csv, md: columns section, key and one per run id;\n"
		 "json: {\"runs\": [ids], \"rows\": [{\"section\", \"key\", \"differs\",\n"
		 "\"values\": [one per run, JSON-typed, null when absent]}]}; a changed\n"
		 "row's values are change objects {var, old, new, how, span}.\n"
		 "Exit status: 0, 2 usage error or unknown run, 3 the ledger cannot be read.\n",
	.groups = { &compare_group, &archived_opts, &run_filter_opts },
};

#define COMPARE_LIMIT_DEFAULT 20


struct compare_args {
	struct run_filter filter;
	int filtered;     /* a filter option was given */
	int all, archived;
	long limit;
	const char **refs;
	int nrefs;
};

static int parse_args(int argc, char **argv, struct compare_args *a)
{
	struct opt_parser p;
	int r;
	a->refs = xcalloc((size_t)argc, sizeof(char *));
	opts_begin(&p, &ledger_prog, &cmd_compare_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		int f = r == OPTS_ERROR ? -1 : run_filter_take_opt(&a->filter, &p);
		if (f < 0)
			return -1;
		if (f > 0)
			a->filtered = 1;
		else if (r == OPTS_ARG)
			a->refs[a->nrefs++] = p.val;
		else if (r == O_ALL)
			a->all = 1;
		else if (r == O_ARCHIVED)
			a->archived = 1;
		else if (r == O_LIMIT)
			a->limit = (long)p.num;
	}
	if (!a->nrefs && !a->filtered) {
		rl_error("compare: which runs?");
		rl_hint("name them (ledger compare RUN RUN...) or select them (ledger compare --campaign NAME)");
		return -1;
	}
	return 0;
}

/* The filtered runs, the most recent `limit` in time order (query's order:
 * untimed runs last). Said on stderr when more matched. 0 or -1. */
static int select_filtered(sqlite3 *db, const struct compare_args *a, struct compare_set *rs)
{
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	sb_adds(&sql, "SELECT id, count(*) OVER () FROM (SELECT r.id, r.t_finished FROM runs r WHERE 1");
	run_filter_sql(&a->filter, "r", &sql, &args);
	sb_adds(&sql, " ORDER BY r.t_finished IS NULL DESC, r.t_finished DESC, r.id DESC LIMIT ?)"
		      " ORDER BY t_finished IS NULL, t_finished, id");
	long limit = a->limit ? a->limit : COMPARE_LIMIT_DEFAULT;
	/* one more than shown, to know whether the limit cut */
	sql_args_int(&args, limit + 1);
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sql_args_bind(&args, st, 1);
	int rc, skip = -1;
	while ((rc = db_step(st, "select the runs")) == SQLITE_ROW) {
		if (skip < 0) /* the oldest of limit + 1 is the one cut */
			skip = sqlite3_column_int(st, 1) > limit;
		if (skip) {
			skip = 0;
			rl_warn("compare: more than %ld runs match; comparing the %ld most recent (--limit N)",
				limit, limit);
			continue;
		}
		compare_add(rs, sqlite3_column_int64(st, 0));
	}
	sqlite3_finalize(st);
	sql_args_release(&args);
	sb_release(&sql);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void render(const struct compare_set *rs, int all, enum out_format fmt)
{
	if (fmt == FMT_JSON) {
		json_t *doc = compare_json(rs, all);
		char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		printf("%s\n", s ? s : "{}");
		free(s);
		json_decref(doc);
	} else {
		table t;
		compare_table(rs, all, &t);
		table_render(&t, fmt, stdout);
		table_release(&t);
	}
}

static int compare(struct ledger_ctx *ctx, const struct compare_args *a)
{
	struct compare_set rs = { 0 };
	int rc = EXIT_OK;
	/* named runs first, looked up in the table itself: one named is
	 * compared even when archived */
	for (int k = 0; k < a->nrefs && rc == EXIT_OK; k++) {
		sqlite3_int64 id;
		int r = run_lookup(ctx->db, a->refs[k], &id, 0);
		if (r)
			rc = r == LOOKUP_DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
		else
			compare_add(&rs, id);
	}
	if (rc == EXIT_OK && a->filtered &&
	    (annot_view(ctx->db, a->archived ? ANNOT_WITH_ARCHIVED : ANNOT_HIDE_ARCHIVED) ||
	     select_filtered(ctx->db, a, &rs)))
		rc = EXIT_FAILURE_RT;
	if (rc == EXIT_OK && compare_load(ctx->db, &rs))
		rc = EXIT_FAILURE_RT;
	if (rc == EXIT_OK) {
		if (!rs.n)
			rl_warn("compare: no run matches the filters");
		render(&rs, a->all, ctx->fmt);
	}
	compare_release(&rs);
	return rc;
}

int cmd_compare(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct compare_args a = { .limit = 0 };
	run_filter_init(&a.filter);
	int rc = parse_args(argc, argv, &a) ? EXIT_USAGE : compare(ctx, &a);
	run_filter_release(&a.filter);
	free(a.refs);
	return rc;
}
