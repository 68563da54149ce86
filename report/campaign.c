/* campaign.c — `report campaign`: one declared campaign as a report —
 * declaration, baseline and best, whether anything beat the baseline, the
 * progress chart, every changed variable with its runs and results, the
 * audit's findings and what the search space still leaves untested.
 * Judgements (noise floor, out of scope, confounded…) come from the audit
 * library (ledger/audit.h) so `ledger audit` and this report agree.
 * Reads the ledger; never writes it. */
#include "audit.h"
#include "campaign.h"
#include "campaign_compare.h"
#include "chart.h"
#include "db.h"
#include "filter.h"
#include "fmt.h"
#include "metrics.h"
#include "output.h"
#include "report.h"
#include "runpage.h"
#include "runrow.h"
#include "runs.h"
#include "template.h"
#include "tophits.h"
#include "util.h"

enum { O_CAMPAIGN = 1 };
static const struct opt campaign_opts[] = {
	{ .name = "--campaign", .id = O_CAMPAIGN, .type = OPT_STRING, .value = "NAME", .flags = OPT_REQUIRED,
	  .help = "the campaign" },
};
static const struct opt_group campaign_group = { NULL, NULL, campaign_opts, ARRAY_SIZE(campaign_opts) };

const struct opt_cmd cmd_campaign_spec = {
	.name = "campaign",
	.summary = "one campaign: baseline, best, variables, audit, what to test next",
	.about = "Write DIR/campaign-NAME.md and .html for a declared campaign (see\n"
		 "'ledger campaign add'), its progress chart under DIR/charts/, and refresh\n"
		 "DIR/index.html.\n",
	.groups = { &campaign_group, &report_out_group, &report_shared_group },
};

struct crun {
	struct runrow row;         /* the run (runrow.h); its status as shown, 'lost' too */
	char *changes;
	int other_budget;          /* trained for another budget than the baseline (audit) */
	double value, parent_value;
	double perf[3];            /* tokens_per_second, mfu_percent, peak_vram_mb (NAN: not recorded) */
	int nch;
	int knobs;                 /* changes that are knobs of their own (audit_derived_var) */
};

/* How many of run id's changes are knobs of their own: "head_dim 128 ->
 * 64" with the head count that follows is one (the audit's rule), so that
 * "measured alone" and "test each alone" say what the audit says. */
static int count_knobs(int *failed, sqlite3_stmt *st, sqlite3_int64 id)
{
	struct knob_change *ch = NULL; /* each string its own copy */
	int n = 0, knobs = 0;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	while (runs_step(failed, st, "read the runs' changes") == SQLITE_ROW) {
		ch = xrealloc(ch, (size_t)(n + 1) * sizeof(*ch));
		ch[n++] = (struct knob_change){ db_column_dup(st, 0), db_column_dup(st, 1),
						db_column_dup(st, 2) };
	}
	for (int i = 0; i < n; i++)
		knobs += !audit_derived_var(ch, n, i);
	for (int i = 0; i < n; i++) {
		free((char *)ch[i].var);
		free((char *)ch[i].old);
		free((char *)ch[i].new_);
	}
	free(ch);
	return knobs;
}

/* Throughput, MFU and peak memory: what an impl.* campaign is about, shown
 * in the runs table when a member records them. */
static const struct {
	const char *metric, *column;
	int decimals;
} perf_cols[3] = {
	{ "tokens_per_second", "tok/s", 0 },
	{ "mfu_percent", "MFU %", 1 },
	{ "peak_vram_mb", "peak VRAM MB", 0 },
};

struct camp {
	sqlite3 *db;
	const char *name;
	const struct report_opts *o;
	struct campaign spec;
	struct crun *r;            /* members in time order */
	int n;
	struct audit_summary sum;
	struct tpl_vars vars;
	int failed;                /* a read failed (reported): render nothing */
};

