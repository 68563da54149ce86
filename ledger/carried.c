/* carried.c — the "ledger" object of an exported record; see carried.h. */
#include "carried.h"
#include "db.h"
#include "util.h"

/* ---- reading ---------------------------------------------------------- */

/* obj[name] as a malloc'd string: *out NULL when absent or null; -1 when
 * it is something else (problem in why). */
static int opt_string(const json_t *obj, const char *name, const char *where, char **out, sb *why)
{
	const json_t *v = json_object_get(obj, name);
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v)) {
		sb_addf(why, "ledger.%s.%s is not a string", where, name);
		return -1;
	}
	*out = xstrdup(json_string_value(v));
	return 0;
}

static int read_change(const json_t *c, struct carried_change *out, sb *why)
{
	out->infer_version = -1;
	if (!json_is_object(c)) {
		sb_adds(why, "ledger.changes holds something that is not an object");
		return -1;
	}
	if (opt_string(c, "var", "changes", &out->var, why) || opt_string(c, "old", "changes", &out->old_val, why) ||
	    opt_string(c, "new", "changes", &out->new_val, why) || opt_string(c, "how", "changes", &out->how, why) ||
	    opt_string(c, "span", "changes", &out->span, why))
		return -1;
	const json_t *iv = json_object_get(c, "infer_version");
	if (json_is_integer(iv))
		out->infer_version = (long)json_integer_value(iv);
	else if (iv && !json_is_null(iv)) {
		sb_adds(why, "ledger.changes.infer_version is not an integer");
		return -1;
	}
	if (!out->var || !*out->var) {
		sb_adds(why, "a change in ledger.changes has no 'var'");
		return -1;
	}
	if (!out->how || (strcmp(out->how, "exact") && strcmp(out->how, "code") && strcmp(out->how, "inferred"))) {
		sb_addf(why, "change '%s' in ledger.changes: 'how' must be exact, code or inferred", out->var);
		return -1;
	}
	return 0;
}

static int read_changes(const json_t *arr, struct carried *c, sb *why)
{
	if (!json_is_array(arr)) {
		sb_adds(why, "ledger.changes is not an array");
		return -1;
	}
	c->has_changes = 1;
	c->changes = xcalloc(json_array_size(arr) + 1, sizeof(*c->changes));
	size_t i;
	const json_t *v;
	json_array_foreach(arr, i, v) {
		if (read_change(v, &c->changes[c->nchanges++], why))
			return -1;
		for (int k = 0; k + 1 < c->nchanges; k++)
			if (!strcmp(c->changes[k].var, c->changes[c->nchanges - 1].var)) {
				sb_addf(why, "ledger.changes names '%s' twice", c->changes[k].var);
				return -1;
			}
	}
	return 0;
}

static int read_annotations(const json_t *arr, struct carried *c, sb *why)
{
	if (!json_is_array(arr)) {
		sb_adds(why, "ledger.annotations is not an array");
		return -1;
	}
	c->annots = xcalloc(json_array_size(arr) + 1, sizeof(*c->annots));
	size_t i;
	const json_t *v;
	json_array_foreach(arr, i, v) {
		struct annot_row *a = &c->annots[c->nannots++];
		if (!json_is_object(v)) {
			sb_adds(why, "ledger.annotations holds something that is not an object");
			return -1;
		}
		if (opt_string(v, "kind", "annotations", &a->kind, why) ||
		    opt_string(v, "key", "annotations", &a->key, why) ||
		    opt_string(v, "value", "annotations", &a->value, why) ||
		    opt_string(v, "who", "annotations", &a->who, why) ||
		    opt_string(v, "at", "annotations", &a->at, why))
			return -1;
		if (annot_check(a, why))
			return -1;
	}
	return 0;
}

static int read_source(const json_t *src, struct carried *c, sb *why)
{
	if (!json_is_object(src)) {
		sb_adds(why, "ledger.source is not an object");
		return -1;
	}
	c->has_source = 1;
	if (opt_string(src, "format", "source", &c->src_format, why) ||
	    opt_string(src, "file", "source", &c->src_file, why) ||
	    opt_string(src, "ingested_at", "source", &c->src_ingested_at, why))
		return -1;
	const json_t *line = json_object_get(src, "line");
	if (json_is_integer(line))
		c->src_line = (long)json_integer_value(line);
	else if (line && !json_is_null(line)) {
		sb_adds(why, "ledger.source.line is not an integer");
		return -1;
	}
	return 0;
}

static int is_hex64(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n == 64 && !s[n];
}

static int read_carried(const json_t *l, struct carried *c, sb *why)
{
	const json_t *v;
	if ((v = json_object_get(l, "changes")) && read_changes(v, c, why))
		return -1;
	if ((v = json_object_get(l, "annotations")) && read_annotations(v, c, why))
		return -1;
	if ((v = json_object_get(l, "source")) && read_source(v, c, why))
		return -1;
	if (opt_string(l, "repeat_key", "", &c->repeat_key, why))
		return -1;
	if (c->repeat_key && !is_hex64(c->repeat_key)) {
		sb_adds(why, "ledger.repeat_key is not 64 lowercase hex digits");
		return -1;
	}
	return 0;
}

