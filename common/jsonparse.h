/* jsonparse.h — a fast path for parsing one JSON object into jansson values,
 * for ledger ingest's hot loop (runrec_parse). It builds exactly what
 * json_loadb(text, len, JSON_REJECT_DUPLICATES) builds (same types, same
 * member order, same strings and numbers) for the plain inputs it accepts,
 * and declines everything else: any error, duplicate key, \u0000, overflow,
 * nesting deeper than 64, a top-level value that is not an object. The
 * caller then parses with jansson, which also words the error. It must never
 * accept what jansson rejects nor build a different value (checked by
 * tests/unit/test_jsonparse.c). Allocates only jansson's values and a
 * scratch buffer for strings with escapes; knows nothing of run records. */
#ifndef RL_JSONPARSE_H
#define RL_JSONPARSE_H
#include <jansson.h>
#include <stddef.h>

/* A new reference to the object text holds, or NULL: declined (see above). */
json_t *json_parse_object_fast(const char *text, size_t len);

#endif
