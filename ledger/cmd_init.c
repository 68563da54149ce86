/* cmd_init.c — `ledger init`: create the ledger (or bring an existing one
 * to the current schema) without ingesting anything. The read commands
 * refuse a ledger that does not exist, so this is how a script makes an
 * empty one on purpose. The work is db_open's; this file only reports. */
#include "check.h"
#include "db.h"
#include "ledger.h"
#include "util.h"

const struct opt_cmd cmd_init_spec = {
	.name = "init",
	.summary = "create an empty ledger, or check an existing one",
	.about = "Create the ledger named by --db (default $LEDGER_DB, else ./ledger.db) if it\n"
		 "does not exist, with the current schema; an existing ledger is opened and\n"
		 "left as it is. Prints the ledger, its schema version, how many runs it\n"
		 "holds and its health: 'ok', or 'damaged' with the first problem SQLite's\n"
		 "quick_check found ('ledger check' lists them all; exit 1, runs not counted).\n"
		 "Other commands except 'ingest' and 'campaign' need the ledger to exist.\n",
	.groups = { NULL },
};

/* "ok", or "damaged: FIRST PROBLEM (N problems)"; -1 when the check could
 * not run (reported). */
static int health(sqlite3 *db, sb *out)
{
	struct ledger_check c;
	int rc = ledger_check(db, 1, &c);
	if (!rc && !c.n)
		sb_adds(out, "ok");
	else if (!rc)
		sb_addf(out, "damaged: %s (%d problem%s; see 'ledger check')", c.v[0].text, c.n,
			c.n == 1 ? "" : "s");
	ledger_check_release(&c);
	return rc;
}

int cmd_init(int argc, char **argv, struct ledger_ctx *ctx)
{
	static const char *const cols[] = { "ledger", "schema", "n_runs", "health" };
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
	if (health(ctx->db, &state)) {
		sb_release(&state);
		return EXIT_FAILURE_RT;
	}
	int healthy = !strcmp(state.buf, "ok");
	/* a damaged ledger's count would be read through the damage */
	sqlite3_stmt *q = db_prepare(ctx->db, healthy ? "SELECT (SELECT user_version FROM pragma_user_version),"
							" (SELECT count(*) FROM runs)"
						      : "SELECT user_version, NULL FROM pragma_user_version");
	int rc = db_step(q, "count the runs");
	if (rc == SQLITE_ROW) {
		table t;
		table_init(&t, 4, cols);
		int r = table_add_row(&t);
		table_set_text(&t, r, 0, ctx->db_path);
		table_set_int(&t, r, 1, sqlite3_column_int64(q, 0));
		if (healthy)
			table_set_int(&t, r, 2, sqlite3_column_int64(q, 1));
		table_set_text(&t, r, 3, state.buf);
		table_render_object(&t, ctx->fmt, stdout);
		table_release(&t);
	}
	sqlite3_finalize(q);
	if (rc == SQLITE_ROW && !healthy) {
		rl_error("init: ledger '%s' is damaged", ctx->db_path);
		rl_hint("'ledger --db %s check' lists the damage", ctx->db_path);
	}
	sb_release(&state);
	return rc != SQLITE_ROW ? EXIT_FAILURE_RT : healthy ? EXIT_OK : EXIT_FINDINGS;
}
