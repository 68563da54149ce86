/* db.c — open the ledger database and own its schema.
 *
 * Schema version 4 (PRAGMA user_version; a version 1, 2 or 3 ledger is
 * upgraded on open, see db_upgrade); a new ledger has 16 KB pages, WAL.
 * The SQL that makes it is written once for SQLite and PostgreSQL, in
 * ledger/dialect.c; what each column holds is said here:
 *
 * runs        one row per distinct run record (identity = content hash)
 *   id            INTEGER  ingest order; ties in time are broken by it
 *   run_id        TEXT     the record's run_id (derived "r-<hash16>" if absent)
 *   content_hash  TEXT     sha256 of the canonical record as received (identity);
 *                          unique without an index of its own: equal hashes mean
 *                          equal canonical texts, so equal run_ids (a derived
 *                          run_id is a prefix of the hash), and run_id is UNIQUE
 *   parent        TEXT     run_id of the parent run, or NULL
 *   campaign, agent, description, decision, status   TEXT  as in runrec/1
 *   started_at, finished_at  TEXT  ISO-8601 UTC; t_finished REAL: epoch seconds
 *                            (finished_at, else started_at, else NULL)
 *   gpu_name      TEXT     as recorded;  hw_class TEXT (H100, RTX 3090, or the
 *                          name itself when unknown); vram_tier TEXT small|medium|large|xl
 *   gpu_count INTEGER, gpu_mem_mb REAL
 *   code_commit, diff_sha256 TEXT; code_dirty INTEGER 0/1
 *   data_name, data_sha256   TEXT
 *   val_bpb       REAL     NULL unless a valid measurement (status ok, 0 < value <= 8:
 *                          above 8 bits per byte a run diverged, runrec.h)
 *   repeat_key    TEXT     runs with the same key are repeat measurements
 *                          (same config, code, data and hardware class)
 *   source_format TEXT     runrec|results.tsv|run.log|arh.json
 *   source_file   TEXT, source_line INTEGER   where it was ingested from
 *   ingested_at   TEXT
 *   record        TEXT     the full record as canonical JSON (config, metrics,
 *                          failure… are read from it with json_extract)
 *   indexes (the list "indexes" below): runs_time (t_finished, id), runs_hw,
 *   runs_agent, runs_campaign, runs_repeat, and runs_frontier (t_finished,
 *   id, hw_class, vram_tier, val_bpb) WHERE val_bpb IS NOT NULL, covering
 *   the frontier's scan
 *
 * changes     variables a run changed against its parent
 *   run INTEGER -> runs.id, var TEXT, old TEXT, new TEXT (JSON scalars as text,
 *   NULL when unknown), how TEXT 'exact' (two configs) | 'code' (the commits'
 *   diff, ledger ingest --repo) | 'inferred' (the description); span TEXT: the
 *   text an inferred or code change came from; infer_version INTEGER: the
 *   inference rules that made an inferred change (infer.h INFER_VERSION,
 *   ledger reinfer); index changes_var (var)
 *
 * quarantine  input that could not be ingested; nothing is dropped silently
 *   id, source_file, line, reason, content, ingested_at
 *
 * campaigns   declared campaigns (ledger campaign add): name, spec (JSON)
 * campaign_runs  explicit assignments (ledger campaign assign): campaign, run
 *
 * annotations (version 3) what people said about a run after the fact
 *   (ledger note, tag, decide, archive; ledger/annot.h); the runs row and
 *   its record are never changed by them. Append-only: a later annotation
 *   of the same kind (and key) supersedes an earlier one when read.
 *   id INTEGER (order), run INTEGER -> runs.id, kind TEXT note|tag|decision|
 *   archive, key TEXT (tag: its key; else NULL), value TEXT (note: the text;
 *   tag: the value, '' removes it; decision: keep|discard; archive:
 *   archived|restored), who TEXT, at TEXT (ISO-8601 UTC); index
 *   annotations_run (run, kind)
 *
 * metrics     (version 4) each metric of a run's record, so a metric is
 *   read by key instead of from the record text (ledger/metrics.h): run
 *   INTEGER -> runs.id, name TEXT, value REAL (NULL: null in the record);
 *   primary key (run, name)
 */
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <time.h>
#include "db.h"
#include "dialect.h"
#include "metrics.h"
#include "sb.h"
#include "util.h"

