/* cmd_compare.c — `ledger compare`: N runs side by side, one column each,
 * like `dvc exp show` turned on its side: what each run is (description,
 * status, decision, hardware), the config keys whose values differ
 * between them (every key with --all), what each changed against its
 * parent, and every metric. Runs are named (run references, lookup.h) or
 * chosen by the shared filters (filter.h), or both. Reads only. */
#include "annot.h"
#include "db.h"
#include "filter.h"
#include "jsontext.h"
#include "ledger.h"
#include "lookup.h"
#include "util.h"

static const char usage[] =
	"usage: ledger compare [--all] [--limit N] [--archived] [FILTERS] [RUN...]\n"
	"\n"
	"Compare runs side by side: one column per run, one row per key, in\n"
	"sections: run (description, status, decision, hardware, finished_at,\n"
	"parent), config (the keys whose values differ between the runs), changed\n"
	"(each run's changes against its parent, OLD -> NEW; '~' marks an inferred\n"
	"one), metrics (every metric any of them has).\n"
	"\n"
	"RUN is a run id, a unique prefix, #N or a commit prefix; filters select\n"
	"runs too (in time order, after the named ones). A run appears once.\n"
	"\n"
	"  --all         every config key, not only those that differ\n"
	"  --limit N     with filters, the N most recent matching runs (default 20)\n"
	"  --archived    filters select archived runs too (named runs always count)\n"
	"\n"
	"Formats: table, tsv, csv, md: columns section, key and one per run id;\n"
	"json: {\"runs\": [ids], \"rows\": [{\"section\", \"key\", \"differs\",\n"
	"\"values\": [one per run, JSON-typed, null when absent]}]}.\n"
	"Exit status: 0, 2 usage error or unknown run, 3 the ledger cannot be read.\n"
	"\n";

#define COMPARE_LIMIT_DEFAULT 20

struct run {
	sqlite3_int64 id;
	json_t *rec;
	char *run_id, *hw_class, *decision;
	json_t *changes; /* object var -> "old -> new" text */
};

struct compare_args {
	struct run_filter filter;
	int filtered;     /* a filter option was given */
	int all, archived;
	long limit;
	char **refs;
	int nrefs;
};

static int parse_args(int argc, char **argv, struct compare_args *a)
{
	a->refs = xcalloc((size_t)argc, sizeof(char *));
	for (int i = 1; i < argc; i++) {
		const char *v;
		int r = run_filter_option(&a->filter, "compare", argc, argv, &i);
		if (r < 0)
			return -1;
		if (r > 0) {
			a->filtered = 1;
		} else if (!strcmp(argv[i], "--all")) {
			a->all = 1;
		} else if (!strcmp(argv[i], "--archived")) {
			a->archived = 1;
		} else if ((r = option_value("compare", argc, argv, &i, "--limit", &v)) != 0) {
			if (r < 0 || parse_long(v, &a->limit) || a->limit < 1) {
				if (r > 0)
					rl_error("compare: --limit '%s' is not a positive count", v);
				return -1;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			rl_error("compare: unknown option '%s'", argv[i]);
			rl_hint("run 'ledger compare --help'");
			return -1;
		} else {
			a->refs[a->nrefs++] = argv[i];
		}
	}
	if (!a->nrefs && !a->filtered) {
		rl_error("compare: which runs?");
		rl_hint("name them (ledger compare RUN RUN...) or select them (ledger compare --campaign NAME)");
		return -1;
	}
	return 0;
}

/* ---- the runs ------------------------------------------------------- */

struct runs {
	struct run *v;
	int n, cap;
};

static int runs_has(const struct runs *rs, sqlite3_int64 id)
{
	for (int k = 0; k < rs->n; k++)
		if (rs->v[k].id == id)
			return 1;
	return 0;
}

static void runs_add(struct runs *rs, sqlite3_int64 id)
{
	if (runs_has(rs, id))
		return;
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 8;
		rs->v = xrealloc(rs->v, (size_t)rs->cap * sizeof(*rs->v));
	}
	memset(&rs->v[rs->n], 0, sizeof(rs->v[0]));
	rs->v[rs->n++].id = id;
}

static void runs_release(struct runs *rs)
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

/* The filtered runs, the most recent `limit` in time order (query's order:
 * untimed runs last). Said on stderr when more matched. 0 or -1. */
