/* runpage.c — a page per run; see runpage.h. */
#include <jansson.h>
#include "curvesvg.h"
#include "db.h"
#include "fmt.h"
#include "html.h"
#include "jsontext.h"
#include "output.h"
#include "repeats.h"
#include "runpage.h"
#include "runrec.h"
#include "runrow.h"
#include "runs.h"
#include "sha256.h"
#include "strmap.h"
#include "util.h"

/* The runs to write pages for, in the order they were first named. */
static struct strmap seen = STRMAP_INIT;
static char **queue;
static int nqueue, capqueue;

static void remember(const char *run_id)
{
	int created;
	strmap_get(&seen, run_id, &created);
	if (!created)
		return;
	if (nqueue == capqueue) {
		capqueue = capqueue ? 2 * capqueue : 64;
		queue = xrealloc(queue, (size_t)capqueue * sizeof(*queue));
	}
	queue[nqueue++] = xstrdup(run_id);
}

/* Links put in table cells, by target: a run gets its page once a table
 * shows its row (runpage_shown), not for rows a --limit leaves out. */
static struct strmap cell_links = STRMAP_INIT;
static char **cell_runs;
static long ncell_runs;

static void forget_all(void)
{
	for (long i = 0; i < ncell_runs; i++)
		free(cell_runs[i]);
	free(cell_runs);
	cell_runs = NULL;
	ncell_runs = 0;
	strmap_release(&cell_links);
	for (int i = 0; i < nqueue; i++)
		free(queue[i]);
	free(queue);
	queue = NULL;
	nqueue = capqueue = 0;
	strmap_release(&seen);
}

void runpage_file(sb *out, const char *run_id)
{
	size_t start = out->len;
	for (const char *p = run_id; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c) || c == '-' || c == '_' || (c == '.' && p != run_id))
			sb_addc(out, (char)c);
		else
			sb_addf(out, "~%02X", c);
	}
	if (out->len - start <= 100)
		return;
	size_t keep = 80; /* never cut inside a ~XX */
	while (keep > 77 && memchr(out->buf + start + keep - 2, '~', 2))
		keep--;
	if (memchr(out->buf + start + keep - 2, '~', 2))
		keep -= 2;
	out->len = start + keep;
	out->buf[out->len] = '\0';
	char hex[65];
	sha256_hex(run_id, strlen(run_id), hex);
	sb_addf(out, "~%.16s", hex);
}

/* Link target from a page in runs/ (prefix "") or a report (prefix "runs/"). */
static void href_from(sb *out, const char *run_id, const char *prefix)
{
	remember(run_id);
	sb_adds(out, prefix);
	runpage_file(out, run_id);
	sb_adds(out, ".md");
}

void runpage_href(sb *out, const char *run_id)
{
	href_from(out, run_id, "runs/");
}

void runpage_cell(table *t, int row, int col, const char *run_id, const char *text)
{
	if (!run_id) {
		table_set_text(t, row, col, text);
		return;
	}
	sb h = SB_INIT;
	sb_adds(&h, "runs/");
	runpage_file(&h, run_id);
	sb_adds(&h, ".md");
	int created;
	struct strmap_slot *slot = strmap_get(&cell_links, h.buf, &created);
	if (created) {
		slot->v.n = ncell_runs;
		cell_runs = xrealloc(cell_runs, (size_t)(ncell_runs + 1) * sizeof(*cell_runs));
		cell_runs[ncell_runs++] = xstrdup(run_id);
	}
	table_set_link(t, row, col, text ? text : run_id, h.buf);
	sb_release(&h);
}

long runpage_max(void)
{
	const char *env = getenv("RUNLEDGER_RUN_PAGES");
	long n;
	if (env && *env && !parse_long(env, &n) && n >= 0)
		return n;
	if (env && *env) {
		static int warned;
		if (!warned++)
			rl_warn("RUNLEDGER_RUN_PAGES '%s' is not a number of pages; writing at most %d",
				env, RUNPAGE_MAX);
	}
	return RUNPAGE_MAX;
}

int runpage_keep(const char *href)
{
	struct strmap_slot *slot = strmap_find(&cell_links, href);
	if (!slot)
		return 1;
	const char *run_id = cell_runs[slot->v.n];
	if (!strmap_find(&seen, run_id) && nqueue >= runpage_max())
		return 0;
	remember(run_id);
	return 1;
}

