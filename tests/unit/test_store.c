/* test_store.c — a file's transaction in ledger/store.c leaves the
 * ledger's foreign-key checks as it found them.
 * Test plan: on a new ledger, store_begin turns the checks off (store.c:
 * every row it writes names a run it has just stored or found) and
 * store_commit and store_rollback turn them on again; two runs with
 * metrics and changes stored in between leave no row that
 * foreign_key_check would report. */
#include <unistd.h>
#include "db.h"
#include "store.h"
#include "util.h"
#include "check.h"

static int keys_on(sqlite3 *db)
{
	sqlite3_stmt *q = db_prepare(db, "PRAGMA foreign_keys");
	int on = q && sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int(q, 0) : -1;
	sqlite3_finalize(q);
	return on;
}

static int orphans(sqlite3 *db)
{
	sqlite3_stmt *q = db_prepare(db, "PRAGMA foreign_key_check");
	int n = 0;
	while (q && sqlite3_step(q) == SQLITE_ROW)
		n++;
	sqlite3_finalize(q);
	return n;
}

int main(void)
{
	char path[] = "/tmp/test_store_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	sqlite3 *db = NULL;
	if (!CHECK("store-keys-0", db_open(path, &db) == 0))
		return check_status();
	struct store *st = store_new(db);
	struct store_src src = { "t.jsonl", "runrec", 1 };
	const char *run_id;
	sb why = SB_INIT;

	CHECK("store-keys-1", keys_on(db) == 1);
	CHECK("store-keys-2", store_begin(st) == 0 && keys_on(db) == 0);
	json_t *a = json_loads("{\"schema\":\"runrec/1\",\"run_id\":\"a\",\"status\":\"ok\","
			   "\"config\":{\"x\":1},\"metrics\":{\"val_bpb\":1.0,\"y\":null}}", 0, NULL);
	json_t *b = json_loads("{\"schema\":\"runrec/1\",\"run_id\":\"b\",\"parent\":\"a\",\"status\":\"ok\","
			   "\"config\":{\"x\":2},\"metrics\":{\"val_bpb\":0.9}}", 0, NULL);
	CHECK("store-keys-3", store_put(st, a, &src, &run_id, &why) == STORE_NEW &&
				      store_put(st, b, &src, &run_id, &why) == STORE_NEW);
	CHECK("store-keys-4", store_commit(st) == 0 && keys_on(db) == 1);
	CHECK("store-keys-5", orphans(db) == 0);

	CHECK("store-keys-6", store_begin(st) == 0 && keys_on(db) == 0);
	store_rollback(st);
	CHECK("store-keys-7", keys_on(db) == 1);

	json_decref(a);
	json_decref(b);
	sb_release(&why);
	store_free(st);
	sqlite3_close(db);
	unlink(path);
	return check_status();
}
