/* cmd_campaign.c — `ledger campaign`: declare (add), list, show and assign
 * campaigns. A small verb table like the command table in main.c. Parsing
 * and storage of the declaration live in campaign.c; this file only talks
 * to the user. Must not judge runs: that is `ledger audit`. */
#include <jansson.h>
#include "campaign.h"
#include "changed.h"
#include "db.h"
#include "filter.h"
#include "ledger.h"
#include "lookup.h"
#include "suggest.h"
#include "util.h"

const struct opt_cmd cmd_campaign_spec = {
	.name = "campaign",
	.usage = "add FILE          declare a campaign from JSON ('-' = stdin)\n"
		 "list              declared campaigns and their run counts\n"
		 "show NAME         one declaration and its runs\n"
		 "assign NAME RUN…  add runs to a campaign (run id, prefix or #N)",
	.summary = "declare, list, show and assign campaigns",
	.about = "Campaign JSON (docs/audit.md):\n"
		 "  {\"name\":\"compile-kernel-efficiency\", \"metric\":\"val_bpb\", \"direction\":\"min\",\n"
		 "   \"hardware\":\"RTX 3090\", \"baseline\":\"RUN\" or \"first valid run\",\n"
		 "   \"search_space\":[\"impl.*\"], \"bundles\":[[\"impl.fused_*\"]],\n"
		 "   \"record_budget\":10, \"noise_default\":0.002}\n"
		 "A run belongs to a campaign when its record names it (\"campaign\") or it\n"
		 "was assigned. Adding a campaign of an existing name replaces it.\n",
	.notes = "Exit status: 0 ok, 2 usage error or invalid declaration, 3 database failure.\n",
	.groups = { NULL },
};

static int campaign_add(int argc, char **argv, struct ledger_ctx *ctx);
static int campaign_list(int argc, char **argv, struct ledger_ctx *ctx);
static int campaign_show(int argc, char **argv, struct ledger_ctx *ctx);
static int campaign_assign(int argc, char **argv, struct ledger_ctx *ctx);

static const struct verb {
	const char *name;
	int (*fn)(int argc, char **argv, struct ledger_ctx *ctx);
	int min_args, max_args;   /* after the verb; -1 = no limit */
	const char *args;         /* for the error message */
} verbs[] = {
	{ "add", campaign_add, 1, 1, "FILE" },
	{ "list", campaign_list, 0, 0, "" },
	{ "show", campaign_show, 1, 1, "NAME" },
	{ "assign", campaign_assign, 2, -1, "NAME RUN…" },
};

/* Members of campaign ?1 (its runs), for show. */
#define MEMBERS "SELECT r.* FROM runs r WHERE r.id IN (" CAMPAIGN_MEMBERS_SQL(1) ")"

static int campaign_add(int argc, char **argv, struct ledger_ctx *ctx)
{
	const char *path = argv[1];
	size_t len;
	char *text = read_file(path, &len);
	if (!text)
		return EXIT_USAGE;
	struct campaign c;
	sb err = SB_INIT;
	int rc = EXIT_OK;
	if (campaign_parse(text, len, &c, &err)) {
		/* one message line per problem, each naming the file */
		for (char *line = strtok(err.buf, "\n"); line; line = strtok(NULL, "\n"))
			rl_error("campaign add: %s: %s", path, line);
		rl_hint("see 'ledger campaign --help' or docs/audit.md for the fields");
		rc = EXIT_USAGE;
		goto out;
	}
	sqlite3_int64 id;
	int miss = c.baseline ? run_lookup(ctx->db, c.baseline, &id, 1) : 0;
	if (miss == LOOKUP_DB_ERROR) {
		rc = EXIT_FAILURE_RT;
		goto out;
	}
	if (miss)
		rl_warn("campaign add: %s: baseline '%s' is not in the ledger yet; "
			"the audit needs it ingested", path, c.baseline);
	struct campaign old;
	int loaded = campaign_load(ctx->db, c.name, &old, 1), existed = loaded == 0;
	if (existed)
		campaign_release(&old);
	if (loaded == CAMPAIGN_DB_ERROR) {
		rc = EXIT_FAILURE_RT;
		goto out;
	}
	if (campaign_store(ctx->db, &c)) {
		rc = EXIT_FAILURE_RT;
		goto out;
	}
	printf("%s campaign '%s'\n", existed ? "replaced" : "declared", c.name);
out:
	campaign_release(&c);
	sb_release(&err);
	free(text);
	return rc;
}

