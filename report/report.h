/* report.h — what every `report` subcommand gets: the command context and
 * the cmd_* entry points (report/main.c holds the command table).
 * Subcommands read the ledger; none of them writes it. */
#ifndef RL_REPORT_H
#define RL_REPORT_H
#include <sqlite3.h>

struct report_ctx {
	const char *db_path;   /* --db, $LEDGER_DB, or "ledger.db" */
	sqlite3 *db;           /* open when the command has NEED_DB */
};

typedef int (*report_fn)(int argc, char **argv, struct report_ctx *ctx);

/* argv[0] is the command name; the return value is the exit status. */
int cmd_daily(int argc, char **argv, struct report_ctx *ctx);
int cmd_campaign(int argc, char **argv, struct report_ctx *ctx);
int cmd_index(int argc, char **argv, struct report_ctx *ctx);


/* Options every report command takes; filled by report_option(). */
struct report_opts {
	const char *out_dir;     /* --out DIR (required) */
	const char *template;    /* --template FILE; NULL = the default */
	int limit;               /* --limit N rows per long table; 0 = all */
	int charts;              /* 0 with --no-charts */
};
#define REPORT_DEFAULT_LIMIT 50

/* If argv[*i] is one of the shared options, consume it (and its value) and
 * return 1; 0 when it is not; -1 with a message on a bad value. */
int report_option(struct report_opts *o, const char *cmd, int argc, char **argv, int *i);

#endif
