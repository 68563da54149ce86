/* check.h — a ledger's health, by SQLite's own checks: PRAGMA
 * integrity_check (every page, every index against its table) or
 * quick_check (the same but the index contents, linear time), then
 * PRAGMA foreign_key_check (changes and campaign_runs rows whose run is
 * gone). `ledger check` lists what they find; `ledger init` says whether
 * an existing ledger is healthy. */
#ifndef RL_CHECK_H
#define RL_CHECK_H
#include <sqlite3.h>

struct check_problem {
	const char *check; /* "integrity_check", "quick_check", "foreign_key_check" */
	char *text;        /* what SQLite said, or the row that is wrong */
};

struct ledger_check {
	const char *checks[2]; /* the checks that ran, in order */
	struct check_problem *v;
	int n;
};

/* Run the checks; a check that stops on damage it cannot read past counts
 * as a problem too. 0 (healthy when out->n is 0), or -1 when a check could
 * not run for another reason (reported: busy, out of memory…). */
int ledger_check(sqlite3 *db, int quick, struct ledger_check *out);
void ledger_check_release(struct ledger_check *c);
/* Add a problem found by check (a static string) to c; text is copied.
 * For checks made elsewhere (pg_schema.c on PostgreSQL). */
void ledger_check_add(struct ledger_check *c, const char *check, const char *text);

#endif
