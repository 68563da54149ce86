/* cmd_init.c — `ledger init`: create the ledger (or bring an existing one
 * to the current schema) without ingesting anything. The read commands
 * refuse a ledger that does not exist, so this is how a script makes an
 * empty one on purpose. The work is db_open's; this file only reports. */
#include "check.h"
#include "db.h"
#include "ledger.h"
#include "pg_schema.h"
#include "util.h"

const struct opt_cmd cmd_init_spec = {
	.name = "init",
	.summary = "create an empty ledger, or check an existing one",
	.about = "Create the ledger named by --db (default $LEDGER_DB, else ./ledger.db) if it\n"
		 "does not exist, with the current schema; an existing ledger is opened and\n"
		 "left as it is. Prints the ledger, its schema version, how many runs it\n"
		 "holds and its health: 'ok', or 'damaged' with the first problem SQLite's\n"
		 "quick_check found ('ledger check' lists them all; exit 1, runs not counted).\n"
		 "Other commands except 'ingest' and 'campaign' need the ledger to exist.\n"
		 "With --db postgresql://… it makes the schema on that server instead\n"
		 "(docs/postgres.md); the health is what 'ledger check' checks there.\n",
	.groups = { NULL },
};

/* "ok", or "damaged: FIRST PROBLEM (N problems)"; -1 when the check could
 * not run (reported). */
static int health(struct ledger_ctx *ctx, sb *out)
{
	struct ledger_check c;
	int rc = ctx->pg ? pg_check(ctx->pg, &c) : ledger_check(ctx->db, 1, &c);
	if (!rc && !c.n)
		sb_adds(out, "ok");
	else if (!rc)
		sb_addf(out, "damaged: %s (%d problem%s; see 'ledger check')", c.v[0].text, c.n,
			c.n == 1 ? "" : "s");
	ledger_check_release(&c);
	return rc;
}

/* The one row init prints; n_runs < 0: not counted (a damaged ledger). */
static void render(struct ledger_ctx *ctx, const char *name, long long version, long long n_runs,
		   const char *state)
{
	static const char *const cols[] = { "ledger", "schema", "n_runs", "health" };
	table t;
	table_init(&t, 4, cols);
	int r = table_add_row(&t);
	table_set_text(&t, r, 0, name);
	table_set_int(&t, r, 1, version);
	if (n_runs >= 0)
		table_set_int(&t, r, 2, n_runs);
	table_set_text(&t, r, 3, state);
	table_render_object(&t, ctx->fmt, stdout);
	table_release(&t);
}

/* init on PostgreSQL: main made the schema (pg_schema_ensure); the same
 * row as for SQLite, named by the URL without its password. */
static int init_pg(struct ledger_ctx *ctx, const sb *state, int healthy)
{
	int version;
	if (pg_schema_version(ctx->pg, &version))
		return EXIT_FAILURE_RT;
	PGresult *r = healthy ? pg_exec(ctx->pg, "count the runs", "SELECT count(*) FROM runs", 0, NULL) : NULL;
	if (healthy && !r)
		return EXIT_FAILURE_RT;
	render(ctx, ctx->pg->name, version, r ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1, state->buf);
	PQclear(r);
	if (!healthy) {
		rl_error("init: PostgreSQL ledger '%s' is damaged", ctx->pg->name);
		rl_hint("'ledger --db URL check' lists the damage");
	}
	return healthy ? EXIT_OK : EXIT_FINDINGS;
}

int cmd_init(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct opt_parser p;
	opts_begin(&p, &ledger_prog, &cmd_init_spec, argc, argv);
	int got = opts_next(&p);
	if (got == OPTS_ERROR)
		return EXIT_USAGE;
	if (got == OPTS_ARG) {
		rl_error("init: unexpected argument '%s'", p.val);
		rl_hint("name the ledger with --db FILE");
		return EXIT_USAGE;
	}
	sb state = SB_INIT;
	if (health(ctx, &state)) {
		sb_release(&state);
		return EXIT_FAILURE_RT;
	}
	int healthy = !strcmp(state.buf, "ok");
	if (ctx->pg) {
		int rc = init_pg(ctx, &state, healthy);
		sb_release(&state);
		return rc;
	}
	/* a damaged ledger's count would be read through the damage */
	sqlite3_stmt *q = db_prepare(ctx->db, healthy ? "SELECT (SELECT user_version FROM pragma_user_version),"
							" (SELECT count(*) FROM runs)"
						      : "SELECT user_version, NULL FROM pragma_user_version");
	int rc = db_step(q, "count the runs");
	if (rc == SQLITE_ROW)
		render(ctx, ctx->db_path, sqlite3_column_int64(q, 0), healthy ? sqlite3_column_int64(q, 1) : -1,
		       state.buf);
	sqlite3_finalize(q);
	if (rc == SQLITE_ROW && !healthy) {
		rl_error("init: ledger '%s' is damaged", ctx->db_path);
		rl_hint("'ledger --db %s check' lists the damage", ctx->db_path);
	}
	sb_release(&state);
	return rc != SQLITE_ROW ? EXIT_FAILURE_RT : healthy ? EXIT_OK : EXIT_FINDINGS;
}
