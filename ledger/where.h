/* where.h — the --where grammar of the run filters (filter.h), inside the
 * ledger's filter code only: KEY OP VALUE parsed into a where_cond, its
 * SQL, and the check that KEY is known. docs/ledger.md#filters is the
 * user's description. */
#ifndef RL_WHERE_H
#define RL_WHERE_H
#include <sqlite3.h>
#include "filter.h"

/* Parse "model.depth = 12" into *w (owned strings; where_cond_release).
 * 0, or -1 with the error printed and *w left empty. */
int where_parse(struct where_cond *w, const char *cmd, const char *text);
void where_cond_release(struct where_cond *w);

/* Append " AND (value OP ?)" over the runs table aliased alias. */
void where_sql(const struct where_cond *w, const char *alias, sb *sql, struct sql_args *args);

/* Copy of s[0..n) without surrounding white space (filter.c). */
char *filter_trim_dup(const char *s, size_t n);

#endif