static void link_from(sb *md, const char *run_id, const char *prefix)
{
	sb_addc(md, '[');
	md_escape(md, run_id);
	sb_adds(md, "](");
	href_from(md, run_id, prefix);
	sb_addc(md, ')');
}

void runpage_link(sb *md, const char *run_id)
{
	if (!strmap_find(&seen, run_id) && nqueue >= runpage_max())
		md_escape(md, run_id); /* no room for its page: no link */
	else
		link_from(md, run_id, "runs/");
}

/* ---- one page ------------------------------------------------------------- */

/* Rows a page's children and repeat-group tables show (the counts and the
 * group's mean and sd are of all). A popular parent of the 10,800-run bench
 * day has ~900 children: whole tables were 87% of the 250 pages' 2.05 MB of
 * markdown and cmark's rendering of them most of the pages' user time;
 * capped, the pages are 0.77 MB. */
#define RUNPAGE_TABLE_ROWS 20

/* The statements every page runs, prepared once for all pages. */
struct queries {
	sqlite3_stmt *run, *campaigns, *changes, *parent, *children, *repeats;
};

struct page {
	const struct queries *q;
	int *failed;
	struct runrow row;     /* the run (runrow.h) */
	json_t *rec;           /* the stored record */
	json_t *parent_config; /* the parent's config, or NULL */
	sb md, svg;
};

/* A config value or metric as text, as ledger show prints it (jsontext.h):
 * numbers in the shortest form that reads back exactly, so two values
 * that differ never print alike. */
static void scalar_text(sb *out, const json_t *v)
{
	if (v)
		json_text(v, out);
}

static void row_kv(table *t, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	int r = table_add_row(t);
	table_set_text(t, r, 0, k);
	table_set_text(t, r, 1, v);
}

static const char *col(sqlite3_stmt *st, int i)
{
	return runs_col_text(st, i);
}

/* Links back: the index, the run's day, its campaigns' reports. */
static void nav(struct page *p, double t_finished, char **camps, int ncamps)
{
	sb_adds(&p->md, "[All reports](../index.html)");
	if (!isnan(t_finished)) {
		sb day = SB_INIT;
		fmt_date(&day, t_finished);
		sb_addf(&p->md, " · [digest of %s](../%s.md)", day.buf, day.buf);
		sb_release(&day);
	}
	for (int i = 0; i < ncamps; i++) {
		sb slug = SB_INIT;
		out_slug(&slug, camps[i]);
		sb_adds(&p->md, " · [campaign ");
		md_escape(&p->md, camps[i]);
		sb_addf(&p->md, "](../campaign-%s.md)", slug.buf);
		sb_release(&slug);
	}
	sb_adds(&p->md, "\n\n");
}

/* Declared campaigns the run belongs to (by its record or by `ledger
 * campaign assign`), sorted. */
static char **campaigns(struct page *p, int *n)
{
	sqlite3_stmt *st = p->q->campaigns;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, p->row.id);
	char **out = NULL;
	*n = 0;
	while (runs_step(p->failed, st, "read a run's campaigns") == SQLITE_ROW) {
		out = xrealloc(out, (size_t)(*n + 1) * sizeof(*out));
		out[(*n)++] = db_column_dup(st, 0);
	}
	return out;
}

/* The run query's columns after the run's own (runrow.h). */
enum { COL_CODE = RUNROW_NCOLS, COL_DIRTY, COL_VAL_BPB, COL_FORMAT, COL_FILE, COL_LINE, COL_RECORD,
       COL_PARENT_CONFIG };

