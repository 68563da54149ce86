/* pg_schema.c — the ledger schema on PostgreSQL (pg_schema.h): dialect.c's
 * statements expanded for PostgreSQL, and the table that records the
 * version:
 *
 * ledger_meta  key TEXT PRIMARY KEY, value TEXT: 'schema_version' (db.h
 *              LEDGER_SCHEMA_VERSION, as SQLite's PRAGMA user_version),
 *              'created_by' (runledger VERSION), 'created_at' (ISO-8601 UTC)
 *
 *              'ledger_id' (random, made with the change log: which ledger a
 *              replica copies; a database dropped and made again is another)
 *
 * A table rather than a COMMENT: any role that may read the ledger can
 * read it with a plain SELECT, and it has room for what comes later.
 *
 * ledger_log   the change log the local replicas follow (replica.c): one
 *              row per committed write, seq in commit order (writers hold
 *              the ledger's advisory lock), changeset the SQLite session
 *              changeset of that write, who the role, command the ledger
 *              command, at the server's time. */
#include <stdlib.h>
#include <string.h>
#include "db.h"
#include "dialect.h"
#include "metrics.h"
#include "pg_schema.h"
#include "util.h"
#include "opts.h"

/* pg_advisory_lock key of the schema's creation: "runl" */
#define SCHEMA_LOCK "1920298604"

/* 1 when the relation name exists in the search path, 0 when not, -1 on error */
static int relation_exists(struct pg *pg, const char *name)
{
	const char *p[] = { name };
	PGresult *r = pg_exec(pg, "look for the ledger's tables", "SELECT to_regclass($1) IS NOT NULL", 1, p);
	if (!r)
		return -1;
	int yes = !strcmp(PQgetvalue(r, 0, 0), "t");
	PQclear(r);
	return yes;
}

int pg_schema_version(struct pg *pg, int *version)
{
	*version = 0;
	int has = relation_exists(pg, "ledger_meta");
	if (has <= 0)
		return has;
	const char *p[] = { "schema_version" };
	PGresult *r = pg_exec(pg, "read the schema version", "SELECT value FROM ledger_meta WHERE key = $1", 1, p);
	if (!r)
		return -1;
	long v = PQntuples(r) == 1 ? strtol(PQgetvalue(r, 0, 0), NULL, 10) : 0;
	PQclear(r);
	if (v <= 0) {
		rl_error("PostgreSQL ledger '%s': its table ledger_meta holds no schema_version", pg->name);
		rl_hint("the ledger was damaged by hand; restore it from a backup, or 'ledger export' "
			"an SQLite copy and start a new database");
		return -1;
	}
	*version = (int)v;
	return 0;
}

/* A version this runledger cannot use: -1 with what to do. */
static int refuse_version(struct pg *pg, int v)
{
	if (v > LEDGER_SCHEMA_VERSION) {
		rl_error("PostgreSQL ledger '%s' has schema version %d; this ledger understands up to %d",
			 pg->name, v, LEDGER_SCHEMA_VERSION);
		rl_hint("upgrade runledger");
	} else { /* PostgreSQL ledgers began at version 3 */
		rl_error("PostgreSQL ledger '%s' has schema version %d, which runledger never made on "
			 "PostgreSQL", pg->name, v);
		rl_hint("its ledger_meta was changed by hand; restore it from a backup, or 'ledger export' "
			"an SQLite copy and start a new database");
	}
	return -1;
}

/* The change log and the ledger's identity, inside the caller's transaction. */
static int create_log(struct pg *pg)
{
	return pg_run(pg, "create 'ledger_log'",
		      "CREATE TABLE IF NOT EXISTS ledger_log(seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
		      " changeset BYTEA NOT NULL, who TEXT NOT NULL DEFAULT current_user, command TEXT,"
		      " at TIMESTAMPTZ NOT NULL DEFAULT now())", 0, NULL) ||
	       pg_run(pg, "record the ledger's identity",
		      "INSERT INTO ledger_meta(key, value) VALUES ('ledger_id',"
		      " md5(random()::text || clock_timestamp()::text || pg_backend_pid()::text))"
		      " ON CONFLICT (key) DO NOTHING", 0, NULL);
}

