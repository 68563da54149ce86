/* annot.c — annotations beside the unchanged record; see annot.h. */
#include "annot.h"
#include "db.h"
#include "util.h"

const char *annot_who(const char *given)
{
	if (given && *given)
		return given;
	const char *env = getenv("LEDGER_WHO");
	if (env && *env)
		return env;
	env = getenv("USER");
	return env && *env ? env : "unknown";
}

void annot_now(char *buf, size_t n)
{
	format_iso_utc(floor(db_now()), buf, n);
}

int annot_add(sqlite3 *db, sqlite3_int64 run, const char *kind, const char *key,
	      const char *value, const char *who, const char *at)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO annotations(run, kind, key, value, who, at)"
					  " VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
	sqlite3_bind_int64(st, 1, run);
	db_bind_text(st, 2, kind);
	db_bind_text(st, 3, key);
	db_bind_text(st, 4, value);
	db_bind_text(st, 5, who);
	db_bind_text(st, 6, at);
	int rc = db_step(st, "store the annotation");
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static json_t *text_or_null(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	json_t *v = s ? json_string(s) : NULL;
	return v ? v : json_null(); /* jansson refuses text that is not UTF-8 */
}

json_t *annot_list(sqlite3 *db, sqlite3_int64 run)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT kind, key, value, who, at FROM main.annotations"
					  " WHERE run = ?1 ORDER BY id");
	sqlite3_bind_int64(st, 1, run);
	json_t *arr = json_array();
	int rc;
	while ((rc = db_step(st, "read the run's annotations")) == SQLITE_ROW) {
		json_t *a = json_object();
		json_object_set_new(a, "kind", text_or_null(st, 0));
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			json_object_set_new(a, "key", text_or_null(st, 1));
		json_object_set_new(a, "value", text_or_null(st, 2));
		json_object_set_new(a, "who", text_or_null(st, 3));
		json_object_set_new(a, "at", text_or_null(st, 4));
		json_array_append_new(arr, a);
	}
	sqlite3_finalize(st);
	if (rc == DB_ERROR) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

/* The values an annotation of each kind may have (decision, archive);
 * NULL: any text. */
static int value_ok(const char *kind, const char *value)
{
	if (!strcmp(kind, "decision"))
		return !strcmp(value, "keep") || !strcmp(value, "discard");
	if (!strcmp(kind, "archive"))
		return !strcmp(value, "archived") || !strcmp(value, "restored");
	return 1;
}

int annot_check(const struct annot_row *a, sb *why)
{
	static const char *const kinds[] = { "note", "tag", "decision", "archive" };
	int known = 0;
	for (int k = 0; k < 4 && a->kind; k++)
		known |= !strcmp(a->kind, kinds[k]);
	double t;
	if (!known)
		sb_addf(why, "annotation kind '%s' is not note, tag, decision or archive", a->kind ? a->kind : "");
	else if (!a->value || !a->at)
		sb_addf(why, "a %s annotation needs 'value' and 'at'", a->kind);
	else if (parse_iso_utc(a->at, &t))
		sb_addf(why, "annotation time '%s' is not ISO-8601 UTC", a->at);
	else if (!strcmp(a->kind, "tag") != !!a->key)
		sb_addf(why, "a %s annotation %s 'key'", a->kind, a->key ? "has no" : "needs a");
	else if (!value_ok(a->kind, a->value))
		sb_addf(why, "'%s' is not a value of a %s annotation", a->value, a->kind);
	else
		return 0;
	return -1;
}

int annot_import(sqlite3 *db, sqlite3_int64 run, const struct annot_row *rows, int n)
{
	sqlite3_stmt *has = db_prepare(db, "SELECT 1 FROM annotations WHERE run = ?1 AND kind = ?2"
					   " AND key IS ?3 AND value = ?4 AND who IS ?5 AND at = ?6");
	int added = 0, rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		const struct annot_row *a = &rows[i];
		sqlite3_reset(has);
		sqlite3_bind_int64(has, 1, run);
		db_bind_text(has, 2, a->kind);
		db_bind_text(has, 3, a->key);
		db_bind_text(has, 4, a->value);
		db_bind_text(has, 5, a->who);
		db_bind_text(has, 6, a->at);
		int s = db_step(has, "read the run's annotations");
		if (s == DB_ERROR || (s == SQLITE_DONE && annot_add(db, run, a->kind, a->key, a->value, a->who, a->at)))
			rc = -1;
		added += s == SQLITE_DONE;
	}
	sqlite3_finalize(has);
	return rc ? -1 : added;
}

char *annot_decided(sqlite3 *db, sqlite3_int64 run)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT value FROM main.annotations WHERE run = ?1"
					  " AND kind = 'decision' ORDER BY id DESC LIMIT 1");
	sqlite3_bind_int64(st, 1, run);
	char *v = db_step(st, "read the run's decision") == SQLITE_ROW ? db_column_dup(st, 0) : NULL;
	sqlite3_finalize(st);
	return v;
}

/* 1 when the ledger holds an annotation that changes what runs reads
 * (a decision or an archive), 0 when not, -1 (reported). */
static int view_needed(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT EXISTS (SELECT 1 FROM main.annotations"
					  " WHERE kind IN ('decision', 'archive'))");
	int rc = db_step(st, "read the annotations");
	int need = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return need;
}

/* "r.id, r.run_id, …" with decision replaced by the decided one, from
 * the table's own columns, so a column added later is in the view too. */
static int view_columns(sqlite3 *db, sb *cols)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name FROM pragma_table_info('runs', 'main') ORDER BY cid");
	int rc;
	while ((rc = db_step(st, "read the runs table's columns")) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (cols->len)
			sb_adds(cols, ", ");
		/* column names are the schema's own (db.c), never user text */
		if (!strcmp(name, "decision"))
			sb_adds(cols, "coalesce((SELECT d.value FROM main.annotations d WHERE d.run = r.id"
				      " AND d.kind = 'decision' ORDER BY d.id DESC LIMIT 1), r.decision)"
				      " AS decision");
		else
			sb_addf(cols, "r.\"%s\"", name);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int annot_view(sqlite3 *db, enum annot_archived mode)
{
	int need = mode == ANNOT_ONLY_ARCHIVED ? 1 : view_needed(db);
	if (need <= 0)
		return need;
	sb cols = SB_INIT, sql = SB_INIT;
	int rc = view_columns(db, &cols);
	if (!rc) {
		sb_addf(&sql, "DROP VIEW IF EXISTS temp.runs; CREATE TEMP VIEW runs AS SELECT %s"
			      " FROM main.runs r", cols.buf);
		if (mode == ANNOT_HIDE_ARCHIVED)
			sb_adds(&sql, " WHERE r.id NOT IN (" ANNOT_ARCHIVED_IDS_SQL ")");
		else if (mode == ANNOT_ONLY_ARCHIVED)
			sb_adds(&sql, " WHERE r.id IN (" ANNOT_ARCHIVED_IDS_SQL ")");
		rc = db_exec(db, sql.buf);
	}
	sb_release(&cols);
	sb_release(&sql);
	return rc;
}
