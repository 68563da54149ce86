/* cmd_init.c — `ledger init`: create the ledger (or bring an existing one
 * to the current schema) without ingesting anything. The read commands
 * refuse a ledger that does not exist, so this is how a script makes an
 * empty one on purpose. The work is db_open's; this file only reports. */
#include "db.h"
#include "ledger.h"
#include "util.h"

static const char usage[] =
	"usage: ledger init\n"
	"\n"
	"Create the ledger named by --db (default $LEDGER_DB, else ./ledger.db) if it\n"
	"does not exist, with the current schema; an existing ledger is opened and\n"
	"left as it is. Prints the ledger, its schema version and how many runs it\n"
	"holds. Other commands except 'ingest' and 'campaign' need the ledger to exist.\n"
	"\n";

int cmd_init(int argc, char **argv, struct ledger_ctx *ctx)
{
	static const char *const cols[] = { "ledger", "schema", "runs" };
	if (wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (argc > 1) {
		rl_error("init: unexpected argument '%s'", argv[1]);
		rl_hint("name the ledger with --db FILE");
		return EXIT_USAGE;
	}
	sqlite3_stmt *q = db_prepare(ctx->db, "SELECT (SELECT user_version FROM pragma_user_version),"
					      " (SELECT count(*) FROM runs)");
	int rc = sqlite3_step(q);
	SQL_CHECK(ctx->db, rc);
	table t;
	table_init(&t, 3, cols);
	int r = table_add_row(&t);
	table_set_text(&t, r, 0, ctx->db_path);
	table_set_int(&t, r, 1, sqlite3_column_int64(q, 0));
	table_set_int(&t, r, 2, sqlite3_column_int64(q, 1));
	sqlite3_finalize(q);
	table_render(&t, ctx->fmt, stdout);
	table_release(&t);
	return EXIT_OK;
}