/* The first version a PostgreSQL ledger had, and so the oldest one
 * upgrade_schema moves up. */
#define PG_FIRST_VERSION 3

/* Version 3 -> 4, inside the caller's transaction: the tables and indexes
 * the ledger lacks (the metrics table), the metrics of the runs already
 * stored made from their records, the new version. Only the owner of the
 * tables (the role that ran 'ledger init') may create them; another role
 * is told so. */
static int upgrade_schema(struct pg *pg, int v)
{
	rl_warn("PostgreSQL ledger '%s': upgrading its schema from version %d to %d", pg->name, v,
		LEDGER_SCHEMA_VERSION);
	int rc = 0;
	for (size_t i = 0; !rc && i < dialect_schema_count(); i++) {
		char name[64];
		dialect_schema_name(i, name, sizeof(name));
		int has = relation_exists(pg, name);
		sb sql = SB_INIT, purpose = SB_INIT;
		sb_addf(&purpose, "create '%s'", name);
		rc = has < 0 || (!has && (dialect_expand(DIALECT_PG, dialect_schema(i), &sql) ||
					  pg_run(pg, purpose.buf, sql.buf, 0, NULL)));
		sb_release(&sql);
		sb_release(&purpose);
	}
	if (!rc)
		rc = pg_run(pg, "make the metrics of the stored runs", "DELETE FROM metrics", 0, NULL) ||
		     pg_run(pg, "make the metrics of the stored runs", metrics_fill_sql(DIALECT_PG, 0), 0, NULL);
	char version[16];
	snprintf(version, sizeof(version), "%d", LEDGER_SCHEMA_VERSION);
	const char *meta[] = { "schema_version", version };
	if (!rc)
		rc = pg_run(pg, "record the schema version", "UPDATE ledger_meta SET value = $2 WHERE key = $1", 2,
			    meta);
	if (rc && !strcmp(pg->sqlstate, "42501")) /* insufficient_privilege */
		rl_hint("upgrading changes the ledger's tables, which only their owner may: run 'ledger --db "
			"URL init' once as the role that ran 'ledger init' (the tables' owner); then grant the "
			"new table to the ingest and read roles (docs/postgres.md, roles)");
	return rc ? -1 : 0;
}

/* Every table and index, then the version, inside the caller's transaction. */
static int create_schema(struct pg *pg)
{
	for (size_t i = 0; i < dialect_schema_count(); i++) {
		sb sql = SB_INIT;
		char name[64];
		dialect_schema_name(i, name, sizeof(name));
		sb purpose = SB_INIT;
		sb_addf(&purpose, "create '%s'", name);
		int rc = dialect_expand(DIALECT_PG, dialect_schema(i), &sql) ||
			 pg_run(pg, purpose.buf, sql.buf, 0, NULL);
		sb_release(&sql);
		sb_release(&purpose);
		if (rc)
			return -1;
	}
	char version[16], now[32], by[64];
	snprintf(version, sizeof(version), "%d", LEDGER_SCHEMA_VERSION);
	snprintf(by, sizeof(by), "runledger %s", rl_version);
	utc_now_iso(now, sizeof(now));
	const char *meta[] = { "schema_version", version, "created_by", by, "created_at", now };
	return pg_run(pg, "create 'ledger_meta'",
		      "CREATE TABLE ledger_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)", 0, NULL) ||
	       pg_run(pg, "record the schema version",
		      "INSERT INTO ledger_meta(key, value) VALUES ($1, $2), ($3, $4), ($5, $6)", 6, meta) ||
	       create_log(pg);
}

/* Under the lock: look again (another agent may have made or upgraded it
 * while this one waited), then make or upgrade it in one transaction. The transaction begins
 * after the lock is held, so it reads the catalog as the other left it. */
