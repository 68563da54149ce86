/* pg.c — connect to a PostgreSQL ledger and run statements on it (pg.h).
 * Every message that could carry what the user typed goes through
 * scrub(): the password of the URL (as typed and as decoded) and
 * $PGPASSWORD never reach the terminal, whatever libpq puts in its text. */
#include <stdlib.h>
#include <string.h>
#include "pg.h"
#include "util.h"

static int reported;

int pg_errors(void)
{
	return reported;
}

/* ---- the URL without its password ---------------------------------- */

/* Where url's authority ends ("scheme://AUTHORITY/db?query"). */
static const char *authority_end(const char *auth)
{
	return auth + strcspn(auth, "/?#");
}

void pg_redact_url(const char *url, sb *out)
{
	const char *sep = strstr(url, "://");
	if (!sep) {
		sb_adds(out, url);
		return;
	}
	const char *auth = sep + 3, *end = authority_end(auth);
	const char *at = NULL;
	for (const char *p = auth; p < end; p++) /* the last '@': a host has none */
		if (*p == '@')
			at = p;
	sb_add(out, url, (size_t)(auth - url));
	if (at) {
		const char *colon = memchr(auth, ':', (size_t)(at - auth));
		sb_add(out, auth, (size_t)((colon ? colon : at) - auth));
		sb_add(out, at, (size_t)(end - at));
	} else {
		sb_add(out, auth, (size_t)(end - auth));
	}
	/* the rest, with the value of every password= parameter hidden */
	for (const char *p = end; *p;) {
		const char *key = p;
		if (*p == '?' || *p == '&')
			key = p + 1;
		if (key != p && !strncmp(key, "password=", 9)) {
			sb_add(out, p, (size_t)(key + 9 - p));
			sb_adds(out, "***");
			p = key + 9 + strcspn(key + 9, "&#");
			continue;
		}
		sb_addc(out, *p++);
	}
}

/* ---- secrets out of messages ----------------------------------------- */

struct secrets {
	char *v[4];
	int n;
};

static void secret_add(struct secrets *s, const char *text, size_t n)
{
	if (n && s->n < (int)ARRAY_SIZE(s->v))
		s->v[s->n++] = xstrndup(text, n);
}

/* The passwords a message could repeat: the URL's user:password@ as
 * typed, libpq's reading of it (percent-decoded, or from password=),
 * and $PGPASSWORD. */
static void secrets_of(const char *url, struct secrets *s)
{
	s->n = 0;
	const char *sep = strstr(url, "://");
	if (sep) {
		const char *auth = sep + 3, *end = authority_end(auth), *at = NULL;
		for (const char *p = auth; p < end; p++)
			if (*p == '@')
				at = p;
		const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
		if (colon)
			secret_add(s, colon + 1, (size_t)(at - colon - 1));
	}
	PQconninfoOption *opts = PQconninfoParse(url, NULL);
	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (!strcmp(o->keyword, "password") && o->val)
			secret_add(s, o->val, strlen(o->val));
	PQconninfoFree(opts);
	const char *env = getenv("PGPASSWORD");
	if (env)
		secret_add(s, env, strlen(env));
}

static void secrets_release(struct secrets *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i]);
	s->n = 0;
}

/* text with every secret replaced by ***, trailing newlines dropped
 * (libpq ends its messages with one); malloc'd */
static char *scrub(const char *text, const struct secrets *s)
{
	sb out = SB_INIT;
	sb_adds(&out, text ? text : "");
	for (int i = 0; i < s->n; i++) {
		size_t n = strlen(s->v[i]);
		sb next = SB_INIT;
		for (const char *p = out.buf; *p;) {
			if (!strncmp(p, s->v[i], n)) {
				sb_adds(&next, "***");
				p += n;
			} else {
				sb_addc(&next, *p++);
			}
		}
		sb_release(&out);
		out = next;
	}
	sb_rtrim(&out);
	return sb_detach(&out);
}

/* ---- connecting ------------------------------------------------------ */

/* The server's notices (CREATE … IF NOT EXISTS that finds it there, a
 * ROLLBACK after a failed COMMIT) are not the user's business: libpq would
 * print them on stderr, unscrubbed. Errors come through results. */