static void summary(struct page *p, sqlite3_stmt *st, char **camps, int ncamps)
{
	static const char *const cols[] = { "field", "value" };
	const struct runrow *run = &p->row;
	table t;
	table_init(&t, 2, cols);
	sb s = SB_INIT;
	row_kv(&t, "status", run->shown_status);
	row_kv(&t, "decision", run->decision);
	double v = db_column_num(st, COL_VAL_BPB);
	if (!isnan(v)) {
		fmt_val(&s, v);
		row_kv(&t, "val_bpb", s.buf);
	}
	row_kv(&t, "agent", run->agent);
	sb_reset(&s);
	if (run->hw_class) {
		sb_addf(&s, "%s", run->hw_class);
		if (run->gpu_name)
			sb_addf(&s, " (%s%s%s)", run->gpu_name, run->vram_tier ? ", VRAM tier " : "",
				run->vram_tier ? run->vram_tier : "");
	}
	row_kv(&t, "hardware", s.buf);
	row_kv(&t, "started", run->started_at);
	row_kv(&t, "finished", run->finished_at);
	sb_reset(&s);
	for (int i = 0; i < ncamps; i++)
		sb_addf(&s, "%s%s", i ? ", " : "", camps[i]);
	const char *rc = runrec_str(p->rec, "campaign");
	if (!ncamps && rc)
		sb_addf(&s, "%s (not declared)", rc);
	row_kv(&t, "campaign", s.buf);
	json_t *budget = json_object_get(json_object_get(p->rec, "budget"), "seconds");
	sb_reset(&s);
	if (json_is_number(budget))
		sb_addf(&s, "%.10g s", json_number_value(budget));
	row_kv(&t, "time budget", s.buf);
	sb_reset(&s);
	if (col(st, COL_CODE))
		sb_addf(&s, "%s%s", col(st, COL_CODE), sqlite3_column_int(st, COL_DIRTY) ? " (dirty)" : "");
	row_kv(&t, "code", s.buf);
	sb_reset(&s);
	const char *file = col(st, COL_FILE), *format = col(st, COL_FORMAT);
	if (file) { /* the file's name only: the same page from a ledger built elsewhere */
		const char *base = strrchr(file, '/');
		sb_addf(&s, "%s:%d (%s)", base ? base + 1 : file, sqlite3_column_int(st, COL_LINE),
			format ? format : "?");
	}
	row_kv(&t, "ingested from", s.buf);
	md_table(&p->md, &t);
	sb_adds(&p->md, "\n\n");
	table_release(&t);
	sb_release(&s);
}

static void section_curve(struct page *p, const char *file)
{
	json_t *curve = json_object_get(p->rec, "curve");
	sb_adds(&p->md, "## Training curve\n\n");
	sb title = SB_INIT;
	sb_addf(&title, "Training curve of %s", p->row.run_id);
	int n = json_is_object(curve) ? curve_svg(&p->svg, curve, title.buf) : 0;
	sb_release(&title);
	if (!n) {
		sb_adds(&p->md, "No curve recorded (the record has no `curve`: runs before curves were "
				"recorded, results.tsv rows and autoresearch@home results have none).\n\n");
		return;
	}
	sb_adds(&p->md, "![Training curve: train loss and LR multiplier against step, evaluations marked](");
	sb_addf(&p->md, "%s-curve.svg)\n\n", file);
	json_t *steps = json_object_get(curve, "step");
	size_t np = json_array_size(steps);
	sb_addf(&p->md, "%zu points, steps ", np);
	scalar_text(&p->md, json_array_get(steps, 0));
	sb_adds(&p->md, "–");
	scalar_text(&p->md, json_array_get(steps, np - 1));
	json_t *ev = json_object_get(json_object_get(curve, "eval"), "val_bpb");
	if (json_array_size(ev)) {
		sb_adds(&p->md, "; val_bpb at ");
		for (size_t i = 0; i < json_array_size(ev) && i < 8; i++) {
			sb_adds(&p->md, i ? ", step " : "step ");
			scalar_text(&p->md, json_array_get(json_object_get(json_object_get(curve, "eval"), "step"), i));
			sb_adds(&p->md, ": ");
			fmt_val(&p->md, json_is_number(json_array_get(ev, i)) ? json_number_value(json_array_get(ev, i)) : NAN);
		}
	}
	sb_adds(&p->md, ".\n\n");
}

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char **sorted_keys(const json_t *o, int *n)
{
	const char **k = xcalloc(json_object_size(o) + 1, sizeof(*k));
	const char *key;
	json_t *v;
	*n = 0;
	json_object_foreach((json_t *)o, key, v)
		k[(*n)++] = key;
	if (*n > 1)
		qsort(k, (size_t)*n, sizeof(*k), cmp_keys);
	return k;
}

