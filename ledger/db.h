/* db.h — the ledger's SQLite database: opening it (WAL, busy timeout),
 * creating and versioning the schema, and the SQL_CHECK macro.
 * The schema itself is documented in db.c, table by table. */
#ifndef RL_DB_H
#define RL_DB_H
#include <sqlite3.h>

#define LEDGER_SCHEMA_VERSION 2

/* Open (creating if needed) the ledger at path and bring its schema to the
 * current version. Returns 0 or -1 with a message printed. */
int db_open(const char *path, sqlite3 **out);
void db_close(sqlite3 *db);

/* The secondary indexes (db.c lists them, one bit each): everything but
 * the tables' own keys and UNIQUE constraints, so nothing that rejects a
 * row. A bulk load drops them inside its write transaction and creates
 * them again before COMMIT: one sort per index instead of a random B-tree
 * insert per row per index; readers keep the old snapshot with its indexes.
 * db_indexes_drop drops only those exactly as db.c defines them and says
 * which in *dropped (also when it fails part way); db_indexes_create
 * creates those in which that are missing. Both return 0 or -1 with a
 * message printed. */
#define DB_INDEXES_ALL 0xffffffffu
int db_indexes_drop(sqlite3 *db, unsigned *dropped);
int db_indexes_create(sqlite3 *db, unsigned which);

/* Prepare a statement or die with the SQL and SQLite's message: a failed
 * prepare is a programming error, not bad input. */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *sql);

/* Run SQL without results (BEGIN, COMMIT, DDL). Returns 0 or -1 with message. */
int db_exec(sqlite3 *db, const char *sql);

/* Report a failed SQLite call with file:line and SQLite's own message. */
#define SQL_CHECK(db, expr)                                                        \
	do {                                                                       \
		int sql_rc_ = (expr);                                              \
		if (sql_rc_ != SQLITE_OK && sql_rc_ != SQLITE_DONE &&              \
		    sql_rc_ != SQLITE_ROW)                                         \
			db_fail((db), sql_rc_, #expr, __FILE__, __LINE__);         \
	} while (0)
void db_fail(sqlite3 *db, int rc, const char *what, const char *file, int line)
	__attribute__((noreturn));

/* Bind helpers: NULL strings and NaN doubles bind as SQL NULL. */
void db_bind_text(sqlite3_stmt *st, int i, const char *s);
void db_bind_double(sqlite3_stmt *st, int i, double v);
/* Column readers, the other way: SQL NULL reads as NULL (a malloc'd copy
 * otherwise, caller frees) and as NaN. */
char *db_column_dup(sqlite3_stmt *st, int i);
double db_column_num(sqlite3_stmt *st, int i);

/* The status a run shows (docs/run-record.md, "running and lost"): a
 * running record whose start (its t_finished, as it has no finished_at)
 * plus budget.seconds plus config train.timeout_grace_s (the trainer's
 * default 120 s when absent) lies before rl_now() is "lost": its final
 * record never came. A running record without a budget stays running.
 * a is the table's prefix: "" or "r."; as a format, "%1$s." (db_run_status).
 * Computed when read, so a final record arriving later simply replaces it. */
#define RUN_STATUS_SQL(a)                                                                   \
	"(CASE WHEN " a "status = 'running' AND " a "t_finished"                              \
	" + json_extract(" a "record, '$.budget.seconds')"                                    \
	" + coalesce(json_extract(" a "record, '$.config.\"train.timeout_grace_s\"'), 120)" \
	" < rl_now() THEN 'lost' ELSE " a "status END)"
/* RUN_STATUS_SQL for the table alias (e.g. "r") appended to sql. */
struct sb;
void db_run_status(struct sb *sql, const char *alias);
/* The time "lost" is judged against, epoch seconds: RUNLEDGER_NOW
 * (ISO-8601 UTC, for tests and reproducible reports) when set, else the
 * clock when the process first asks. SQL: rl_now(). */
double db_now(void);

#endif
