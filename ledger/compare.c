/* compare.c — N runs side by side; see compare.h. */
#include "annot.h"
#include "changed.h"
#include "compare.h"
#include "db.h"
#include "jsontext.h"
#include "util.h"

/* ---- the runs ------------------------------------------------------- */

static int set_has(const struct compare_set *rs, sqlite3_int64 id)
{
	for (int k = 0; k < rs->n; k++)
		if (rs->v[k].id == id)
			return 1;
	return 0;
}

void compare_add(struct compare_set *rs, sqlite3_int64 id)
{
	if (set_has(rs, id))
		return;
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 8;
		rs->v = xrealloc(rs->v, (size_t)rs->cap * sizeof(*rs->v));
	}
	memset(&rs->v[rs->n], 0, sizeof(rs->v[0]));
	rs->v[rs->n++].id = id;
}

void compare_release(struct compare_set *rs)
{
	for (int k = 0; k < rs->n; k++) {
		json_decref(rs->v[k].rec);
		json_decref(rs->v[k].changes);
		free(rs->v[k].run_id);
		free(rs->v[k].hw_class);
		free(rs->v[k].decision);
	}
	free(rs->v);
}

/* The run's changes as an object, var -> its change object (changed.h:
 * {var, old, new, how, span}), so that a variable is one row across runs;
 * text formats print them as "old -> new" ('~' before an inferred one). */
static json_t *load_changes(sqlite3 *db, sqlite3_int64 id)
{
	sqlite3_stmt *st = db_prepare(db, CHANGED_SQL);
	json_t *list, *obj = NULL;
	if (st && changed_read(st, id, &list, NULL) == 0) {
		size_t i;
		json_t *c;
		obj = json_object();
		json_array_foreach(list, i, c)
			json_object_set(obj, json_string_value(json_object_get(c, "var")), c);
		json_decref(list);
	}
	sqlite3_finalize(st);
	return obj;
}

/* A change object as text: "old -> new", '~' first when inferred. */
static void change_text(const json_t *c, sb *s)
{
	const char *old = json_string_value(json_object_get(c, "old"));
	const char *new = json_string_value(json_object_get(c, "new"));
	const char *how = json_string_value(json_object_get(c, "how"));
	sb_addf(s, "%s%s -> %s", how && !strcmp(how, "inferred") ? "~" : "", old ? old : "?", new ? new : "?");
}

/* Record, class, effective decision and changes of each run, from the
 * table itself (main.runs: a named run may be archived). 0 or -1. */
int compare_load(sqlite3 *db, struct compare_set *rs)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT record, run_id, hw_class, decision FROM main.runs WHERE id = ?1");
	int rc = st ? 0 : -1;
	for (int k = 0; k < rs->n && !rc; k++) {
		struct compare_run *r = &rs->v[k];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, r->id);
		if (db_step(st, "read the run") != SQLITE_ROW) {
			rc = -1;
			break;
		}
		json_error_t je;
		r->rec = json_loads((const char *)sqlite3_column_text(st, 0), 0, &je);
		if (!r->rec) {
			rl_error("compare: stored record of #%lld is not JSON: %s", (long long)r->id, je.text);
			rc = -1;
			break;
		}
		r->run_id = db_column_dup(st, 1);
		r->hw_class = db_column_dup(st, 2);
		r->decision = annot_decided(db, r->id);
		if (!r->decision)
			r->decision = db_column_dup(st, 3);
		r->changes = load_changes(db, r->id);
		if (!r->changes)
			rc = -1;
	}
	sqlite3_finalize(st);
	return rc;
}

/* ---- rows ----------------------------------------------------------- */

struct out {
	const struct compare_set *rs;
	table *t;       /* text formats */
	json_t *rows;   /* json */
};

static void emit(struct out *o, const char *section, const char *key, json_t **vals, int differs)
{
	if (o->rows) {
		json_t *row = json_object();
		json_object_set_new(row, "section", json_string(section));
		json_t *k = json_string(key);
		json_object_set_new(row, "key", k ? k : json_null());
		json_object_set_new(row, "differs", json_boolean(differs));
		json_t *arr = json_array();
		for (int c = 0; c < o->rs->n; c++)
			json_array_append_new(arr, vals[c] ? json_deep_copy(vals[c]) : json_null());
		json_object_set_new(row, "values", arr);
		json_array_append_new(o->rows, row);
		return;
	}
	int r = table_add_row(o->t);
	table_set_text(o->t, r, 0, section);
	table_set_text(o->t, r, 1, key);
	sb s = SB_INIT;
	for (int c = 0; c < o->rs->n; c++) {
		if (!vals[c] || json_is_null(vals[c]))
			continue;
		sb_reset(&s);
		if (!strcmp(section, "changed"))
			change_text(vals[c], &s);
		else
			json_text(vals[c], &s);
		table_set_text(o->t, r, c + 2, s.buf);
	}
	sb_release(&s);
}