/* The members with their metric (NULL unless status ok) and the parent's. */
static void load_members(struct camp *c)
{
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	sb_adds(&sql, "SELECT " RUNROW_COLS("r.") ", CASE WHEN r.status = 'ok' THEN ");
	run_metric_sql(c->spec.metric, "r", &sql, &args);
	sb_adds(&sql, " END, (SELECT CASE WHEN p.status = 'ok' THEN ");
	run_metric_sql(c->spec.metric, "p", &sql, &args);
	int k = args.n + 1; /* the name's parameter number, after the metric's */
	sb_adds(&sql, " END FROM runs p WHERE p.run_id = r.parent)");
	for (int i = 0; i < 3; i++) /* our own metric names: no quoting needed */
		sb_addf(&sql, ", " METRIC_SQL("r.", "%s"), perf_cols[i].metric);
	sb_addf(&sql, " FROM runs r WHERE r.id IN ("
		      "SELECT id FROM runs WHERE campaign = ?%d "
		      "UNION SELECT run FROM campaign_runs WHERE campaign = ?%d) "
		      "ORDER BY r.t_finished IS NULL, r.t_finished, r.id", k, k);
	sql_args_text(&args, c->name);
	sqlite3_stmt *st = db_prepare(c->db, sql.buf), *ch = runs_changes_stmt(c->db);
	sqlite3_stmt *vars = db_prepare(c->db, "SELECT var, old, new FROM changes WHERE run = ?1");
	sql_args_bind(&args, st, 1);
	int cap = 0;
	sb text = SB_INIT;
	while (runs_step(&c->failed, st, "read the campaign's runs") == SQLITE_ROW) {
		if (c->n == cap) {
			cap = cap ? 2 * cap : 32;
			c->r = xrealloc(c->r, (size_t)cap * sizeof(*c->r));
		}
		struct crun *r = &c->r[c->n++];
		runrow_read(st, &r->row);
		r->value = db_column_num(st, RUNROW_NCOLS);
		r->parent_value = db_column_num(st, RUNROW_NCOLS + 1);
		for (int i = 0; i < 3; i++)
			r->perf[i] = db_column_num(st, RUNROW_NCOLS + 2 + i);
		r->other_budget = 0;
		sb_reset(&text);
		runs_changes(&c->failed, ch, r->row.id, &text, NULL, &r->nch);
		r->changes = xstrdup(text.buf);
		r->knobs = count_knobs(&c->failed, vars, r->row.id);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(ch);
	sqlite3_finalize(vars);
	sql_args_release(&args);
	sb_release(&sql);
	sb_release(&text);
}

static void set_val(struct camp *c, const char *name, double v)
{
	sb s = SB_INIT;
	if (!isnan(v))
		fmt_val(&s, v);
	tpl_set(&c->vars, name, s.buf);
	sb_release(&s);
}

static void set_text(struct camp *c, const char *name, const char *text)
{
	sb s = SB_INIT;
	fmt_text(&s, text, 0);
	tpl_set(&c->vars, name, s.buf);
	sb_release(&s);
}

/* A run id as a link to its page ("" when there is none). */
static void set_run(struct camp *c, const char *name, const char *run_id)
{
	sb s = SB_INIT;
	if (run_id)
		runpage_link(&s, run_id);
	tpl_set(&c->vars, name, s.buf);
	sb_release(&s);
}

/* ---- declaration and headline numbers ------------------------------------- */

static void sec_declaration(struct camp *c)
{
	sb s = SB_INIT;
	set_text(c, "campaign", c->name);
	set_text(c, "metric", c->spec.metric);
	tpl_set(&c->vars, "direction", c->spec.maximize ? "higher is better" : "lower is better");
	set_text(c, "hardware_class", c->spec.hardware ? c->spec.hardware : "any");
	for (int i = 0; i < c->spec.nsearch; i++) {
		sb_adds(&s, i ? ", `" : "`");
		sb_adds(&s, c->spec.search_space[i]); /* globs: [A-Za-z0-9._*?] */
		sb_adds(&s, "`");
	}
	tpl_set(&c->vars, "search_space", s.buf);
	tpl_setf(&c->vars, "records", "%d", c->n);
	sb_reset(&s);
	if (c->spec.record_budget)
		sb_addf(&s, "%ld", c->spec.record_budget);
	tpl_set(&c->vars, "record_budget", s.buf);
	sb_release(&s);
}

/* Whether the audit found that run changed only implementation variables
 * and still moved the metric (an impl_changed_metric finding names the
 * run and the parent it is measured against; the best run beat the
 * baseline, so it is not that parent). */
static int impl_changed_metric_run(const struct finding_list *fl, const char *run)
{
	for (int i = 0; run && i < fl->n; i++)
		for (int j = 0; fl->v[i].kind == AUDIT_IMPL_CHANGED_METRIC && j < fl->v[i].nruns; j++)
			if (!strcmp(fl->v[i].runs[j], run))
				return 1;
	return 0;
}

static void sec_headline(struct camp *c, const struct finding_list *fl, int audited)
{
	const struct audit_summary *m = &c->sum;
	set_run(c, "baseline_run", audited ? m->baseline_run : NULL);
	set_val(c, "baseline_value", audited ? m->baseline_value : NAN);
	set_run(c, "best_run", audited ? m->best_run : NULL);
	set_val(c, "best_value", audited ? m->best_value : NAN);
	set_val(c, "noise_floor", audited ? m->noise_floor : NAN);
	tpl_set(&c->vars, "noise_source", audited && m->noise_source ? m->noise_source : "");
	/* gain > 0: the best valid run is strictly better than the baseline
	 * (the baseline itself as best gives 0) */
	double gain = c->spec.maximize ? m->best_value - m->baseline_value
				       : m->baseline_value - m->best_value;
	int beat = audited && gain > 0;
	/* with no floor (nothing repeated, no noise_default) the gain is
	 * neither beyond nor within it: said so, not "more than the noise
	 * floor" (a real session of 115 unrepeated runs was told that) */
	int unknown = beat && isnan(m->noise_floor);
	int beyond = beat && !unknown && gain > m->noise_floor;
	tpl_set(&c->vars, "beat_baseline", beat ? "yes" : "");
	tpl_set(&c->vars, "beyond_noise", beyond ? "yes" : "");
	tpl_set(&c->vars, "noise_unknown", unknown ? "yes" : "");
	tpl_set(&c->vars, "within_noise", beat && !unknown && !beyond ? "yes" : "");
	/* a "win" by a change that must not change the math is the audit's
	 * warning, not a result: said in the same sentence */
	tpl_set(&c->vars, "best_impl_only", beat && impl_changed_metric_run(fl, m->best_run) ? "yes" : "");
	sb s = SB_INIT;
	if (beat)
		sb_addf(&s, "%.*f", fmt_decimals(), gain);
	tpl_set(&c->vars, "gain", s.buf);
	sb_release(&s);
	tpl_setf(&c->vars, "out_of_scope_runs", "%ld", audited ? m->out_of_scope : 0L);
	tpl_setf(&c->vars, "invalid_runs", "%ld", audited ? m->invalid : 0L);
	tpl_setf(&c->vars, "in_scope_valid_runs", "%ld", audited ? m->in_scope_valid : 0L);
	if (audited && m->inadmissible) /* else empty: the template leaves the part out */
		tpl_setf(&c->vars, "inadmissible_runs", "%ld", m->inadmissible);
	else
		tpl_set(&c->vars, "inadmissible_runs", "");
}

/* Keep rate as autoresearch's analysis.ipynb computes it, and the runs the
 * audit left out for another time budget. */
static void sec_keep_rate(struct camp *c, int audited)
{
	const struct audit_summary *m = &c->sum;
	sb s = SB_INIT;
	if (audited && m->keeps + m->discards)
		fmt_pct(&s, (double)m->keeps, (double)(m->keeps + m->discards));
	tpl_set(&c->vars, "keep_rate", s.buf);
	tpl_setf(&c->vars, "keeps", "%ld", audited ? m->keeps : 0L);
	tpl_setf(&c->vars, "discards", "%ld", audited ? m->discards : 0L);
	tpl_setf(&c->vars, "crashes", "%ld", audited ? m->crashes : 0L);
	sb_reset(&s);
	if (audited && !isnan(m->budget_seconds))
		sb_addf(&s, "%g", m->budget_seconds);
	tpl_set(&c->vars, "budget_seconds", s.buf);
	sb_reset(&s);
	for (long i = 0; audited && i < m->other_budget; i++) {
		sb_adds(&s, i ? ", " : "");
		runpage_link(&s, m->other_budget_runs[i]);
		for (int j = 0; j < c->n; j++)
			if (!strcmp(c->r[j].row.run_id, m->other_budget_runs[i]))
				c->r[j].other_budget = 1;
	}
	tpl_set(&c->vars, "other_budget_runs", s.buf);
	tpl_set(&c->vars, "other_budget", audited && m->other_budget ? "yes" : "");
	sb_release(&s);
}

/* Keeps on the campaign's hardware and budget ranked by gain over the
 * keep they were built on (their parent when it is one of these keeps,
 * else the keep before them); the baseline is the first keep. */
static void sec_top_hits(struct camp *c)
{
	struct top_hits h;
	top_hits_init(&h, c->spec.maximize);
	for (int i = 0; i < c->n; i++) {
		const struct crun *r = &c->r[i];
		int base = c->sum.baseline_run && !strcmp(r->row.run_id, c->sum.baseline_run);
		int keep = r->row.decision && !strcmp(r->row.decision, "keep");
		int kept = base || keep || (r->row.decision && !strcmp(r->row.decision, "baseline"));
		int on_hw = !c->spec.hardware || (r->row.hw_class && str_ieq(r->row.hw_class, c->spec.hardware));
		if (kept && on_hw && !r->other_budget && !isnan(r->value))
			top_hits_keep(&h, r->row.hw_class ? r->row.hw_class : "unknown", r->row.hw_class, r->row.run_id,
				      r->row.parent, r->row.description, r->value, keep && !base);
	}
	sb md = SB_INIT;
	top_hits_md(&h, c->o->limit, c->spec.metric, &md);
	tpl_set(&c->vars, "top_hits", md.buf);
	sb_release(&md);
	top_hits_release(&h);
}

/* ---- runs and variables --------------------------------------------------- */

static void sec_runs(struct camp *c)
{
	const char *cols[12] = { "#", "finished (UTC)", "run", "status", "decision", "value", "vs baseline" };
	int ncols = 7, perf_at[3];
	for (int k = 0; k < 3; k++) { /* a column for a measure some member recorded */
		perf_at[k] = -1;
		for (int i = 0; i < c->n && perf_at[k] < 0; i++)
			if (!isnan(c->r[i].perf[k])) {
				perf_at[k] = ncols;
				cols[ncols++] = perf_cols[k].column;
			}
	}
	cols[ncols++] = "changed";
	cols[ncols++] = "description";
	table t;
	table_init(&t, ncols, cols);
	sb s = SB_INIT;
	for (int i = 0; i < c->n; i++) {
		const struct crun *r = &c->r[i];
		int row = table_add_row(&t);
		table_set_int(&t, row, 0, i + 1);
		sb_reset(&s);
		fmt_datetime(&s, r->row.t_finished);
		table_set_text(&t, row, 1, s.buf);
		runpage_cell(&t, row, 2, r->row.run_id, NULL);
		table_set_text(&t, row, 3, r->row.shown_status);
		table_set_text(&t, row, 4, r->row.decision);
		table_set_num(&t, row, 5, r->value, fmt_decimals());
		table_set_num(&t, row, 6, r->value - c->sum.baseline_value, fmt_decimals());
		for (int k = 0; k < 3; k++)
			if (perf_at[k] >= 0)
				table_set_num(&t, row, perf_at[k], r->perf[k], perf_cols[k].decimals);
		table_set_text(&t, row, ncols - 2, *r->changes ? r->changes : NULL);
		table_set_text(&t, row, ncols - 1, r->row.description);
	}
	sb md = SB_INIT;
	if (t.nrows)
		md_table_limited(&md, &t, c->o->limit);
	tpl_set(&c->vars, "runs_table", md.buf);
	sb_release(&md);
	sb_release(&s);
	table_release(&t);
}

/* One row per changed variable: the runs that changed it, their values
 * and results (alone or together with others), and the best change
 * against the parent. */
/* One row per changed variable: the runs that changed it, their values
 * and results (alone or together with others), and the best change
 * against the parent. */
struct var_stats {
	int runs, valid, alone, valid_alone;
	double best;      /* best change against the parent (signed so lower is better) */
	sb vals, seen;    /* distinct new values "a, b"; seen holds "\na\nb\n" */
	sb results;
};

static void var_add_run(struct camp *c, struct var_stats *v, const struct crun *r, const char *nv)
{
	sb key = SB_INIT;
	sb_addf(&key, "\n%s\n", nv ? nv : "?");
	if (!strstr(v->seen.buf, key.buf)) { /* distinct values, first seen first */
		sb_adds(&v->seen, key.buf + 1); /* seen already ends in "\n" */
		sb_addf(&v->vals, "%s%s", v->vals.len ? ", " : "", nv ? nv : "?");
	}
	sb_release(&key);
	v->runs++;
	v->alone += r->knobs == 1;
	sb_adds(&v->results, v->results.len ? ", " : "");
	if (isnan(r->value)) {
		sb_adds(&v->results, r->row.shown_status);
	} else {
		v->valid++;
		v->valid_alone += r->knobs == 1;
		fmt_val(&v->results, r->value);
		double d = (r->value - r->parent_value) * (c->spec.maximize ? -1 : 1);
		if (isnan(v->best) || d < v->best)
			v->best = d;
	}
	if (r->knobs > 1)
		sb_adds(&v->results, " (with others)");
}

static const struct crun *find_run(const struct camp *c, sqlite3_int64 id)
{
	for (int i = 0; i < c->n; i++)
		if (c->r[i].row.id == id)
			return &c->r[i];
	return NULL;
}

/* Append var to list as ", var" (escaped). */
static void list_add(sb *list, const char *var)
{
	sb_adds(list, list->len ? ", " : "");
	fmt_text(list, var, 0);
}

/* Also collects the in-scope variables that were attempted but never
 * validly measured (unmeasured) and those measured only together with
 * other variables (together): the open questions for "what to test next". */
static void variable_row(struct camp *c, table *t, const char *var, sqlite3_stmt *st,
			 sb *unmeasured, sb *together)
{
	struct var_stats v = { 0, 0, 0, 0, NAN, SB_INIT, SB_INIT, SB_INIT };
	sb_adds(&v.seen, "\n");
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, var, -1, SQLITE_STATIC);
	while (runs_step(&c->failed, st, "read the variable's runs") == SQLITE_ROW) {
		const struct crun *r = find_run(c, sqlite3_column_int64(st, 0));
		if (r)
			var_add_run(c, &v, r, runs_col_text(st, 1));
	}
	int row = table_add_row(t);
	table_set_text(t, row, 0, var);
	/* desc.*: a knob the registry lacks, named from prose: nobody can say
	 * whether a search space of registry keys means it (as the audit says) */
	table_set_text(t, row, 1, campaign_in_scope(&c->spec, var) ? "yes"
				  : !strncmp(var, "desc.", 5) ? "unknown" : "no");
	table_set_int(t, row, 2, v.runs);
	table_set_int(t, row, 3, v.valid);
	table_set_int(t, row, 4, v.alone);
	table_set_text(t, row, 5, v.vals.buf);
	table_set_text(t, row, 6, v.results.buf);
	table_set_num(t, row, 7, v.best * (c->spec.maximize ? -1 : 1), fmt_decimals());
	if (campaign_in_scope(&c->spec, var) && !v.valid)
		list_add(unmeasured, var);
	else if (campaign_in_scope(&c->spec, var) && !v.valid_alone)
		list_add(together, var);
	sb_release(&v.vals);
	sb_release(&v.seen);
	sb_release(&v.results);
}

