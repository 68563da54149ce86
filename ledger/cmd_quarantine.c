/* cmd_quarantine.c — `ledger quarantine`: list input that ingest could not
 * store (file, line, reason, content), newest last. Read-only: it never
 * deletes or re-ingests anything. */
#include "db.h"
#include "ledger.h"
#include "util.h"

enum { O_FILE = 1, O_LIMIT };
static const struct opt quarantine_opts[] = {
	{ .name = "--file", .id = O_FILE, .type = OPT_STRING, .value = "FILE", .flags = OPT_FILE,
	  .help = "only lines from FILE (as it was named when ingested)" },
	{ .name = "--limit", .id = O_LIMIT, .type = OPT_INT, .value = "N", .lo = 0, .hi = 1e15,
	  .help = "only the last N entries", .bad = "is not a count" },
};
static const struct opt_group quarantine_group = { NULL, NULL, quarantine_opts, ARRAY_SIZE(quarantine_opts) };

const struct opt_cmd cmd_quarantine_spec = {
	.name = "quarantine",
	.summary = "list input lines that could not be ingested",
	.about = "List input lines that 'ledger ingest' could not store, with the file,\n"
		 "line, reason and the content as it was read.\n",
	.notes = "Exit status: 0 (also when the quarantine is empty), 2 usage error.\n",
	.groups = { &quarantine_group },
};

static int parse_args(int argc, char **argv, const char **file, long *limit)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_quarantine_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("quarantine: unexpected argument '%s'", p.val);
			rl_hint("run 'ledger quarantine --help'");
			return -1;
		}
		if (r == O_FILE)
			*file = p.val;
		else if (r == O_LIMIT)
			*limit = (long)p.num;
	}
	return 0;
}

int cmd_quarantine(int argc, char **argv, struct ledger_ctx *ctx)
{
	static const char *const cols[] = { "id", "file", "line", "reason", "content" };
	const char *file = NULL;
	long limit = -1;
	if (parse_args(argc, argv, &file, &limit))
		return EXIT_USAGE;
	/* the last N by id, shown in id order */
	sqlite3_stmt *q = db_prepare(ctx->db,
		"SELECT * FROM (SELECT id, source_file, line, reason, content FROM quarantine"
		" WHERE ?1 IS NULL OR source_file = ?1 ORDER BY id DESC LIMIT ?2) ORDER BY id");
	db_bind_text(q, 1, file);
	sqlite3_bind_int64(q, 2, limit);
	table t;
	table_init(&t, 5, cols);
	int rc;
	while ((rc = db_step(q, "read the quarantine")) == SQLITE_ROW) {
		int r = table_add_row(&t);
		table_set_int(&t, r, 0, sqlite3_column_int64(q, 0));
		table_set_text(&t, r, 1, (const char *)sqlite3_column_text(q, 1));
		if (sqlite3_column_type(q, 2) != SQLITE_NULL)
			table_set_int(&t, r, 2, sqlite3_column_int64(q, 2));
		table_set_text(&t, r, 3, (const char *)sqlite3_column_text(q, 3));
		table_set_text(&t, r, 4, (const char *)sqlite3_column_text(q, 4));
	}
	sqlite3_finalize(q);
	if (rc == SQLITE_DONE)
		table_render(&t, ctx->fmt, stdout);
	table_release(&t);
	return rc == SQLITE_DONE ? EXIT_OK : EXIT_FAILURE_RT;
}
