/* cmd_trim_log.c — `ledger trim-log`: keep a PostgreSQL ledger's change
 * log bounded (pg_log.h says the rule and why). The work is pg_log.c's;
 * this file parses and prints. */
#include "ledger.h"
#include "pg_log.h"
#include "util.h"

enum { O_DRY_RUN = 1, O_KEEP_BYTES };
static const struct opt trim_opts[] = {
	{ .name = "--dry-run", .id = O_DRY_RUN, .help = "say what would be removed; remove nothing" },
	{ .name = "--keep-bytes", .id = O_KEEP_BYTES, .type = OPT_INT, .value = "N", .lo = 0, .hi = 9e15,
	  .help = "keep the newest entries adding up to at most N bytes (default: the\n"
		  "size of the ledger's tables on the server; 0 removes every entry)" },
};
static const struct opt_group trim_group = { NULL, NULL, trim_opts, ARRAY_SIZE(trim_opts) };

const struct opt_cmd cmd_trim_log_spec = {
	.name = "trim-log",
	.summary = "remove a PostgreSQL ledger's old change log entries",
	.about = "A PostgreSQL ledger (--db postgresql://…) keeps a change log that the local\n"
		 "replicas follow: one entry per write, never removed by the writes. trim-log\n"
		 "keeps the newest entries whose sizes add up to no more than the ledger's\n"
		 "tables on the server and removes the older ones, in one transaction under\n"
		 "the ledger's write lock. A replica that had not yet applied a removed entry\n"
		 "copies the tables on its next command, which then costs less than replaying\n"
		 "the log would have. Run it as the tables' owner (from cron, say); it prints\n"
		 "one row: the tables' size, the bound, the entries and bytes removed and\n"
		 "kept, and the last entry removed\n"
		 "(docs/postgres.md#trimming-the-change-log).\n"
		 "--keep-bytes sets another bound than the tables' size.\n",
	.notes = "Exit status: 0 done (also when nothing was old enough), 2 usage error or an\n"
		 "SQLite ledger (it keeps no change log), 3 the server refused (a role that may\n"
		 "not delete from ledger_log; nothing removed).\n",
	.groups = { &trim_group },
};

static void render(const struct ledger_ctx *ctx, const struct pg_log_trim *t, int dry_run)
{
	static const char *const cols[] = { "ledger", "dry_run", "tables_bytes", "keep_bytes", "removed",
					    "removed_bytes", "kept", "kept_bytes", "trimmed_through" };
	table tb;
	table_init(&tb, ARRAY_SIZE(cols), cols);
	int r = table_add_row(&tb);
	long long v[] = { t->tables_bytes, t->keep_bytes, t->removed, t->removed_bytes, t->kept, t->kept_bytes, t->through };
	table_set_text(&tb, r, 0, ctx->pg->name);
	table_set_text(&tb, r, 1, dry_run ? "yes" : "no");
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		table_set_int(&tb, r, (int)i + 2, v[i]);
	table_render_object(&tb, ctx->fmt, stdout);
	table_release(&tb);
}

int cmd_trim_log(int argc, char **argv, struct ledger_ctx *ctx)
{
	int dry_run = 0, r;
	long long keep_bytes = -1; /* the tables' size */
	struct opt_parser p;
	opts_begin(&p, &ledger_prog, &cmd_trim_log_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == O_DRY_RUN) {
			dry_run = 1;
			continue;
		}
		if (r == O_KEEP_BYTES) {
			keep_bytes = (long long)p.num;
			continue;
		}
		if (r == OPTS_ARG) {
			rl_error("trim-log: unexpected argument '%s'", p.val);
			rl_hint("usage: ledger --db postgresql://… trim-log [--dry-run]");
		}
		return EXIT_USAGE;
	}
	if (!ctx->pg) {
		rl_error("trim-log: '%s' is an SQLite ledger, which keeps no change log", ctx->db_path);
		rl_hint("trim-log is for a PostgreSQL ledger: ledger --db postgresql://… trim-log");
		return EXIT_USAGE;
	}
	struct pg_log_trim t;
	if (pg_log_trim(ctx->pg, dry_run, keep_bytes, &t))
		return EXIT_FAILURE_RT;
	render(ctx, &t, dry_run);
	return EXIT_OK;
}
