/* report.h — what every `report` subcommand gets: the command context and
 * the cmd_* entry points (report/main.c holds the command table).
 * Subcommands read the ledger; none of them writes it. */
#ifndef RL_REPORT_H
#define RL_REPORT_H
#include <sqlite3.h>
#include "opts.h"

struct report_ctx {
	const char *db_path;   /* --db, $LEDGER_DB, or "ledger.db" */
	sqlite3 *db;           /* open when the command has NEED_DB */
	int json;              /* --format json */
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
	int archived;            /* --archived: archived runs taken in */
};
#define REPORT_DEFAULT_LIMIT 50

/* The shared options as option-table groups (options.c): --out, and
 * --template, --limit, --decimals, --no-charts. Their ids are 700..; a
 * command's own options take ids below 700. */
enum { REPORT_OPT_OUT = 700, REPORT_OPT_TEMPLATE, REPORT_OPT_LIMIT, REPORT_OPT_DECIMALS,
       REPORT_OPT_NO_CHARTS, REPORT_OPT_ARCHIVED };
extern const struct opt_group report_out_group, report_shared_group;
/* When p holds one of the shared options, apply it to o and return 1; 0
 * for any other option (values were checked by opts_next). */
int report_take(struct report_opts *o, const struct opt_parser *p);
/* With --archived, the runs view shows archived runs too; 0 or -1. */
int report_apply_archived(const struct report_opts *o, sqlite3 *db);

/* Each command's table, and the program's (main.c), for opts_begin(). */
extern const struct opt_cmd cmd_daily_spec, cmd_campaign_spec, cmd_index_spec;
extern struct opt_prog report_prog;

#endif
