/* lookup.h — resolve a run reference given on the command line to runs.id:
 * an exact run_id, a unique run_id prefix, or "#N" for runs.id N.
 * Shared by show, diff, campaign assign and audit. */
#ifndef RL_LOOKUP_H
#define RL_LOOKUP_H
#include <sqlite3.h>

/* Returns 0 and sets *id; -1 when no run matches, -2 when the prefix is
 * ambiguous. Prints the error (with a hint) unless quiet. */
int run_lookup(sqlite3 *db, const char *ref, sqlite3_int64 *id, int quiet);

#endif