static int ensure_locked(struct pg *pg, int *created)
{
	int v;
	if (pg_run(pg, "begin the schema's transaction", "BEGIN", 0, NULL))
		return -1;
	int rc = pg_schema_version(pg, &v);
	if (!rc && v && (v > LEDGER_SCHEMA_VERSION || v < PG_FIRST_VERSION))
		rc = refuse_version(pg, v);
	else if (!rc && v && v < LEDGER_SCHEMA_VERSION)
		rc = upgrade_schema(pg, v);
	if (!rc && !v) {
		int runs = relation_exists(pg, "runs");
		if (runs > 0) {
			rl_error("PostgreSQL ledger '%s' has a table 'runs' but no ledger_meta: it is not a "
				 "runledger ledger, and nothing was created in it", pg->name);
			rl_hint("name another database, or another schema with "
				"?options=-csearch_path%%3DNAME in the URL");
		}
		rc = runs != 0 || create_schema(pg);
	}
	if (rc || pg_run(pg, "commit the schema", "COMMIT", 0, NULL)) {
		pg_rollback(pg);
		return -1;
	}
	*created = !v;
	return 0;
}

int pg_schema_ensure(struct pg *pg, int *created)
{
	int v;
	*created = 0;
	if (pg_schema_version(pg, &v))
		return -1;
	if (v == LEDGER_SCHEMA_VERSION) /* nothing to write */
		return 0;
	if (v > LEDGER_SCHEMA_VERSION || (v && v < PG_FIRST_VERSION))
		return refuse_version(pg, v);
	/* A session lock, not a transaction's: a transaction that began
	 * before the wait would keep reading the catalog from before it
	 * (two inits at once: the second saw 'runs' but not 'ledger_meta').
	 * It ends with the connection should this process die. */
	if (pg_run(pg, "lock the schema's creation", "SELECT pg_advisory_lock(" SCHEMA_LOCK ")", 0, NULL))
		return -1;
	int rc = ensure_locked(pg, created);
	if (pg_run(pg, "unlock the schema's creation", "SELECT pg_advisory_unlock(" SCHEMA_LOCK ")", 0, NULL))
		rc = -1;
	return rc;
}

/* ---- the change log (an older ledger made before replicas) --------- */

/* 1 when ledger_log and the ledger_id are there, 0 when not, -1 on error */
static int log_present(struct pg *pg)
{
	PGresult *r = pg_exec(pg, "look for the change log",
			      "SELECT to_regclass('ledger_log') IS NOT NULL"
			      " AND EXISTS (SELECT 1 FROM ledger_meta WHERE key = 'ledger_id')", 0, NULL);
	if (!r)
		return -1;
	int yes = !strcmp(PQgetvalue(r, 0, 0), "t");
	PQclear(r);
	return yes;
}

int pg_log_ensure(struct pg *pg)
{
	int has = log_present(pg);
	if (has)
		return has < 0 ? -1 : 0;
	if (pg_run(pg, "lock the schema's creation", "SELECT pg_advisory_lock(" SCHEMA_LOCK ")", 0, NULL))
		return -1;
	int rc = pg_run(pg, "begin the change log's transaction", "BEGIN", 0, NULL);
	if (!rc && (has = log_present(pg)) == 0) {
		pg->quiet = 1; /* a role that may not create it is told below, once */
		rc = create_log(pg);
		pg->quiet = 0;
	}
	if (!rc && has >= 0)
		rc = pg_run(pg, "commit the change log", "COMMIT", 0, NULL);
	else
		rc = -1;
	if (rc) {
		pg_rollback(pg);
		rl_error("PostgreSQL ledger '%s' has no change log (table ledger_log), which every command but "
			 "init and check reads, and it could not be made here%s%s", pg->name,
			 *pg->sqlstate ? ": SQLSTATE " : "", pg->sqlstate);
		rl_hint("run 'ledger --db URL init' once as the ledger's owner (it adds the log to a ledger "
			"made by an older runledger), then GRANT the roles of docs/postgres.md#roles again");
	}
	if (pg_run(pg, "unlock the schema's creation", "SELECT pg_advisory_unlock(" SCHEMA_LOCK ")", 0, NULL))
		rc = -1;
	return rc;
}

/* ---- checks ---------------------------------------------------------- */

/* The schema's object names as a PostgreSQL array literal: {runs,changes,…} */
static void schema_names(sb *out)
{
	sb_addc(out, '{');
	for (size_t i = 0; i < dialect_schema_count(); i++) {
		char name[64];
		dialect_schema_name(i, name, sizeof(name));
		sb_addf(out, "%s%s", i ? "," : "", name);
	}
	sb_adds(out, ",ledger_log}"); /* the replicas' change log: 'ledger init' makes it */
}