static void no_notices(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static void connect_hint(void)
{
	rl_hint("check the URL (postgresql://USER@HOST:PORT/DATABASE) and that the server runs and lets "
		"you in (pg_hba.conf); what the URL leaves out comes from PGHOST, PGPORT, PGUSER, "
		"PGPASSWORD, PGPASSFILE (~/.pgpass), PGSERVICE and PGSSLMODE, as for psql");
}

int pg_connect(const char *url, struct pg **out)
{
	*out = NULL;
	struct pg *pg = xcalloc(1, sizeof(*pg));
	sb name = SB_INIT;
	pg_redact_url(url, &name);
	pg->name = sb_detach(&name);
	struct secrets s;
	secrets_of(url, &s);
	/* The URL as libpq's dbname, expanded (expand_dbname): the URL
	 * overrides what comes before it, the environment fills what neither
	 * says. A dead host fails after 10 s rather than never, unless the
	 * URL or PGCONNECT_TIMEOUT say otherwise. */
	const char *keys[4], *vals[4];
	int k = 0;
	if (!getenv("PGCONNECT_TIMEOUT")) {
		keys[k] = "connect_timeout";
		vals[k++] = "10";
	}
	keys[k] = "dbname";
	vals[k++] = url;
	keys[k] = "fallback_application_name";
	vals[k++] = "runledger";
	keys[k] = NULL;
	vals[k] = NULL;
	pg->conn = PQconnectdbParams(keys, vals, 1);
	int rc = 0;
	if (!pg->conn || PQstatus(pg->conn) != CONNECTION_OK) {
		char *why = scrub(pg->conn ? PQerrorMessage(pg->conn) : "out of memory", &s);
		rl_error("cannot connect to the PostgreSQL ledger '%s': %s", pg->name, why);
		free(why);
		connect_hint();
		rc = -1;
	} else if (PQsetNoticeProcessor(pg->conn, no_notices, NULL), PQserverVersion(pg->conn) < 100000) {
		rl_error("PostgreSQL ledger '%s': the server is version %d; runledger needs 10 or later",
			 pg->name, PQserverVersion(pg->conn) / 10000);
		rc = -1;
	}
	secrets_release(&s);
	if (rc) {
		reported++;
		pg_close(pg);
		return -1;
	}
	*out = pg;
	return 0;
}

void pg_close(struct pg *pg)
{
	if (!pg)
		return;
	PQfinish(pg->conn);
	free(pg->name);
	free(pg);
}

/* ---- statements ------------------------------------------------------ */

PGresult *pg_exec_at(struct pg *pg, const char *purpose, const char *sql, int n,
		     const char *const *params, const char *file, int line)
{
	return pg_exec_bin_at(pg, purpose, sql, n, params, NULL, NULL, 0, file, line);
}

PGresult *pg_exec_bin_at(struct pg *pg, const char *purpose, const char *sql, int n,
			 const char *const *params, const int *lengths, const int *formats,
			 int result_format, const char *file, int line)
{
	PGresult *res = PQexecParams(pg->conn, sql, n, NULL, params, lengths, formats, result_format);
	ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	pg->sqlstate[0] = 0;
	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
		return res;
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	snprintf(pg->sqlstate, sizeof(pg->sqlstate), "%s", state ? state : "");
	if (pg->quiet || (pg->retry_conflicts && pg_conflict(pg))) {
		PQclear(res);
		return NULL;
	}
	/* a server message quotes values it could not take, which are ours
	 * (bound parameters), never the connection's; scrubbed all the same */
	struct secrets s;
	secrets_of(pg->name, &s); /* the name holds none; only PGPASSWORD */
	char *why = scrub(res ? PQresultErrorMessage(res) : PQerrorMessage(pg->conn), &s);
	secrets_release(&s);
	rl_error("cannot %s on the PostgreSQL ledger '%s': %s%s%s%s (%s:%d)", purpose, pg->name, why,
		 state ? " [SQLSTATE " : "", state ? state : "", state ? "]" : "", file, line);
	if (state && !strcmp(state, "42501"))
		rl_hint("the role this URL logs in as lacks the right for that; docs/postgres.md#roles lists "
			"the GRANTs for an ingest role and a read-only role");
	free(why);
	PQclear(res);
	reported++;
	return NULL;
}

void pg_rollback(struct pg *pg)
{
	PQclear(PQexec(pg->conn, "ROLLBACK")); /* no parameters, no result to read */
}

int pg_conflict(const struct pg *pg)
{
	return !strcmp(pg->sqlstate, "40P01") || !strcmp(pg->sqlstate, "40001");
}

int pg_run_at(struct pg *pg, const char *purpose, const char *sql, int n,
	      const char *const *params, const char *file, int line)
{
	PGresult *res = pg_exec_at(pg, purpose, sql, n, params, file, line);
	PQclear(res);
	return res ? 0 : -1;
}
