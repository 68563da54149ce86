/* jsontext.h — JSON scalars as text for people (ledger show, ledger diff,
 * report tables): strings as they are, numbers in the shortest form that
 * reads back to the same double, true/false, and "null". Builds on jansson;
 * knows nothing of SQLite or of the run-record schema. */
#ifndef RL_JSONTEXT_H
#define RL_JSONTEXT_H
#include <jansson.h>
#include "sb.h"

/* Append v: a scalar as above; an object or array as compact JSON. */
void json_text(const json_t *v, sb *out);

/* Shortest "%.Ng" (N = 1..17) of x that parses back to x exactly. */
void double_text(double x, sb *out);

/* Equal as values: numbers compare numerically (8 equals 8.0), inside
 * arrays and objects too; the rest with json_equal. NULL (absent) equals
 * only NULL. */
int json_same(const json_t *a, const json_t *b);

#endif