static void sec_variables(struct camp *c)
{
	static const char *const cols[] = { "variable", "in scope", "runs", "valid", "alone",
					    "values tried", "results", "best vs parent" };
	static const char vars_sql[] =
		"SELECT DISTINCT var FROM changes WHERE run IN (SELECT id FROM runs WHERE campaign = ?1 "
		"UNION SELECT run FROM campaign_runs WHERE campaign = ?1) ORDER BY var";
	static const char runs_sql[] =
		"SELECT c.run, c.new FROM changes c JOIN runs r ON r.id = c.run "
		"WHERE c.var = ?1 AND c.run IN (SELECT id FROM runs WHERE campaign = ?2 "
		"UNION SELECT run FROM campaign_runs WHERE campaign = ?2) "
		"ORDER BY r.t_finished IS NULL, r.t_finished, r.id";
	table t;
	table_init(&t, 8, cols);
	sqlite3_stmt *vars = db_prepare(c->db, vars_sql), *runs = db_prepare(c->db, runs_sql);
	sqlite3_bind_text(vars, 1, c->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(runs, 2, c->name, -1, SQLITE_STATIC);
	sb unmeasured = SB_INIT, together = SB_INIT;
	while (runs_step(&c->failed, vars, "read the campaign's variables") == SQLITE_ROW)
		variable_row(c, &t, runs_col_text(vars, 0), runs, &unmeasured, &together);
	sqlite3_finalize(vars);
	sqlite3_finalize(runs);
	sb md = SB_INIT;
	if (t.nrows)
		md_table_limited(&md, &t, c->o->limit);
	tpl_set(&c->vars, "variables", md.buf);
	tpl_set(&c->vars, "never_measured", unmeasured.buf);
	tpl_set(&c->vars, "only_together", together.buf);
	sb_release(&md);
	sb_release(&unmeasured);
	sb_release(&together);
	table_release(&t);
}

/* ---- audit and what to test next ------------------------------------------ */

static void sec_findings(struct camp *c, const struct finding_list *fl, int audited)
{
	sb md = SB_INIT;
	int shown = c->o->limit && fl->n > c->o->limit ? c->o->limit : fl->n;
	for (int i = 0; audited && i < shown; i++) {
		const struct finding *f = &fl->v[i];
		sb_addf(&md, "- **%s** %s: ", f->level == AUDIT_WARN ? "warn" : "info",
			audit_kind_name(f->kind));
		fmt_text(&md, f->sentence, 0);
		sb_addc(&md, '\n');
	}
	if (audited && shown < fl->n)
		sb_addf(&md, "\n%d more finding%s not shown (raise --limit, or see `ledger audit --campaign`).",
			fl->n - shown, fl->n - shown == 1 ? "" : "s");
	sb_rtrim(&md);
	tpl_set(&c->vars, "findings", md.buf);
	tpl_set(&c->vars, "audit_available", audited ? "yes" : "");
	sb_release(&md);
}

/* In-scope config keys seen in any member's config that no member changed;
 * *known counts the in-scope keys seen at all (0: the runs carry no
 * configs, e.g. results.tsv, so nothing can be said). */
static void never_tried(struct camp *c, sb *out, int *known)
{
	static const char sql[] =
		"WITH m(id) AS (SELECT id FROM runs WHERE campaign = ?1 "
		" UNION SELECT run FROM campaign_runs WHERE campaign = ?1) "
		"SELECT DISTINCT j.key, j.key IN (SELECT var FROM changes WHERE run IN m) "
		"FROM runs r, json_each(r.record, '$.config') j WHERE r.id IN m ORDER BY j.key";
	sqlite3_stmt *st = db_prepare(c->db, sql);
	sqlite3_bind_text(st, 1, c->name, -1, SQLITE_STATIC);
	int n = 0;
	*known = 0;
	while (runs_step(&c->failed, st, "read the campaign's configs") == SQLITE_ROW) {
		const char *key = runs_col_text(st, 0);
		if (!campaign_in_scope(&c->spec, key))
			continue;
		++*known;
		if (sqlite3_column_int(st, 1))
			continue;
		sb_adds(out, n++ ? ", " : "");
		fmt_text(out, key, 0);
	}
	sqlite3_finalize(st);
}

static int sec_next(struct camp *c)
{
	static const char *const cols[] = { "search space", "attempts", "valid single-variable runs",
					    "variables measured alone" };
	struct coverage cov = { 0 };
	int rc = audit_coverage(c->db, c->name, &cov);
	if (rc == -2)
		c->failed = 1; /* reported */
	if (rc)
		return -1;
	table t;
	table_init(&t, 4, cols);
	for (int i = 0; i < cov.n; i++) {
		const struct coverage_row *row = &cov.rows[i];
		int r = table_add_row(&t);
		table_set_text(&t, r, 0, row->glob);
		table_set_int(&t, r, 1, row->attempts);
		table_set_int(&t, r, 2, row->valid_alone);
		table_set_text(&t, r, 3, *row->vars_tested ? row->vars_tested : NULL);
	}
	sb md = SB_INIT;
	if (t.nrows)
		md_table(&md, &t);
	tpl_set(&c->vars, "coverage", md.buf);
	sb_reset(&md);
	int known;
	never_tried(c, &md, &known);
	tpl_set(&c->vars, "never_tried", md.buf);
	tpl_set(&c->vars, "configs_known", known ? "yes" : "");
	sb_release(&md);
	table_release(&t);
	coverage_release(&cov);
	return 0;
}

/* ---- progress chart ---------------------------------------------------------- */

/* The campaign's name for the chart's title when it is plain enough for
 * the script (chart.h's title characters), else "" (no name). */
static const char *safe_title(const char *name)
{
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(" _.:()-", *p))
			return "";
	return name;
}