/* ---- the schema (dialect.c) ------------------------------------------ */

/* Statement i of dialect.c's schema for SQLite, as CREATE … IF NOT EXISTS:
 * an upgrade makes the tables and indexes an older version lacks, and
 * leaves the others as they are. */
static int schema_create(sqlite3 *db, size_t i)
{
	const char *sql = dialect_schema(i);
	sb text = SB_INIT;
	/* "CREATE TABLE " and "CREATE INDEX " are equally long */
	size_t head = strlen("CREATE TABLE ");
	sb_add(&text, sql, head);
	sb_adds(&text, "IF NOT EXISTS ");
	int rc = dialect_expand(DIALECT_SQLITE, sql + head, &text) ? -1 : db_exec(db, text.buf);
	sb_release(&text);
	return rc;
}

/* Every table and index the current version has and the ledger lacks. */
static int schema_create_missing(sqlite3 *db)
{
	for (size_t i = 0; i < dialect_schema_count(); i++)
		if (schema_create(db, i))
			return -1;
	return 0;
}

static int refuse_readonly(const char *path, const char *sqlite_said);

/* ---- a replica's write transactions (db.h) -------------------------- */

static struct {
	sqlite3 *db;
	struct db_write_hooks hooks;
	const char *name;
	int in_hook; /* inside hooks.begin or hooks.commit: their own commits are the write's */
} replica;

/* sqlite3_commit_hook of the replica: a commit that wrote the main
 * database outside the hooks never reached the server; nonzero turns it
 * into a rollback (SQLite then says "constraint failed" to the caller).
 * A read-only transaction, or one that wrote only temp (annot.c's temp
 * views), passes. */
static int guard_commit(void *arg)
{
	(void)arg;
	if (replica.in_hook || sqlite3_txn_state(replica.db, "main") != SQLITE_TXN_WRITE)
		return 0;
	rl_error("PostgreSQL ledger '%s': a write to the local replica outside db_begin_write and "
		 "db_commit (a bug): refused and rolled back, nothing was written",
		 replica.name ? replica.name : "?");
	return 1;
}

static void call_rollback(void *arg)
{
	(void)arg;
	if (replica.hooks.rollback)
		replica.hooks.rollback(replica.hooks.arg);
}

void db_set_write_hooks(sqlite3 *db, const struct db_write_hooks *hooks, const char *name)
{
	if (replica.db) {
		sqlite3_commit_hook(replica.db, NULL, NULL);
		sqlite3_rollback_hook(replica.db, NULL, NULL);
	}
	replica.db = hooks ? db : NULL;
	if (hooks)
		replica.hooks = *hooks;
	replica.name = hooks ? name : NULL;
	replica.in_hook = 0;
	if (hooks) {
		sqlite3_commit_hook(db, guard_commit, NULL);
		sqlite3_rollback_hook(db, call_rollback, NULL);
	}
}

static int call_hook(int (*hook)(void *))
{
	replica.in_hook = 1;
	int rc = hook(replica.hooks.arg);
	replica.in_hook = 0;
	return rc;
}

int db_begin_write(sqlite3 *db)
{
	if (db && db == replica.db)
		return call_hook(replica.hooks.begin);
	return db_exec(db, "BEGIN IMMEDIATE");
}

int db_commit(sqlite3 *db)
{
	if (db && db == replica.db)
		return call_hook(replica.hooks.commit);
	return db_exec(db, "COMMIT");
}

