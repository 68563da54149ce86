/* test_bulk_worth.c — bulk ingest's decision and its index swap
 * (ledger/store.c store_bulk_*, ledger/db.c db_indexes_*).
 * Test plan: the rule on its edges (the minimum file, as many records as
 * stored runs, a small file into a large ledger); then on a ledger in
 * memory: a small file keeps the indexes, a large one has them dropped
 * inside the transaction and back at commit with the SQL they had, a
 * rollback brings them back too, and an index of one of our names but
 * another definition is neither dropped nor rebuilt. */
#include <string.h>
#include "db.h"
#include "sb.h"
#include "store.h"
#include "util.h"
#include "check.h"

static void test_rule(void)
{
	CHECK("bulk-worth-1", store_bulk_worth(0, 2048));
	CHECK("bulk-worth-2", !store_bulk_worth(0, 2047));
	CHECK("bulk-worth-3", store_bulk_worth(5000, 5000));
	CHECK("bulk-worth-4", !store_bulk_worth(5001, 5000));
	CHECK("bulk-worth-5", !store_bulk_worth(1000000, 100000));
	CHECK("bulk-worth-6", store_bulk_worth(100000, 1000000));
}

/* The secondary indexes as "name:sql;" in name order. */
static void indexes(sqlite3 *db, sb *out)
{
	sqlite3_stmt *q = db_prepare(db, "SELECT name, sql FROM sqlite_master WHERE type = 'index'"
					 " AND sql IS NOT NULL ORDER BY name");
	sb_reset(out);
	int rc;
	while ((rc = db_step(q, "list the indexes")) == SQLITE_ROW)
		sb_addf(out, "%s:%s;", (const char *)sqlite3_column_text(q, 0),
			(const char *)sqlite3_column_text(q, 1));
	sqlite3_finalize(q);
	if (rc == DB_ERROR)
		sb_adds(out, "(unreadable)"); /* reported; no list matches it */
}

static void test_swap(void)
{
	sqlite3 *db;
	sb before = SB_INIT, now = SB_INIT;
	if (db_open(":memory:", &db)) {
		CHECK("bulk-swap-0", 0);
		return;
	}
	struct store *st = store_new(db);
	indexes(db, &before);
	CHECK("bulk-swap-1", strstr(before.buf, "runs_frontier:CREATE INDEX runs_frontier ON runs(") &&
				     strstr(before.buf, "changes_var:CREATE INDEX changes_var ON changes(var);"));

	store_begin(st);
	store_bulk_begin(st, 100);
	indexes(db, &now);
	CHECK("bulk-swap-2", !strcmp(now.buf, before.buf)); /* small: normal path */
	store_commit(st);

	store_begin(st);
	store_bulk_begin(st, 5000);
	indexes(db, &now);
	CHECK("bulk-swap-3", !strcmp(now.buf, "")); /* dropped in the transaction */
	CHECK("bulk-swap-4", store_commit(st) == 0);
	indexes(db, &now);
	CHECK("bulk-swap-5", !strcmp(now.buf, before.buf));

	store_begin(st);
	store_bulk_begin(st, 5000);
	store_rollback(st);
	indexes(db, &now);
	CHECK("bulk-swap-6", !strcmp(now.buf, before.buf));

	/* someone's own runs_hw: left as it is, the rest rebuilt */
	db_exec(db, "DROP INDEX runs_hw; CREATE INDEX runs_hw ON runs(hw_class, agent)");
	indexes(db, &before);
	store_begin(st);
	store_bulk_begin(st, 5000);
	indexes(db, &now);
	CHECK("bulk-swap-7", !strcmp(now.buf, "runs_hw:CREATE INDEX runs_hw ON runs(hw_class, agent);"));
	store_commit(st);
	indexes(db, &now);
	CHECK("bulk-swap-8", !strcmp(now.buf, before.buf));

	store_free(st);
	db_close(db);
	sb_release(&before);
	sb_release(&now);
}

int main(void)
{
	test_rule();
	test_swap();
	return check_status();
}