/* "rtx-fused: val_bpb 1.2460 (discard) — fused AdamW" for the SVG's hover;
 * the caller frees it. */
static char *progress_tooltip(const struct camp *c, const struct crun *r)
{
	sb s = SB_INIT;
	sb_addf(&s, "%s: %s ", r->row.run_id, c->spec.metric);
	fmt_val(&s, r->value);
	if (r->row.decision)
		sb_addf(&s, " (%s)", r->row.decision);
	if (r->row.description)
		sb_addf(&s, " — %s", r->row.description);
	return sb_detach(&s);
}

/* Experiment number on x; kept runs (keep or baseline) labelled; the line
 * is the running best of the kept runs, as in autoresearch's progress.png. */
static int sec_chart(struct camp *c)
{
	struct chart_run *pts = xcalloc((size_t)c->n + 1, sizeof(*pts));
	struct chart_step *steps = xcalloc((size_t)c->n + 1, sizeof(*steps));
	int ns = 0;
	double best = NAN;
	int np = 0;
	for (int i = 0; i < c->n; i++) {
		const struct crun *r = &c->r[i];
		if (r->other_budget) /* not comparable: listed in the declaration instead */
			continue;
		struct chart_run *pt = &pts[np++];
		pt->x = i + 1;
		pt->value = r->value;
		pt->kept = r->row.decision && (!strcmp(r->row.decision, "keep") || !strcmp(r->row.decision, "baseline"));
		pt->label = r->row.description ? r->row.description : r->row.run_id;
		pt->tooltip = progress_tooltip(c, r);
		int better = c->spec.maximize ? r->value > best : r->value < best;
		if (pt->kept && !isnan(r->value) && (isnan(best) || better)) {
			best = r->value;
			steps[ns++] = (struct chart_step){ i + 1, best, 0 };
		}
	}
	sb stem = SB_INIT, md = SB_INIT;
	sb_adds(&stem, "campaign-");
	out_slug(&stem, c->name);
	sb_adds(&stem, "-progress");
	const char *groups[1] = { c->name };
	sb ylabel = SB_INIT;
	sb_addf(&ylabel, "%s (%s is better)", c->spec.metric, c->spec.maximize ? "higher" : "lower");
	sb title = SB_INIT;
	sb_addf(&title, "Campaign progress: %s", safe_title(c->name));
	struct chart_spec spec = { CHART_PROGRESS, c->o->out_dir, stem.buf,
				   "Campaign progress: every run by experiment number, kept runs labelled",
				   ylabel.buf, groups, 1, pts, np, steps, ns, title.buf, NAN, NAN };
	int rc = 0;
	if (c->o->charts)
		rc = chart_draw(&spec, &md);
	else
		sb_adds(&md, "_Chart skipped: --no-charts._");
	tpl_set(&c->vars, "chart_progress", md.buf);
	sb_release(&ylabel);
	sb_release(&title);
	for (int i = 0; i < np; i++)
		free((char *)pts[i].tooltip);
	free(pts);
	free(steps);
	sb_release(&stem);
	sb_release(&md);
	return rc;
}