void db_rollback(sqlite3 *db)
{
	/* none open: SQLite ended it itself after an error (its rollback hook
	 * has run), or it never began */
	if (db && !sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

int db_begin_read(sqlite3 *db)
{
	return db_exec(db, "BEGIN");
}

int db_end_read(sqlite3 *db)
{
	return db_exec(db, "COMMIT");
}

/* The ledger's name for messages: the file, or what a replica stands for. */
static const char *ledger_name(sqlite3 *db)
{
	if (db && db == replica.db && replica.name)
		return replica.name;
	return db ? sqlite3_db_filename(db, "main") : NULL;
}

/* What to do about the errors a user can fix: a full disk, a ledger that
 * cannot be written (a ledger another process holds: the caller knows
 * what was not done, ingest names the files). Named by the file
 * SQLite has open, so the message says which ledger. 1 when it said
 * something. */
static int user_hint(sqlite3 *db, int rc)
{
	const char *path = ledger_name(db);
	if (!path || !*path)
		return 0;
	switch (rc & 0xff) {
	case SQLITE_FULL:
		rl_hint("the disk holding the ledger '%s' is full: free space there, or move the ledger with "
			"its -wal and -shm and pass --db, then run the command again; what it was writing was "
			"rolled back, nothing of it is stored", path);
		return 1;
	case SQLITE_IOERR: /* a write past a size limit (ulimit -f) fails with EFBIG */
		if (sqlite3_extended_errcode(db) != SQLITE_IOERR_WRITE)
			return 0;
		rl_hint("a write to the ledger '%s' failed: its disk is full, a file size limit was "
			"reached (ulimit -f) or the disk fails; make room, then run the command again; "
			"what it was writing was rolled back, nothing of it is stored", path);
		return 1;
	case SQLITE_READONLY:
		return refuse_readonly(path, "SQLite may only read it");
	}
	return 0;
}

/* ---- SQLite errors (db.h) ------------------------------------------- */

static int errors_reported;

int db_errors(void)
{
	return errors_reported;
}

/* What to do about an error of class rc on the ledger at path. */
static void error_hint(int rc, const char *path, const char *file, int line)
{
	switch (rc & 0xff) {
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		rl_hint("the ledger file is damaged: 'ledger --db %s check' lists the damage; ingest the "
			"source files again into a new ledger (ingest is idempotent), or recover what is "
			"readable with 'sqlite3 %s .recover'", path, path);
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		rl_hint("another process has held the ledger for longer than the 30 s wait; try again");
		break;
	case SQLITE_FULL:
		rl_hint("the disk holding '%s' is full; free space and run the command again", path);
		break;
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
		rl_hint("the ledger '%s' and its directory must be writable (WAL mode keeps '%s-wal' and "
			"'%s-shm' beside it)", path, path, path);
		break;
	case SQLITE_IOERR:
		rl_hint("the ledger '%s' could not be read or written: check the disk and the file", path);
		break;
	case SQLITE_NOMEM:
		break;
	default: /* SQLITE_ERROR, MISUSE, RANGE…: the statement does not fit the ledger */
		rl_hint("a ledger whose tables runledger did not make cannot be read; if runledger made "
			"'%s', this is a bug (%s:%d): please report it with this message", path, file, line);
	}
}

/* The message, the statement when it is at fault (sql may be NULL), the hint. */
static void report(sqlite3 *db, int rc, const char *purpose, const char *sql, const char *file,
		   int line)
{
	const char *path = ledger_name(db);
	if (!path || !*path)
		path = "(in memory)";
	errors_reported++;
	rl_error("cannot %s: ledger '%s': %s", purpose, path,
		 db && sqlite3_errcode(db) == rc ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	if (sql)
		rl_detail("  in: %s", sql);
	if (!user_hint(db, rc))
		error_hint(rc, path, file, line);
}

void db_report(sqlite3 *db, int rc, const char *purpose, const char *file, int line)
{
	report(db, rc, purpose, NULL, file, line);
}

int db_step_at(sqlite3_stmt *st, const char *purpose, const char *file, int line)
{
	if (!st)
		return DB_ERROR; /* db_prepare reported it */
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc;
	db_report(sqlite3_db_handle(st), rc, purpose, file, line);
	return DB_ERROR;
}

int db_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		rl_error("database: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		user_hint(db, rc);
		return -1;
	}
	return 0;
}

sqlite3_stmt *db_prepare_at(sqlite3 *db, const char *sql, const char *file, int line)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		return st;
	/* a damaged schema fails here, before any step; SQLITE_ERROR is the
	 * statement not fitting the tables, so it is shown */
	report(db, rc, "prepare a query", (rc & 0xff) == SQLITE_ERROR ? sql : NULL, file, line);
	sqlite3_finalize(st);
	return NULL;
}

void db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

void db_bind_double(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

char *db_column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? xstrdup((const char *)s) : NULL;
}

double db_column_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* Switching a new ledger to WAL needs a moment of exclusive access, and
 * there SQLite answers SQLITE_BUSY at once instead of calling the busy
 * handler (two agents creating the same ledger together): retry for as long
 * as the busy timeout would wait. */
static int exec_retry_busy(sqlite3 *db, const char *sql, int timeout_ms)
{
	int rc = SQLITE_OK;
	for (int waited = 0; waited <= timeout_ms; waited += 10) {
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY)
			break;
		sqlite3_sleep(10);
	}
	return rc; /* the caller words the error */
}

