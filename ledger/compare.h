/* compare.h — N runs side by side (`ledger compare`, and report's campaign
 * compare view): for a set of runs, the rows of the view — run facts, the
 * config keys that differ (every key with all), each run's changes against
 * its parent, every metric — as a table.h table with one column per run,
 * or as JSON with typed values. Reads the ledger, prints nothing. */
#ifndef RL_COMPARE_H
#define RL_COMPARE_H
#include <jansson.h>
#include <sqlite3.h>
#include "table.h"

struct compare_run {
	sqlite3_int64 id;
	json_t *rec;
	char *run_id, *hw_class, *decision; /* decision: decided, else recorded */
	json_t *changes;                    /* object var -> change object (changed.h) */
};

struct compare_set {
	struct compare_run *v;
	int n, cap;
};

/* Add run id (runs.id) as the next column; a run already there is not
 * added again. */
void compare_add(struct compare_set *s, sqlite3_int64 id);
/* Read every run's record, class, decision and changes from main.runs (an
 * archived run too). 0, or -1 (reported). */
int compare_load(sqlite3 *db, struct compare_set *s);
void compare_release(struct compare_set *s);

/* The view as a table: columns section, key, then one per run (named by
 * run id); values as text (json_text), absent ones null. t is initialised
 * here; the caller renders and releases it. */
void compare_table(const struct compare_set *s, int all, table *t);
/* The view as JSON: {"runs": [ids], "rows": [{"section", "key",
 * "differs", "values": [...]}]}, values keeping their JSON types. */
json_t *compare_json(const struct compare_set *s, int all);

#endif
