/* lookup.h — resolve a run reference given on the command line to runs.id:
 * an exact run_id, a unique run_id prefix, "#N" for runs.id N, or, when no
 * run id starts with it, a prefix (4 characters or more) of the one run's
 * code.commit ("a1f3c9e", as results.tsv gives it).
 * Shared by show, diff, campaign assign and audit. */
#ifndef RL_LOOKUP_H
#define RL_LOOKUP_H
#include <sqlite3.h>

/* Returns 0 and sets *id; -1 when no run matches, -2 when the prefix is
 * ambiguous (several run ids, or several runs of that commit: listed),
 * LOOKUP_DB_ERROR when the ledger could not be read (reported, quiet or
 * not: the command exits 3). Prints the error (with a hint) unless quiet. */
#define LOOKUP_DB_ERROR (-3)
int run_lookup(sqlite3 *db, const char *ref, sqlite3_int64 *id, int quiet);

#endif
