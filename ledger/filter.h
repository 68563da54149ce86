/* filter.h — the run filters shared by `ledger query`, `frontier`, `repeats`
 * and by `report`: command-line options in, an SQL WHERE fragment over the
 * runs table out. Every value travels as a bound parameter; option values
 * are never pasted into SQL text. Must not run queries itself (the caller
 * owns the statement) and must not print results.
 *
 * Typical use:
 *   struct run_filter f; run_filter_init(&f);
 *   for (i = 1; i < argc; i++) { rc = run_filter_option(&f, argc, argv, &i); … }
 *   sb sql = SB_INIT; struct sql_args args = SQL_ARGS_INIT;
 *   sb_adds(&sql, "SELECT … FROM runs r WHERE 1");
 *   run_filter_sql(&f, "r", &sql, &args);   // appends " AND (…)" per filter
 *   st = db_prepare(db, sql.buf); sql_args_bind(&args, st, 1);
 */
#ifndef RL_FILTER_H
#define RL_FILTER_H
#include <sqlite3.h>
#include "sb.h"

/* Positional parameters collected while SQL text is built, bound later in
 * the same order ("?" placeholders, numbered from the caller's first). */
struct sql_arg {
	int type;          /* SQLITE_TEXT, SQLITE_FLOAT or SQLITE_INTEGER */
	char *text;        /* SQLITE_TEXT: an owned copy */
	double num;
	sqlite3_int64 i;
};
struct sql_args {
	struct sql_arg *v;
	int n, cap;
};
#define SQL_ARGS_INIT { NULL, 0, 0 }
void sql_args_text(struct sql_args *a, const char *s);  /* copies s */
void sql_args_double(struct sql_args *a, double v);
void sql_args_int(struct sql_args *a, sqlite3_int64 v);
/* Bind a->v[0..n) to parameters first, first+1, …; returns the next index. */
int sql_args_bind(const struct sql_args *a, sqlite3_stmt *st, int first);
void sql_args_release(struct sql_args *a);

/* One --where condition: metric OP value. */
struct where_cond {
	char *metric;      /* "val_bpb" or a key of the record's metrics object */
	char op[3];        /* "<", "<=", ">", ">=", "=", "!=" */
	double value;
};

struct run_filter {
	char *agent, *campaign, *tier;   /* exact (tier: small|medium|large|xl) */
	char *hardware;    /* hw_class (any case), else a substring of gpu_name */
	char **status;     /* one or more statuses (--status crash,oom) */
	int nstatus;
	double since, until; /* since <= t_finished < until (epoch s); NAN = open */
	char **changed;    /* globs over changes.var; all must match */
	int nchanged;
	struct where_cond *where; /* all must hold */
	int nwhere;
};

void run_filter_init(struct run_filter *f);
void run_filter_release(struct run_filter *f);

/* If argv[*i] is a filter option (--agent X, --agent=X, …), consume it and
 * its value (advancing *i past the value) and return 1; return 0 when it is
 * not a filter option; return -1 with an error printed ("ledger: CMD:
 * --where 'x<<1': …") on a bad value. cmd names the command for messages. */
int run_filter_option(struct run_filter *f, const char *cmd, int argc, char **argv, int *i);

/* Append " AND (…)" for every set filter, over the runs table aliased as
 * alias (e.g. "r"), pushing the values onto args in order. */
void run_filter_sql(const struct run_filter *f, const char *alias, sb *sql, struct sql_args *args);

/* SQL expression for a metric of the run aliased alias: the val_bpb column
 * for "val_bpb" (NULL unless a valid measurement), else
 * json_extract(alias.record, ?) with the JSON path pushed onto args. The
 * caller adds "status = 'ok'" where only valid measurements count. */
void run_metric_sql(const char *metric, const char *alias, sb *sql, struct sql_args *args);

/* Digits after the point when a metric is shown as text: 6 for val_bpb
 * (the autoresearch convention), -1 (shortest %g) for any other metric. */
int metric_precision(const char *metric);

/* A metric name is letters, digits, '_', '.' and '-'; 0 when valid. */
int metric_name_check(const char *name);

/* Option with a value, as "--name VALUE" or "--name=VALUE": when argv[*i]
 * is one, set *val, advance *i past it and return 1; return 0 when it is
 * another option; -1 (message printed) when the value is missing. */
int option_value(const char *cmd, int argc, char **argv, int *i, const char *name,
		 const char **val);

/* The filter options as usage text, for the --help of a command not yet
 * on the option tables; run_filter_opts (filter_opts.c) is the table. */
extern const char run_filter_usage[];

/* The filter options as a group of an option table (common/opts.h), ids
 * RUN_FILTER_OPT_FIRST.. (each option's value is checked here, OPT_OWN).
 * A command lists &run_filter_opts in its groups and passes each such
 * option to run_filter_apply(f, cmd, p.opt->name, p.val). */
#include "opts.h"
enum { RUN_FILTER_OPT_FIRST = 800, RUN_FILTER_OPT_LAST = 899 };
extern const struct opt_group run_filter_opts;
/* Apply filter option opt ("--agent") with value v: 0, or -1 with a message. */
int run_filter_apply(struct run_filter *f, const char *cmd, const char *opt, const char *v);
/* When p holds a filter option, apply it to f: 1, or -1 on a bad value;
 * 0 for any other option. */
int run_filter_take(struct run_filter *f, const struct opt_parser *p);

#endif
