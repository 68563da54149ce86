/* cmd_diff.c — `ledger diff A B`: two runs side by side, section by section
 * (config, code, hardware, data, budget, metrics), only the keys that differ
 * unless --all. Exit status as diff(1): 0 same, 1 different. Reads only.
 * JSON keeps each value's own JSON type (built with jansson rather than
 * table.h, whose cells would round reals to 10 digits), and the table
 * format is aligned here without table.h's 60-character cut, since a diff
 * must not hide where two values differ; tsv, csv, md go through table.h. */
#include <jansson.h>
#include "db.h"
#include "jsontext.h"
#include "ledger.h"
#include "lookup.h"
#include "termtext.h"
#include "util.h"

enum { O_ALL = 1 };
static const struct opt diff_opts[] = {
	{ .name = "--all", .id = O_ALL, .help = "list every key; adds a 'differs' column" },
};
static const struct opt_group diff_group = { NULL, NULL, diff_opts, ARRAY_SIZE(diff_opts) };

const struct opt_cmd cmd_diff_spec = {
	.name = "diff",
	.args = "RUN_A RUN_B",
	.summary = "compare two runs: config, code, hardware, metrics",
	.about = "Compare two runs: config, code, hardware (with the ledger's class and\n"
		 "tier), data, budget and metrics, one row per key: section, key, a, b.\n"
		 "Only keys whose values differ are listed unless --all is given; numbers\n"
		 "compare by value (8 equals 8.0); an absent key shows as null.\n"
		 "RUN is a run id, a unique prefix of one, #N, or a prefix of the run's code\n"
		 "commit (at least 4 characters) when no run id starts with it.\n",
	.notes = "Exit status: 0 no differences, 1 differences (like diff(1)), 2 usage or\n"
		 "unknown run, 3 runtime failure.\n",
	.groups = { &diff_group },
};

static const char *const sections[] = { "config", "code", "hardware", "data", "budget", "metrics" };

struct side {
	sqlite3_int64 id;
	json_t *rec;   /* the stored record, with hardware.class/tier added */
	char *run_id;
};

/* The record plus the ledger's class and tier inside its hardware object,
 * since those decide whether two results are comparable. */
