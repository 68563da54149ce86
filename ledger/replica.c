/* replica.c — a local SQLite replica of a PostgreSQL ledger (replica.h;
 * docs/postgres.md, "replicas"). The one file that uses SQLite's session
 * extension (Debian's libsqlite3 exports it; the header declares it when
 * asked to). */
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db.h"
#include "pg_schema.h"
#include "pg_log.h"
#include "replica.h"
#include "sha256.h"
#include "util.h"

/* log entries fetched per round trip while catching up */
#define PULL_BATCH "256"
/* rows of the server's tables fetched per round trip while copying */
#define COPY_BATCH "5000"
/* rows per multi-row INSERT on the server: fewer round trips, and within
 * PostgreSQL's 65535 parameters for any table of the ledger */
#define INSERT_ROWS 500

/* A table of the ledger as the replica has it: the order of its columns
 * is the changeset's; depth: how many foreign keys lie above it (runs 0,
 * changes 1), so that parents are written before their children. */
struct rtable {
	char *name;
	int ncol;
	char **cols;
	char *kind; /* per column: 'i' integer, 'r' real, 't' text, 'b' blob */
	int *pk;    /* per column: its place in the primary key (1, 2…), 0 if not in it */
	int depth;
	int inserted; /* rows of this table the write being sent inserts */
};

struct replica {
	struct pg *pg;
	sqlite3 *db;
	char *path, *name;
	const char *command;
	char ledger_id[64];
	long long log_trimmed; /* the server's PG_LOG_TRIMMED_KEY (pg_log.h) */
	struct rtable *tables;
	int ntables;
	sqlite3_session *session;
	int in_write;  /* a write transaction is open on the server and here */
	int internal;  /* replica.c's own transaction (catching up, copying) */
};

struct pg *replica_pg(struct replica *r)
{
	return r->pg;
}

const char *replica_name(const struct replica *r)
{
	return r->name;
}

const char *replica_path(const struct replica *r)
{
	return r->path;
}

/* the replica's own statements (its transactions included: they are the
 * hooks' work); 0, or -1 reported as db_step does */