/* 0, or -1 when the ledger cannot be read (reported). */
static int list_row(struct ledger_ctx *ctx, table *t, const struct campaign *c)
{
	int row = table_add_row(t);
	table_set_text(t, row, 0, c->name);
	table_set_text(t, row, 1, c->metric);
	table_set_text(t, row, 2, c->maximize ? "max" : "min");
	table_set_text(t, row, 3, c->hardware);
	table_set_list(t, row, 4, (const char *const *)c->search_space, c->nsearch, ",");
	if (c->record_budget)
		table_set_int(t, row, 5, c->record_budget);
	/* valid: runs with a valid measurement of the campaign's metric; the
	 * metric's JSON path, if any, is parameter 1 (run_metric_sql) */
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	sb_adds(&sql, "SELECT count(*), count(CASE WHEN r.status = 'ok' THEN ");
	run_metric_sql(c->metric, "r", &sql, &args);
	sb_adds(&sql, " END) FROM runs r WHERE r.id IN (" CAMPAIGN_MEMBERS_SQL(2) ")");
	sqlite3_stmt *st = db_prepare(ctx->db, sql.buf);
	sql_args_bind(&args, st, 1);
	db_bind_text(st, 2, c->name);
	sql_args_release(&args);
	sb_release(&sql);
	int rc = db_step(st, "count the campaign's runs");
	if (rc == SQLITE_ROW) {
		table_set_int(t, row, 6, sqlite3_column_int64(st, 0));
		table_set_int(t, row, 7, sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	return rc == DB_ERROR ? -1 : 0;
}

static int campaign_list(int argc, char **argv, struct ledger_ctx *ctx)
{
	static const char *const cols[] = {
		"name", "metric", "direction", "hardware", "search_space", "record_budget", "n_runs",
		"n_valid"
	};
	table t;
	table_init(&t, ARRAY_SIZE(cols), cols);
	sqlite3_stmt *st = db_prepare(ctx->db, "SELECT name FROM campaigns ORDER BY name");
	int rc = EXIT_OK, step;
	while ((step = db_step(st, "list the campaigns")) == SQLITE_ROW) {
		struct campaign c;
		const char *name = (const char *)sqlite3_column_text(st, 0);
		int loaded = campaign_load(ctx->db, name, &c, 0);
		if (loaded == CAMPAIGN_DB_ERROR)
			break;
		if (loaded) {
			rc = EXIT_FINDINGS; /* reported; list the others */
			continue;
		}
		int row_rc = list_row(ctx, &t, &c);
		campaign_release(&c);
		if (row_rc)
			break;
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		table_release(&t);
		return EXIT_FAILURE_RT;
	}
	table_render(&t, ctx->fmt, stdout);
	table_release(&t);
	return rc;
}

/* The campaign's runs in time order, with the variables each changed.
 * 0, or -1 when the ledger cannot be read (reported). */
static const char *const run_cols[] = {
	"run_id", "status", "decision", "hardware", "val_bpb", "changed", "description"
};
#define N_RUN_COLS ((int)ARRAY_SIZE(run_cols))

static int runs_table(struct ledger_ctx *ctx, const char *name, table *t)
{
	table_init(t, N_RUN_COLS, run_cols);
	sqlite3_stmt *st = db_prepare(ctx->db,
		"SELECT m.run_id, m.status, m.decision, m.hw_class, m.val_bpb, NULL, m.description, m.id"
		" FROM (" MEMBERS ") m ORDER BY m.t_finished IS NULL, m.t_finished, m.id");
	sqlite3_stmt *ch = db_prepare(ctx->db, CHANGED_SQL);
	db_bind_text(st, 1, name);
	sb text = SB_INIT;
	int rc;
	while ((rc = db_step(st, "read the campaign's runs")) == SQLITE_ROW) {
		int row = table_add_row(t);
		for (int c = 0; c < N_RUN_COLS; c++) {
			if (c == 4 && sqlite3_column_type(st, c) != SQLITE_NULL)
				table_set_num(t, row, c, sqlite3_column_double(st, c), 6);
			else if (c != 5)
				table_set_text(t, row, c, (const char *)sqlite3_column_text(st, c));
		}
		json_t *changed;
		if (changed_read(ch, sqlite3_column_int64(st, 7), &changed, &text)) {
			rc = DB_ERROR;
			break;
		}
		table_set_json(t, row, 5, changed, text.buf);
	}
	sb_release(&text);
	sqlite3_finalize(ch);
	sqlite3_finalize(st);
	return rc == DB_ERROR ? -1 : 0;
}

/* json: one object, the declaration's fields and "members", its runs. */
static void show_json(const struct campaign *c, const table *runs)
{
	char *spec = campaign_to_json(c);
	json_t *o = json_loads(spec, 0, NULL);
	json_object_set_new(o, "members", table_to_json(runs));
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	printf("%s\n", text);
	free(text);
	json_decref(o);
	free(spec);
}

/* The declaration's fields as (field, value) pairs, from the canonical JSON
 * so that show cannot disagree with what add stored: value is the text of
 * a string, compact JSON for the rest, NULL for null. */
static void declaration_fields(const struct campaign *c, table *f, int field_col, int value_col)
{
	char *spec = campaign_to_json(c);
	json_t *o = json_loads(spec, 0, NULL);
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v) {
		int row = table_add_row(f);
		char *text = json_is_string(v) ? xstrdup(json_string_value(v))
			: json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(17));
		table_set_text(f, row, field_col, key);
		table_set_text(f, row, value_col, json_is_null(v) ? NULL : text);
		free(text);
	}
	json_decref(o);
	free(spec);
}

