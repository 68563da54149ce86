/* metrics.c — the metrics table's rows (metrics.h). */
#include <stdlib.h>
#include "db.h"
#include "metrics.h"
#include "util.h"

/* A run's metrics go in as one INSERT of up to METRICS_BATCH rows: a
 * statement a row cost more in stepping (start, halt, reset, binds) than
 * the rows' B-tree inserts (9 rows a bench record: 11% of ingest's CPU).
 * OR IGNORE, because a statement that writes several rows and may stop
 * halfway on a constraint keeps a statement journal: with 16 KB pages it
 * spilled to a temporary file (/var/tmp/etilqs_*) and wrote the pages it
 * touched there for every run, 2.7 of the 3.2 million pwrite calls of a
 * 10^6-record import (docs/ingest.md, fourth pass). Nothing is ignored in
 * fact: a record's metrics are the keys of one JSON object, which the
 * parser keeps unique, and insert_batch checks that every row went in. */
#define METRICS_BATCH 16

struct metrics_writer {
	sqlite3 *db;
	sqlite3_stmt *ins[METRICS_BATCH + 1]; /* [n]: n rows; prepared when first used */
	sqlite3_stmt *del;
};

struct metrics_writer *metrics_writer_new(sqlite3 *db)
{
	struct metrics_writer *w = xcalloc(1, sizeof(*w));
	w->db = db;
	w->del = db_prepare(db, "DELETE FROM metrics WHERE run = ?1");
	return w;
}

void metrics_writer_free(struct metrics_writer *w)
{
	if (!w)
		return;
	for (int n = 0; n <= METRICS_BATCH; n++)
		sqlite3_finalize(w->ins[n]);
	sqlite3_finalize(w->del);
	free(w);
}

static int step_once(sqlite3_stmt *st, const char *purpose)
{
	int rc = db_step(st, purpose);
	sqlite3_reset(st);
	return rc == DB_ERROR ? DB_ERROR : 0;
}

/* INSERT … VALUES(?1, ?2, ?3), (?1, ?4, ?5), …: n rows of one run. */
static sqlite3_stmt *insert_rows(struct metrics_writer *w, int n)
{
	if (!w->ins[n]) {
		sb sql = SB_INIT;
		sb_adds(&sql, "INSERT OR IGNORE INTO metrics(run, name, value) VALUES");
		for (int i = 0; i < n; i++)
			sb_addf(&sql, "%s(?1, ?%d, ?%d)", i ? ", " : "", 2 + 2 * i, 3 + 2 * i);
		w->ins[n] = db_prepare(w->db, sql.buf);
		sb_release(&sql);
	}
	return w->ins[n];
}

/* Store the n rows of names and values. */
static int insert_batch(struct metrics_writer *w, sqlite3_int64 run, const char **names,
			json_t **values, int n)
{
	if (!n)
		return 0;
	sqlite3_stmt *q = insert_rows(w, n);
	if (!q)
		return DB_ERROR; /* reported by db_prepare */
	sqlite3_bind_int64(q, 1, run);
	for (int i = 0; i < n; i++) {
		sqlite3_bind_text(q, 2 + 2 * i, names[i], -1, SQLITE_STATIC);
		if (json_is_number(values[i]))
			sqlite3_bind_double(q, 3 + 2 * i, json_number_value(values[i]));
		else
			sqlite3_bind_null(q, 3 + 2 * i);
	}
	if (step_once(q, "store the run's metrics"))
		return DB_ERROR;
	if (sqlite3_changes(w->db) != n) { /* a metric named twice: refused, not dropped */
		rl_error("cannot store the metrics of run #%lld: %d of its %d metrics were refused as "
			 "duplicates (%s:%d)", (long long)run, n - sqlite3_changes(w->db), n, __FILE__,
			 __LINE__);
		rl_hint("the file is not stored; a record names each metric once (docs/run-record.md)");
		return DB_ERROR;
	}
	return 0;
}

int metrics_write(struct metrics_writer *w, sqlite3_int64 run, const json_t *rec, int replace)
{
	if (!w->del)
		return DB_ERROR; /* reported when prepared */
	if (replace) {
		sqlite3_bind_int64(w->del, 1, run);
		if (step_once(w->del, "drop the run's metrics"))
			return DB_ERROR;
	}
	const char *names[METRICS_BATCH], *name;
	json_t *values[METRICS_BATCH], *v;
	int n = 0;
	json_object_foreach(json_object_get(rec, "metrics"), name, v) {
		if (n == METRICS_BATCH) {
			if (insert_batch(w, run, names, values, n))
				return DB_ERROR;
			n = 0;
		}
		names[n] = name;
		values[n++] = v;
	}
	return insert_batch(w, run, names, values, n);
}

/* json_each over a null or absent "metrics" gives one row without a key;
 * jsonb_each of NULL gives none (and of a non-object fails, so only
 * objects are passed). The PostgreSQL text ends before its WHERE, for
 * the one-run form. */
#define FILL_SQLITE                                                                    \
	"INSERT INTO metrics(run, name, value)"                                        \
	" SELECT r.id, j.key, CASE WHEN j.type IN ('integer', 'real') THEN j.value END" \
	" FROM runs r, json_each(r.record, '$.metrics') j WHERE j.key IS NOT NULL"
#define FILL_PG                                                                                    \
	"INSERT INTO metrics(run, name, value)"                                                    \
	" SELECT r.id, j.key, CASE WHEN jsonb_typeof(j.value) = 'number'"                          \
	" THEN (j.value #>> '{}')::double precision END"                                           \
	" FROM runs r, jsonb_each(CASE WHEN jsonb_typeof(r.record::jsonb -> 'metrics') = 'object'" \
	" THEN r.record::jsonb -> 'metrics' END) j"

const char *metrics_fill_sql(enum dialect d, int one_run)
{
	if (!one_run)
		return d == DIALECT_PG ? FILL_PG : FILL_SQLITE;
	return d == DIALECT_PG ? FILL_PG " WHERE r.id = $1" : FILL_SQLITE " AND r.id = ?1";
}

void metrics_value_sql(sb *sql, const char *alias)
{
	sb_addf(sql, "(SELECT m.value FROM metrics m WHERE m.run = %s.id AND m.name = ?)", alias);
}
