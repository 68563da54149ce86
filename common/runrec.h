/* runrec.h — run records, schema "runrec/1": the contract between trainer and
 * ledger (docs/run-record.md documents every field). Built on jansson.
 *
 * A record is a jansson object. This module parses, validates, canonicalises
 * (identity hash) and appends records; it does not know about SQLite. */
#ifndef RL_RUNREC_H
#define RL_RUNREC_H
#include <jansson.h>
#include "sb.h"

#define RUNREC_SCHEMA "runrec/1"

/* Allowed values; NULL-terminated lists, also used by the ledger's checks. */
extern const char *const runrec_statuses[];  /* ok crash oom nan timeout killed invalid running */
extern const char *const runrec_decisions[]; /* keep discard baseline */
extern const char *const runrec_phases[];    /* startup forward backward optimizer eval data */

int runrec_in_list(const char *const *list, const char *s);

/* Parse one JSON text (one JSONL line or a whole-file object). Returns a new
 * reference or NULL with the reason appended to err (column included). */
json_t *runrec_parse(const char *text, size_t len, sb *err);

/* Numbers in the JSON text too small for a double ("1e-400", nonzero but
 * read as 0 by every JSON parser): each becomes null in v, the value
 * parsed from text, so no measurement passes as a silent 0; "'FIELD'
 * ('TEXT')" for each is appended to fields (comma-separated, FIELD as
 * "metrics.x" or "a[2]"). Returns how many. A quick look at the text
 * first: without an exponent of three digits or a long run of zeros no
 * number can underflow, and the text is not scanned. */
int runrec_null_underflows(json_t *v, const char *text, size_t len, sb *fields);

/* Bits per byte of a uniform guess over the 256 byte values. A val_bpb
 * above it is worse than knowing nothing about the data: a diverged run,
 * not a measurement (the ledger keeps it out of val_bpb's column, so out
 * of every frontier; docs/run-record.md). */
#define RUNREC_BPB_UNIFORM 8.0
int runrec_bpb_diverged(double val_bpb);

/* Check a parsed record against runrec/1. Returns 0 when valid; otherwise -1
 * with one line per problem appended to err, each naming the field:
 *   "field 'metrics.val_bpb': expected a number, got string" */
int runrec_validate(const json_t *rec, sb *err);

/* Append "field 'FIELD': MESSAGE" as one line of err (a newline first when
 * err is not empty); returns 1, so callers can count problems. The wording
 * of every validation error: run records here, campaign declarations in
 * the ledger. */
int field_problem(sb *err, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Canonical text: compact JSON, keys sorted, reals printed with 17
 * significant digits. Caller frees. */
char *runrec_canonical(const json_t *rec);

/* The canonical text of any JSON value appended to out (runrec_canonical
 * without the copy; the ledger's repeat key prints its config part and
 * hardware class with it). */
void runrec_canonical_add(const json_t *v, sb *out);

/* The canonical text of the JSON string s[0..n) appended to out: what
 * runrec_canonical_add prints for a string value (s must be UTF-8, as
 * jansson's strings are). For texts built without jansson values: the
 * ledger's repeat key. */
void runrec_canonical_string(const char *s, size_t n, sb *out);

/* runrec_canonical, also saying where the value of rec's top-level member
 * key lies in it (*len = 0 when absent): the ledger reuses the config's
 * text for its repeat key instead of printing it again. */
char *runrec_canonical_member(const json_t *rec, const char *key, size_t *off, size_t *len);

/* Identity: sha256 hex of the canonical text. Two records with the same
 * content (key order and whitespace aside) have the same identity. */
void runrec_identity(const json_t *rec, char hex[65]);

/* Fill a missing run_id with "r-" + the first 16 hex digits of the identity
 * of the record as it is (so compute a stored identity before calling). */
void runrec_ensure_id(json_t *rec);

/* Convenience getters: NULL / NAN / def when absent or of another type. */
const char *runrec_str(const json_t *rec, const char *key);
double runrec_num(const json_t *obj, const char *key); /* int or real -> double */
const char *runrec_sub_str(const json_t *rec, const char *obj, const char *key);
double runrec_metric(const json_t *rec, const char *name);

/* 1 when final may replace start in the ledger: start has status
 * "running", final has another status and the same run_id, and every
 * member start states (non-null, status aside) final states alike (by
 * canonical text). So the final record of a run extends the record its
 * trainer wrote at start (data, metrics, finished_at, failure filled in)
 * and can replace nothing else (docs/run-record.md, "running and lost"). */
int runrec_supersedes(const json_t *final, const json_t *start);

/* New record with schema set and the given status; caller adds the rest. */
json_t *runrec_new(const char *status);

/* Append one record as a single line with one write() on an O_APPEND
 * descriptor, then fsync, so concurrent writers never interleave lines and a
 * crash right after still leaves the record on disk. 0 = ok. */
int runrec_append(const char *path, const json_t *rec);

#endif
