/* runs.c — changed variables, families and column readers; see runs.h. */
#include "db.h"
#include "runs.h"
#include "util.h"

sqlite3_stmt *runs_changes_stmt(sqlite3 *db)
{
	return db_prepare(db, "SELECT var, old, new, how FROM changes WHERE run = ?1 ORDER BY var");
}

/* The registry's prefixes (model, optim, impl…) group like knobs; desc.*
 * and code.* name knobs the registry does not know, which have nothing in
 * common but that, so each is a family of its own. */
void runs_family(sb *out, const char *var)
{
	if (str_starts_with(var, "desc.") || str_starts_with(var, "code.")) {
		sb_adds(out, var);
		return;
	}
	const char *dot = strchr(var, '.');
	sb_add(out, var, dot ? (size_t)(dot - var) : strlen(var));
}

int runs_step(int *failed, sqlite3_stmt *st, const char *purpose)
{
	if (*failed)
		return DB_ERROR;
	int rc = db_step(st, purpose);
	*failed = rc == DB_ERROR;
	return rc;
}

const char *runs_col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* Add fam to the " + "-joined sorted set in keys (few entries: linear). */
static void family_add(char ***keys, int *n, const char *fam)
{
	int at = 0;
	while (at < *n && strcmp((*keys)[at], fam) < 0)
		at++;
	if (at < *n && !strcmp((*keys)[at], fam))
		return;
	*keys = xrealloc(*keys, (size_t)(*n + 1) * sizeof(**keys));
	memmove(*keys + at + 1, *keys + at, (size_t)(*n - at) * sizeof(**keys));
	(*keys)[at] = xstrdup(fam);
	(*n)++;
}

void runs_changes(int *failed, sqlite3_stmt *st, sqlite3_int64 id, sb *text, sb *family, int *n)
{
	char **fams = NULL;
	int nf = 0;
	sb fam = SB_INIT;
	*n = 0;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	while (runs_step(failed, st, "read the runs' changes") == SQLITE_ROW) {
		const char *var = runs_col_text(st, 0), *old = runs_col_text(st, 1);
		const char *new = runs_col_text(st, 2), *how = runs_col_text(st, 3);
		if (text) {
			sb_addf(text, "%s%s ", (*n)++ ? "; " : "", var);
			if (old)
				sb_addf(text, "%s ", old);
			sb_addf(text, "→ %s", new ? new : "?");
			if (how && !strcmp(how, "inferred"))
				sb_adds(text, " (inferred)");
		} else {
			(*n)++;
		}
		sb_reset(&fam);
		runs_family(&fam, var);
		family_add(&fams, &nf, fam.buf);
	}
	for (int i = 0; i < nf; i++) {
		if (family)
			sb_addf(family, "%s%s", i ? " + " : "", fams[i]);
		free(fams[i]);
	}
	free(fams);
	sb_release(&fam);
}
