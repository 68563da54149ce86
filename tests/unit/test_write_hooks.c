/* test_write_hooks.c — a ledger's transactions (db.h db_begin_write,
 * db_commit, db_rollback) and a replica's write hooks.
 * Test plan: on a plain SQLite ledger the three functions write and roll
 * back as BEGIN IMMEDIATE, COMMIT and ROLLBACK do. With hooks set (fakes
 * standing for replica.c: they count their calls and do the SQLite part),
 * db_begin_write and db_commit call them, db_rollback and SQLite's own
 * rollback reach the rollback hook, and db_exec is plain SQL again: its
 * "BEGIN IMMEDIATE" calls no hook. A write that bypasses the hooks — BEGIN
 * IMMEDIATE and COMMIT given to db_exec, an INSERT outside a transaction —
 * is refused at its commit and leaves no row; a read transaction and a
 * write to temp only pass; reinfer's dry run (db_begin_read, a write,
 * db_rollback) leaves nothing. Removing the hooks makes the connection
 * plain again. */
#include <unistd.h>
#include "db.h"
#include "util.h"
#include "check.h"

static struct {
	int begins, commits, rollbacks;
	sqlite3 *db;
} fake;

static int fake_begin(void *arg)
{
	(void)arg;
	fake.begins++;
	return sqlite3_exec(fake.db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int fake_commit(void *arg)
{
	(void)arg;
	fake.commits++;
	return sqlite3_exec(fake.db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static void fake_rollback(void *arg)
{
	(void)arg;
	fake.rollbacks++;
}

static int count_quarantine(sqlite3 *db)
{
	sqlite3_stmt *q = db_prepare(db, "SELECT count(*) FROM quarantine");
	int n = q && sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int(q, 0) : -1;
	sqlite3_finalize(q);
	return n;
}

#define ADD_LINE "INSERT INTO quarantine(source_file, line, reason, content) VALUES('f.jsonl', 1, 'test', '{')"

int main(void)
{
	char path[] = "/tmp/test_write_hooks_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	sqlite3 *db = NULL;
	if (!CHECK("hooks-0", db_open(path, &db) == 0))
		return check_status();
	fake.db = db;

	/* plain SQLite: the functions are the SQL */
	CHECK("hooks-1.1", db_begin_write(db) == 0 && !sqlite3_get_autocommit(db));
	CHECK("hooks-1.2", db_exec(db, ADD_LINE) == 0 && db_commit(db) == 0 && count_quarantine(db) == 1);
	CHECK("hooks-1.3", db_begin_write(db) == 0 && db_exec(db, ADD_LINE) == 0);
	db_rollback(db);
	CHECK("hooks-1.4", sqlite3_get_autocommit(db) && count_quarantine(db) == 1);
	db_rollback(db); /* none open: nothing happens */
	CHECK("hooks-1.5", sqlite3_get_autocommit(db));

	struct db_write_hooks hooks = { fake_begin, fake_commit, fake_rollback, NULL };
	db_set_write_hooks(db, &hooks, "postgresql://test/ledger");

	/* the write path goes through the hooks */
	CHECK("hooks-2.1", db_begin_write(db) == 0 && fake.begins == 1);
	CHECK("hooks-2.2", db_exec(db, ADD_LINE) == 0 && db_commit(db) == 0 && fake.commits == 1);
	CHECK("hooks-2.3", count_quarantine(db) == 2 && sqlite3_get_autocommit(db));
	CHECK("hooks-2.4", db_begin_write(db) == 0 && db_exec(db, ADD_LINE) == 0);
	db_rollback(db);
	CHECK("hooks-2.5", fake.rollbacks == 1 && count_quarantine(db) == 2);

	/* db_exec is plain: its BEGIN IMMEDIATE and COMMIT call no hook, and
	 * the write between them is refused at the commit */
	CHECK("hooks-3.1", db_exec(db, "BEGIN IMMEDIATE") == 0 && fake.begins == 2);
	CHECK("hooks-3.2", db_exec(db, ADD_LINE) == 0);
	CHECK("hooks-3.3", db_exec(db, "COMMIT") == -1 && fake.commits == 1);
	db_rollback(db);
	CHECK("hooks-3.4", sqlite3_get_autocommit(db) && count_quarantine(db) == 2);
	/* a statement outside any transaction commits by itself: refused too */
	CHECK("hooks-3.5", db_exec(db, ADD_LINE) == -1 && count_quarantine(db) == 2);
	CHECK("hooks-3.6", fake.rollbacks >= 3); /* each refusal is a rollback the hook hears of */

	/* what may pass: a read transaction, a write to temp only */
	CHECK("hooks-4.1", db_begin_read(db) == 0 && count_quarantine(db) == 2 && db_end_read(db) == 0);
	CHECK("hooks-4.2", db_exec(db, "CREATE TEMP VIEW v AS SELECT 1") == 0);
	/* reinfer --dry-run: writes inside a read transaction, rolled back */
	CHECK("hooks-4.3", db_begin_read(db) == 0 && db_exec(db, ADD_LINE) == 0 && count_quarantine(db) == 3);
	db_rollback(db);
	CHECK("hooks-4.4", count_quarantine(db) == 2 && fake.begins == 2 && fake.commits == 1);
	/* ... and one that commits such a write instead is refused */
	CHECK("hooks-4.5", db_begin_read(db) == 0 && db_exec(db, ADD_LINE) == 0 && db_end_read(db) == -1);
	db_rollback(db);
	CHECK("hooks-4.6", count_quarantine(db) == 2);

	/* hooks off: a plain connection again */
	db_set_write_hooks(db, NULL, NULL);
	CHECK("hooks-5.1", db_exec(db, ADD_LINE) == 0 && count_quarantine(db) == 3);
	CHECK("hooks-5.2", db_begin_write(db) == 0 && db_commit(db) == 0 && fake.begins == 2);

	db_close(db);
	unlink(path);
	return check_status();
}