/* tsv and csv: one table for a program to read, with the same columns on
 * every row: "section" is "campaign" for the declaration's fields (field,
 * value) and "run" for its runs (the run columns). */
static void show_one_table(const struct campaign *c, const table *runs, enum out_format fmt)
{
	const char *cols[3 + N_RUN_COLS] = { "section", "field", "value" };
	for (int k = 0; k < N_RUN_COLS; k++)
		cols[3 + k] = run_cols[k];
	table t;
	table_init(&t, 3 + N_RUN_COLS, cols);
	declaration_fields(c, &t, 1, 2);
	for (int r = 0; r < t.nrows; r++)
		table_set_text(&t, r, 0, "campaign");
	for (int r = 0; r < runs->nrows; r++) {
		int row = table_add_row(&t);
		table_set_text(&t, row, 0, "run");
		for (int k = 0; k < N_RUN_COLS; k++) {
			sb text = SB_INIT;
			const cell *x = &runs->cells[(size_t)r * runs->ncols + k];
			table_cell_text(x, &text);
			table_set_text(&t, row, 3 + k, x->type == CELL_NULL ? NULL : text.buf);
			sb_release(&text);
		}
	}
	table_render(&t, fmt, stdout);
	table_release(&t);
}

static int campaign_show(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct campaign c;
	int loaded = campaign_load(ctx->db, argv[1], &c, 0);
	if (loaded)
		return loaded == CAMPAIGN_DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
	table runs;
	if (runs_table(ctx, c.name, &runs)) {
		table_release(&runs);
		campaign_release(&c);
		return EXIT_FAILURE_RT;
	}
	if (ctx->fmt == FMT_JSON) {
		show_json(&c, &runs);
	} else if (ctx->fmt == FMT_TSV || ctx->fmt == FMT_CSV) {
		show_one_table(&c, &runs, ctx->fmt);
	} else { /* for people: the declaration, a blank line, the runs */
		static const char *const cols[] = { "field", "value" };
		table f;
		table_init(&f, 2, cols);
		declaration_fields(&c, &f, 0, 1);
		table_render(&f, ctx->fmt, stdout);
		fputc('\n', stdout);
		table_render(&runs, ctx->fmt, stdout);
		table_release(&f);
	}
	table_release(&runs);
	campaign_release(&c);
	return EXIT_OK;
}

