/* filter.h — the run filters shared by `ledger query`, `frontier`, `repeats`
 * and by `report`: command-line options in, an SQL WHERE fragment over the
 * runs table out. Every value travels as a bound parameter; option values
 * are never pasted into SQL text. Must not run queries itself (the caller
 * owns the statement) and must not print results.
 *
 * Typical use:
 *   struct run_filter f; run_filter_init(&f);
 *   in the opts_next() loop: run_filter_take_opt(&f, &p) (filter_opts.c)
 *   if ((rc = run_filter_check(&f, db, "query")) != EXIT_OK) → exit rc
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

/* Where a --where key's value is read from (docs/ledger.md#filters). */
enum where_field {
	WHERE_METRIC,  /* the val_bpb column, or metrics.NAME of the record */
	WHERE_CONFIG,  /* config."KEY" of the record, else the run's change of KEY */
	WHERE_COLUMN,  /* a column of the runs table (agent, status, gpu_count …) */
};

/* One --where condition: KEY OP VALUE. */
struct where_cond {
	char *written;     /* the condition as given, for messages */
	char *key;         /* metric name, config key or column name (resolved) */
	enum where_field field;
	int column;        /* WHERE_COLUMN: index in filter.c's column table */
	int numeric;       /* 1: compared as numbers (value), 0: as text (text) */
	int check;         /* 1: known only if the ledger records it (run_filter_check) */
	char op[3];        /* < <= > >= = != ~ (glob match) !~ (no match) */
	double value;
	char *text;
};

/* A list option's values: --agent forge,titan --agent atlas is 3 names. */
struct str_list {
	char **v;
	int n;
};

struct run_filter {
	struct str_list agent, campaign, tier; /* exact; any of the list */
	struct str_list hardware; /* hw_class (any case), else a substring of gpu_name */
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

/* Take one filter option's value: name is one of run_filter_opts'
 * ("--where"), value its text. Lists and repeats combine (docs/ledger.md).
 * 0, or -1 with the error printed ("ledger: CMD: --where 'x<<1': …"). */
int run_filter_take(struct run_filter *f, const char *cmd, const char *name, const char *value);

/* After parsing, with the ledger open: every --where key and --changed
 * variable must be known (the registry, a run field, a common metric) or
 * recorded by some run of db; else the error names it, with "did you
 * mean". A typo is never a silently empty answer. Returns an exit code:
 * EXIT_OK, EXIT_USAGE (unknown key) or EXIT_FAILURE_RT (ledger unreadable). */
int run_filter_check(const struct run_filter *f, sqlite3 *db, const char *cmd);

/* The same for a --metric NAME (NULL: val_bpb): a common metric, or one
 * some run records; the error is "--metric 'NAME': unknown metric". */
int run_metric_check(const char *metric, sqlite3 *db, const char *cmd);

/* A date as people type it, as the span of time it names, [*from, *to)
 * in epoch seconds: 2026-03-16 (that day), 2026-03 (that month), 2026 (that
 * year), today, yesterday; instants: 2026-03-16T04:00:00Z, now, -3d, -12h,
 * -2w, -30m (before now), whose span ends just after them. now is db_now()
 * (RUNLEDGER_NOW for tests). 0, or -1 when s is none of these. */
int parse_user_date(const char *s, double now, double *from, double *to);

/* The same for a value that names one moment or one day (report daily
 * --date, ingest --started-at): *t the start of what s names (an
 * instant, or a day's midnight; *is_day 1 for a day). 0; 1 when s names
 * a longer span (2026-03, 2026), which is no day; -1 when it is no date. */
int parse_user_moment(const char *s, double now, double *t, int *is_day);

/* Append " AND (…)" for every set filter, over the runs table aliased as
 * alias (e.g. "r"), pushing the values onto args in order. */
void run_filter_sql(const struct run_filter *f, const char *alias, sb *sql, struct sql_args *args);

/* SQL expression for a metric of the run aliased alias: the val_bpb column
 * for "val_bpb" (NULL unless a valid measurement), else its row in the
 * metrics table (metrics.h) with the name pushed onto args. The
 * caller adds "status = 'ok'" where only valid measurements count. */
void run_metric_sql(const char *metric, const char *alias, sb *sql, struct sql_args *args);

/* Digits after the point when a metric is shown as text: 6 for val_bpb
 * (the autoresearch convention), -1 (shortest %g) for any other metric. */
int metric_precision(const char *metric);

/* A metric name is letters, digits, '_', '.' and '-'; 0 when valid. */
int metric_name_check(const char *name);

/* The filter options as a group of an option table (common/opts.h), ids
 * RUN_FILTER_OPT_FIRST.. (each option's value is checked by filter.c,
 * OPT_OWN). A command lists &run_filter_opts in its groups and passes each
 * parsed option to run_filter_take_opt. */
#include "opts.h"
enum { RUN_FILTER_OPT_FIRST = 800, RUN_FILTER_OPT_LAST = 899 };
extern const struct opt_group run_filter_opts;
/* When p holds a filter option, take it into f (run_filter_take): 1, or -1
 * on a bad value (message printed); 0 for any other option. */
int run_filter_take_opt(struct run_filter *f, const struct opt_parser *p);

#endif