int carried_take(json_t *rec, struct carried **out, sb *why)
{
	*out = NULL;
	json_t *l = json_object_get(rec, "ledger");
	if (!l)
		return 0;
	if (!json_is_object(l)) {
		sb_adds(why, "top-level 'ledger' is reserved for what 'ledger export' carries, and must be an object");
		return -1;
	}
	struct carried *c = xcalloc(1, sizeof(*c));
	if (read_carried(l, c, why)) {
		carried_free(c);
		return -1;
	}
	json_object_del(rec, "ledger");
	*out = c;
	return 0;
}

void carried_free(struct carried *c)
{
	if (!c)
		return;
	for (int k = 0; k < c->nchanges; k++) {
		struct carried_change *x = &c->changes[k];
		free(x->var);
		free(x->old_val);
		free(x->new_val);
		free(x->how);
		free(x->span);
	}
	free(c->changes);
	for (int k = 0; k < c->nannots; k++) {
		struct annot_row *a = &c->annots[k];
		free(a->kind);
		free(a->key);
		free(a->value);
		free(a->who);
		free(a->at);
	}
	free(c->annots);
	free(c->repeat_key);
	free(c->src_format);
	free(c->src_file);
	free(c->src_ingested_at);
	free(c);
}

int carried_change_list(const struct carried *c, struct change_list *out)
{
	int how = -1;
	for (int k = 0; k < c->nchanges; k++) {
		const struct carried_change *x = &c->changes[k];
		change_list_add_span(out, x->var, x->old_val, x->new_val, x->span);
		int h = !strcmp(x->how, "exact") ? CHANGES_EXACT : !strcmp(x->how, "code") ? CHANGES_CODE
											  : CHANGES_INFERRED;
		how = k == 0 ? h : how == h ? how : -1;
	}
	change_list_sort(out);
	return how;
}

/* ---- writing ---------------------------------------------------------- */

static json_t *column_json(sqlite3_stmt *st, int col)
{
	json_t *v = NULL;
	switch (sqlite3_column_type(st, col)) {
	case SQLITE_INTEGER: v = json_integer(sqlite3_column_int64(st, col)); break;
	case SQLITE_FLOAT: v = json_real(sqlite3_column_double(st, col)); break;
	case SQLITE_NULL: break;
	default: v = json_string((const char *)sqlite3_column_text(st, col));
	}
	return v ? v : json_null();
}

struct carried_exporter {
	sqlite3_stmt *changes, *annots, *row;
};

struct carried_exporter *carried_exporter_new(sqlite3 *db)
{
	struct carried_exporter *x = xcalloc(1, sizeof(*x));
	x->changes = db_prepare(db, "SELECT var, old, new, how, span, infer_version FROM changes"
				    " WHERE run = ?1 ORDER BY var");
	x->annots = db_prepare(db, "SELECT kind, key, value, who, at FROM main.annotations"
				   " WHERE run = ?1 ORDER BY id");
	x->row = db_prepare(db, "SELECT repeat_key, source_format, source_file, source_line,"
				" ingested_at FROM main.runs WHERE id = ?1");
	return x;
}

void carried_exporter_free(struct carried_exporter *x)
{
	if (!x)
		return;
	sqlite3_finalize(x->changes);
	sqlite3_finalize(x->annots);
	sqlite3_finalize(x->row);
	free(x);
}

/* Step st (bound to run id) over its rows, each into an object of the
 * named columns; from column skip_null_from on, a NULL is left out. */
static json_t *rows_json(sqlite3_stmt *st, long long id, const char *const *names, int ncols,
			 int skip_null_from, const char *purpose)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	json_t *arr = json_array();
	int rc;
	while ((rc = db_step(st, purpose)) == SQLITE_ROW) {
		json_t *o = json_object();
		for (int k = 0; k < ncols; k++)
			if (k < skip_null_from || sqlite3_column_type(st, k) != SQLITE_NULL)
				json_object_set_new(o, names[k], column_json(st, k));
		json_array_append_new(arr, o);
	}
	sqlite3_reset(st);
	if (rc == DB_ERROR) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

json_t *carried_export(struct carried_exporter *x, long long id)
{
	static const char *const change_cols[] = { "var", "old", "new", "how", "span", "infer_version" };
	/* annot_list's shape; a NULL (a tag's key elsewhere) is left out */
	static const char *const annot_names[] = { "kind", "key", "value", "who", "at" };
	json_t *changes = rows_json(x->changes, id, change_cols, 6, 4, "read the run's changes");
	json_t *annots = changes ? rows_json(x->annots, id, annot_names, 5, 0, "read the run's annotations") : NULL;
	json_t *l = json_object();
	int rc = DB_ERROR;
	if (annots) {
		sqlite3_reset(x->row);
		sqlite3_bind_int64(x->row, 1, id);
		rc = db_step(x->row, "read the run");
	}
	if (rc != SQLITE_ROW) {
		sqlite3_reset(x->row);
		json_decref(changes);
		json_decref(annots);
		json_decref(l);
		return NULL;
	}
	if (sqlite3_column_type(x->row, 0) != SQLITE_NULL)
		json_object_set_new(l, "repeat_key", column_json(x->row, 0));
	json_t *src = json_object();
	static const char *const src_names[] = { "format", "file", "line", "ingested_at" };
	for (int k = 0; k < 4; k++)
		json_object_set_new(src, src_names[k], column_json(x->row, k + 1));
	sqlite3_reset(x->row);
	json_object_set_new(l, "source", src);
	json_object_set_new(l, "changes", changes);
	json_object_set_new(l, "annotations", annots);
	return l;
}
