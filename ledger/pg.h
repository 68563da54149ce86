/* pg.h — a ledger on a PostgreSQL server, through libpq (issue 12;
 * docs/postgres.md): connecting by URL, statements with parameters
 * (PQexecParams only, never SQL text with values in it), every result
 * checked, errors that name the server with its password removed. The
 * schema on the server is pg_schema.c's; SQLite stays db.c's. */
#ifndef RL_PG_H
#define RL_PG_H
#include <libpq-fe.h>
#include "sb.h"

struct pg {
	PGconn *conn;
	char *name; /* the URL as given, without its password: for messages */
	/* 1: a deadlock or serialization failure (SQLSTATE 40P01, 40001) is
	 * not reported, for a caller that rolls back and tries again */
	int retry_conflicts;
	/* 1: a failed statement is not reported (the caller words it) */
	int quiet;
	char sqlstate[6]; /* of the last failed statement, "" after success */
};

/* Connect to the server at url (postgresql://… or postgres://…, libpq's
 * URI; what it leaves out comes from libpq's environment: PGHOST,
 * PGPORT, PGUSER, PGPASSWORD, PGPASSFILE, PGSERVICE, PGSSLMODE…).
 * 0 and *out, or -1 with a message printed that names the server and
 * never the password. */
int pg_connect(const char *url, struct pg **out);
void pg_close(struct pg *pg);

/* Append url to out with its password removed: the user:password@ of
 * the authority loses ":password", a password=… parameter reads
 * password=***. Text only; also for a URL that will not parse. */
void pg_redact_url(const char *url, sb *out);

/* Run one statement with n text parameters ($1..$n; NULL is SQL NULL).
 * purpose says what it does for "cannot …" ("read the schema version").
 * Returns the result (caller PQclear()s it) when the statement succeeded
 * (rows or a command), else NULL with the error reported: purpose, the
 * server, its message, file:line. */
#define pg_exec(pg, purpose, sql, n, params) \
	pg_exec_at((pg), (purpose), (sql), (n), (params), __FILE__, __LINE__)
PGresult *pg_exec_at(struct pg *pg, const char *purpose, const char *sql, int n,
		     const char *const *params, const char *file, int line);
/* pg_exec for a statement whose result is not read: 0 or -1 (reported). */
int pg_run_at(struct pg *pg, const char *purpose, const char *sql, int n,
	      const char *const *params, const char *file, int line);
#define pg_run(pg, purpose, sql, n, params) \
	pg_run_at((pg), (purpose), (sql), (n), (params), __FILE__, __LINE__)
/* End the open transaction, whatever state it is in: after a failure,
 * when there is nothing left to report (the failure was). */
void pg_rollback(struct pg *pg);
/* 1 when the last failure was one retry_conflicts leaves to the caller. */
int pg_conflict(const struct pg *pg);
/* How many server errors pg_exec has reported (main's safety net, as
 * db_errors for SQLite). */
int pg_errors(void);

/* Run a statement whose parameters may be binary (formats[i] 1, lengths
 * given), with its result in text (result_format 0) or binary (1): the
 * change log's BYTEA both ways (replica.c). Reported as pg_exec. */
PGresult *pg_exec_bin_at(struct pg *pg, const char *purpose, const char *sql, int n,
			 const char *const *params, const int *lengths, const int *formats,
			 int result_format, const char *file, int line);
#define pg_exec_bin(pg, purpose, sql, n, params, lengths, formats, result_format)                   \
	pg_exec_bin_at((pg), (purpose), (sql), (n), (params), (lengths), (formats), (result_format), \
		       __FILE__, __LINE__)

#endif
