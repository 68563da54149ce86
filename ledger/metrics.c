/* metrics.c — the metrics table's rows (metrics.h). */
#include <stdlib.h>
#include "db.h"
#include "metrics.h"
#include "util.h"

struct metrics_writer {
	sqlite3_stmt *ins, *del;
};

struct metrics_writer *metrics_writer_new(sqlite3 *db)
{
	struct metrics_writer *w = xcalloc(1, sizeof(*w));
	w->ins = db_prepare(db, "INSERT INTO metrics(run, name, value) VALUES(?1, ?2, ?3)");
	w->del = db_prepare(db, "DELETE FROM metrics WHERE run = ?1");
	return w;
}

void metrics_writer_free(struct metrics_writer *w)
{
	if (!w)
		return;
	sqlite3_finalize(w->ins);
	sqlite3_finalize(w->del);
	free(w);
}

static int step_once(sqlite3_stmt *st, const char *purpose)
{
	int rc = db_step(st, purpose);
	sqlite3_reset(st);
	return rc == DB_ERROR ? DB_ERROR : 0;
}

int metrics_write(struct metrics_writer *w, sqlite3_int64 run, const json_t *rec, int replace)
{
	if (!w->ins || !w->del)
		return DB_ERROR; /* reported when prepared */
	if (replace) {
		sqlite3_bind_int64(w->del, 1, run);
		if (step_once(w->del, "drop the run's metrics"))
			return DB_ERROR;
	}
	const char *name;
	json_t *v;
	json_object_foreach(json_object_get(rec, "metrics"), name, v) {
		sqlite3_bind_int64(w->ins, 1, run);
		sqlite3_bind_text(w->ins, 2, name, -1, SQLITE_STATIC);
		if (json_is_number(v))
			sqlite3_bind_double(w->ins, 3, json_number_value(v));
		else
			sqlite3_bind_null(w->ins, 3);
		if (step_once(w->ins, "store the run's metrics"))
			return DB_ERROR;
	}
	return 0;
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