/* ---- side by side ------------------------------------------------------------ */

/* The most recent runs, one column each, as `ledger compare --campaign`
 * shows them, and their training curves overlaid (campaign_compare.h). */
#define COMPARE_COLUMNS 20

static void sec_compare(struct camp *c)
{
	sb tbl = SB_INIT, chart = SB_INIT, n = SB_INIT;
	if (campaign_compare(c->db, c->name, c->o->out_dir, COMPARE_COLUMNS, &tbl, &chart))
		c->failed = 1;
	sb_addf(&n, "%d", c->n < COMPARE_COLUMNS ? c->n : COMPARE_COLUMNS);
	tpl_set(&c->vars, "compare_table", tbl.buf);
	tpl_set(&c->vars, "compare_runs", n.buf);
	tpl_set(&c->vars, "chart_curves", chart.buf);
	sb_release(&tbl);
	sb_release(&chart);
	sb_release(&n);
}

/* ---- the command ---------------------------------------------------------------- */

static int parse_args(int argc, char **argv, struct report_opts *o, const char **name)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &report_prog, &cmd_campaign_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("campaign: unexpected argument '%s'", p.val);
			rl_hint("see 'report campaign --help'");
			return -1;
		}
		if (r == O_CAMPAIGN)
			*name = p.val;
		else
			report_take(o, &p);
	}
	if (!*name || !o->out_dir) {
		rl_error("campaign: %s is required", !*name ? "--campaign NAME" : "--out DIR");
		rl_hint("for example: report campaign --campaign compile-kernel-efficiency --out reports");
		return -1;
	}
	return 0;
}