static void section_metrics(struct page *p)
{
	json_t *m = json_object_get(p->rec, "metrics");
	sb_adds(&p->md, "## Metrics\n\n");
	if (!json_is_object(m) || !json_object_size(m)) {
		sb_adds(&p->md, "None recorded.\n\n");
		return;
	}
	static const char *const cols[] = { "metric", "value" };
	table t;
	table_init(&t, 2, cols);
	int n;
	const char **keys = sorted_keys(m, &n);
	sb s = SB_INIT;
	for (int i = 0; i < n; i++) {
		int r = table_add_row(&t);
		table_set_text(&t, r, 0, keys[i]);
		sb_reset(&s);
		scalar_text(&s, json_object_get(m, keys[i]));
		table_set_text(&t, r, 1, s.buf);
	}
	md_table(&p->md, &t);
	sb_adds(&p->md, "\n\n");
	free(keys);
	sb_release(&s);
	table_release(&t);
}

/* The changed keys first (from the changes table: how each was found and,
 * for an inferred one, the text of the description it came from), then
 * every other key of the config. */
static void section_config(struct page *p)
{
	static const char *const cols[] = { "key", "value", "parent", "how", "from the text" };
	json_t *cfg = json_object_get(p->rec, "config");
	table t;
	table_init(&t, 5, cols);
	struct strmap changed = STRMAP_INIT;
	sqlite3_stmt *st = p->q->changes;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, p->row.id);
	sb s = SB_INIT;
	while (runs_step(p->failed, st, "read a run's changes") == SQLITE_ROW) {
		int r = table_add_row(&t);
		const char *var = col(st, 0);
		strmap_get(&changed, var, NULL);
		table_set_text(&t, r, 0, var);
		sb_reset(&s);
		json_t *v = json_object_get(cfg, var);
		if (v)
			scalar_text(&s, v);
		else if (col(st, 2))
			sb_adds(&s, col(st, 2));
		table_set_text(&t, r, 1, s.buf);
		table_set_text(&t, r, 2, col(st, 1));
		table_set_text(&t, r, 3, col(st, 3));
		sb_reset(&s);
		if (col(st, 4))
			sb_addf(&s, "“%s”", col(st, 4));
		table_set_text(&t, r, 4, s.len ? s.buf : NULL);
	}
	int nchanged = t.nrows, n = 0;
	const char **keys = json_is_object(cfg) ? sorted_keys(cfg, &n) : NULL;
	for (int i = 0; i < n; i++) {
		if (strmap_find(&changed, keys[i]))
			continue;
		int r = table_add_row(&t);
		table_set_text(&t, r, 0, keys[i]);
		sb_reset(&s);
		scalar_text(&s, json_object_get(cfg, keys[i]));
		table_set_text(&t, r, 1, s.buf);
		/* unchanged keys show the parent's value only where it differs: a
		 * difference the changes table does not hold (a parent without a
		 * config, a key the parent lacked) */
		json_t *pv = p->parent_config ? json_object_get(p->parent_config, keys[i]) : NULL;
		sb_reset(&s);
		if (p->parent_config && !pv)
			sb_adds(&s, "(absent)");
		else if (pv && !json_same(pv, json_object_get(cfg, keys[i])))
			scalar_text(&s, pv);
		table_set_text(&t, r, 2, s.len ? s.buf : NULL);
	}
	sb_adds(&p->md, "## Config\n\n");
	if (!t.nrows)
		sb_adds(&p->md, "No config recorded and no change found.\n\n");
	else {
		sb_addf(&p->md, "%d key%s changed against the parent, listed first", nchanged,
			nchanged == 1 ? "" : "s");
		sb_adds(&p->md, " (how: `exact` from the configs, `code` from the code, `inferred` from the "
				"description, with the words it was read from).\n\n");
		md_table(&p->md, &t);
		sb_adds(&p->md, "\n\n");
	}
	free(keys);
	strmap_release(&changed);
	sb_release(&s);
	table_release(&t);
}

/* Text in a fenced code block: the fence is longer than any run of
 * backticks inside, so the text cannot end it; control characters but
 * newline and tab become spaces. */