/* 1 when name is one of the schema's indexes, 0 when a table */
static int is_index(const char *name)
{
	for (size_t i = 0; i < dialect_schema_count(); i++) {
		char n[64];
		dialect_schema_name(i, n, sizeof(n));
		if (!strcmp(n, name))
			return !strncmp(dialect_schema(i), "CREATE INDEX", 12);
	}
	return 0;
}

/* "schema": version, missing tables and indexes, invalid indexes; *usable
 * is 1 when every table is there (the other check reads them). */
static int check_schema(struct pg *pg, struct ledger_check *out, int *usable)
{
	int v;
	*usable = 0;
	if (pg_schema_version(pg, &v))
		return -1;
	if (!v) {
		ledger_check_add(out, "schema", "no ledger here (no table ledger_meta): 'ledger init' creates one");
		return 0;
	}
	sb text = SB_INIT, names = SB_INIT;
	if (v != LEDGER_SCHEMA_VERSION) {
		sb_addf(&text, "schema version %d; this runledger uses %d", v, LEDGER_SCHEMA_VERSION);
		ledger_check_add(out, "schema", text.buf);
	}
	schema_names(&names);
	const char *p[] = { names.buf };
	PGresult *r = pg_exec(pg, "look for the ledger's tables and indexes",
			      "SELECT n, 'missing' FROM unnest($1::text[]) AS n WHERE to_regclass(n) IS NULL"
			      " UNION ALL"
			      " SELECT c.relname, 'invalid' FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
			      " WHERE c.relname = ANY($1::text[]) AND NOT i.indisvalid"
			      " AND c.relnamespace = to_regnamespace(current_schema())",
			      1, p);
	int missing_table = 0;
	for (int i = 0; r && i < PQntuples(r); i++) {
		const char *name = PQgetvalue(r, i, 0);
		int index = is_index(name);
		sb_reset(&text);
		if (!strcmp(PQgetvalue(r, i, 1), "missing"))
			sb_addf(&text, "%s '%s' is missing", index ? "index" : "table", name);
		else
			sb_addf(&text, "index '%s' is invalid (a CREATE INDEX that failed): REINDEX INDEX %s", name, name);
		missing_table |= !index;
		ledger_check_add(out, "schema", text.buf);
	}
	*usable = r && !missing_table;
	PQclear(r);
	sb_release(&text);
	sb_release(&names);
	return r ? 0 : -1;
}

/* "foreign_key_check": rows that name a run the runs table lacks */
static int check_references(struct pg *pg, struct ledger_check *out)
{
	PGresult *r = pg_exec(pg, "look for rows whose run is gone",
			      "SELECT t, n FROM ("
			      " SELECT 'changes' AS t, count(*) AS n FROM changes x"
			      "  WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = x.run)"
			      " UNION ALL SELECT 'campaign_runs', count(*) FROM campaign_runs x"
			      "  WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = x.run)"
			      " UNION ALL SELECT 'annotations', count(*) FROM annotations x"
			      "  WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = x.run)"
			      ") AS orphans WHERE n > 0",
			      0, NULL);
	for (int i = 0; r && i < PQntuples(r); i++) {
		sb text = SB_INIT;
		sb_addf(&text, "%s: %s rows name a run that is not in runs", PQgetvalue(r, i, 0),
			PQgetvalue(r, i, 1));
		ledger_check_add(out, "foreign_key_check", text.buf);
		sb_release(&text);
	}
	PQclear(r);
	return r ? 0 : -1;
}

int pg_check(struct pg *pg, struct ledger_check *out)
{
	memset(out, 0, sizeof(*out));
	out->checks[0] = "schema";
	out->checks[1] = "foreign_key_check";
	int usable;
	if (check_schema(pg, out, &usable))
		return -1;
	if (!usable) {
		if (!out->n)
			ledger_check_add(out, "foreign_key_check", "not run: tables are missing");
		return 0;
	}
	return check_references(pg, out);
}