static int render(struct camp *c)
{
	sb origin = SB_INIT, md = SB_INIT, title = SB_INIT, base = SB_INIT, err = SB_INIT;
	char *tpl = template_read("campaign.md", c->o->template, &origin);
	int rc = EXIT_FAILURE_RT;
	if (!tpl)
		goto done;
	if (tpl_render(tpl, origin.buf, &c->vars, &md, &err)) {
		rl_error("campaign: %s", err.buf);
		rl_hint("the template syntax and its values are in docs/report.md");
		rc = EXIT_USAGE;
		goto done;
	}
	sb_addf(&title, "runledger campaign %s", c->name);
	sb_adds(&base, "campaign-");
	out_slug(&base, c->name);
	if (!report_publish(c->o->out_dir, base.buf, title.buf, md.buf) &&
	    !runpage_write_all(c->db, c->o->out_dir)) {
		rc = EXIT_OK;
		report_list_written(c->o->out_dir, base.buf);
	}
done:
	free(tpl);
	sb_release(&origin);
	sb_release(&md);
	sb_release(&title);
	sb_release(&base);
	sb_release(&err);
	return rc;
}

static void camp_release(struct camp *c)
{
	for (int i = 0; i < c->n; i++) {
		runrow_release(&c->r[i].row);
		free(c->r[i].changes);
	}
	free(c->r);
	campaign_release(&c->spec);
	audit_summary_release(&c->sum);
	tpl_vars_release(&c->vars);
}

