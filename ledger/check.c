/* check.c — SQLite's checks on a ledger; see check.h. */
#include "check.h"
#include "db.h"
#include "sb.h"
#include "util.h"

void ledger_check_add(struct ledger_check *c, const char *check, const char *text)
{
	c->v = xrealloc(c->v, (size_t)(c->n + 1) * sizeof(*c->v));
	c->v[c->n].check = check;
	c->v[c->n].text = xstrdup(text);
	c->n++;
}

/* Damage a check stops on is what it was asked to find; anything else
 * (busy, out of memory) means the check did not run. */
static int is_damage(int rc)
{
	return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB;
}

/* One row of foreign_key_check: table, rowid (NULL without rowid),
 * parent table, constraint number. */
static void foreign_key_text(sqlite3_stmt *st, sb *out)
{
	const char *table = (const char *)sqlite3_column_text(st, 0);
	const char *parent = (const char *)sqlite3_column_text(st, 2);
	sb_addf(out, "a row of '%s'", table ? table : "?");
	if (sqlite3_column_type(st, 1) != SQLITE_NULL)
		sb_addf(out, " (rowid %lld)", (long long)sqlite3_column_int64(st, 1));
	sb_addf(out, " refers to a missing row of '%s'", parent ? parent : "?");
}

/* integrity_check gives one row per problem, or several problems in one
 * row a line each, under a "*** in database main ***" heading; "ok" alone
 * means none. */
static void integrity_rows(struct ledger_check *c, const char *check, const char *text)
{
	if (!text || !strcmp(text, "ok"))
		return;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);
		if (*line && !str_starts_with(line, "*** "))
			ledger_check_add(c, check, line);
		free(line);
		p += n + (p[n] == '\n');
	}
}

/* Run one check's PRAGMA; its rows are problems except integrity_check's
 * single "ok". Returns 0 or -1 (reported). */
static int run_check(sqlite3 *db, const char *check, struct ledger_check *out)
{
	sb sql = SB_INIT, text = SB_INIT;
	sb_addf(&sql, "PRAGMA %s", check);
	int is_fk = !strcmp(check, "foreign_key_check"), rc = 0, step;
	sqlite3_stmt *st = NULL;
	step = sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL);
	while (step == SQLITE_OK || step == SQLITE_ROW) {
		step = sqlite3_step(st);
		if (step != SQLITE_ROW)
			break;
		if (is_fk) {
			sb_reset(&text);
			foreign_key_text(st, &text);
			ledger_check_add(out, check, text.buf);
		} else {
			integrity_rows(out, check, (const char *)sqlite3_column_text(st, 0));
		}
	}
	if (step != SQLITE_DONE && is_damage(step)) {
		sb_reset(&text);
		sb_addf(&text, "the check stopped: %s", sqlite3_errmsg(db));
		ledger_check_add(out, check, text.buf);
	} else if (step != SQLITE_DONE) {
		sb_reset(&sql);
		sb_addf(&sql, "run %s", check);
		db_report(db, step, sql.buf, __FILE__, __LINE__);
		rc = -1;
	}
	sqlite3_finalize(st);
	sb_release(&sql);
	sb_release(&text);
	return rc;
}

int ledger_check(sqlite3 *db, int quick, struct ledger_check *out)
{
	memset(out, 0, sizeof(*out));
	out->checks[0] = quick ? "quick_check" : "integrity_check";
	out->checks[1] = "foreign_key_check";
	for (int i = 0; i < 2; i++)
		if (run_check(db, out->checks[i], out))
			return -1;
	return 0;
}

void ledger_check_release(struct ledger_check *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->v[i].text);
	free(c->v);
	memset(c, 0, sizeof(*c));
}
