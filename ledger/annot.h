/* annot.h — annotations: what people say about a run after the fact
 * (`ledger note`, `tag`, `decide`, `archive`; schema version 3, table
 * annotations in db.c). The runs row and its stored record never change:
 * an annotation sits beside them, with who made it and when, and the
 * effective state is read from them:
 *
 *   decision  the latest `decide` (keep|discard), else the record's own
 *   archived  the latest `archive` says archived (archive --undo: restored)
 *   tags      per key the latest value; an empty value removes the tag
 *   notes     all of them, in order
 *
 * The read commands see the effective state through annot_view (below):
 * a TEMP VIEW named runs that shadows the table, so frontier, audit,
 * repeats, query, summary and report read decided decisions and do not
 * see archived runs without a change to their SQL. */
#ifndef RL_ANNOT_H
#define RL_ANNOT_H
#include <jansson.h>
#include <sqlite3.h>
#include "sb.h"

/* Who made an annotation: given (--who), else $LEDGER_WHO, else $USER,
 * else "unknown". */
const char *annot_who(const char *given);
/* When: db_now() (so RUNLEDGER_NOW fixes it for tests) as ISO-8601 UTC. */
void annot_now(char *buf, size_t n);

/* One annotation of run (runs.id); key NULL but for tags. 0, or -1
 * (reported). The caller owns the transaction. */
int annot_add(sqlite3 *db, sqlite3_int64 run, const char *kind, const char *key,
	      const char *value, const char *who, const char *at);

/* A run's annotations in order, as a JSON array of {"kind", "key" (tags
 * only), "value", "who", "at"}; NULL when the ledger cannot be read
 * (reported). */
json_t *annot_list(sqlite3 *db, sqlite3_int64 run);

/* One annotation as read from an export (ledger/carried.h). */
struct annot_row {
	char *kind, *key, *value, *who, *at;
};
/* Check one: kind note|tag|decision|archive, a key for tags only, a value
 * the kind takes, a time. 0, or -1 with the problem appended to why. */
int annot_check(const struct annot_row *a, sb *why);
/* Add the rows that run does not hold yet (same kind, key, value, who
 * and at): ingest of an export, so that ingesting it twice, or into the
 * ledger it came from, adds nothing. How many were added, or -1
 * (reported). */
int annot_import(sqlite3 *db, sqlite3_int64 run, const struct annot_row *rows, int n);

/* The effective decision of run from its annotations: "keep"/"discard",
 * or NULL when none was decided (malloc'd; caller frees). */
char *annot_decided(sqlite3 *db, sqlite3_int64 run);

/* What annot_view shows of archived runs. */
enum annot_archived { ANNOT_HIDE_ARCHIVED, ANNOT_WITH_ARCHIVED, ANNOT_ONLY_ARCHIVED };

/* Make the unqualified name runs on this connection the effective runs:
 * decision replaced by the decided one, archived runs left out (or kept,
 * or kept alone). Installed only when the ledger holds a decision or an
 * archive annotation (or ANNOT_ONLY_ARCHIVED is asked), so a ledger
 * without them is read exactly as before, at no cost. Read commands only:
 * nothing may write through it. 0, or -1 (reported). */
int annot_view(sqlite3 *db, enum annot_archived mode);

/* SQL: the ids of the archived runs (the latest archive annotation of
 * each says archived), over the main schema's tables. */
#define ANNOT_ARCHIVED_IDS_SQL                                                       \
	"SELECT a.run FROM main.annotations a WHERE a.kind = 'archive'"              \
	" AND a.value = 'archived' AND a.id = (SELECT max(b.id) FROM main.annotations b" \
	" WHERE b.run = a.run AND b.kind = 'archive')"

#endif
