/* metrics.h — the metrics table (schema version 4, issue 12 item 2): each
 * metric of a run's record as a row, so filters, sorts and columns read a
 * metric by key instead of parsing the record text of every run.
 *
 * metrics  run INTEGER -> runs.id, name TEXT (the key in the record's
 *          "metrics"), value REAL (the number; NULL when the record has
 *          it as null); primary key (run, name), WITHOUT ROWID
 *
 * Every key of the record's metrics object has its row, null ones too,
 * so "some run records metrics.x" reads the table as it read the record.
 * Ingest writes the rows with the run (store.c calls metrics_write), the
 * upgrade from version 3 from the stored records (metrics_fill_sql). A
 * row's value is the record's number as a double: what json_extract gave,
 * except that an integer above 2^53 loses its last digits. */
#ifndef RL_METRICS_H
#define RL_METRICS_H
#include <jansson.h>
#include <sqlite3.h>
#include "dialect.h"
#include "sb.h"

struct metrics_writer;
/* Statements for db, prepared once per store; NULL members are reported by
 * db_prepare and make metrics_write fail. */
struct metrics_writer *metrics_writer_new(sqlite3 *db);
void metrics_writer_free(struct metrics_writer *w);
/* The rows of run from rec's "metrics" (none when it has none); replace:
 * drop the run's rows first (a final record superseding its running one).
 * 0, or DB_ERROR (reported). */
int metrics_write(struct metrics_writer *w, sqlite3_int64 run, const json_t *rec, int replace);

/* INSERT … SELECT that makes the rows of every stored run from its record,
 * in dialect d: the upgrade from version 3, in its transaction. With
 * one_run, of the run whose id is parameter 1 only (push, on the server). */
const char *metrics_fill_sql(enum dialect d, int one_run);

/* Append the value of one metric of run alias.id as an SQL expression
 * (NULL when the run lacks it); it takes one parameter, the metric's
 * name, which the caller binds next. */
void metrics_value_sql(sb *sql, const char *alias);
/* The same for a metric named in the program (a literal without quotes),
 * of the run a ("r." or "runs."): no parameter. */
#define METRIC_SQL(a, name) "(SELECT m.value FROM metrics m WHERE m.run = " a "id AND m.name = '" name "')"

#endif
