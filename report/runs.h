/* runs.h — run-level helpers shared by the daily digest and the campaign
 * report: a run's changed variables as text, variable families, and
 * column readers. Reads the ledger; never writes it, never prints. */
#ifndef RL_RUNS_H
#define RL_RUNS_H
#include <sqlite3.h>
#include "sb.h"

/* Changed variables of runs.id id as "model.depth 12 → 11; optim.lr → 0.02
 * (inferred)" (plain text, not escaped). Sets *n to how many; the family
 * key (sorted distinct families joined by " + ") goes to family when not
 * NULL. st must be runs_changes_stmt(db). */
void runs_changes(sqlite3_stmt *st, sqlite3_int64 id, sb *text, sb *family, int *n);
sqlite3_stmt *runs_changes_stmt(sqlite3 *db);

/* The family of a variable: its config-key prefix ("model" for
 * "model.depth"), or the whole name when it has no dot. */
void runs_family(sb *out, const char *var);

/* Column i as a double (NAN for NULL) or a string (NULL for NULL). */
double runs_col_num(sqlite3_stmt *st, int i);
const char *runs_col_text(sqlite3_stmt *st, int i);

#endif
