/* ledger.h — what every `ledger` subcommand gets: the command context and
 * the cmd_* entry points (one file each, ledger/cmd_NAME.c). */
#ifndef RL_LEDGER_H
#define RL_LEDGER_H
#include <sqlite3.h>
#include "opts.h"
#include "table.h"

struct ledger_ctx {
	const char *db_path;   /* --db, $LEDGER_DB, or "ledger.db" */
	sqlite3 *db;           /* open when the command has NEED_DB */
	struct pg *pg;         /* instead of db when db_path is a postgresql:// URL
	                        * for init and check (pg.h, docs/postgres.md) */
	struct replica *replica; /* every other command on a URL: db is its local
	                        * replica (replica.h) */
	enum out_format fmt;   /* --format; FMT_TABLE by default */
	int fmt_given;         /* 1 when --format was on the command line */
};

typedef int (*cmd_fn)(int argc, char **argv, struct ledger_ctx *ctx);

/* argv[0] is the command name; return value is the exit status. */
int cmd_init(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_ingest(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_query(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_show(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_diff(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_frontier(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_repeats(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_quarantine(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_campaign(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_audit(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_variables(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_reinfer(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_check(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_trim_log(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_note(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_tag(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_decide(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_archive(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_export(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_compare(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_summary(int argc, char **argv, struct ledger_ctx *ctx);
int cmd_push(int argc, char **argv, struct ledger_ctx *ctx);

/* Their option tables (name, summary, options, help text), one per command. */
extern const struct opt_cmd cmd_init_spec, cmd_ingest_spec, cmd_query_spec, cmd_show_spec,
	cmd_diff_spec, cmd_frontier_spec, cmd_repeats_spec, cmd_quarantine_spec,
	cmd_campaign_spec, cmd_audit_spec, cmd_variables_spec, cmd_reinfer_spec, cmd_check_spec, cmd_trim_log_spec,
	cmd_compare_spec, cmd_summary_spec, cmd_note_spec, cmd_tag_spec, cmd_decide_spec,
	cmd_archive_spec, cmd_export_spec, cmd_push_spec;

/* --archived, one group for every command that reads runs as annotated
 * (main.c): its id, which a command's option loop passes over (main.c
 * reads it before the command runs; compare reads it itself). */
enum { O_ARCHIVED = 799 };
extern const struct opt_group archived_opts;

/* The program: its global options and command list, for opts_begin(). */
extern struct opt_prog ledger_prog;

/* wants_help(argc, argv) lives in common/util.h. */

#endif