int cmd_campaign(int argc, char **argv, struct report_ctx *ctx)
{
	struct report_opts o = { NULL, NULL, REPORT_DEFAULT_LIMIT, 1, 0 };
	const char *name = NULL;
	if (parse_args(argc, argv, &o, &name))
		return EXIT_USAGE;
	if (report_apply_archived(&o, ctx->db))
		return EXIT_FAILURE_RT;
	struct camp c = { .db = ctx->db, .name = name, .o = &o, .vars = TPL_VARS_INIT };
	int rc = campaign_load(c.db, name, &c.spec, 0);
	if (rc)
		return rc == -1 ? EXIT_USAGE : EXIT_FAILURE_RT;
	struct finding_list fl = FINDING_LIST_INIT;
	struct audit_opts ao = AUDIT_OPTS_INIT;
	/* The audit may refuse (e.g. a baseline that no longer resolves); the
	 * report then says the audit is not available instead of failing. */
	int arc = audit_campaign(c.db, name, &ao, &c.sum, &fl), audited = arc == 0;
	c.failed = arc == -2; /* the ledger, not the declaration: reported */
	if (!audited)
		c.sum.baseline_value = c.sum.best_value = c.sum.noise_floor = NAN;
	load_members(&c);
	sec_declaration(&c);
	sec_headline(&c, &fl, audited);
	sec_keep_rate(&c, audited);
	sec_top_hits(&c);
	sec_runs(&c);
	sec_variables(&c);
	sec_findings(&c, &fl, audited);
	if (audited && sec_next(&c))
		audited = 0;
	if (!audited) {
		tpl_set(&c.vars, "coverage", "");
		tpl_set(&c.vars, "never_tried", "");
		tpl_set(&c.vars, "configs_known", "");
	}
	int partial = !audited;
	if (c.failed || out_mkdirs(o.out_dir)) {
		rc = EXIT_FAILURE_RT;
	} else {
		partial |= sec_chart(&c) != 0;
		sec_compare(&c);
		rc = c.failed ? EXIT_FAILURE_RT : render(&c);
	}
	finding_list_release(&fl);
	camp_release(&c);
	return rc == EXIT_OK && partial ? EXIT_FINDINGS : rc;
}