static int lite_exec(struct replica *r, const char *sql, const char *purpose)
{
	int rc = sqlite3_exec(r->db, sql, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		return 0;
	db_report(r->db, rc, purpose, __FILE__, __LINE__);
	return -1;
}

/* ---- where the replica lives ------------------------------------------ */

/* $RUNLEDGER_CACHE_DIR, else $XDG_CACHE_HOME/runledger, else
 * ~/.cache/runledger; the file: a hash of the URL without its password and
 * of the server the connection reached (host, port, database, user,
 * options), so that a URL that leaves them to PGHOST and the like keeps a
 * replica per server. No secret goes into the hash or the name. */
static int cache_path(struct replica *r, sb *out)
{
	const char *env = getenv("RUNLEDGER_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"),
		   *home = getenv("HOME");
	sb dir = SB_INIT;
	if (env && *env)
		sb_adds(&dir, env);
	else if (xdg && *xdg)
		sb_addf(&dir, "%s/runledger", xdg);
	else if (home && *home)
		sb_addf(&dir, "%s/.cache/runledger", home);
	else {
		rl_error("PostgreSQL ledger '%s': no place for its local replica: HOME, XDG_CACHE_HOME and "
			 "RUNLEDGER_CACHE_DIR are all unset", r->name);
		rl_hint("set RUNLEDGER_CACHE_DIR to a directory this user may write");
		return -1;
	}
	if (mkdir_parents(dir.buf, 0700, NULL)) {
		rl_error("PostgreSQL ledger '%s': cannot make the directory '%s' for its local replica: %s",
			 r->name, dir.buf, strerror(errno));
		rl_hint("set RUNLEDGER_CACHE_DIR to a directory this user may write");
		sb_release(&dir);
		return -1;
	}
	PGconn *c = r->pg->conn;
	sb key = SB_INIT;
	sb_addf(&key, "%s\n%s\n%s\n%s\n%s\n%s", r->name, PQhost(c) ? PQhost(c) : "", PQport(c) ? PQport(c) : "",
		PQdb(c) ? PQdb(c) : "", PQuser(c) ? PQuser(c) : "", PQoptions(c) ? PQoptions(c) : "");
	char hex[65];
	sha256_hex(key.buf, key.len, hex);
	sb_addf(out, "%s/pg-%.24s.db", dir.buf, hex);
	sb_release(&key);
	sb_release(&dir);
	return 0;
}

/* ---- the replica's own table ------------------------------------------ */

static const char meta_sql[] = "CREATE TABLE IF NOT EXISTS replica_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)";

/* replica_meta's value of key into out (empty when absent); 0 or -1 */
static int meta_get(struct replica *r, const char *key, sb *out)
{
	sb_reset(out);
	sqlite3_stmt *q = db_prepare(r->db, "SELECT value FROM replica_meta WHERE key = ?1");
	db_bind_text(q, 1, key);
	int rc = db_step(q, "read the replica's state");
	if (rc == SQLITE_ROW)
		sb_adds(out, (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return rc == DB_ERROR ? -1 : 0;
}

static int meta_set(struct replica *r, const char *key, const char *value)
{
	sqlite3_stmt *q = db_prepare(r->db, "INSERT OR REPLACE INTO replica_meta(key, value) VALUES (?1, ?2)");
	db_bind_text(q, 1, key);
	db_bind_text(q, 2, value);
	int rc = db_step(q, "record the replica's state");
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : -1;
}

static long long meta_seq(struct replica *r, int *ok)
{
	sb v = SB_INIT;
	*ok = !meta_get(r, "seq", &v);
	long long seq = v.len ? strtoll(v.buf, NULL, 10) : 0;
	sb_release(&v);
	return seq;
}

/* ---- the ledger's tables, from the replica's schema --------------------- */

static char kind_of(const char *decl)
{
	char up[64];
	size_t i = 0;
	for (; decl[i] && i + 1 < sizeof(up); i++)
		up[i] = (char)toupper((unsigned char)decl[i]);
	up[i] = 0;
	if (strstr(up, "INT"))
		return 'i';
	if (strstr(up, "REAL") || strstr(up, "FLOA") || strstr(up, "DOUB"))
		return 'r';
	if (strstr(up, "BLOB"))
		return 'b';
	return 't';
}

static struct rtable *table_named(struct replica *r, const char *name)
{
	for (int i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].name, name))
			return &r->tables[i];
	return NULL;
}

static int load_columns(struct replica *r, struct rtable *t)
{
	sqlite3_stmt *q = db_prepare(r->db, "SELECT name, type, pk FROM pragma_table_info(?1) ORDER BY cid");
	db_bind_text(q, 1, t->name);
	int rc;
	while ((rc = db_step(q, "read the replica's columns")) == SQLITE_ROW) {
		t->cols = xrealloc(t->cols, (size_t)(t->ncol + 1) * sizeof(*t->cols));
		t->kind = xrealloc(t->kind, (size_t)(t->ncol + 1));
		t->pk = xrealloc(t->pk, (size_t)(t->ncol + 1) * sizeof(*t->pk));
		t->cols[t->ncol] = db_column_dup(q, 0);
		t->kind[t->ncol] = kind_of((const char *)sqlite3_column_text(q, 1));
		t->pk[t->ncol] = sqlite3_column_int(q, 2);
		t->ncol++;
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* depth of t: 0 without foreign keys, else one more than its parents' */
static int table_depth(struct replica *r, struct rtable *t, int guard)
{
	sqlite3_stmt *q = db_prepare(r->db, "SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?1)");
	db_bind_text(q, 1, t->name);
	int depth = 0;
	while (guard < 16 && db_step(q, "read the replica's foreign keys") == SQLITE_ROW) {
		struct rtable *p = table_named(r, (const char *)sqlite3_column_text(q, 0));
		if (p && p != t) {
			int d = table_depth(r, p, guard + 1) + 1;
			depth = d > depth ? d : depth;
		}
	}
	sqlite3_finalize(q);
	return depth;
}

/* Every table of the ledger (not SQLite's, not replica_meta): what the
 * server has in the same form (dialect.c), a new one included. */
static int load_tables(struct replica *r)
{
	sqlite3_stmt *q = db_prepare(r->db, "SELECT name FROM sqlite_master WHERE type = 'table'"
					    " AND name NOT LIKE 'sqlite_%' AND name <> 'replica_meta' ORDER BY name");
	int rc;
	while ((rc = db_step(q, "list the replica's tables")) == SQLITE_ROW) {
		r->tables = xrealloc(r->tables, (size_t)(r->ntables + 1) * sizeof(*r->tables));
		struct rtable *t = &r->tables[r->ntables++];
		memset(t, 0, sizeof(*t));
		t->name = db_column_dup(q, 0);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return -1;
	for (int i = 0; i < r->ntables; i++) {
		struct rtable *t = &r->tables[i];
		if (load_columns(r, t))
			return -1;
		int keyed = 0;
		for (int c = 0; c < t->ncol; c++)
			keyed |= t->pk[c] != 0;
		if (!keyed) { /* a session records no change of a table without one */
			rl_error("the local replica of '%s' has a table '%s' without a primary key, which a replica "
				 "cannot follow (a bug: every table of the ledger has one)", r->name, t->name);
			return -1;
		}
	}
	for (int i = 0; i < r->ntables; i++)
		r->tables[i].depth = table_depth(r, &r->tables[i], 0);
	return 0;
}

static int max_depth(const struct replica *r)
{
	int m = 0;
	for (int i = 0; i < r->ntables; i++)
		m = r->tables[i].depth > m ? r->tables[i].depth : m;
	return m;
}

/* "name" quoted for SQL (the names are the schema's, quoted all the same) */
static void add_ident(sb *s, const char *name)
{
	sb_addc(s, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"')
			sb_addc(s, '"');
		sb_addc(s, *p);
	}
	sb_addc(s, '"');
}

/* The schema version the replica was copied at: a replica made by an
 * older runledger (its file upgraded by db_open since) is copied again,
 * since the server's upgrade may have filled what the new tables hold. */
static const char *schema_text(void)
{
	static char v[16];
	snprintf(v, sizeof(v), "%d", LEDGER_SCHEMA_VERSION);
	return v;
}

/* ---- copying the server's tables (a new replica, or one out of step) --- */

static int bind_server_value(sqlite3_stmt *ins, int i, const PGresult *res, int row, int col, char kind)
{
	if (PQgetisnull(res, row, col))
		return sqlite3_bind_null(ins, i);
	const char *v = PQgetvalue(res, row, col);
	switch (kind) {
	case 'i':
		return sqlite3_bind_int64(ins, i, strtoll(v, NULL, 10));
	case 'r':
		/* the server writes the shortest text that reads back exactly
		 * (extra_float_digits, set at connect), so strtod is exact */
		return sqlite3_bind_double(ins, i, strtod(v, NULL));
	case 'b': {
		size_t n;
		unsigned char *bytes = PQunescapeBytea((const unsigned char *)v, &n);
		int rc = sqlite3_bind_blob(ins, i, bytes, (int)n, SQLITE_TRANSIENT);
		PQfreemem(bytes);
		return rc;
	}
	default:
		return sqlite3_bind_text(ins, i, v, PQgetlength(res, row, col), SQLITE_TRANSIENT);
	}
}

/* One table, server to replica, through a cursor in the open snapshot. */
static int copy_table(struct replica *r, const struct rtable *t)
{
	sb sel = SB_INIT, ins = SB_INIT, order = SB_INIT;
	sb_adds(&sel, "DECLARE rl_copy NO SCROLL CURSOR FOR SELECT ");
	sb_adds(&ins, "INSERT INTO ");
	add_ident(&ins, t->name);
	sb_adds(&ins, " VALUES (");
	for (int c = 0; c < t->ncol; c++) {
		if (c)
			sb_adds(&sel, ", ");
		add_ident(&sel, t->cols[c]);
		sb_addf(&ins, "%s?%d", c ? ", " : "", c + 1);
	}
	for (int k = 1; k <= t->ncol; k++)
		for (int c = 0; c < t->ncol; c++)
			if (t->pk[c] == k) {
				sb_adds(&order, order.len ? ", " : " ORDER BY ");
				add_ident(&order, t->cols[c]);
			}
	sb_adds(&sel, " FROM ");
	add_ident(&sel, t->name);
	sb_adds(&sel, order.len ? order.buf : "");
	sb_addc(&ins, ')');
	sqlite3_stmt *st = db_prepare(r->db, ins.buf);
	int rc = st && !pg_run(r->pg, "read the ledger's tables", sel.buf, 0, NULL) ? 0 : -1;
	while (!rc) {
		PGresult *res = pg_exec(r->pg, "read the ledger's tables", "FETCH " COPY_BATCH " FROM rl_copy", 0, NULL);
		if (!res) {
			rc = -1;
			break;
		}
		int n = PQntuples(res);
		for (int row = 0; row < n && !rc; row++) {
			sqlite3_reset(st);
			for (int c = 0; c < t->ncol; c++)
				bind_server_value(st, c + 1, res, row, c, t->kind[c]);
			if (db_step(st, "copy the server's rows") != SQLITE_DONE)
				rc = -1;
		}
		PQclear(res);
		if (n == 0)
			break;
	}
	if (!rc)
		rc = pg_run(r->pg, "read the ledger's tables", "CLOSE rl_copy", 0, NULL);
	sqlite3_finalize(st);
	sb_release(&sel);
	sb_release(&ins);
	sb_release(&order);
	return rc;
}

/* The last log entry trimmed (pg_log.h), 0 when none was */
#define LOG_TRIMMED_SQL \
	"(SELECT coalesce(max(value::bigint), 0) FROM ledger_meta WHERE key = '" PG_LOG_TRIMMED_KEY "')"
/* The seq of the log's last entry: the last one left, or the last one
 * trimmed when that is later — a replica that has applied it is up to
 * date though the log is empty */
#define LOG_END_SQL "greatest((SELECT coalesce(max(seq), 0) FROM ledger_log), " LOG_TRIMMED_SQL ")"

/* Make the replica a copy of the server's tables as one snapshot shows
 * them, with the last log entry that snapshot holds: the log's entries are
 * committed in seq order under the write lock, so a snapshot holds a
 * prefix of them and nothing after. Inside the caller's BEGIN IMMEDIATE. */
static int copy_server(struct replica *r)
{
	if (pg_run(r->pg, "read a snapshot of the ledger", "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0, NULL))
		return -1;
	PGresult *res = pg_exec(r->pg, "read the change log's end", "SELECT " LOG_END_SQL "::text", 0, NULL);
	int rc = res ? 0 : -1;
	char seq[32] = "0";
	if (res)
		snprintf(seq, sizeof(seq), "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	if (!rc)
		rc = lite_exec(r, "PRAGMA defer_foreign_keys = ON", "copy the server's rows");
	for (int d = max_depth(r); !rc && d >= 0; d--) /* children before parents */
		for (int i = 0; !rc && i < r->ntables; i++)
			if (r->tables[i].depth == d) {
				sb del = SB_INIT;
				sb_adds(&del, "DELETE FROM ");
				add_ident(&del, r->tables[i].name);
				rc = lite_exec(r, del.buf, "empty the replica");
				sb_release(&del);
			}
	for (int i = 0; !rc && i < r->ntables; i++)
		rc = copy_table(r, &r->tables[i]);
	if (!rc)
		rc = meta_set(r, "ledger_id", r->ledger_id) || meta_set(r, "seq", seq) ||
		     meta_set(r, "server", r->name) || meta_set(r, "schema", schema_text());
	if (rc)
		pg_rollback(r->pg);
	else
		rc = pg_run(r->pg, "end the snapshot", "COMMIT", 0, NULL);
	return rc;
}

/* ---- catching up from the log ------------------------------------------ */

struct apply {
	int conflicts;
	char table[64];
	int type;
};

static int on_conflict(void *arg, int type, sqlite3_changeset_iter *it)
{
	struct apply *a = arg;
	const char *tab;
	int ncol, op, indirect;
	sqlite3changeset_op(it, &tab, &ncol, &op, &indirect);
	if (!a->conflicts++) {
		snprintf(a->table, sizeof(a->table), "%s", tab ? tab : "?");
		a->type = type;
	}
	return SQLITE_CHANGESET_ABORT;
}

static const char *conflict_word(int type)
{
	switch (type) {
	case SQLITE_CHANGESET_DATA:
		return "a row it changes differs";
	case SQLITE_CHANGESET_NOTFOUND:
		return "a row it changes is missing";
	case SQLITE_CHANGESET_CONFLICT:
		return "a row it adds is there already";
	case SQLITE_CHANGESET_CONSTRAINT:
		return "it breaks a constraint";
	case SQLITE_CHANGESET_FOREIGN_KEY:
		return "it breaks a foreign key";
	}
	return "it does not apply";
}

/* Apply the log entries after the replica's last, inside the caller's
 * transaction. 1 when an entry did not apply (said; the caller makes
 * the replica again), 0, or -1 (reported). */
static int apply_log(struct replica *r)
{
	for (;;) {
		int ok;
		long long last = meta_seq(r, &ok);
		if (!ok)
			return -1;
		char after[32];
		snprintf(after, sizeof(after), "%lld", last);
		const char *p[] = { after };
		PGresult *res = pg_exec_bin(r->pg, "read the change log",
					    /* ordered by the number: "ORDER BY seq" would be
					     * the text column, which puts 10 before 8 */
					    "SELECT seq::text AS seq_text, changeset, " LOG_TRIMMED_SQL "::text"
					    " FROM ledger_log WHERE seq > $1::bigint"
					    " ORDER BY ledger_log.seq LIMIT " PULL_BATCH, 1, p, NULL, NULL, 1);
		if (!res)
			return -1;
		int n = PQntuples(res), rc = 0;
		const char *seq = NULL;
		/* the same snapshot as the entries: trimmed past this replica since
		 * it was found up to date (a read catches up without the lock) */
		if (n && strtoll(PQgetvalue(res, 0, 2), NULL, 10) > last) {
			rl_note("PostgreSQL ledger '%s': its change log was trimmed past the local replica '%s' "
				"while it caught up; making it again", r->name, r->path);
			PQclear(res);
			return 1;
		}
		for (int i = 0; i < n && !rc; i++) {
			struct apply a = { 0 };
			seq = PQgetvalue(res, i, 0);
			int arc = sqlite3changeset_apply(r->db, PQgetlength(res, i, 1), PQgetvalue(res, i, 1), NULL,
							 on_conflict, &a);
			if (a.conflicts) {
				rl_warn("PostgreSQL ledger '%s': change log entry %s does not apply to the local replica "
					"(table %s: %s); the replica is made again from the server's tables — a bug, or "
					"the server's tables were changed by hand: please report it",
					r->name, seq, a.table, conflict_word(a.type));
				rc = 1;
			} else if (arc != SQLITE_OK) {
				db_report(r->db, arc, "apply the change log to the local replica", __FILE__, __LINE__);
				rc = -1;
			}
		}
		if (!rc && seq)
			rc = meta_set(r, "seq", seq);
		PQclear(res);
		if (rc || n == 0)
			return rc;
	}
}

/* ---- bringing the replica up to date ---------------------------------- */

/* The server's ledger_id and last seq; 0 or -1 */
static int server_state(struct replica *r, long long *seq)
{
	PGresult *res = pg_exec(r->pg, "read the ledger's identity",
				"SELECT (SELECT value FROM ledger_meta WHERE key = 'ledger_id'), " LOG_END_SQL
				"::text, " LOG_TRIMMED_SQL "::text", 0, NULL);
	if (!res)
		return -1;
	snprintf(r->ledger_id, sizeof(r->ledger_id), "%s", PQgetvalue(res, 0, 0));
	*seq = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
	r->log_trimmed = strtoll(PQgetvalue(res, 0, 2), NULL, 10);
	PQclear(res);
	return 0;
}

/* Inside a transaction of the replica: 1 when it is a replica of this
 * ledger not ahead of the server's log, 0 when it must be made again. */
static int replica_matches(struct replica *r, long long server_seq, int say, int *err)
{
	sb id = SB_INIT;
	int ok;
	*err = meta_get(r, "ledger_id", &id);
	long long seq = meta_seq(r, &ok);
	sb schema = SB_INIT;
	*err |= meta_get(r, "schema", &schema);
	int match = !*err && ok && id.len && !strcmp(id.buf, r->ledger_id) && seq <= server_seq &&
		    seq >= r->log_trimmed && !strcmp(schema.buf, schema_text());
	if (say && !*err && ok && id.len && !match && strcmp(id.buf, "rebuild"))
		rl_note("PostgreSQL ledger '%s': the local replica '%s' was %s; making it again", r->name, r->path,
			strcmp(id.buf, r->ledger_id) ? "of another ledger"
			: seq > server_seq	      ? "ahead of the server's change log"
			: seq < r->log_trimmed	      ? "behind the server's change log, trimmed since (ledger trim-log)"
						      : "made by another schema version");
	sb_release(&schema);
	*err |= !ok;
	sb_release(&id);
	return match;
}

/* After the replica and the server were found out of step: the next
 * command copies the server's tables afresh instead of trusting the
 * replica (an identity that matches no server's). */
static void mark_for_copy(struct replica *r)
{
	r->internal = 1;
	if (!lite_exec(r, "BEGIN IMMEDIATE", "lock the local replica")) {
		meta_set(r, "ledger_id", "rebuild");
		lite_exec(r, "COMMIT", "commit the local replica");
	}
	r->internal = 0;
}

/* Before a command: the replica made or caught up, in one transaction of
 * its own (another command on this machine may be doing the same: the
 * state is read again once the replica's lock is held). */
static int catch_up(struct replica *r)
{
	long long server_seq;
	if (server_state(r, &server_seq))
		return -1;
	int err, ok;
	long long seq = meta_seq(r, &ok);
	if (ok && seq == server_seq && replica_matches(r, server_seq, 0, &err) && !err)
		return 0; /* up to date: nothing to write */
	for (int attempt = 0; attempt < 2; attempt++) {
		r->internal = 1;
		int rc = lite_exec(r, "BEGIN IMMEDIATE", "lock the local replica");
		/* read again under the replica's lock: a command on this machine
		 * may have written meanwhile, its entry on the server before here */
		if (!rc)
			rc = server_state(r, &server_seq);
		if (!rc) {
			int match = replica_matches(r, server_seq, 1, &err);
			rc = err ? -1 : match ? apply_log(r) : copy_server(r);
		}
		if (rc == 0)
			rc = lite_exec(r, "COMMIT", "commit the local replica");
		if (rc)
			db_rollback(r->db);
		r->internal = 0;
		if (rc == 1) { /* an entry that did not apply: copy the tables instead */
			mark_for_copy(r);
			continue;
		}
		return rc;
	}
	return -1;
}

/* ---- writing through the server --------------------------------------- */

/* A value of a change as a parameter: text, a double with 17 digits, a
 * blob in binary; the bytes are copied into buf (values of a changeset
 * live only until its iterator moves). */
struct params {
	sb buf;
	size_t *off;
	int *len, *fmt, n, cap;
	char *isnull;
};

static void param_add(struct params *p, sqlite3_value *v)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->off = xrealloc(p->off, (size_t)p->cap * sizeof(*p->off));
		p->len = xrealloc(p->len, (size_t)p->cap * sizeof(*p->len));
		p->fmt = xrealloc(p->fmt, (size_t)p->cap * sizeof(*p->fmt));
		p->isnull = xrealloc(p->isnull, (size_t)p->cap);
	}
	int i = p->n++;
	p->off[i] = p->buf.len;
	p->fmt[i] = 0;
	p->isnull[i] = 0;
	switch (v ? sqlite3_value_type(v) : SQLITE_NULL) {
	case SQLITE_NULL:
		p->isnull[i] = 1;
		break;
	case SQLITE_INTEGER:
		sb_addf(&p->buf, "%lld", (long long)sqlite3_value_int64(v));
		break;
	case SQLITE_FLOAT: /* SQLite's own text keeps 15 digits, which loses bits */
		sb_addf(&p->buf, "%.17g", sqlite3_value_double(v));
		break;
	case SQLITE_BLOB:
		sb_add(&p->buf, sqlite3_value_blob(v), (size_t)sqlite3_value_bytes(v));
		p->fmt[i] = 1;
		break;
	default:
		sb_add(&p->buf, (const char *)sqlite3_value_text(v), (size_t)sqlite3_value_bytes(v));
	}
	p->len[i] = (int)(p->buf.len - p->off[i]);
	sb_addc(&p->buf, 0);
}

static void params_reset(struct params *p)
{
	sb_reset(&p->buf);
	p->n = 0;
}

static void params_release(struct params *p)
{
	sb_release(&p->buf);
	free(p->off);
	free(p->len);
	free(p->fmt);
	free(p->isnull);
}

/* Run sql with p on the server; *rows: the rows it touched. 0 or -1. */
static int send(struct replica *r, const char *purpose, const char *sql, struct params *p, long long *rows)
{
	const char **v = xcalloc((size_t)p->n + 1, sizeof(*v));
	for (int i = 0; i < p->n; i++)
		v[i] = p->isnull[i] ? NULL : p->buf.buf + p->off[i];
	PGresult *res = pg_exec_bin(r->pg, purpose, sql, p->n, v, p->len, p->fmt, 0);
	free(v);
	if (!res)
		return -1;
	if (rows)
		*rows = strtoll(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	return 0;
}

/* Consecutive inserts into one table, sent as one multi-row INSERT. */
struct inserts {
	const struct rtable *t;
	sb sql;
	int rows;
	struct params p;
};

static int flush_inserts(struct replica *r, struct inserts *b)
{
	if (!b->rows)
		return 0;
	long long n = 0;
	int rc = send(r, "store the changes on the server", b->sql.buf, &b->p, &n);
	if (rc && !strcmp(r->pg->sqlstate, "23505")) { /* unique_violation */
		rl_hint("a row the server has and the local replica lacks (added by hand, outside the "
			"change log) holds the key: nothing was written; run the command again, the next "
			"one makes the replica again from the server's tables");
		rc = -2;
	}
	if (!rc && n != b->rows) { /* cannot be: no ON CONFLICT, and a failure fails */
		rl_error("PostgreSQL ledger '%s': %lld of %d rows stored into %s", r->name, n, b->rows, b->t->name);
		rc = -1;
	}
	b->rows = 0;
	sb_reset(&b->sql);
	params_reset(&b->p);
	return rc;
}

static int add_insert(struct replica *r, struct inserts *b, struct rtable *t, sqlite3_changeset_iter *it)
{
	int rc;
	if (b->rows && (b->t != t || b->rows >= INSERT_ROWS) && (rc = flush_inserts(r, b)))
		return rc;
	b->t = t;
	t->inserted++;
	if (!b->rows) {
		sb_adds(&b->sql, "INSERT INTO ");
		add_ident(&b->sql, t->name);
		sb_adds(&b->sql, " (");
		for (int c = 0; c < t->ncol; c++) {
			if (c)
				sb_adds(&b->sql, ", ");
			add_ident(&b->sql, t->cols[c]);
		}
		sb_adds(&b->sql, ") VALUES ");
	}
	sb_adds(&b->sql, b->rows ? ", (" : "(");
	for (int c = 0; c < t->ncol; c++) {
		sqlite3_value *v = NULL;
		sqlite3changeset_new(it, c, &v);
		param_add(&b->p, v);
		sb_addf(&b->sql, "%s$%d", c ? ", " : "", b->p.n);
	}
	sb_addc(&b->sql, ')');
	b->rows++;
	return 0;
}

/* UPDATE t SET changed = new WHERE key = old, or DELETE FROM t WHERE
 * key = old: exactly one row, else the replica and the server disagree. */
static int send_row_change(struct replica *r, const struct rtable *t, int op, sqlite3_changeset_iter *it)
{
	sb sql = SB_INIT;
	struct params p = { 0 };
	sb_init(&p.buf);
	if (op == SQLITE_UPDATE) {
		sb_adds(&sql, "UPDATE ");
		add_ident(&sql, t->name);
		sb_adds(&sql, " SET ");
		for (int c = 0, first = 1; c < t->ncol; c++) {
			sqlite3_value *v = NULL;
			if (sqlite3changeset_new(it, c, &v) != SQLITE_OK || !v)
				continue; /* unchanged */
			param_add(&p, v);
			sb_adds(&sql, first ? "" : ", ");
			add_ident(&sql, t->cols[c]);
			sb_addf(&sql, " = $%d", p.n);
			first = 0;
		}
	} else {
		sb_adds(&sql, "DELETE FROM ");
		add_ident(&sql, t->name);
	}
	sb_adds(&sql, " WHERE ");
	for (int c = 0, first = 1; c < t->ncol; c++) {
		if (!t->pk[c])
			continue;
		sqlite3_value *v = NULL;
		sqlite3changeset_old(it, c, &v);
		param_add(&p, v);
		sb_adds(&sql, first ? "" : " AND ");
		add_ident(&sql, t->cols[c]);
		sb_addf(&sql, " = $%d", p.n);
		first = 0;
	}
	long long n = 0;
	int rc = send(r, op == SQLITE_UPDATE ? "update a row on the server" : "delete a row on the server", sql.buf,
		      &p, &n);
	if (!rc && n != 1) {
		rl_error("PostgreSQL ledger '%s': the server's table %s has no row %s the local replica has%s",
			 r->name, t->name, op == SQLITE_UPDATE ? "to update that" : "to delete that",
			 op == SQLITE_UPDATE ? " (or a row-level security policy keeps this role from updating it)"
					     : "");
		rl_hint("nothing was written; the replica is made again from the server by the next command");
		rc = -2;
	}
	sb_release(&sql);
	params_release(&p);
	return rc;
}

/* One pass over the changeset: the inserts and updates of tables at
 * depth d (parents first), or with deletes set the deletes (children first). */
static int send_pass(struct replica *r, int n, void *buf, int depth, int deletes, struct inserts *b)
{
	sqlite3_changeset_iter *it;
	if (sqlite3changeset_start(&it, n, buf) != SQLITE_OK) {
		rl_error("cannot read the changes of this command (out of memory?)");
		return -1;
	}
	int rc = 0;
	while (!rc && sqlite3changeset_next(it) == SQLITE_ROW) {
		const char *tab;
		int ncol, op, indirect;
		sqlite3changeset_op(it, &tab, &ncol, &op, &indirect);
		struct rtable *t = table_named(r, tab);
		if (!t || t->ncol != ncol) {
			rl_error("PostgreSQL ledger '%s': a change of table '%s', which the replica does not know",
				 r->name, tab);
			rc = -1;
			break;
		}
		if (t->depth != depth || (op == SQLITE_DELETE) != deletes)
			continue;
		rc = op == SQLITE_INSERT ? add_insert(r, b, t, it) : flush_inserts(r, b);
		if (!rc && op != SQLITE_INSERT)
			rc = send_row_change(r, t, op, it);
	}
	if (!rc)
		rc = flush_inserts(r, b);
	sqlite3changeset_finalize(it);
	return rc;
}

/* The table's one integer key column (runs.id, quarantine.id,
 * annotations.id: an identity on the server), or -1. */
static int integer_key(const struct rtable *t)
{
	int key = -1;
	for (int c = 0; c < t->ncol; c++) {
		if (!t->pk[c])
			continue;
		if (key >= 0 || t->kind[c] != 'i')
			return -1;
		key = c;
	}
	return key;
}

/* The rows came with the ids the replica gave them, which PostgreSQL's
 * identity sequences do not see: advance each table's sequence to its
 * max(id), so that a row added on the server by another tool (psql's
 * INSERT without an id) gets a free id. setval needs UPDATE on the
 * sequence (the owner); the roles' USAGE allows nextval, one a row; a
 * role with neither leaves the sequence as it is. Inside the write lock:
 * no other writer's rows come between. 0 or -1. */
static int advance_identity(struct replica *r, const struct rtable *t)
{
	int key = integer_key(t);
	if (key < 0)
		return 0;
	sb sql = SB_INIT, max = SB_INIT;
	sb_adds(&max, "(SELECT max(");
	add_ident(&max, t->cols[key]);
	sb_adds(&max, ") FROM ");
	add_ident(&max, t->name);
	sb_adds(&max, ")");
	sb_addf(&sql,
		"SELECT CASE WHEN has_sequence_privilege(s, 'UPDATE') THEN setval(s, m)"
		" ELSE (SELECT max(g.n) FROM (SELECT nextval(s) AS n"
		" FROM generate_series(1, m - coalesce(pg_sequence_last_value(s), 0))) g) END"
		" FROM (SELECT s, %s AS m FROM (SELECT pg_get_serial_sequence($1, $2)::regclass AS s) q) v"
		" WHERE s IS NOT NULL AND has_sequence_privilege(s, 'USAGE')"
		" AND m > coalesce(pg_sequence_last_value(s), 0)",
		max.buf);
	sb name = SB_INIT; /* parsed as SQL (a quoted identifier); the column's name is taken as it is */
	add_ident(&name, t->name);
	const char *v[] = { name.buf, t->cols[key] };
	int rc = pg_run(r->pg, "advance the server's identity sequence", sql.buf, 2, v);
	sb_release(&sql);
	sb_release(&max);
	sb_release(&name);
	return rc;
}

/* The changeset as statements on the server's tables, then into the log.
 * *seq: its log entry. 0, -1, or -2 when the server and replica disagree. */
static int send_changeset(struct replica *r, int n, void *buf, char *seq, size_t seq_size)
{
	struct inserts b = { 0 };
	sb_init(&b.sql);
	sb_init(&b.p.buf);
	int rc = 0, top = max_depth(r);
	for (int i = 0; i < r->ntables; i++)
		r->tables[i].inserted = 0;
	for (int d = 0; !rc && d <= top; d++)
		rc = send_pass(r, n, buf, d, 0, &b);
	for (int d = top; !rc && d >= 0; d--)
		rc = send_pass(r, n, buf, d, 1, &b);
	sb_release(&b.sql);
	params_release(&b.p);
	for (int i = 0; !rc && i < r->ntables; i++)
		if (r->tables[i].inserted)
			rc = advance_identity(r, &r->tables[i]);
	if (rc)
		return rc;
	const char *v[] = { buf, r->command };
	int len[] = { n, 0 }, fmt[] = { 1, 0 };
	PGresult *res = pg_exec_bin(r->pg, "append to the change log",
				    "INSERT INTO ledger_log(changeset, command) VALUES ($1, $2) RETURNING seq::text", 2, v,
				    len, fmt, 0);
	if (!res)
		return -1;
	snprintf(seq, seq_size, "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

/* Leave out what is the replica's own */
static int session_filter(void *arg, const char *table)
{
	(void)arg;
	return strcmp(table, "replica_meta") != 0;
}

static void session_end(struct replica *r)
{
	if (r->session)
		sqlite3session_delete(r->session);
	r->session = NULL;
}

#define LOCK_SQL PG_WRITE_LOCK_SQL
/* after this long a writer says what it waits for, as ingest does on SQLite */
#define LOCK_SAY_AFTER_MS 1000

/* The ledger's write lock, inside the open transaction. A wait of more
 * than a second is said (once); `ingest --wait` or $LEDGER_BUSY_TIMEOUT
 * bounds the whole wait (lock_timeout) as on SQLite, else it is unbounded. */
static int lock_ledger(struct replica *r)
{
	const char *bound_by;
	double busy_s = db_write_wait_s(&bound_by);
	long long bound_ms = busy_s >= 0 ? (long long)(busy_s * 1000) : -1;
	char sql[64];
	if (bound_ms < 0 || bound_ms > LOCK_SAY_AFTER_MS) { /* first try for a second, quietly */
		r->pg->quiet = 1;
		int rc = pg_run(r->pg, "wait for the ledger's lock", "SAVEPOINT rl_lock", 0, NULL) ||
			 pg_run(r->pg, "wait for the ledger's lock", "SET LOCAL lock_timeout = 1000", 0, NULL) ||
			 pg_run(r->pg, "wait for the ledger's lock", LOCK_SQL, 0, NULL);
		int timed_out = rc && !strcmp(r->pg->sqlstate, "55P03"); /* lock_not_available */
		r->pg->quiet = 0;
		if (!rc)
			return pg_run(r->pg, "wait for the ledger's lock", "RELEASE SAVEPOINT rl_lock", 0, NULL) ||
			       pg_run(r->pg, "wait for the ledger's lock", "SET LOCAL lock_timeout = 0", 0, NULL);
		if (!timed_out || pg_run(r->pg, "wait for the ledger's lock", "ROLLBACK TO SAVEPOINT rl_lock", 0, NULL))
			return pg_run(r->pg, "lock the ledger for writing", LOCK_SQL, 0, NULL); /* says why */
		if (bound_ms < 0)
			rl_note("PostgreSQL ledger '%s': waiting for its write lock, held by another writer "
				"(as long as it takes; LEDGER_BUSY_TIMEOUT or ingest --wait bounds it)", r->name);
		else
			rl_note("PostgreSQL ledger '%s': waiting for its write lock, held by another writer "
				"(up to %g s, %s)", r->name, busy_s, bound_by);
		if (bound_ms > 0)
			bound_ms -= LOCK_SAY_AFTER_MS;
	}
	snprintf(sql, sizeof(sql), "SET LOCAL lock_timeout = %lld", bound_ms < 0 ? 0 : bound_ms > 0 ? bound_ms : 1);
	if (pg_run(r->pg, "bound the wait for the ledger's lock", sql, 0, NULL))
		return -1;
	int rc = pg_run(r->pg, "lock the ledger for writing", LOCK_SQL, 0, NULL) ||
		 pg_run(r->pg, "lock the ledger for writing", "SET LOCAL lock_timeout = 0", 0, NULL);
	if (rc && !strcmp(r->pg->sqlstate, "55P03"))
		rl_hint("another writer held the ledger for longer than %s (%g s); nothing was "
			"written: run the command again", bound_by, busy_s);
	return rc;
}

/* db_begin_write on the replica: the server's lock first (a
 * writer holding it may wait for this machine's replica, never the other
 * way round), the replica's, the log since the last command, then a
 * session records what the command writes. */
static int write_begin(void *arg)
{
	struct replica *r = arg;
	if (r->in_write) {
		rl_error("a write transaction inside another on the local replica of '%s' (a bug)", r->name);
		return -1;
	}
	session_end(r);
	if (pg_run(r->pg, "begin a write", "BEGIN", 0, NULL))
		return -1;
	if (lock_ledger(r)) {
		pg_rollback(r->pg);
		return -1;
	}
	r->internal = 1;
	int rc = lite_exec(r, "BEGIN IMMEDIATE", "lock the local replica");
	r->internal = 0;
	if (rc) {
		pg_rollback(r->pg);
		return -1;
	}
	r->in_write = 1;
	rc = apply_log(r);
	if (rc == 1) {
		rl_error("PostgreSQL ledger '%s': the local replica is out of step with the server; nothing was "
			 "written", r->name);
		rl_hint("run the command again: the next one makes the replica again from the server");
	}
	if (!rc && (sqlite3session_create(r->db, "main", &r->session) != SQLITE_OK ||
		    sqlite3session_attach(r->session, NULL) != SQLITE_OK)) {
		rl_error("cannot record the changes of this command on the local replica '%s'", r->path);
		rc = -1;
	}
	if (rc) {
		int out_of_step = rc == 1;
		db_rollback(r->db); /* the hook ends the server's */
		if (out_of_step)
			mark_for_copy(r);
		return -1;
	}
	sqlite3session_table_filter(r->session, session_filter, NULL);
	return 0;
}

/* db_commit on the replica: the changes to the server and its
 * log, the log's seq into the replica, the server's commit, then the
 * replica's. A failure before the server's commit leaves neither
 * written; should the replica's commit fail after it, the replica lacks
 * what the server has, and the next command pulls it from the log. */
static int write_commit(void *arg)
{
	struct replica *r = arg;
	if (!r->in_write) /* not a write of ours: plain SQLite */
		return lite_exec(r, "COMMIT", "commit");
	int n = 0;
	void *buf = NULL;
	int rc = sqlite3session_changeset(r->session, &n, &buf) == SQLITE_OK ? 0 : -1;
	session_end(r);
	char seq[32] = "";
	if (rc)
		rl_error("cannot read the changes of this command on the local replica '%s'", r->path);
	if (!rc && n > 0)
		rc = send_changeset(r, n, buf, seq, sizeof(seq));
	sqlite3_free(buf);
	if (!rc && *seq)
		rc = meta_set(r, "seq", seq);
	if (!rc)
		rc = pg_run(r->pg, "commit the write", n > 0 ? "COMMIT" : "ROLLBACK", 0, NULL);
	if (rc) {
		int disagree = rc == -2;
		db_rollback(r->db); /* the rollback hook ends the server's */
		if (disagree)
			mark_for_copy(r);
		return -1;
	}
	r->in_write = 0;
	r->internal = 1;
	rc = lite_exec(r, "COMMIT", "commit the local replica");
	r->internal = 0;
	if (rc)
		rl_hint("the server has stored it (change log entry %s); the next command brings the replica up "
			"to date", *seq ? seq : "none");
	return rc;
}

/* Any rollback of the replica: an open write is rolled back on the server. */
static void on_rollback(void *arg)
{
	struct replica *r = arg;
	if (!r->in_write)
		return;
	r->in_write = 0;
	pg_rollback(r->pg);
}

/* ---- open and close ----------------------------------------------------- */

static int open_server(struct replica *r, const char *url, int create)
{
	if (pg_connect(url, &r->pg))
		return -1;
	r->name = xstrdup(r->pg->name);
	int created, v;
	if (create ? pg_schema_ensure(r->pg, &created) : pg_schema_version(r->pg, &v))
		return -1;
	if (!create && v != LEDGER_SCHEMA_VERSION) {
		if (!v) {
			rl_error("PostgreSQL ledger '%s' holds no ledger (no table ledger_meta)", r->name);
			rl_hint("'ledger --db URL init' (or an ingest) makes one");
		} else {
			/* pg_schema_ensure words the other versions */
			return pg_schema_ensure(r->pg, &created);
		}
		return -1;
	}
	/* every double as the shortest text that reads back exactly (the
	 * default from PostgreSQL 12 on; older servers keep 15 digits) */
	return pg_log_ensure(r->pg) ||
	       pg_run(r->pg, "set the number format", "SET extra_float_digits = 3", 0, NULL);
}

int replica_open(const char *url, const char *command, int create, struct replica **out, sqlite3 **db)
{
	*out = NULL;
	*db = NULL;
	struct replica *r = xcalloc(1, sizeof(*r));
	r->command = command;
	sb path = SB_INIT;
	int rc = open_server(r, url, create) || cache_path(r, &path);
	r->path = sb_detach(&path);
	if (!rc && db_open(r->path, &r->db)) {
		rl_hint("the local replica of '%s' is '%s'; removing it makes a new one from the server", r->name,
			r->path);
		rc = -1;
	}
	/* the cache ingest gives its file (store.c): catching up on a large
	 * entry or copying the tables otherwise spills pages to the WAL
	 * (10^5 runs: a pull 28 -> ~8 s, a copy 16 -> ~5 s) */
	if (!rc)
		rc = db_exec(r->db, "PRAGMA cache_size = -65536") || db_exec(r->db, meta_sql) || load_tables(r) ||
		     catch_up(r);
	if (rc) {
		replica_close(r);
		return -1;
	}
	struct db_write_hooks hooks = { write_begin, write_commit, on_rollback, r };
	db_set_write_hooks(r->db, &hooks, r->name);
	*out = r;
	*db = r->db;
	return 0;
}

void replica_close(struct replica *r)
{
	if (!r)
		return;
	if (r->db) {
		if (r->in_write)
			db_rollback(r->db);
		session_end(r);
		db_set_write_hooks(r->db, NULL, NULL);
		db_close(r->db);
	}
	pg_close(r->pg);
	for (int i = 0; i < r->ntables; i++) {
		struct rtable *t = &r->tables[i];
		for (int c = 0; c < t->ncol; c++)
			free(t->cols[c]);
		free(t->cols);
		free(t->kind);
		free(t->pk);
		free(t->name);
	}
	free(r->tables);
	free(r->path);
	free(r->name);
	free(r);
}
