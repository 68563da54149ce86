/* lookup.c — run references to runs.id; see lookup.h. */
#include "db.h"
#include "lookup.h"
#include "util.h"

int run_lookup(sqlite3 *db, const char *ref, sqlite3_int64 *id, int quiet)
{
	long n;
	if (ref[0] == '#' && parse_long(ref + 1, &n) == 0) {
		sqlite3_stmt *st = db_prepare(db, "SELECT id FROM runs WHERE id = ?");
		sqlite3_bind_int64(st, 1, n);
		int found = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
		if (found) {
			*id = n;
			return 0;
		}
	} else {
		/* exact match first, then prefix (LIKE-free: range on the index) */
		sqlite3_stmt *st = db_prepare(db,
			"SELECT id, run_id = ?1 FROM runs WHERE run_id >= ?1 AND run_id < ?1 || x'ff' "
			"ORDER BY run_id = ?1 DESC LIMIT 2");
		db_bind_text(st, 1, ref);
		int rows = 0, exact = 0;
		sqlite3_int64 first = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (rows++ == 0) {
				first = sqlite3_column_int64(st, 0);
				exact = sqlite3_column_int(st, 1);
			}
		}
		sqlite3_finalize(st);
		if (rows == 1 || (rows > 1 && exact)) {
			*id = first;
			return 0;
		}
		if (rows > 1) {
			if (!quiet) {
				rl_error("run '%s' is ambiguous: several run ids start with it", ref);
				rl_hint("give more characters of the run id");
			}
			return -2;
		}
	}
	if (!quiet) {
		rl_error("no run '%s' in the ledger", ref);
		rl_hint("list runs with 'ledger query'");
	}
	return -1;
}