/* Resolve every reference first, so that one typo assigns nothing. */
static int campaign_assign(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct campaign c;
	int loaded = campaign_load(ctx->db, argv[1], &c, 0);
	if (loaded)
		return loaded == CAMPAIGN_DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
	int n = argc - 2, rc = EXIT_OK, added = 0;
	sqlite3_int64 *ids = xcalloc((size_t)n, sizeof(*ids));
	for (int i = 0; i < n && rc != EXIT_FAILURE_RT; i++) {
		int miss = run_lookup(ctx->db, argv[i + 2], &ids[i], 0);
		if (miss)
			rc = miss == LOOKUP_DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
	}
	if (rc == EXIT_FAILURE_RT)
		goto out;
	if (rc == EXIT_OK) {
		if (db_begin_write(ctx->db)) {
			rc = EXIT_FAILURE_RT;
			goto out;
		}
		sqlite3_stmt *st = db_prepare(ctx->db,
			"INSERT OR IGNORE INTO campaign_runs(campaign, run) VALUES(?, ?)");
		for (int i = 0; i < n; i++) {
			sqlite3_reset(st);
			db_bind_text(st, 1, c.name);
			sqlite3_bind_int64(st, 2, ids[i]);
			if (db_step(st, "assign the run") == DB_ERROR) {
				rc = EXIT_FAILURE_RT;
				break;
			}
			added += sqlite3_changes(ctx->db);
		}
		sqlite3_finalize(st);
		if (rc == EXIT_FAILURE_RT) {
			db_rollback(ctx->db);
			goto out;
		}
		if (db_commit(ctx->db)) {
			rc = EXIT_FAILURE_RT;
			goto out;
		}
		printf("assigned %d run%s to campaign '%s'", added, added == 1 ? "" : "s", c.name);
		if (added < n)
			printf(" (%d already assigned)", n - added);
		putchar('\n');
	} else {
		rl_hint("nothing was assigned; fix the references and run it again");
	}
out:
	free(ids);
	campaign_release(&c);
	return rc;
}

int cmd_campaign(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct opt_parser p;
	int r, n = 1;
	opts_begin(&p, &ledger_prog, &cmd_campaign_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r != OPTS_ARG)
			return EXIT_USAGE; /* no options of its own: unknown, said */
		argv[n++] = (char *)p.val;
	}
	argc = n;
	if (argc < 2) {
		rl_error("campaign: which verb? add, list, show or assign");
		rl_hint("run 'ledger campaign --help'");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++) {
		const struct verb *v = &verbs[i];
		if (strcmp(argv[1], v->name))
			continue;
		int nargs = argc - 2;
		if (nargs < v->min_args || (v->max_args >= 0 && nargs > v->max_args)) {
			rl_error("campaign %s: expected %s%s", v->name, *v->args ? "" : "no arguments",
				 v->args);
			rl_hint("usage: ledger campaign %s %s", v->name, v->args);
			return EXIT_USAGE;
		}
		return v->fn(argc - 1, argv + 1, ctx);
	}
	rl_error("campaign: '%s' is not a verb (add, list, show, assign)", argv[1]);
	const char *names[ARRAY_SIZE(verbs)];
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++)
		names[i] = verbs[i].name;
	const char *best = suggest_closest(argv[1], names, ARRAY_SIZE(verbs));
	if (best)
		rl_hint("did you mean 'campaign %s'?", best);
	return EXIT_USAGE;
}
