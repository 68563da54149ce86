/* carried.h — what a record from `ledger export` carries besides itself:
 * the top-level "ledger" object (docs/run-record.md, "Exported records"):
 *
 *   "ledger": {"changes": [{"var", "old", "new", "how", "span"?,
 *                           "infer_version"?}],
 *              "annotations": [{"kind", "key"?, "value", "who", "at"}],
 *              "repeat_key": "…",
 *              "source": {"format", "file", "line", "ingested_at"}}
 *
 * It is the ledger's, not the run's: ingest takes it out of the record
 * before the identity is computed (so an exported record is the record
 * as stored, byte for byte), stores the changes it carries instead of
 * inferring them, keeps the repeat key and where the run was first
 * ingested from, and adds the annotations the ledger lacks. Every member
 * is optional; "changes" present (even empty) means "do not infer".
 * Strings are copied with malloc, so the carried data outlives the record
 * it was taken from. */
#ifndef RL_CARRIED_H
#define RL_CARRIED_H
#include <jansson.h>
#include "annot.h"
#include "infer.h"
#include "sb.h"

struct carried_change {
	char *var, *old_val, *new_val, *how, *span;
	long infer_version; /* -1: none */
};

struct carried {
	int has_changes;
	struct carried_change *changes;
	int nchanges;
	char *repeat_key;
	int has_source;
	char *src_format, *src_file, *src_ingested_at;
	long src_line;
	struct annot_row *annots;
	int nannots;
};

/* Take rec's "ledger" object out of rec: *out is NULL when there is none;
 * 0, or -1 with the problem in why (the record is then rejected whole:
 * a half-understood export must not be stored as a new record). */
int carried_take(json_t *rec, struct carried **out, sb *why);
void carried_free(struct carried *c);

/* The carried changes as a change list (sorted, as ingest stores them)
 * and the how they share: enum change_how, or -1 when there are none or
 * they differ (repeat_key() then treats them as not exact). */
int carried_change_list(const struct carried *c, struct change_list *out);

/* The "ledger" object of stored run id, as export writes it; NULL when
 * the ledger cannot be read (reported). The exporter holds the prepared
 * statements, made once for all the runs of an export. */
struct sqlite3;
struct carried_exporter;
struct carried_exporter *carried_exporter_new(struct sqlite3 *db);
void carried_exporter_free(struct carried_exporter *x);
json_t *carried_export(struct carried_exporter *x, long long id);

#endif
