/* changed.h — a run's changes against its parent (the changes table) in
 * the one shape every command prints them (docs/ledger.md, "Machine-readable
 * output"): as JSON an array of {"var", "old", "new", "how", "span"}
 * objects, ordered by var ("span": the text an inferred change was read
 * from, null for an exact one); as text "model.depth,~optim.lr", inferred
 * changes marked with '~'. */
#ifndef RL_CHANGED_H
#define RL_CHANGED_H
#include <jansson.h>
#include <sqlite3.h>
#include "sb.h"

#define CHANGED_SQL "SELECT var, old, new, how, span FROM changes WHERE run = ? ORDER BY var"

/* The changes of run `id`, read with st (prepared from CHANGED_SQL, reset
 * afterwards so it serves the next run): *json gets a new array, text (when
 * not NULL) the short form. 0, or -1 when the ledger cannot be read
 * (reported; *json is NULL then). */
int changed_read(sqlite3_stmt *st, sqlite3_int64 id, json_t **json, sb *text);

#endif