static int select_filtered(sqlite3 *db, const struct compare_args *a, struct runs *rs)
{
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	sb_adds(&sql, "SELECT id, count(*) OVER () FROM (SELECT r.id, r.t_finished FROM runs r WHERE 1");
	run_filter_sql(&a->filter, "r", &sql, &args);
	sb_adds(&sql, " ORDER BY r.t_finished IS NULL DESC, r.t_finished DESC, r.id DESC LIMIT ?)"
		      " ORDER BY t_finished IS NULL, t_finished, id");
	long limit = a->limit ? a->limit : COMPARE_LIMIT_DEFAULT;
	/* one more than shown, to know whether the limit cut */
	sql_args_int(&args, limit + 1);
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sql_args_bind(&args, st, 1);
	int rc, skip = -1;
	while ((rc = db_step(st, "select the runs")) == SQLITE_ROW) {
		if (skip < 0) /* the oldest of limit + 1 is the one cut */
			skip = sqlite3_column_int(st, 1) > limit;
		if (skip) {
			skip = 0;
			rl_warn("compare: more than %ld runs match; comparing the %ld most recent (--limit N)",
				limit, limit);
			continue;
		}
		runs_add(rs, sqlite3_column_int64(st, 0));
	}
	sqlite3_finalize(st);
	sql_args_release(&args);
	sb_release(&sql);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* "old -> new" per changed variable, '~' before an inferred one. */
static json_t *load_changes(sqlite3 *db, sqlite3_int64 id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT var, old, new, how FROM changes WHERE run = ?1 ORDER BY var");
	sqlite3_bind_int64(st, 1, id);
	json_t *obj = json_object();
	int rc;
	sb s = SB_INIT;
	while ((rc = db_step(st, "read the runs' changes")) == SQLITE_ROW) {
		const char *old = (const char *)sqlite3_column_text(st, 1);
		const char *new = (const char *)sqlite3_column_text(st, 2);
		sb_reset(&s);
		sb_addf(&s, "%s%s -> %s", !strcmp((const char *)sqlite3_column_text(st, 3), "inferred") ? "~" : "",
			old ? old : "?", new ? new : "?");
		json_t *v = json_string(s.buf);
		json_object_set_new(obj, (const char *)sqlite3_column_text(st, 0), v ? v : json_null());
	}
	sb_release(&s);
	sqlite3_finalize(st);
	if (rc == DB_ERROR) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/* Record, class, effective decision and changes of each run, from the
 * table itself (main.runs: a named run may be archived). 0 or -1. */
static int load_runs(sqlite3 *db, struct runs *rs)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT record, run_id, hw_class, decision FROM main.runs WHERE id = ?1");
	int rc = st ? 0 : -1;
	for (int k = 0; k < rs->n && !rc; k++) {
		struct run *r = &rs->v[k];
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
	const struct runs *rs;
	table t;        /* text formats */
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
	int r = table_add_row(&o->t);
	table_set_text(&o->t, r, 0, section);
	table_set_text(&o->t, r, 1, key);
	sb s = SB_INIT;
	for (int c = 0; c < o->rs->n; c++) {
		if (!vals[c] || json_is_null(vals[c]))
			continue;
		sb_reset(&s);
		json_text(vals[c], &s);
		table_set_text(&o->t, r, c + 2, s.buf);
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
static const char **key_union(const struct runs *rs, json_t *(*obj_of)(const struct run *), const char *first,
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

static json_t *config_of(const struct run *r)
{
	json_t *c = json_object_get(r->rec, "config");
	return json_is_object(c) ? c : NULL;
}

static json_t *metrics_of(const struct run *r)
{
	json_t *m = json_object_get(r->rec, "metrics");
	return json_is_object(m) ? m : NULL;
}

static json_t *changes_of(const struct run *r)
{
	return r->changes;
}

/* One section of object-valued keys: every key when all, else those
 * whose values differ. */
static void object_section(struct out *o, const char *section, json_t *(*obj_of)(const struct run *),
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
			const struct run *r = &o->rs->v[c];
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

static void render(struct out *o, enum out_format fmt)
{
	if (o->rows) {
		json_t *doc = json_object(), *ids = json_array();
		for (int c = 0; c < o->rs->n; c++)
			json_array_append_new(ids, json_string(o->rs->v[c].run_id));
		json_object_set_new(doc, "runs", ids);
		json_object_set(doc, "rows", o->rows);
		char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		printf("%s\n", s ? s : "{}");
		free(s);
		json_decref(doc);
	} else {
		table_render(&o->t, fmt, stdout);
	}
}

static int compare(struct ledger_ctx *ctx, const struct compare_args *a)
{
	struct runs rs = { 0 };
	int rc = EXIT_OK;
	/* named runs first, looked up in the table itself: one named is
	 * compared even when archived */
	for (int k = 0; k < a->nrefs && rc == EXIT_OK; k++) {
		sqlite3_int64 id;
		int r = run_lookup(ctx->db, a->refs[k], &id, 0);
		if (r)
			rc = r == LOOKUP_DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
		else
			runs_add(&rs, id);
	}
	if (rc == EXIT_OK && a->filtered &&
	    (annot_view(ctx->db, a->archived ? ANNOT_WITH_ARCHIVED : ANNOT_HIDE_ARCHIVED) ||
	     select_filtered(ctx->db, a, &rs)))
		rc = EXIT_FAILURE_RT;
	if (rc == EXIT_OK && load_runs(ctx->db, &rs))
		rc = EXIT_FAILURE_RT;
	if (rc != EXIT_OK) {
		runs_release(&rs);
		return rc;
	}
	if (!rs.n)
		rl_warn("compare: no run matches the filters");
	struct out o = { .rs = &rs };
	const char **names = xcalloc((size_t)rs.n + 2, sizeof(char *));
	names[0] = "section";
	names[1] = "key";
	for (int c = 0; c < rs.n; c++)
		names[c + 2] = rs.v[c].run_id;
	if (ctx->fmt == FMT_JSON)
		o.rows = json_array();
	else
		table_init(&o.t, rs.n + 2, names);
	run_section(&o);
	object_section(&o, "config", config_of, NULL, a->all);
	object_section(&o, "changed", changes_of, NULL, 1);
	object_section(&o, "metrics", metrics_of, "val_bpb", 1);
	render(&o, ctx->fmt);
	if (o.rows)
		json_decref(o.rows);
	else
		table_release(&o.t);
	free(names);
	runs_release(&rs);
	return EXIT_OK;
}

int cmd_compare(int argc, char **argv, struct ledger_ctx *ctx)
{
	if (wants_help(argc, argv)) {
		printf("%s%s", usage, run_filter_usage);
		return EXIT_OK;
	}
	struct compare_args a = { .limit = 0 };
	run_filter_init(&a.filter);
	int rc = parse_args(argc, argv, &a) ? EXIT_USAGE : compare(ctx, &a);
	run_filter_release(&a.filter);
	free(a.refs);
	return rc;
}