static int side_load(sqlite3 *db, const char *ref, struct side *s)
{
	int miss = run_lookup(db, ref, &s->id, 0);
	if (miss)
		return miss == LOOKUP_DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
	sqlite3_stmt *st = db_prepare(db,
		"SELECT record, hw_class, vram_tier, run_id FROM runs WHERE id = ?");
	sqlite3_bind_int64(st, 1, s->id);
	int rc = EXIT_FAILURE_RT;
	if (db_step(st, "read the run's record") == SQLITE_ROW) {
		json_error_t je;
		s->rec = json_loads((const char *)sqlite3_column_text(st, 0), 0, &je);
		s->run_id = xstrdup((const char *)sqlite3_column_text(st, 3));
		if (!s->rec) {
			rl_error("diff: stored record of '%s' is not JSON: %s", ref, je.text);
		} else {
			json_t *hw = json_object_get(s->rec, "hardware");
			if (!json_is_object(hw)) {
				hw = json_object();
				json_object_set_new(s->rec, "hardware", hw);
			}
			for (int k = 1; k <= 2; k++) {
				const char *v = (const char *)sqlite3_column_text(st, k);
				json_object_set_new(hw, k == 1 ? "class" : "tier",
						    v ? json_string(v) : json_null());
			}
			rc = 0;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

static void side_release(struct side *s)
{
	json_decref(s->rec);
	free(s->run_id);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted union of the keys of two objects (either may be NULL). */
static const char **key_union(const json_t *a, const json_t *b, size_t *n)
{
	size_t cap = json_object_size(a) + json_object_size(b), k = 0;
	const char **keys = xcalloc(cap + 1, sizeof(char *));
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)a, key, v)
		keys[k++] = key;
	json_object_foreach((json_t *)b, key, v)
		if (!json_object_get(a, key))
			keys[k++] = key;
	qsort(keys, k, sizeof(char *), cmp_str);
	*n = k;
	return keys;
}

struct diff_out {
	int all;
	int ndiff;
	table t;       /* text formats */
	json_t *arr;   /* json */
};

static void cell_value(table *t, int r, int c, const json_t *v)
{
	if (!v || json_is_null(v)) {
		table_set_text(t, r, c, NULL);
		return;
	}
	sb s = SB_INIT;
	json_text(v, &s);
	table_set_text(t, r, c, s.buf);
	sb_release(&s);
}

static void emit(struct diff_out *o, const char *section, const char *key,
		 const json_t *a, const json_t *b, int differs)
{
	if (o->arr) {
		json_t *row = json_object();
		json_object_set_new(row, "section", json_string(section));
		json_object_set_new(row, "key", json_string(key));
		json_object_set_new(row, "a", a ? json_deep_copy(a) : json_null());
		json_object_set_new(row, "b", b ? json_deep_copy(b) : json_null());
		if (o->all)
			json_object_set_new(row, "differs", json_boolean(differs));
		json_array_append_new(o->arr, row);
		return;
	}
	int r = table_add_row(&o->t);
	table_set_text(&o->t, r, 0, section);
	table_set_text(&o->t, r, 1, key);
	cell_value(&o->t, r, 2, a);
	cell_value(&o->t, r, 3, b);
	if (o->all)
		table_set_text(&o->t, r, 4, differs ? "*" : "");
}

static void diff_section(struct diff_out *o, const char *section, const json_t *ra, const json_t *rb)
{
	json_t *a = json_object_get(ra, section), *b = json_object_get(rb, section);
	if (!json_is_object(a))
		a = NULL;
	if (!json_is_object(b))
		b = NULL;
	size_t n;
	const char **keys = key_union(a, b, &n);
	for (size_t k = 0; k < n; k++) {
		json_t *va = json_object_get(a, keys[k]), *vb = json_object_get(b, keys[k]);
		/* absent and null both mean "no value" */
		int differs = !json_same(va && !json_is_null(va) ? va : NULL,
					 vb && !json_is_null(vb) ? vb : NULL);
		o->ndiff += differs;
		if (differs || o->all)
			emit(o, section, keys[k], va, vb, differs);
	}
	free(keys);
}

static size_t utf8_chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The table format, aligned like table.h's but never cut at 60 characters:
 * two hashes that differ only near their ends must still show it. */
static void print_aligned(const table *t)
{
	int n = (t->nrows + 1) * t->ncols;
	char **text = xcalloc((size_t)n, sizeof(char *));
	size_t w[8] = { 0 };
	sb cellbuf = SB_INIT, line = SB_INIT;
	for (int k = 0; k < n; k++) {
		int c = k % t->ncols;
		sb_reset(&cellbuf);
		if (k < t->ncols)
			sb_adds(&cellbuf, t->cols[c]);
		else
			table_cell_text(&t->cells[k - t->ncols], &cellbuf);
		sb_reset(&line);
		term_escape(&line, cellbuf.buf, 0);
		text[k] = xstrdup(line.buf);
		if (utf8_chars(text[k]) > w[c])
			w[c] = utf8_chars(text[k]);
	}
	for (int k = 0; k < n; k++) {
		int c = k % t->ncols;
		if (c == 0)
			sb_reset(&line);
		sb_adds(&line, text[k]);
		for (size_t pad = utf8_chars(text[k]); c + 1 < t->ncols && pad < w[c] + 2; pad++)
			sb_addc(&line, ' ');
		if (c + 1 == t->ncols) {
			sb_rtrim(&line);
			printf("%s\n", line.buf);
		}
		free(text[k]);
	}
	free(text);
	sb_release(&cellbuf);
	sb_release(&line);
}

static void render(struct diff_out *o, const struct side *a, const struct side *b,
		   enum out_format fmt)
{
	if (o->arr) {
		char *s = json_dumps(o->arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		printf("%s\n", s ? s : "[]");
		free(s);
	} else if (fmt == FMT_TABLE) {
		sb head = SB_INIT;
		sb_adds(&head, "a: ");
		term_escape(&head, a->run_id, 0);
		sb_adds(&head, "\nb: ");
		term_escape(&head, b->run_id, 0);
		printf("%s\n", head.buf);
		sb_release(&head);
		print_aligned(&o->t);
	} else {
		table_render(&o->t, fmt, stdout);
	}
}

static int parse_args(int argc, char **argv, int *all, const char **ra, const char **rb)
{
	int npos = 0, r;
	struct opt_parser p;
	opts_begin(&p, &ledger_prog, &cmd_diff_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR)
			return -1;
		if (r == O_ALL)
			*all = 1;
		else if (r == OPTS_ARG && npos < 2)
			*(npos++ ? rb : ra) = p.val;
		else if (r == OPTS_ARG)
			npos++;
	}
	if (npos != 2) {
		rl_error("diff: expected two runs, got %d", npos);
		rl_hint("usage: ledger diff [--all] RUN_A RUN_B");
		return -1;
	}
	return 0;
}

int cmd_diff(int argc, char **argv, struct ledger_ctx *ctx)
{
	const char *ra = NULL, *rb = NULL;
	struct diff_out o = { 0 };
	struct side a = { 0 }, b = { 0 };
	if (parse_args(argc, argv, &o.all, &ra, &rb))
		return EXIT_USAGE;
	int rc = side_load(ctx->db, ra, &a);
	if (!rc)
		rc = side_load(ctx->db, rb, &b);
	if (rc)
		goto done;
	static const char *const names[] = { "section", "key", "a", "b", "differs" };
	if (ctx->fmt == FMT_JSON)
		o.arr = json_array();
	else
		table_init(&o.t, o.all ? 5 : 4, names);
	for (size_t k = 0; k < ARRAY_SIZE(sections); k++)
		diff_section(&o, sections[k], a.rec, b.rec);
	render(&o, &a, &b, ctx->fmt);
	rc = o.ndiff ? EXIT_FINDINGS : EXIT_OK;
	if (o.arr)
		json_decref(o.arr);
	else
		table_release(&o.t);
done:
	side_release(&a);
	side_release(&b);
	return rc;
}