/* PRAGMA user_version, or -1 when it cannot be read (reported). */
static int schema_version(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "PRAGMA user_version");
	int v = db_step(st, "read the schema version") == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return v;
}

/* The message above said what SQLite said; say which file, and what to do
 * for the two common cases. */
static void open_failed_hint(sqlite3 *db, const char *path)
{
	int rc = sqlite3_extended_errcode(db);
	if ((rc & 0xff) == SQLITE_NOTADB)
		rl_hint("'%s' is not an SQLite database; pass --db FILE to name the ledger "
			"(or a new file, to start one)", path);
	else if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN)
		rl_hint("the ledger '%s' and its directory must be writable (WAL mode keeps "
			"'%s-wal' and '%s-shm' beside it)", path, path, path);
	else if ((rc & 0xff) == SQLITE_CORRUPT) /* the schema's page: no command opens it */
		rl_hint("the ledger '%s' is damaged where it keeps its schema, so nothing can open it; "
			"ingest the source files again into a new ledger (ingest is idempotent), or recover "
			"what is readable with 'sqlite3 %s .recover'", path, path);
}

/* The changes table is made again from the schema text on the way to
 * version 2 (it gained how = 'code', span and infer_version) and to 4 (its
 * CHECK became ORs, which ingest checks far faster than an IN list):
 * SQLite cannot alter a CHECK constraint. Renamed out before the schema is
 * made (schema_create_missing), copied in after; a version 1 table has no
 * span and no version. */
static const char *const upgrade_changes_out =
	"ALTER TABLE changes RENAME TO changes_old; DROP INDEX IF EXISTS changes_var;";
static const char *const upgrade_changes_in_v1 =
	"INSERT INTO changes(run, var, old, new, how) SELECT run, var, old, new, how FROM changes_old;"
	"DROP TABLE changes_old;";
static const char *const upgrade_changes_in =
	"INSERT INTO changes(run, var, old, new, how, span, infer_version)"
	" SELECT run, var, old, new, how, span, infer_version FROM changes_old;"
	"DROP TABLE changes_old;";

/* Create the schema in a new ledger, or bring an older one up to this
 * version, in one transaction: a failure leaves the ledger as it was. The
 * version is read again inside the transaction, since another process may
 * have upgraded it meanwhile. */
/* BEGIN IMMEDIATE for db_upgrade: 1 when begun, 0 when another process
 * made the schema meanwhile (nothing left to do), -1 after 30 s. Agents
 * that open a new ledger together all see version 0; the first makes the
 * schema and goes on to ingest its file, holding the lock for as long as
 * that takes, so the others look at the version again while they wait
 * instead of waiting for that file (ingest_core.c waits for its own).
 * SQLite's BEGIN IMMEDIATE itself, not db_begin_write: it runs inside
 * db_open on a connection no hooks are set on yet (a replica's file is
 * upgraded as a local file; replica.c then finds it made by another
 * schema version and copies the server's tables into it). */
static int begin_upgrade(sqlite3 *db)
{
	for (int waited_ms = 0;; waited_ms += 100) {
		sqlite3_busy_timeout(db, 100);
		int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
		sqlite3_busy_timeout(db, db_busy_timeout_ms());
		if (rc == SQLITE_OK)
			return 1;
		if ((rc & 0xff) != SQLITE_BUSY || waited_ms >= 30000) {
			rl_error("database: %s", sqlite3_errmsg(db));
			return -1;
		}
		if (schema_version(db) >= LEDGER_SCHEMA_VERSION)
			return 0;
	}
}

