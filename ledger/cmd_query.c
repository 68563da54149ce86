/* cmd_query.c — `ledger query`: list the runs that match the shared filters
 * (filter.h), one row each, through table.h. Reads only; the SQL is built
 * from fixed pieces and every value is a bound parameter. */
#include "changed.h"
#include "db.h"
#include "filter.h"
#include "ledger.h"
#include "util.h"

enum { O_ORDER = 1, O_METRIC, O_MAXIMIZE, O_LIMIT };
static const struct opt query_opts[] = {
	{ .name = "--order", .id = O_ORDER, .type = OPT_STRING, .value = "ORDER", .choices = "time|metric",
	  .help = "time: oldest first, untimed runs last in ingest order (default);\n"
		  "metric: best first (lowest, or highest with --maximize), runs\n"
		  "without the metric last",
	  .bad = "is not an order", .hint = "use --order time or --order metric" },
	{ .name = "--metric", .id = O_METRIC, .type = OPT_STRING, .value = "NAME",
	  .help = "metric column (default val_bpb, which is empty unless the\n"
		  "run is a valid measurement; others are shown as recorded)" },
	{ .name = "--maximize", .id = O_MAXIMIZE, .help = "higher is better for --order metric" },
	{ .name = "--limit", .id = O_LIMIT, .type = OPT_INT, .value = "N", .lo = 1, .hi = 1e15,
	  .help = "keep N runs: the most recent with --order time (still\n"
		  "printed oldest first), the best with --order metric",
	  .bad = "is not a positive count" },
};
static const struct opt_group query_group = { NULL, NULL, query_opts, ARRAY_SIZE(query_opts) };

const struct opt_cmd cmd_query_spec = {
	.name = "query",
	.summary = "list runs matching filters",
	.about = "List runs: run_id, finished_at, agent, hardware class, VRAM tier, status,\n"
		 "decision, the metric, the variables changed against the parent ('~' marks\n"
		 "ones inferred from the description) and the description.\n",
	.groups = { &run_filter_opts, &query_group, &archived_opts },
};

struct query_args {
	struct run_filter filter;
	const char *metric;
	int by_metric, maximize;
	long limit;           /* 0 = all */
};

static int parse_args(int argc, char **argv, struct query_args *a)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_query_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR || run_filter_take_opt(&a->filter, &p) < 0)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("query: unexpected argument '%s'", p.val);
			rl_hint("query takes options only; run 'ledger query --help'");
			return -1;
		} else if (r == O_ORDER) {
			a->by_metric = p.val[0] == 'm';
		} else if (r == O_LIMIT) {
			a->limit = (long)p.num;
		} else if (r == O_METRIC) {
			if (metric_name_check(p.val)) {
				rl_error("query: --metric '%s' is not a metric name", p.val);
				return -1;
			}
			a->metric = p.val;
		} else if (r == O_MAXIMIZE) {
			a->maximize = 1;
		}
	}
	return 0;
}

/* Columns 0..9 as in the usage text; column 10 is runs.id for the changes. */
static void build_sql(const struct query_args *a, sb *sql, struct sql_args *args)
{
	/* time: untimed runs count as the latest, like the frontier's order */
	const char *asc = "r.t_finished IS NULL, r.t_finished, r.id";
	const char *desc = "r.t_finished IS NULL DESC, r.t_finished DESC, r.id DESC";
	sb_adds(sql, "SELECT r.run_id, r.finished_at, r.agent, r.hw_class, r.vram_tier, "
		     RUN_STATUS_SQL("r.") " AS status, r.decision, ");
	run_metric_sql(a->metric, "r", sql, args);
	sb_adds(sql, " AS metric, NULL, r.description, r.id,"
		     " r.t_finished AS t_finished FROM runs r WHERE 1");
	run_filter_sql(&a->filter, "r", sql, args);
	if (a->by_metric) {
		sb_addf(sql, " ORDER BY metric IS NULL, metric%s, r.id", a->maximize ? " DESC" : "");
		if (a->limit) {
			sb_adds(sql, " LIMIT ?");
			sql_args_int(args, a->limit);
		}
	} else if (!a->limit) {
		sb_addf(sql, " ORDER BY %s", asc);
	} else { /* the N most recent, then printed oldest first */
		sb outer = SB_INIT;
		sb_addf(&outer, "SELECT * FROM (%s ORDER BY %s LIMIT ?) r ORDER BY %s",
			sql->buf, desc, asc);
		sql_args_int(args, a->limit);
		sb_release(sql);
		*sql = outer;
	}
}

static int add_row(table *t, sqlite3_stmt *st, sqlite3_stmt *ch, sb *changed, int prec)
{
	int r = table_add_row(t);
	for (int c = 0; c < 10; c++) {
		if (c == 7) {
			int type = sqlite3_column_type(st, c);
			if (type == SQLITE_FLOAT || type == SQLITE_INTEGER)
				table_set_num(t, r, c, sqlite3_column_double(st, c), prec);
			else
				table_set_text(t, r, c, (const char *)sqlite3_column_text(st, c));
		} else if (c == 8) { /* an array of changes in json, "a,~b" as text */
			json_t *list;
			if (changed_read(ch, sqlite3_column_int64(st, 10), &list, changed))
				return -1;
			table_set_json(t, r, c, list, changed->buf);
		} else {
			table_set_text(t, r, c, (const char *)sqlite3_column_text(st, c));
		}
	}
	return 0;
}

static int run_query(sqlite3 *db, const struct query_args *a, table *t)
{
	sb sql = SB_INIT, changed = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	build_sql(a, &sql, &args);
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sqlite3_stmt *ch = db_prepare(db, CHANGED_SQL);
	sql_args_bind(&args, st, 1);
	int rc;
	while ((rc = db_step(st, "read the runs")) == SQLITE_ROW) {
		if (add_row(t, st, ch, &changed, metric_precision(a->metric))) {
			rc = DB_ERROR;
			break;
		}
		if (t->nrows >= 1024) /* stream: a million runs need not fit in memory */
			table_stream_flush(t);
	}
	sqlite3_finalize(ch);
	sqlite3_finalize(st);
	sql_args_release(&args);
	sb_release(&changed);
	sb_release(&sql);
	return rc == SQLITE_DONE ? 0 : -1;
}

int cmd_query(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct query_args a = { .metric = NULL };
	run_filter_init(&a.filter);
	int rc = EXIT_USAGE;
	if (parse_args(argc, argv, &a) ||
	    (rc = run_filter_check(&a.filter, ctx->db, "query")) != EXIT_OK ||
	    (rc = run_metric_check(a.metric, ctx->db, "query")) != EXIT_OK)
		goto done;
	const char *names[] = { "run_id", "finished_at", "agent", "hardware", "tier", "status",
				"decision", a.metric ? a.metric : "val_bpb", "changed", "description" };
	table t;
	table_init(&t, (int)ARRAY_SIZE(names), names);
	rc = EXIT_FAILURE_RT;
	table_stream_begin(&t, ctx->fmt, stdout);
	if (run_query(ctx->db, &a, &t) == 0) {
		table_stream_end(&t);
		rc = EXIT_OK;
	}
	table_release(&t);
done:
	run_filter_release(&a.filter);
	return rc;
}
