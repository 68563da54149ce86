/* db.h — the ledger's SQLite database: opening it (WAL, busy timeout),
 * creating and versioning the schema, and SQLite errors (db_step).
 * The schema itself is documented in db.c, table by table. */
#ifndef RL_DB_H
#define RL_DB_H
#include <sqlite3.h>

#define LEDGER_SCHEMA_VERSION 4

/* Open (creating if needed) the ledger at path and bring its schema to the
 * current version. Returns 0 or -1 with a message printed. */
int db_open(const char *path, sqlite3 **out);
/* The busy timeout in ms: 30 s, or $LEDGER_BUSY_TIMEOUT seconds. */
int db_busy_timeout_ms(void);
/* $LEDGER_BUSY_TIMEOUT in seconds (0 to 86400), or -1 when it is not set
 * or not such a number. */
double db_busy_env_s(void);
/* How long a writer waits for a ledger's write lock, in seconds (< 0: as
 * long as it takes), and what set the bound: `ingest --wait` when given
 * (db_set_write_wait), else $LEDGER_BUSY_TIMEOUT. The PostgreSQL replica
 * reads it for the server's lock (ledger/replica.c); on SQLite ingest's
 * busy handler has the same rule (ledger/ingest_core.c). */
void db_set_write_wait(double seconds);
double db_write_wait_s(const char **set_by);
void db_close(sqlite3 *db);

/* Open an existing ledger for reading only (SQLITE_OPEN_READONLY): the
 * read commands, so a read-only file, directory or mount can be read and
 * a read never writes. A WAL ledger whose -shm cannot be created (read-only
 * directory or mount) and that has no write-ahead log is read as immutable.
 * An empty file is refused, not given a schema. A ledger of an older schema
 * is opened with db_open, which upgrades it (a write). 0, or -1 with a
 * message printed. */
int db_open_read(const char *path, sqlite3 **out);

/* ---- SQLite errors ------------------------------------------------------
 * One way to handle them, for every statement: prepare it with db_prepare,
 * step it with db_step. Both report a failure once -- what the statement
 * was for, the ledger file, SQLite's message and what to do -- and hand it
 * back; the caller passes it up to its command, which exits 3. Nothing
 * here exits, and no caller reads columns after a step that did not
 * return SQLITE_ROW.
 *
 * db_prepare returns NULL on failure (reported). db_step on a NULL
 * statement returns DB_ERROR without a second message, so a caller may
 * check the prepare and the steps in one place, at the step. */
#define DB_ERROR (-1)
#define db_prepare(db, sql) db_prepare_at((db), (sql), __FILE__, __LINE__)
#define db_step(st, purpose) db_step_at((st), (purpose), __FILE__, __LINE__)
/* purpose says what the statement does, as a verb phrase for "cannot ...":
 * "read the runs", "store the run". Returns SQLITE_ROW, SQLITE_DONE or
 * DB_ERROR (reported). */
sqlite3_stmt *db_prepare_at(sqlite3 *db, const char *sql, const char *file, int line);
int db_step_at(sqlite3_stmt *st, const char *purpose, const char *file, int line);
/* Report a failed SQLite call (rc) on db the way db_step does. */
void db_report(sqlite3 *db, int rc, const char *purpose, const char *file, int line);
/* How many SQLite errors db_prepare, db_step and db_report have reported:
 * the programs' main() turns a command that reported one yet returned
 * success into exit 3, a safety net under the propagation above. */
int db_errors(void);

/* Run SQL without results (pragmas, DDL, one-off statements). Plain
 * sqlite3_exec: a transaction is begun and ended with the functions below,
 * never by SQL text given here. Returns 0 or -1 with message. */
int db_exec(sqlite3 *db, const char *sql);

/* ---- transactions -------------------------------------------------------
 * Every write to a ledger is one transaction begun with db_begin_write and
 * ended with db_commit or db_rollback. On an SQLite ledger they are BEGIN
 * IMMEDIATE, COMMIT and ROLLBACK; on a PostgreSQL ledger's local replica
 * (ledger/replica.c) they are the server's write as well (the hooks
 * below). Each returns 0, or -1 reported; after a failed db_commit the
 * transaction is still open or already rolled back: call db_rollback,
 * which does nothing when none is open. */
int db_begin_write(sqlite3 *db);
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db);
/* A transaction that only reads, for one snapshot over many statements
 * (report), or that writes and is always rolled back (reinfer --dry-run):
 * plain BEGIN, never sent to a server. db_end_read commits a read (it
 * wrote nothing); a write inside one cannot be committed on a replica. */
int db_begin_read(sqlite3 *db);
int db_end_read(sqlite3 *db);

/* ---- a replica's write transactions (ledger/replica.c) ------------------
 * The local SQLite replica of a PostgreSQL ledger is written only together
 * with the server. On the connection given here, db_begin_write calls
 * begin and db_commit calls commit (each returns 0 or -1, reported), so
 * every command's write transaction (store_begin and store_commit,
 * annotations, campaigns, reinfer, push) goes through the server; any
 * rollback of the connection (db_rollback, or SQLite's own after an
 * error) calls rollback. A commit of the connection's main database that
 * wrote to it outside these hooks (a BEGIN and COMMIT given to db_exec,
 * a statement outside a transaction) is refused and rolled back
 * (sqlite3_commit_hook): a write the server never saw would leave the
 * replica out of step. name stands for the file in messages (the URL
 * without its password). NULL hooks turn it off. */
struct db_write_hooks {
	int (*begin)(void *arg);
	int (*commit)(void *arg);
	void (*rollback)(void *arg);
	void *arg;
};
void db_set_write_hooks(sqlite3 *db, const struct db_write_hooks *hooks, const char *name);

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