static int db_upgrade(sqlite3 *db, const char *path)
{
	int begun = begin_upgrade(db);
	if (begun <= 0)
		return begun;
	int v = schema_version(db);
	int rc = v < 0 ? -1 : 0; /* unreadable: reported */
	if (v >= 1 && v < LEDGER_SCHEMA_VERSION)
		rl_warn("ledger '%s': upgrading its schema from version %d to %d", path, v,
			LEDGER_SCHEMA_VERSION);
	if (!rc && v >= 1 && v < 4)
		rc = db_exec(db, upgrade_changes_out);
	/* 2 -> 3 adds the annotations table and its index, 3 -> 4 the metrics
	 * table: made here from the schema text, with what else is missing */
	if (!rc && v < LEDGER_SCHEMA_VERSION)
		rc = schema_create_missing(db);
	if (!rc && v >= 1 && v < 4)
		rc = db_exec(db, v < 2 ? upgrade_changes_in_v1 : upgrade_changes_in);
	/* 3 -> 4: the metrics of the runs already stored, from their records
	 * (made anew: a ledger whose version was set back by hand keeps its
	 * table, and its rows may be stale) */
	if (!rc && v >= 1 && v < 4)
		rc = db_exec(db, "DELETE FROM metrics") || db_exec(db, metrics_fill_sql(DIALECT_SQLITE, 0));
	if (!rc && v < LEDGER_SCHEMA_VERSION) {
		char sql[64];
		snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", LEDGER_SCHEMA_VERSION);
		rc = db_exec(db, sql);
	}
	if (rc || db_commit(db)) {
		db_rollback(db);
		return -1;
	}
	return 0;
}

/* ---- why a ledger cannot be written -------------------------------- */

/* The directory part of path ("." for a bare name), malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* What keeps the ledger at path from being written, in words ("its
 * directory 'd' is not writable (Permission denied)"); empty when nothing
 * the file system says explains it. access() answers for the real user,
 * root included: a mode 0444 file is writable for root, an immutable file
 * (chattr +i) or a read-only mount is not. */
