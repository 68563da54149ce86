/* cmd_quarantine.c — `ledger quarantine`: list input that ingest could not
 * store (file, line, reason, content), newest last. Read-only: it never
 * deletes or re-ingests anything. */
#include "db.h"
#include "ledger.h"
#include "util.h"

static const char usage[] =
	"usage: ledger quarantine [--file FILE] [--limit N]\n"
	"\n"
	"List input lines that 'ledger ingest' could not store, with the file,\n"
	"line, reason and the content as it was read.\n"
	"\n"
	"Options:\n"
	"  --file FILE     only lines from FILE (as it was named when ingested)\n"
	"  --limit N       only the last N entries\n"
	"  --format FMT    table (default), tsv, csv, json, md\n"
	"\n"
	"Exit status: 0 (also when the quarantine is empty), 2 usage error.\n";

/* "--name VALUE" or "--name=VALUE" at argv[*i]: the value, or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static int parse_args(int argc, char **argv, const char **file, long *limit)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if ((v = opt_value(argc, argv, &i, "--file"))) {
			*file = v;
		} else if ((v = opt_value(argc, argv, &i, "--limit"))) {
			if (parse_long(v, limit) || *limit < 0) {
				rl_error("quarantine: --limit '%s' is not a count", v);
				return -1;
			}
		} else if (!strcmp(a, "--file") || !strcmp(a, "--limit")) {
			rl_error("quarantine: option '%s' needs a value", a);
			return -1;
		} else {
			rl_error("quarantine: unexpected argument '%s'", a);
			rl_hint("run 'ledger quarantine --help'");
			return -1;
		}
	}
	return 0;
}

int cmd_quarantine(int argc, char **argv, struct ledger_ctx *ctx)
{
	static const char *const cols[] = { "id", "file", "line", "reason", "content" };
	const char *file = NULL;
	long limit = -1;
	if (wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
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