static void code_block(sb *md, const char *text)
{
	int longest = 0, run = 0;
	for (const char *c = text; *c; c++) {
		run = *c == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	int fence = longest >= 3 ? longest + 1 : 3;
	for (int i = 0; i < fence; i++)
		sb_addc(md, '`');
	sb_addc(md, '\n');
	for (const char *c = text; *c; c++)
		sb_addc(md, (unsigned char)*c < 0x20 && *c != '\n' && *c != '\t' ? ' ' : *c);
	sb_addc(md, '\n');
	for (int i = 0; i < fence; i++)
		sb_addc(md, '`');
	sb_adds(md, "\n\n");
}

static void section_failure(struct page *p)
{
	json_t *f = json_object_get(p->rec, "failure");
	if (!json_is_object(f))
		return;
	sb_adds(&p->md, "## Failure\n\n");
	const char *phase = runrec_str(f, "phase"), *msg = runrec_str(f, "message");
	const char *tail = runrec_str(f, "log_tail");
	if (phase) {
		sb_adds(&p->md, "Phase: ");
		md_escape(&p->md, phase);
		sb_adds(&p->md, ".\n\n");
	}
	if (msg)
		code_block(&p->md, msg);
	if (tail) {
		sb_adds(&p->md, "Log tail:\n\n");
		code_block(&p->md, tail);
	}
}

static void section_lineage(struct page *p)
{
	sb_adds(&p->md, "## Parent and children\n\n");
	if (p->row.parent) {
		sqlite3_stmt *st = p->q->parent;
		sqlite3_reset(st);
		db_bind_text(st, 1, p->row.parent);
		sb_adds(&p->md, "Parent: ");
		if (runs_step(p->failed, st, "read a run's parent") == SQLITE_ROW) {
			int shown = sqlite3_column_int(st, 2);
			if (shown)
				link_from(&p->md, p->row.parent, "");
			else /* archived: no page of it in this report */
				md_escape(&p->md, p->row.parent);
			sb_adds(&p->md, " (val_bpb ");
			fmt_val(&p->md, db_column_num(st, 0));
			if (col(st, 1)) {
				sb_adds(&p->md, ": ");
				fmt_text(&p->md, col(st, 1), 80);
			}
			sb_adds(&p->md, shown ? ")" : "; archived: `report --archived` writes its page)");
		} else {
			md_escape(&p->md, p->row.parent);
			sb_adds(&p->md, " (not in the ledger)");
		}
		sb_adds(&p->md, ".\n\n");
	} else {
		sb_adds(&p->md, "No parent.\n\n");
	}
	static const char *const cols[] = { "child", "status", "decision", "val_bpb", "description" };
	table t;
	table_init(&t, 5, cols);
	sqlite3_stmt *st = p->q->children;
	sqlite3_reset(st);
	db_bind_text(st, 1, p->row.run_id);
	int nchildren = 0;
	while (runs_step(p->failed, st, "read a run's children") == SQLITE_ROW) {
		if (nchildren++ >= RUNPAGE_TABLE_ROWS)
			continue;
		int r = table_add_row(&t);
		sb h = SB_INIT;
		href_from(&h, col(st, 0), "");
		table_set_link(&t, r, 0, col(st, 0), h.buf);
		sb_release(&h);
		table_set_text(&t, r, 1, col(st, 1));
		table_set_text(&t, r, 2, col(st, 2));
		table_set_num(&t, r, 3, db_column_num(st, 3), fmt_decimals());
		table_set_text(&t, r, 4, col(st, 4));
	}
	if (t.nrows) {
		sb_addf(&p->md, "%d child%s (runs whose parent is this run)", nchildren,
			nchildren == 1 ? "" : "ren");
		if (nchildren > t.nrows)
			sb_addf(&p->md, ", the first %d shown", t.nrows);
		sb_adds(&p->md, ":\n\n");
		md_table(&p->md, &t);
		sb_adds(&p->md, "\n\n");
	} else {
		sb_adds(&p->md, "No children.\n\n");
	}
	table_release(&t);
}

/* Runs with the same repeat key (docs/audit.md, "Repeat group"). */
static void section_repeats(struct page *p)
{
	if (!p->row.repeat_key)
		return;
	static const char *const cols[] = { "run", "status", "val_bpb", "finished" };
	table t;
	table_init(&t, 4, cols);
	sqlite3_stmt *st = p->q->repeats;
	sqlite3_reset(st);
	db_bind_text(st, 1, p->row.repeat_key);
	double *v = NULL;
	int nv = 0, nruns = 0;
	while (runs_step(p->failed, st, "read a run's repeat group") == SQLITE_ROW) {
		double x = db_column_num(st, 2);
		if (!isnan(x) && !strcmp(col(st, 1), "ok")) {
			v = xrealloc(v, (size_t)(nv + 1) * sizeof(*v));
			v[nv++] = x;
		}
		/* the run itself is always a row; the others up to the bound */
		int self = !strcmp(col(st, 0), p->row.run_id);
		if (nruns++ >= RUNPAGE_TABLE_ROWS && !self)
			continue;
		int r = table_add_row(&t);
		if (!self) {
			sb h = SB_INIT;
			href_from(&h, col(st, 0), "");
			table_set_link(&t, r, 0, col(st, 0), h.buf);
			sb_release(&h);
		} else {
			table_set_text(&t, r, 0, col(st, 0));
		}
		table_set_text(&t, r, 1, col(st, 1));
		table_set_num(&t, r, 2, x, fmt_decimals());
		table_set_text(&t, r, 3, col(st, 3));
	}
	if (nruns >= 2) {
		double mean, sd;
		repeats_stats(v, nv, &mean, &sd);
		sb_adds(&p->md, "## Repeat group\n\nRuns of the same configuration on the same hardware class");
		if (nv >= 2) {
			sb_addf(&p->md, ": %d valid, mean ", nv);
			fmt_val(&p->md, mean);
			sb_adds(&p->md, " ± ");
			fmt_val(&p->md, sd);
		}
		if (nruns > t.nrows)
			sb_addf(&p->md, "; %d runs, %d shown (the first by finish time and this one)", nruns, t.nrows);
		sb_adds(&p->md, ".\n\n");
		md_table(&p->md, &t);
		sb_adds(&p->md, "\n\n");
	}
	free(v);
	table_release(&t);
}

static const char run_sql[] =
	"SELECT " RUNROW_COLS("runs.") ", code_commit, code_dirty, val_bpb, "
	"source_format, source_file, source_line, record, "
	"(SELECT json_extract(p.record, '$.config') FROM runs p WHERE p.run_id = runs.parent) "
	"FROM runs WHERE run_id = ?1";

/* Children are found through a temporary index of runs by parent (the
 * ledger has none, and a scan of the runs per page made 2000 pages of a
 * 25,000-run ledger take 40 s); temp tables are the connection's own, so
 * the ledger is still only read. */
static const char children_index_sql[] =
	"DROP TABLE IF EXISTS temp.runpage_children;"
	"CREATE TEMP TABLE runpage_children AS SELECT parent, t_finished, id FROM runs WHERE parent IS NOT NULL;"
	"CREATE INDEX temp.runpage_children_by_parent ON runpage_children(parent, t_finished, id);";

static int queries_prepare(sqlite3 *db, struct queries *q)
{
	sb status = SB_INIT, sql = SB_INIT;
	memset(q, 0, sizeof(*q));
	if (db_exec(db, children_index_sql))
		return -1;
	db_run_status(&status, "runs");
	q->run = db_prepare(db, run_sql);
	q->campaigns = db_prepare(db,
		"SELECT name FROM campaigns WHERE name = (SELECT campaign FROM runs WHERE id = ?1)"
		" UNION SELECT campaign FROM campaign_runs WHERE run = ?1 AND campaign IN (SELECT name FROM campaigns)"
		" ORDER BY 1");
	q->changes = db_prepare(db, "SELECT var, old, new, how, span FROM changes WHERE run = ?1 ORDER BY var");
	/* main.runs: a parent the report's view hides (archived) is still named
	 * as a run of the ledger; col 2 says whether the view shows it */
	q->parent = db_prepare(db, "SELECT p.val_bpb, p.description, p.id IN (SELECT id FROM runs) "
				   "FROM main.runs p WHERE p.run_id = ?1");
	sb_reset(&sql);
	sb_addf(&sql, "SELECT runs.run_id, %s, runs.decision, runs.val_bpb, runs.description "
		      "FROM temp.runpage_children c JOIN runs ON runs.id = c.id WHERE c.parent = ?1 "
		      "ORDER BY c.t_finished, c.id", status.buf);
	q->children = db_prepare(db, sql.buf);
	sb_reset(&sql);
	sb_addf(&sql, "SELECT run_id, %s, val_bpb, finished_at FROM runs WHERE repeat_key = ?1 "
		      "ORDER BY t_finished, id", status.buf);
	q->repeats = db_prepare(db, sql.buf);
	sb_release(&status);
	sb_release(&sql);
	return q->run && q->campaigns && q->changes && q->parent && q->children && q->repeats ? 0 : -1;
}

static void queries_release(struct queries *q)
{
	sqlite3_finalize(q->run);
	sqlite3_finalize(q->campaigns);
	sqlite3_finalize(q->changes);
	sqlite3_finalize(q->parent);
	sqlite3_finalize(q->children);
	sqlite3_finalize(q->repeats);
}

/* Build the page of run_id into p->md and p->svg; 0 when the ledger has
 * no such run. */
static int build(struct page *p, const char *run_id, const char *file)
{
	sqlite3_stmt *st = p->q->run;
	sqlite3_reset(st);
	db_bind_text(st, 1, run_id);
	int found = runs_step(p->failed, st, "read a run for its page") == SQLITE_ROW;
	if (found) {
		runrow_read(st, &p->row);
		p->rec = json_loads(col(st, COL_RECORD), 0, NULL);
		p->parent_config =
			col(st, COL_PARENT_CONFIG) ? json_loads(col(st, COL_PARENT_CONFIG), 0, NULL) : NULL;
		int ncamps;
		char **camps = campaigns(p, &ncamps);
		sb_adds(&p->md, "# Run ");
		md_escape(&p->md, p->row.run_id);
		sb_adds(&p->md, "\n\n");
		nav(p, p->row.t_finished, camps, ncamps);
		if (p->row.description) {
			fmt_text(&p->md, p->row.description, 0);
			sb_adds(&p->md, "\n\n");
		}
		summary(p, st, camps, ncamps);
		section_curve(p, file);
		section_metrics(p);
		section_config(p);
		section_failure(p);
		section_lineage(p);
		section_repeats(p);
		for (int i = 0; i < ncamps; i++)
			free(camps[i]);
		free(camps);
	}
	return found;
}

static void page_release(struct page *p)
{
	runrow_release(&p->row);
	json_decref(p->rec);
	json_decref(p->parent_config);
	sb_release(&p->md);
	sb_release(&p->svg);
}

static int write_page(const struct queries *q, const char *dir, const char *css, const char *run_id,
		      int *failed)
{
	struct page p = { .q = q, .failed = failed, .md = SB_INIT, .svg = SB_INIT };
	sb file = SB_INIT, name = SB_INIT, html = SB_INIT, title = SB_INIT;
	runpage_file(&file, run_id);
	int rc = 0;
	if (build(&p, run_id, file.buf) && !*failed) {
		sb_addf(&name, "%s.md", file.buf);
		rc = out_write(dir, name.buf, p.md.buf, p.md.len);
		sb_addf(&title, "runledger run %s", run_id);
		html_page(&html, p.md.buf, title.buf, css);
		sb_reset(&name);
		sb_addf(&name, "%s.html", file.buf);
		if (!rc)
			rc = out_write(dir, name.buf, html.buf, html.len);
		sb_reset(&name);
		sb_addf(&name, "%s-curve.svg", file.buf);
		if (!rc && p.svg.len)
			rc = out_write(dir, name.buf, p.svg.buf, p.svg.len);
	}
	page_release(&p);
	sb_release(&file);
	sb_release(&name);
	sb_release(&html);
	sb_release(&title);
	return rc;
}

int runpage_write_all(sqlite3 *db, const char *dir)
{
	sb runs = SB_INIT, origin = SB_INIT;
	sb_addf(&runs, "%s/runs", dir);
	int named = nqueue, failed = 0, rc = 0;
	struct queries q = { 0 };
	char *css = nqueue ? template_read("style.css", NULL, &origin) : NULL;
	if (nqueue && (!css || out_mkdirs(runs.buf) || queries_prepare(db, &q)))
		rc = -1;
	/* pages link to more runs as they are written: the queue grows */
	long max = runpage_max();
	for (int i = 0; !rc && i < nqueue && (i < named || i < max); i++)
		if (write_page(&q, runs.buf, css, queue[i], &failed) || failed)
			rc = -1;
	queries_release(&q);
	free(css);
	sb_release(&runs);
	sb_release(&origin);
	forget_all();
	return rc;
}