static void write_problem(const char *path, sb *why)
{
	char *dir = dir_of(path);
	struct statvfs vfs;
	if (statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		sb_addf(why, "it is on a read-only file system");
	else if (access(path, F_OK) == 0 && access(path, W_OK))
		sb_addf(why, "the file is read-only (%s)", strerror(errno));
	else if (access(dir, W_OK))
		sb_addf(why, "its directory '%s' is not writable (%s)", dir, strerror(errno));
	free(dir);
}

/* One message for every way a ledger can be read-only: file, directory,
 * mount. Returns 1 when it explained the failure. */
static int refuse_readonly(const char *path, const char *sqlite_said)
{
	sb why = SB_INIT;
	write_problem(path, &why);
	if (!why.len && !sqlite_said) {
		sb_release(&why);
		return 0;
	}
	rl_error("cannot write to ledger '%s': %s", path, why.len ? why.buf : sqlite_said);
	rl_hint("ingest, init, campaign add/assign, reinfer, note, tag, decide and archive write the ledger: it "
		"and its directory must be writable (WAL mode keeps '%s-wal' and '%s-shm' beside it); query, show, "
		"diff, compare, frontier, repeats, summary, quarantine, audit, export, campaign list/show and report "
		"read a read-only ledger", path, path);
	sb_release(&why);
	return 1;
}

double db_busy_env_s(void)
{
	const char *env = getenv("LEDGER_BUSY_TIMEOUT");
	double s;
	return env && *env && !parse_double(env, &s) && s >= 0 && s <= 86400 ? s : -1;
}

static double write_wait_s = -1;
static int write_wait_given;

void db_set_write_wait(double seconds)
{
	write_wait_s = seconds;
	write_wait_given = 1;
}

double db_write_wait_s(const char **set_by)
{
	*set_by = write_wait_given ? "--wait" : "LEDGER_BUSY_TIMEOUT";
	return write_wait_given ? write_wait_s : db_busy_env_s();
}

/* The busy timeout: 30 s, or $LEDGER_BUSY_TIMEOUT seconds (docs/ledger.md):
 * an agent that would rather fail fast than wait, and the tests. */
int db_busy_timeout_ms(void)
{
	double s = db_busy_env_s();
	return s >= 0 ? (int)(s * 1000) : 30000;
}

/* ---- the clock of "lost" ----------------------------------------- */

double db_now(void)
{
	static double now = NAN;
	if (!isnan(now))
		return now;
	const char *env = getenv("RUNLEDGER_NOW");
	if (env && *env && parse_iso_utc(env, &now)) {
		rl_warn("RUNLEDGER_NOW '%s' is not an ISO-8601 UTC time; using the clock", env);
		now = NAN;
	}
	if (isnan(now))
		now = (double)time(NULL);
	return now;
}

static void sql_rl_now(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_double(ctx, db_now());
}

/* rl_number(x): x as a number when it is one: an integer, a real, or text
 * that reads whole as a finite number ("12", " 0.04"); else NULL. The
 * filters compare config values with it (ledger/where.c): a record holds
 * 12, a change inferred from a description the text "12". */
static void sql_rl_number(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	double x;
	int type = sqlite3_value_type(argv[0]);
	if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
		sqlite3_result_value(ctx, argv[0]);
	else if (type == SQLITE_TEXT &&
		 !parse_double((const char *)sqlite3_value_text(argv[0]), &x) && isfinite(x))
		sqlite3_result_double(ctx, x);
	else
		sqlite3_result_null(ctx);
}

/* What every connection gets, read-only or not: the busy timeout,
 * rl_now() (constant for the process: every read of a command judges
 * "lost" alike) and rl_number(). */
static void connection_setup(sqlite3 *db)
{
	sqlite3_busy_timeout(db, db_busy_timeout_ms());
	sqlite3_create_function(db, "rl_now", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				sql_rl_now, NULL, NULL);
	sqlite3_create_function(db, "rl_number", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				sql_rl_number, NULL, NULL);
}

void db_run_status(struct sb *sql, const char *alias)
{
	sb_addf(sql, RUN_STATUS_SQL("%1$s."), alias);
}

int db_open(const char *path, sqlite3 **out)
{
	sqlite3 *db = NULL;
	*out = NULL;
	/* Each connection is used by one thread only (ingest's worker never
	 * touches the database), and nothing reads SQLite's memory statistics:
	 * so no per-connection mutex and no global statistics mutex around
	 * every allocation. -3% CPU and wall on a 3*10^5-record ingest.
	 * sqlite3_config works only before SQLite initialises: on a second
	 * db_open it answers SQLITE_MISUSE, which changes nothing. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		if (!refuse_readonly(path, NULL)) {
			rl_error("cannot open ledger '%s': %s", path, db ? sqlite3_errmsg(db) : "out of memory");
			rl_hint("check the path and its permissions, or pass --db FILE");
		}
		sqlite3_close(db);
		return -1;
	}
	/* SQLite opens a file it may not write read-only without a word, and
	 * the first INSERT then failed deep in store.c ("attempt to write a
	 * readonly database"): say it here, as for a read-only directory. */
	if (sqlite3_db_readonly(db, "main") == 1) {
		refuse_readonly(path, "SQLite could open it only for reading");
		sqlite3_close(db);
		return -1;
	}
	/* Several agents may ingest into one ledger at once: WAL lets readers
	 * run beside one writer, and the busy timeout makes writers wait their
	 * turn instead of failing. */
	connection_setup(db);
	/* 16 KB pages for a new ledger (set before WAL, which fixes the size;
	 * an existing ledger keeps its own): rows hold ~1 KB of record text,
	 * and fewer, fuller pages mean fewer WAL frames and index levels.
	 * 10^6-record ingest 39.9 -> 30.4 s (8 KB: 33.3 s); frontier and
	 * query on the result no slower (0.12 -> 0.10-0.12 s, 0.09 -> 0.06 s). */
	int prc = exec_retry_busy(db, "PRAGMA page_size=16384; PRAGMA journal_mode=WAL;"
				      " PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;", db_busy_timeout_ms());
	if (prc != SQLITE_OK) {
		if (((prc & 0xff) == SQLITE_READONLY || (prc & 0xff) == SQLITE_CANTOPEN) &&
		    refuse_readonly(path, NULL)) {
			sqlite3_close(db);
			return -1;
		}
		rl_error("database: %s", sqlite3_errmsg(db));
		goto fail;
	}
	int v = schema_version(db);
	if (v < 0) { /* reported, with its hint */
		sqlite3_close(db);
		return -1;
	}
	if (v > LEDGER_SCHEMA_VERSION) {
		rl_error("ledger '%s' has schema version %d; this ledger understands up to %d",
			 path, v, LEDGER_SCHEMA_VERSION);
		rl_hint("upgrade runledger");
		goto fail;
	}
	if (v < LEDGER_SCHEMA_VERSION && db_upgrade(db, path))
		goto fail;
	*out = db;
	return 0;
fail:
	open_failed_hint(db, path);
	sqlite3_close(db);
	return -1;
}

/* ---- read-only ------------------------------------------------------ */

/* "file:" URI of path for sqlite3_open_v2 with SQLITE_OPEN_URI: '%', '?'
 * and '#' (and bytes outside printable ASCII) percent-escaped. */
static void file_uri(const char *path, const char *query, sb *uri)
{
	sb_adds(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || strchr("%?#", *p))
			sb_addf(uri, "%%%02X", *p);
		else
			sb_addc(uri, (char)*p);
	sb_addf(uri, "?%s", query);
}

/* Version and table count, the first read; an SQLite result code. */
static int probe(sqlite3 *db, int *version, int *tables)
{
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT (SELECT user_version FROM pragma_user_version),"
				    " (SELECT count(*) FROM sqlite_master)", -1, &q, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		*version = sqlite3_column_int(q, 0);
		*tables = sqlite3_column_int(q, 1);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(q);
	return rc;
}

static int open_ro(const char *name, int flags, sqlite3 **db)
{
	int rc = sqlite3_open_v2(name, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | flags, NULL);
	if (rc == SQLITE_OK)
		connection_setup(*db);
	return rc;
}

/* Size of path's write-ahead log, 0 when there is none. */
static long long wal_size(const char *path)
{
	sb wal = SB_INIT;
	struct stat st;
	sb_addf(&wal, "%s-wal", path);
	long long n = stat(wal.buf, &st) == 0 ? (long long)st.st_size : 0;
	sb_release(&wal);
	return n;
}

int db_open_read(const char *path, sqlite3 **out)
{
	sqlite3 *db = NULL;
	int version = 0, tables = 0, rc;
	*out = NULL;
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	rc = open_ro(path, 0, &db);
	if (rc == SQLITE_OK)
		rc = probe(db, &version, &tables);
	/* A WAL ledger is read through its -shm index, which a reader creates
	 * when it is missing; in a read-only directory or on a read-only mount
	 * it cannot (SQLITE_CANTOPEN, or SQLITE_READONLY_CANTINIT when it may
	 * not write the directory). With no write-ahead log there is
	 * nothing the index would point into, and no writer can be at work
	 * (a writer keeps a log), so the file is read as it lies, unlocked. */
	if (((rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_READONLY) && wal_size(path) == 0) {
		sqlite3_close(db);
		sb uri = SB_INIT;
		file_uri(path, "immutable=1", &uri);
		rc = open_ro(uri.buf, SQLITE_OPEN_URI, &db);
		sb_release(&uri);
		if (rc == SQLITE_OK)
			rc = probe(db, &version, &tables);
	}
	if (rc != SQLITE_OK) {
		rl_error("cannot read ledger '%s': %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		if (((rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_READONLY) && wal_size(path) > 0)
			rl_hint("its write-ahead log '%s-wal' holds changes not yet in the file, and reading them "
				"needs '%s-shm', which cannot be made here: open it once where its directory is "
				"writable, or copy the ledger with its -wal to a writable place", path, path);
		else
			open_failed_hint(db, path);
		sqlite3_close(db);
		return -1;
	}
	if (version == 0 && tables == 0) {
		rl_error("ledger '%s' is empty: not a ledger yet, so there is nothing to read", path);
		rl_hint("'ledger ingest FILE' or 'ledger init' makes it a ledger; a read command leaves it "
			"as it is");
		sqlite3_close(db);
		return -1;
	}
	if (version > LEDGER_SCHEMA_VERSION) {
		rl_error("ledger '%s' has schema version %d; this ledger understands up to %d", path, version,
			 LEDGER_SCHEMA_VERSION);
		rl_hint("upgrade runledger");
		sqlite3_close(db);
		return -1;
	}
	if (version < LEDGER_SCHEMA_VERSION) {
		/* an older ledger is moved up once, as every open did before:
		 * the read commands need the current tables */
		sqlite3_close(db);
		return db_open(path, out);
	}
	*out = db;
	return 0;
}

void db_close(sqlite3 *db)
{
	sqlite3_close(db);
}