/* 1 when the values are not all the same (absent and null alike). */
static int values_differ(json_t **vals, int n)
{
	for (int c = 1; c < n; c++) {
		json_t *a = vals[0] && !json_is_null(vals[0]) ? vals[0] : NULL;
		json_t *b = vals[c] && !json_is_null(vals[c]) ? vals[c] : NULL;
		if (!json_same(a, b))
			return 1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of obj_of(run) over all runs, sorted, each once; "first" (if
 * any run has it) leads. */
static const char **key_union(const struct compare_set *rs, json_t *(*obj_of)(const struct compare_run *), const char *first,
			      size_t *n)
{
	size_t cap = 0;
	*n = 0;
	for (int k = 0; k < rs->n; k++)
		cap += json_object_size(obj_of(&rs->v[k]));
	const char **keys = xcalloc(cap + 1, sizeof(char *));
	for (int k = 0; k < rs->n; k++) {
		const char *key;
		json_t *v;
		json_object_foreach(obj_of(&rs->v[k]), key, v)
			keys[(*n)++] = key;
	}
	qsort(keys, *n, sizeof(char *), cmp_str);
	size_t out = 0;
	for (size_t k = 0; k < *n; k++)
		if (!out || strcmp(keys[out - 1], keys[k]))
			keys[out++] = keys[k];
	*n = out;
	for (size_t k = 1; first && k < out; k++)
		if (!strcmp(keys[k], first)) {
			memmove(keys + 1, keys, k * sizeof(char *));
			keys[0] = first;
			break;
		}
	return keys;
}

static json_t *config_of(const struct compare_run *r)
{
	json_t *c = json_object_get(r->rec, "config");
	return json_is_object(c) ? c : NULL;
}

static json_t *metrics_of(const struct compare_run *r)
{
	json_t *m = json_object_get(r->rec, "metrics");
	return json_is_object(m) ? m : NULL;
}

static json_t *changes_of(const struct compare_run *r)
{
	return r->changes;
}

/* One section of object-valued keys: every key when all, else those
 * whose values differ. */
static void object_section(struct out *o, const char *section, json_t *(*obj_of)(const struct compare_run *),
			   const char *first, int all)
{
	size_t n;
	const char **keys = key_union(o->rs, obj_of, first, &n);
	json_t **vals = xcalloc((size_t)o->rs->n + 1, sizeof(json_t *));
	for (size_t k = 0; k < n; k++) {
		for (int c = 0; c < o->rs->n; c++)
			vals[c] = json_object_get(obj_of(&o->rs->v[c]), keys[k]);
		int differs = values_differ(vals, o->rs->n);
		if (differs || all)
			emit(o, section, keys[k], vals, differs);
	}
	free(vals);
	free(keys);
}

/* The run section: what each run is, always shown. */
static void run_section(struct out *o)
{
	static const char *const rec_keys[] = { "description", "status", "decision", "hardware",
						"finished_at", "parent" };
	json_t **vals = xcalloc((size_t)o->rs->n + 1, sizeof(json_t *));
	for (size_t k = 0; k < ARRAY_SIZE(rec_keys); k++) {
		for (int c = 0; c < o->rs->n; c++) {
			const struct compare_run *r = &o->rs->v[c];
			const char *s = !strcmp(rec_keys[k], "decision") ? r->decision
				      : !strcmp(rec_keys[k], "hardware") ? r->hw_class
									  : json_string_value(json_object_get(r->rec, rec_keys[k]));
			vals[c] = s ? json_string(s) : NULL;
		}
		emit(o, "run", rec_keys[k], vals, values_differ(vals, o->rs->n));
		for (int c = 0; c < o->rs->n; c++)
			json_decref(vals[c]);
	}
	free(vals);
}

static void all_sections(struct out *o, int all)
{
	run_section(o);
	object_section(o, "config", config_of, NULL, all);
	object_section(o, "changed", changes_of, NULL, 1);
	object_section(o, "metrics", metrics_of, "val_bpb", 1);
}

void compare_table(const struct compare_set *s, int all, table *t)
{
	const char **names = xcalloc((size_t)s->n + 2, sizeof(char *));
	names[0] = "section";
	names[1] = "key";
	for (int c = 0; c < s->n; c++)
		names[c + 2] = s->v[c].run_id;
	table_init(t, s->n + 2, names);
	free(names);
	struct out o = { .rs = s, .t = t };
	all_sections(&o, all);
}

json_t *compare_json(const struct compare_set *s, int all)
{
	struct out o = { .rs = s, .rows = json_array() };
	all_sections(&o, all);
	json_t *doc = json_object(), *ids = json_array();
	for (int c = 0; c < s->n; c++)
		json_array_append_new(ids, json_string(s->v[c].run_id));
	json_object_set_new(doc, "runs", ids);
	json_object_set_new(doc, "rows", o.rows);
	return doc;
}
