/* runs.h — run-level helpers shared by the daily digest and the campaign
 * report: a run's changed variables as text, variable families, and a
 * column reader. Reads the ledger; never writes it, never prints. */
#ifndef RL_RUNS_H
#define RL_RUNS_H
#include <sqlite3.h>
#include "sb.h"

/* db_step (ledger/db.h) for a report: after the first failure (reported)
 * *failed is set and every later step returns DB_ERROR unstepped, so one
 * message stands for the report, and the command checks *failed once,
 * before it writes anything: no report is made from a ledger read only in
 * part. */
int runs_step(int *failed, sqlite3_stmt *st, const char *purpose);

/* Changed variables of runs.id id as "model.depth 12 → 11; optim.lr → 0.02
 * (inferred)" (plain text, not escaped). Sets *n to how many; the family
 * key (sorted distinct families joined by " + ") goes to family when not
 * NULL. st must be runs_changes_stmt(db); steps as runs_step(failed…). */
void runs_changes(int *failed, sqlite3_stmt *st, sqlite3_int64 id, sb *text, sb *family, int *n);
sqlite3_stmt *runs_changes_stmt(sqlite3 *db);

/* The family of a variable: its config-key prefix ("model" for
 * "model.depth"), or the whole name when it has no dot. */
void runs_family(sb *out, const char *var);

/* Column i as a string (NULL for NULL), valid until the next step; as a
 * number (NaN for NULL) or a copy of the text, see db_column_num and
 * db_column_dup (ledger/db.h). */
const char *runs_col_text(sqlite3_stmt *st, int i);

#endif
