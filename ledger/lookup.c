/* lookup.c — run references to runs.id; see lookup.h. */
#include "db.h"
#include "lookup.h"
#include "termtext.h"
#include "util.h"

/* A commit prefix shorter than this is not looked up: git's own minimum,
 * and shorter ones would match runs by accident. */
#define COMMIT_MIN 4
/* Candidates listed when a commit prefix matches several runs. */
#define CANDIDATES_SHOWN 10

static int by_number(sqlite3 *db, long n, sqlite3_int64 *id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM runs WHERE id = ?");
	sqlite3_bind_int64(st, 1, n);
	int rc = db_step(st, "look up the run");
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		*id = n;
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? -1 : LOOKUP_DB_ERROR;
}

/* Exact run_id first, then a unique prefix (LIKE-free: a range on the
 * UNIQUE index). 0 found, -1 none, -2 several, LOOKUP_DB_ERROR. */
static int by_run_id(sqlite3 *db, const char *ref, sqlite3_int64 *id)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT id, run_id = ?1 FROM runs WHERE run_id >= ?1 AND run_id < ?1 || x'ff' "
		"ORDER BY run_id = ?1 DESC LIMIT 2");
	db_bind_text(st, 1, ref);
	int rows = 0, exact = 0, rc;
	sqlite3_int64 first = 0;
	while ((rc = db_step(st, "look up the run")) == SQLITE_ROW) {
		if (rows++ == 0) {
			first = sqlite3_column_int64(st, 0);
			exact = sqlite3_column_int(st, 1);
		}
	}
	sqlite3_finalize(st);
	if (rc == DB_ERROR)
		return LOOKUP_DB_ERROR;
	if (rows == 1 || (rows > 1 && exact)) {
		*id = first;
		return 0;
	}
	return rows ? -2 : -1;
}

/* Columns of a candidate row: id, run_id, code_commit, status,
 * description, then the number of matches (count(*) OVER ()). */
#define CANDIDATE_COLUMNS "id, run_id, code_commit, status, description, count(*) OVER ()"

/* "  #7  q20-07  4f2c9e1  ok  description" (record text escaped for the
 * terminal); as JSON the run id joins the error's candidates. */
static void print_candidate(sqlite3_stmt *st)
{
	sb line = SB_INIT;
	sb_addf(&line, "  #%lld  ", (long long)sqlite3_column_int64(st, 0));
	for (int c = 1; c <= 4; c++) { /* run_id, commit, status, description: record text */
		const char *v = (const char *)sqlite3_column_text(st, c);
		term_escape(&line, v ? v : "-", 0);
		sb_adds(&line, c < 4 ? "  " : "");
	}
	const char *run_id = (const char *)sqlite3_column_text(st, 1);
	rl_candidate(run_id ? run_id : "", line.buf);
	sb_release(&line);
}

/* The runs whose run_id starts with ref, after the error that says it is
 * ambiguous: at most CANDIDATES_SHOWN, then how many more. 0, or
 * LOOKUP_DB_ERROR. */
static int list_run_id_candidates(sqlite3 *db, const char *ref)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT " CANDIDATE_COLUMNS " FROM runs WHERE run_id >= ?1 AND run_id < ?1 || x'ff' "
		"ORDER BY run_id LIMIT ?2");
	db_bind_text(st, 1, ref);
	sqlite3_bind_int(st, 2, CANDIDATES_SHOWN);
	int rows = 0, rc;
	long total = 0;
	while ((rc = db_step(st, "list the runs the prefix matches")) == SQLITE_ROW) {
		total = sqlite3_column_int64(st, 5);
		rows++;
		print_candidate(st);
	}
	sqlite3_finalize(st);
	if (rc == DB_ERROR)
		return LOOKUP_DB_ERROR;
	if (total > rows)
		rl_detail("  … and %ld more", total - rows);
	return 0;
}

/* Runs whose code.commit starts with ref (a git short hash), when no run id
 * does. There is no index on code_commit: this reads the table, once, and
 * only for a reference that is no run id. 0 found, -1 none, -2 several
 * (listed unless quiet), LOOKUP_DB_ERROR. */
static int by_commit(sqlite3 *db, const char *ref, sqlite3_int64 *id, int quiet)
{
	if (strlen(ref) < COMMIT_MIN)
		return -1;
	sqlite3_stmt *st = db_prepare(db,
		"SELECT " CANDIDATE_COLUMNS " FROM runs "
		"WHERE code_commit >= ?1 AND code_commit < ?1 || x'ff' ORDER BY id LIMIT ?2");
	db_bind_text(st, 1, ref);
	sqlite3_bind_int(st, 2, CANDIDATES_SHOWN);
	int rows = 0, rc;
	long total = 0;
	while ((rc = db_step(st, "look up the run by its commit")) == SQLITE_ROW) {
		if (rows++ == 0) {
			*id = sqlite3_column_int64(st, 0);
			total = sqlite3_column_int64(st, 5);
			if (total > 1 && !quiet)
				rl_error("run '%s' is ambiguous: no run id starts with it, and %ld runs have a commit "
					 "that does:", ref, total);
		}
		if (total > 1 && !quiet)
			print_candidate(st);
	}
	sqlite3_finalize(st);
	if (rc == DB_ERROR)
		return LOOKUP_DB_ERROR;
	if (total > rows && !quiet)
		rl_detail("  … and %ld more", total - rows);
	if (total > 1 && !quiet)
		rl_hint("name one by its run id or #N");
	return total == 1 ? 0 : total ? -2 : -1;
}

int run_lookup(sqlite3 *db, const char *ref, sqlite3_int64 *id, int quiet)
{
	long n;
	int rc;
	if (ref[0] == '#' && parse_long(ref + 1, &n) == 0) {
		rc = by_number(db, n, id);
	} else {
		rc = by_run_id(db, ref, id);
		if (rc == LOOKUP_DB_ERROR)
			return rc;
		if (rc == -2) {
			if (!quiet) {
				rl_error("run '%s' is ambiguous: several run ids start with it:", ref);
				if (list_run_id_candidates(db, ref))
					return LOOKUP_DB_ERROR;
				rl_hint("give more characters of the run id, or name one by #N");
			}
			return -2;
		}
		if (rc == -1 && ((rc = by_commit(db, ref, id, quiet)) == -2 || rc == LOOKUP_DB_ERROR))
			return rc;
	}
	if (rc == -1 && !quiet) {
		rl_error("no run '%s' in the ledger", ref);
		rl_hint("give a run id, a prefix of one, #N, or a commit prefix of %d or more characters; list runs "
			"with 'ledger query'", COMMIT_MIN);
	}
	return rc;
}
