/* pg_log.c — `ledger trim-log`'s work on the server (pg_log.h). */
#include <stdlib.h>
#include <string.h>
#include "dialect.h"
#include "pg_log.h"
#include "util.h"

/* The ledger's tables (not its indexes) as a PostgreSQL array literal:
 * {runs,changes,…}; pg_total_relation_size counts each one's indexes. */
static void table_names(sb *out)
{
	sb_addc(out, '{');
	int first = 1;
	for (size_t i = 0; i < dialect_schema_count(); i++) {
		if (strncmp(dialect_schema(i), "CREATE TABLE", 12))
			continue;
		char name[64];
		dialect_schema_name(i, name, sizeof(name));
		sb_addf(out, "%s%s", first ? "" : ",", name);
		first = 0;
	}
	sb_addc(out, '}');
}

/* One row of bigints as text from sql into v[0..n-1]; 0 or -1 (reported) */
static int read_counts(struct pg *pg, const char *purpose, const char *sql, int nparams,
		       const char *const *params, long long *v, int n)
{
	PGresult *res = pg_exec(pg, purpose, sql, nparams, params);
	if (!res)
		return -1;
	for (int i = 0; i < n; i++)
		v[i] = PQntuples(res) == 1 && !PQgetisnull(res, 0, i) ? strtoll(PQgetvalue(res, 0, i), NULL, 10) : 0;
	PQclear(res);
	return 0;
}

/* What to remove: out->tables_bytes, ->keep_bytes, ->through,
 * ->removed(_bytes), ->kept(_bytes), read inside the caller's
 * transaction. */
static int measure(struct pg *pg, long long keep_bytes, struct pg_log_trim *out)
{
	sb names = SB_INIT;
	table_names(&names);
	const char *tp[] = { names.buf };
	int rc = read_counts(pg, "measure the ledger's tables",
			     "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text FROM pg_class c"
			     " WHERE c.relkind = 'r' AND c.relname = ANY($1::text[])"
			     " AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())",
			     1, tp, &out->tables_bytes, 1);
	sb_release(&names);
	if (rc)
		return -1;
	out->keep_bytes = keep_bytes >= 0 ? keep_bytes : out->tables_bytes;
	char limit[32];
	snprintf(limit, sizeof(limit), "%lld", out->keep_bytes);
	const char *lp[] = { limit };
	long long removed[3], all[2];
	/* newer: the bytes of this entry and every one after it; what a replica
	 * standing just before it would have to replay */
	rc = read_counts(pg, "measure the change log",
			 "SELECT max(seq)::text, count(*)::text, coalesce(sum(len), 0)::text FROM"
			 " (SELECT seq, octet_length(changeset) AS len,"
			 "  sum(octet_length(changeset)) OVER (ORDER BY seq DESC) AS newer FROM ledger_log) s"
			 " WHERE newer > $1::bigint",
			 1, lp, removed, 3) ||
	     read_counts(pg, "measure the change log",
			 "SELECT count(*)::text, coalesce(sum(octet_length(changeset)), 0)::text FROM ledger_log", 0, NULL,
			 all, 2);
	if (rc)
		return -1;
	out->through = removed[0];
	out->removed = removed[1];
	out->removed_bytes = removed[2];
	out->kept = all[0] - removed[1];
	out->kept_bytes = all[1] - removed[2];
	return 0;
}

/* Record the watermark and remove the entries up to it, inside the
 * caller's transaction; the watermark never moves back. */
static int remove_through(struct pg *pg, long long through)
{
	char v[32];
	snprintf(v, sizeof(v), "%lld", through);
	const char *p[] = { PG_LOG_TRIMMED_KEY, v };
	return pg_run(pg, "record how far the change log is trimmed",
		      "INSERT INTO ledger_meta(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE"
		      " SET value = greatest(ledger_meta.value::bigint, excluded.value::bigint)::text",
		      2, p) ||
	       pg_run(pg, "remove the change log's old entries", "DELETE FROM ledger_log WHERE seq <= $1::bigint", 1,
		      p + 1);
}

int pg_log_trim(struct pg *pg, int dry_run, long long keep_bytes, struct pg_log_trim *out)
{
	memset(out, 0, sizeof(*out));
	if (pg_run(pg, "begin the trim", "BEGIN", 0, NULL))
		return -1;
	int rc = (dry_run ? 0 : pg_run(pg, "lock the ledger for writing", PG_WRITE_LOCK_SQL, 0, NULL)) ||
		 measure(pg, keep_bytes, out);
	if (!rc && !dry_run && out->removed) {
		rc = remove_through(pg, out->through);
		if (rc && !strcmp(pg->sqlstate, "42501")) /* insufficient_privilege */
			rl_hint("trim-log removes log entries: run it as the tables' owner (the role that ran "
				"'ledger init'), which may DELETE from ledger_log and UPDATE ledger_meta");
	}
	if (!rc && !dry_run)
		return pg_run(pg, "commit the trim", "COMMIT", 0, NULL);
	pg_rollback(pg);
	return rc;
}
