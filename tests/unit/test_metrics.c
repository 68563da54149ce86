/* test_metrics.c — ledger/metrics.c writes every metric of a run's record
 * as a row, and refuses a row it could not add instead of dropping it.
 * Test plan: a run stored by store_put has one row per metric (null ones
 * too, values as numbers); 20 metrics (more than one INSERT holds) are 20
 * rows; metrics_write for a run whose rows are there already fails (its
 * INSERT is OR IGNORE, to keep SQLite from writing a statement journal,
 * so the count of rows added is what catches a duplicate) and leaves the
 * rows as they were; with replace the rows are written again. */
#include <unistd.h>
#include "check.h"
#include "db.h"
#include "metrics.h"
#include "store.h"
#include "util.h"

static int rows(sqlite3 *db, sqlite3_int64 run)
{
	sqlite3_stmt *q = db_prepare(db, "SELECT count(*) FROM metrics WHERE run = ?1");
	sqlite3_bind_int64(q, 1, run);
	int n = q && sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int(q, 0) : -1;
	sqlite3_finalize(q);
	return n;
}

static double value(sqlite3 *db, sqlite3_int64 run, const char *name, int *is_null)
{
	sqlite3_stmt *q = db_prepare(db, "SELECT value FROM metrics WHERE run = ?1 AND name = ?2");
	sqlite3_bind_int64(q, 1, run);
	sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
	double v = NAN;
	*is_null = -1;
	if (q && sqlite3_step(q) == SQLITE_ROW) {
		*is_null = sqlite3_column_type(q, 0) == SQLITE_NULL;
		v = sqlite3_column_double(q, 0);
	}
	sqlite3_finalize(q);
	return v;
}

static sqlite3_int64 run_id_of(sqlite3 *db, const char *run_id)
{
	sqlite3_stmt *q = db_prepare(db, "SELECT id FROM runs WHERE run_id = ?1");
	sqlite3_bind_text(q, 1, run_id, -1, SQLITE_STATIC);
	sqlite3_int64 id = q && sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	return id;
}

int main(void)
{
	char path[] = "/tmp/test_metrics_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	sqlite3 *db = NULL;
	if (!CHECK("metrics-0", db_open(path, &db) == 0))
		return check_status();
	struct store *st = store_new(db);
	struct store_src src = { "t.jsonl", "runrec", 1 };
	const char *run_id;
	sb why = SB_INIT, big = SB_INIT;

	json_t *a = json_loads("{\"schema\":\"runrec/1\",\"run_id\":\"a\",\"status\":\"ok\","
			       "\"metrics\":{\"val_bpb\":0.95,\"steps\":900,\"mfu\":null}}", 0, NULL);
	sb_adds(&big, "{\"schema\":\"runrec/1\",\"run_id\":\"b\",\"status\":\"ok\",\"metrics\":{");
	for (int i = 0; i < 20; i++)
		sb_addf(&big, "%s\"m%d\":%d", i ? "," : "", i, i);
	sb_adds(&big, "}}");
	json_t *b = json_loads(big.buf, 0, NULL);
	CHECK("metrics-1", store_begin(st) == 0 && store_put(st, a, &src, &run_id, &why) == STORE_NEW &&
				   store_put(st, b, &src, &run_id, &why) == STORE_NEW);
	sqlite3_int64 ia = run_id_of(db, "a"), ib = run_id_of(db, "b");
	int is_null;
	CHECK("metrics-2", rows(db, ia) == 3);
	CHECK("metrics-3", value(db, ia, "val_bpb", &is_null) == 0.95 && !is_null);
	CHECK("metrics-4", value(db, ia, "steps", &is_null) == 900 && !is_null);
	value(db, ia, "mfu", &is_null);
	CHECK("metrics-5", is_null == 1);
	CHECK("metrics-6", rows(db, ib) == 20);
	CHECK("metrics-7", value(db, ib, "m19", &is_null) == 19 && !is_null);

	struct metrics_writer *w = metrics_writer_new(db);
	CHECK("metrics-8", metrics_write(w, ia, a, 0) == DB_ERROR);
	CHECK("metrics-9", rows(db, ia) == 3 && value(db, ia, "val_bpb", &is_null) == 0.95);
	CHECK("metrics-10", metrics_write(w, ia, a, 1) == 0 && rows(db, ia) == 3);
	CHECK("metrics-11", metrics_write(w, ib, b, 1) == 0 && rows(db, ib) == 20);
	metrics_writer_free(w);
	store_rollback(st);

	json_decref(a);
	json_decref(b);
	sb_release(&why);
	sb_release(&big);
	store_free(st);
	sqlite3_close(db);
	unlink(path);
	return check_status();
}
