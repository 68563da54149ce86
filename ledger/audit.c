/* audit.c — the campaign audit; see audit.h for the interface and
 * docs/audit.md for every finding kind and its rule.
 *
 * One pass loads the campaign's runs (time order) with their changes and
 * their parent's metric into memory; each finding kind is then a small
 * function over that array. A "hypothesis" is a change set: the sorted
 * var=new pairs of a run (plus its description when a new value is
 * unknown, so two inferred changes with unknown values are told apart).
 * Reads the ledger only; never prints except error messages. */
#include "audit.h"
#include "campaign.h"
#include "db.h"
#include "filter.h"
#include "lookup.h"
#include "metrics.h"
#include "repeats.h"
#include "rkey.h"
#include "runrow.h"
#include "strmap.h"
#include "sb.h"
#include "util.h"
#include "varreg.h"

static const char *const kind_names[AUDIT_KIND_COUNT] = {
	[AUDIT_NO_IMPROVEMENT] = "no_improvement",
	[AUDIT_BUDGET] = "budget",
	[AUDIT_OUT_OF_SCOPE] = "out_of_scope",
	[AUDIT_CONFOUNDED] = "confounded",
	[AUDIT_UNRESOLVED] = "unresolved",
	[AUDIT_DUPLICATE_ATTEMPT] = "duplicate_attempt",
	[AUDIT_WITHIN_NOISE] = "within_noise",
	[AUDIT_IMPL_CHANGED_METRIC] = "impl_changed_metric",
	[AUDIT_OTHER_HARDWARE] = "other_hardware",
	[AUDIT_OTHER_BUDGET] = "other_budget",
	[AUDIT_DISCARDED_IMPROVEMENT] = "discarded_improvement",
	[AUDIT_REPEAT_NOISE] = "repeat_noise",
	[AUDIT_NOISE_FLOOR] = "noise_floor",
	[AUDIT_UNDECLARED] = "undeclared",
};

/* The noise floor is this many pooled standard deviations (docs/audit.md). */
#define NOISE_FLOOR_SDS 2.0

struct achange {
	char *var, *old, *new_;
};

struct arun {
	struct runrow row;             /* id, run_id, parent, status, hw_class… (runrow.h) */
	char *parent_key;              /* the parent's repeat_key; NULL when unknown */
	char *description, *failure;   /* failure: "crash in backward: 'msg'"; NULL if valid */
	double value;                  /* the metric; NAN unless a valid measurement */
	double parent_value;           /* NAN when the parent has none */
	double parent_ref;             /* what a gain is measured against: the mean of the
	                                  parent's repeat group when it has 2+ valid
	                                  measurements in the campaign, else parent_value */
	int parent_n;                  /* measurements behind parent_ref (0: none) */
	double tokens[2], steps[2];    /* amount trained: [0] the run, [1] its parent; NAN unknown */
	int on_hw;                     /* on the campaign's hardware (or it has none) */
	double budget;                 /* seconds of training: recorded, changed, else the parent's; NAN unknown */
	int off_budget;                /* budget known and not the baseline's */
	int comparable;                /* on_hw and not off_budget: compared with the baseline */
	int parent_budget_differs;     /* the parent (in the campaign) trained for another budget */
	int is_baseline;
	int inadmissible;              /* measured, but its result broke a rule it had to meet
	                                  (status invalid, failure "inadmissible: …"): a
	                                  discard with an answer, not a crash */
	int by_description;            /* hyp from the description alone (see below) */
	int rerun;                     /* measures its parent's configuration again (rkey.h):
	                                  no hypothesis, its changes (a seed) set aside */
	int exact_nonseed;             /* exact changes other than seeds */
	struct achange *ch;            /* sorted by var */
	int nch, oos;                  /* changes; how many are out of scope */
	int unknown_scope;             /* changes of knobs the registry lacks, not named in the space */
	char *hyp;                     /* hypothesis key; NULL when nothing changed */
	char *rkey;                    /* repeat group key; NULL when it cannot be a repeat */
	char *dkey;                    /* duplicate key: the hypothesis against the same parent
	                                  configuration on the same hardware class; NULL if none */
	char *vset;                    /* "a+b": the changed variables, when two or more */
	char *what;                    /* "model.depth 8 -> 9 + …" for sentences */
};

struct audit {
	sqlite3 *db;
	struct campaign c;
	struct arun *r;
	int n;
	char *baseline_run;
	double baseline_value;
	double floor, pooled_sd;
	double budget;                 /* the baseline's time budget, NAN when unknown */
	const char *noise_source;
	int groups;
	struct finding_list *out;
};

/* ---- findings ------------------------------------------------------------ */

const char *audit_kind_name(enum audit_kind k)
{
	return (unsigned)k < AUDIT_KIND_COUNT ? kind_names[k] : NULL;
}

int audit_kind_parse(const char *name, enum audit_kind *out)
{
	for (int k = 0; k < AUDIT_KIND_COUNT; k++) {
		if (!strcmp(kind_names[k], name)) {
			*out = (enum audit_kind)k;
			return 0;
		}
	}
	return -1;
}

static void finding_free(struct finding *f)
{
	for (int i = 0; i < f->nruns; i++)
		free(f->runs[i]);
	for (int i = 0; i < f->nvars; i++)
		free(f->vars[i]);
	free(f->runs);
	free(f->vars);
	free(f->campaign);
	free(f->sentence);
}

void finding_list_release(struct finding_list *fl)
{
	for (int i = 0; i < fl->n; i++)
		finding_free(&fl->v[i]);
	free(fl->v);
	fl->v = NULL;
	fl->n = fl->cap = 0;
}

double finding_value(const struct finding *f, const char *name)
{
	for (int i = 0; i < f->nvalues; i++)
		if (!strcmp(f->values[i].name, name))
			return f->values[i].v;
	return NAN;
}

int finding_list_warnings(const struct finding_list *fl)
{
	int n = 0;
	for (int i = 0; i < fl->n; i++)
		n += fl->v[i].level == AUDIT_WARN;
	return n;
}

static struct finding *finding_new(struct finding_list *fl, const char *campaign,
				   enum audit_kind kind, enum audit_level level)
{
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 16;
		fl->v = xrealloc(fl->v, (size_t)fl->cap * sizeof(*fl->v));
	}
	struct finding *f = &fl->v[fl->n++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->level = level;
	f->campaign = xstrdup(campaign);
	return f;
}

static void finding_run(struct finding *f, const char *run_id)
{
	f->runs = xrealloc(f->runs, (size_t)(f->nruns + 1) * sizeof(char *));
	f->runs[f->nruns++] = xstrdup(run_id);
}

/* Add var keeping vars sorted and unique. */
static void finding_var(struct finding *f, const char *var)
{
	int i = 0;
	while (i < f->nvars && strcmp(f->vars[i], var) < 0)
		i++;
	if (i < f->nvars && !strcmp(f->vars[i], var))
		return;
	f->vars = xrealloc(f->vars, (size_t)(f->nvars + 1) * sizeof(char *));
	memmove(f->vars + i + 1, f->vars + i, (size_t)(f->nvars - i) * sizeof(char *));
	f->vars[i] = xstrdup(var);
	f->nvars++;
}

static void finding_val(struct finding *f, const char *name, double v)
{
	if (f->nvalues < AUDIT_MAX_VALUES)
		f->values[f->nvalues++] = (struct audit_value){ name, v };
}

static void finding_say(struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void finding_say(struct finding *f, const char *fmt, ...)
{
	sb s = SB_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&s, fmt, ap);
	va_end(ap);
	free(f->sentence);
	f->sentence = sb_detach(&s);
}

static void finding_run_vars(struct finding *f, const struct arun *r)
{
	for (int i = 0; i < r->nch; i++)
		finding_var(f, r->ch[i].var);
}

/* "a, b and c" of the run ids of r[idx[0..n)] */
static void add_run_list(sb *s, const struct arun *r, const int *idx, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			sb_adds(s, i == n - 1 ? " and " : ", ");
		sb_adds(s, r[idx[i]].row.run_id);
	}
}

/* ---- loading ------------------------------------------------------------- */

/* Prepare head + the campaign's metric of the run aliased r + tail. The
 * metric comes from run_metric_sql (filter.h), NULL unless the run is
 * valid; its JSON path, if any, is parameter 1, so head and tail must
 * number their own parameters from ?2. */
static sqlite3_stmt *prepare_metric(struct audit *a, const char *head, const char *tail)
{
	sb sql = SB_INIT;
	struct sql_args args = SQL_ARGS_INIT;
	sb_addf(&sql, "%sCASE WHEN r.status = 'ok' THEN ", head);
	run_metric_sql(a->c.metric, "r", &sql, &args);
	sb_addf(&sql, " END%s", tail);
	sqlite3_stmt *st = db_prepare(a->db, sql.buf);
	sql_args_bind(&args, st, 1);
	sql_args_release(&args);
	sb_release(&sql);
	return st;
}

/* A knob the variable registry does not know: the grammar names it after
 * the description's words (desc.ns_steps from "Newton-Schulz steps 5 ->
 * 6"). A search space of registry keys (optim.*) may well mean it, or
 * not: nobody can tell, so it is never said to be outside the space. */
static int unknown_knob(const char *var)
{
	return !strncmp(var, "desc.", 5);
}

/* 0, or -1 when the ledger cannot be read (reported); so load_parent. */
static int load_changes(struct audit *a, sqlite3_stmt *st, sqlite3_int64 id, struct arun *r)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	int rc;
	while ((rc = db_step(st, "read the campaign's changes")) == SQLITE_ROW) {
		r->ch = xrealloc(r->ch, (size_t)(r->nch + 1) * sizeof(*r->ch));
		struct achange *c = &r->ch[r->nch++];
		c->var = db_column_dup(st, 0);
		c->old = db_column_dup(st, 1);
		c->new_ = db_column_dup(st, 2);
		int outside = !campaign_in_scope(&a->c, c->var);
		r->oos += outside && !unknown_knob(c->var);
		r->unknown_scope += outside && unknown_knob(c->var);
		const char *how = (const char *)sqlite3_column_text(st, 3);
		r->exact_nonseed += how && !strcmp(how, "exact") && !rkey_is_seed(c->var);
	}
	return rc == DB_ERROR ? -1 : 0;
}

/* The parent's metric and amount trained (columns of the `par` query). */
static int load_parent(sqlite3_stmt *st, struct arun *r)
{
	r->parent_value = r->tokens[1] = r->steps[1] = NAN;
	if (!r->row.parent)
		return 0;
	sqlite3_reset(st);
	db_bind_text(st, 2, r->row.parent);
	int rc = db_step(st, "read the parent runs");
	if (rc == SQLITE_ROW) {
		r->parent_value = db_column_num(st, 0);
		r->tokens[1] = db_column_num(st, 1);
		r->steps[1] = db_column_num(st, 2);
		r->parent_key = db_column_dup(st, 3);
	}
	return rc == DB_ERROR ? -1 : 0;
}

/* Hypothesis key and the human text of a run's change set. */
static void describe_changes(struct arun *r, int has_config)
{
	if (r->rerun)
		return; /* a repeat of the parent tests nothing new */
	if (!r->nch) {
		/* A run without a config whose description named no change the
		 * inference could read (results.tsv "compile mode reduce-overhead")
		 * still tested something: key it on the description, so a failed
		 * attempt is still reported as unresolved. */
		if (has_config || !r->row.parent || !r->row.description || !*r->row.description)
			return;
		sb key = SB_INIT, what = SB_INIT;
		sb_adds(&key, "desc|");
		rkey_description(&key, r->row.description);
		sb_addf(&what, "'%s'", r->row.description);
		r->hyp = sb_detach(&key);
		r->what = sb_detach(&what);
		r->by_description = 1;
		return;
	}
	sb key = SB_INIT, what = SB_INIT;
	int unknown = 0;
	for (int i = 0; i < r->nch; i++) {
		const struct achange *c = &r->ch[i];
		sb_addf(&key, "%s%s=%s", i ? ";" : "", c->var, c->new_ ? c->new_ : "?");
		unknown |= !c->new_;
		sb_addf(&what, "%s%s", i ? " + " : "", c->var);
		if (c->new_)
			sb_addf(&what, " %s -> %s", c->old ? c->old : "?", c->new_);
	}
	if (unknown && r->row.description) {
		sb_adds(&key, "|");
		rkey_description(&key, r->row.description);
	}
	r->hyp = sb_detach(&key);
	r->what = sb_detach(&what);
}

/* Repeat group of run i: its repeat_key (rkey.h). Runs stored without one
 * (ledgers from before rkey.h) fall back to the same rules by run id: a
 * rerun joins its parent, the same change set from the same parent on the
 * same hardware is one group. NULL when the run cannot be a repeat. */
static char *repeat_group_key(const struct arun *r)
{
	sb k = SB_INIT;
	if (r->row.repeat_key)
		sb_addf(&k, "k:%s", r->row.repeat_key);
	else if (r->rerun && r->parent_key)
		sb_addf(&k, "k:%s", r->parent_key);
	else if (r->rerun) /* the parent has no key either: it is keyed by its id below */
		sb_addf(&k, "r:%s", r->row.parent);
	else if (r->hyp && r->row.parent)
		sb_addf(&k, "h:%s|%s|%s", r->row.parent, r->hyp, r->row.hw_class ? r->row.hw_class : "");
	else if (!r->nch)
		sb_addf(&k, "r:%s", r->row.run_id);
	else
		return NULL;
	return sb_detach(&k);
}

/* Duplicate key: the hypothesis against its parent's configuration (the
 * parent's repeat group, else the parent itself) on the run's hardware
 * class. A re-test after the parent changed is another hypothesis. */
static char *duplicate_key(const struct arun *r)
{
	if (!r->hyp || r->by_description || !r->row.parent)
		return NULL;
	sb k = SB_INIT;
	if (r->parent_key)
		sb_addf(&k, "k:%s", r->parent_key);
	else
		sb_addf(&k, "r:%s", r->row.parent);
	sb_addf(&k, "|%s|%s", r->row.hw_class ? r->row.hw_class : "", r->hyp);
	return sb_detach(&k);
}

/* A rerun of its parent (rkey.h): the same repeat key as the parent, only
 * seeds changed, or a description that only says "rerun" with no exact
 * change against it. Its changes are set aside: a seed is no hypothesis
 * and no variable outside the search space. */
static void mark_rerun(struct arun *r)
{
	int seeds = 0;
	for (int i = 0; i < r->nch; i++)
		seeds += rkey_is_seed(r->ch[i].var);
	if (!r->row.parent)
		return;
	r->rerun = (r->row.repeat_key && r->parent_key && !strcmp(r->row.repeat_key, r->parent_key)) ||
		   (r->nch > 0 && seeds == r->nch) ||
		   (rkey_rerun_text(r->row.description) && r->exact_nonseed == 0) ||
		   (r->nch == 0 && rkey_unchanged_text(r->row.description));
	if (!r->rerun)
		return;
	for (int i = 0; i < r->nch; i++) {
		free(r->ch[i].var);
		free(r->ch[i].old);
		free(r->ch[i].new_);
	}
	free(r->ch);
	r->ch = NULL;
	r->nch = r->oos = r->unknown_scope = 0;
}

/* The sorted variable names of r joined by '+', the key of a confound. */
static char *var_set(const struct arun *r)
{
	sb s = SB_INIT;
	for (int i = 0; i < r->nch; i++)
		sb_addf(&s, "%s%s", i ? "+" : "", r->ch[i].var);
	return sb_detach(&s);
}

/* The columns of load_runs' query after the run's own (runrow.h), in order. */
enum { COL_PHASE = RUNROW_NCOLS, COL_MESSAGE, COL_HAS_CONFIG, COL_BUDGET, COL_TOKENS, COL_STEPS,
       COL_VALUE };

/* How much a run trained, to tell a throughput change from a math change. */
#define WORK_COLS " " METRIC_SQL("r.", "total_tokens_M") ", " METRIC_SQL("r.", "num_steps")

/* "crash in backward: 'message'" from a row of load_runs' query. */
static char *failure_text(sqlite3_stmt *st, const char *status)
{
	const char *phase = (const char *)sqlite3_column_text(st, COL_PHASE);
	const char *msg = (const char *)sqlite3_column_text(st, COL_MESSAGE);
	sb s = SB_INIT;
	sb_adds(&s, status ? status : "unknown status");
	if (phase)
		sb_addf(&s, " in %s", phase);
	if (msg && *msg)
		sb_addf(&s, ": '%s'", msg);
	return sb_detach(&s);
}

/* The mark ingest gives a measured result that was not admitted
 * (ingest_tsv.c not_admitted: results.tsv status size_violation). */
#define INADMISSIBLE_MARK "inadmissible: "

static int is_inadmissible(sqlite3_stmt *st, const char *status)
{
	const char *msg = (const char *)sqlite3_column_text(st, COL_MESSAGE);
	return status && !strcmp(status, "invalid") && msg &&
	       !strncmp(msg, INADMISSIBLE_MARK, strlen(INADMISSIBLE_MARK));
}

static int load_runs(struct audit *a)
{
	int cap = 0;
	sqlite3_stmt *st = prepare_metric(a,
		"SELECT " RUNROW_COLS("r.") ", json_extract(r.record, '$.failure.phase'),"
		" json_extract(r.record, '$.failure.message'),"
		" json_type(r.record, '$.config') IS NOT NULL,"
		" coalesce(json_extract(r.record, '$.budget.seconds'),"
		" json_extract(r.record, '$.config.\"train.time_budget_s\"')),"
		WORK_COLS ", ",
		" FROM runs r WHERE r.id IN (" CAMPAIGN_MEMBERS_SQL(2) ")"
		" ORDER BY r.t_finished IS NULL, r.t_finished, r.id");
	db_bind_text(st, 2, a->c.name);
	sqlite3_stmt *chg = db_prepare(a->db, "SELECT var, old, new, how FROM changes WHERE run = ? ORDER BY var");
	sqlite3_stmt *par = prepare_metric(a, "SELECT ", "," WORK_COLS ", r.repeat_key FROM runs r WHERE r.run_id = ?2");
	int rc;
	while ((rc = db_step(st, "read the campaign's runs")) == SQLITE_ROW) {
		if (a->n == cap) {
			cap = cap ? 2 * cap : 64;
			a->r = xrealloc(a->r, (size_t)cap * sizeof(*a->r));
		}
		struct arun *r = &a->r[a->n++];
		memset(r, 0, sizeof(*r));
		runrow_read(st, &r->row);
		r->value = db_column_num(st, COL_VALUE);
		if (isnan(r->value))
			r->failure = failure_text(st, r->row.status);
		r->inadmissible = is_inadmissible(st, r->row.status);
		r->on_hw = !a->c.hardware || (r->row.hw_class && str_ieq(r->row.hw_class, a->c.hardware));
		if (load_changes(a, chg, r->row.id, r)) {
			rc = DB_ERROR;
			break;
		}
		r->budget = db_column_num(st, COL_BUDGET);
		r->tokens[0] = db_column_num(st, COL_TOKENS);
		r->steps[0] = db_column_num(st, COL_STEPS);
		if (load_parent(par, r)) {
			rc = DB_ERROR;
			break;
		}
		mark_rerun(r);
		describe_changes(r, sqlite3_column_int(st, COL_HAS_CONFIG));
		r->rkey = repeat_group_key(r);
		r->dkey = duplicate_key(r);
		r->vset = r->nch >= 2 ? var_set(r) : NULL;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(chg);
	sqlite3_finalize(par);
	return rc == SQLITE_DONE ? 0 : -2; /* reported */
}


static void runs_release(struct audit *a)
{
	for (int i = 0; i < a->n; i++) {
		struct arun *r = &a->r[i];
		for (int j = 0; j < r->nch; j++) {
			free(r->ch[j].var);
			free(r->ch[j].old);
			free(r->ch[j].new_);
		}
		free(r->ch);
		runrow_release(&r->row);
		free(r->failure); free(r->hyp); free(r->what); free(r->rkey); free(r->vset);
		free(r->dkey); free(r->parent_key);
	}
	free(a->r);
	free(a->baseline_run);
}

/* A variable that sets the time budget: train.time_budget_s, or what
 * prose and train.py call it (TIME_BUDGET, "time budget"). */
static int is_budget_var(const char *var)
{
	const char *last = strrchr(var, '.');
	last = last ? last + 1 : var;
	return !strcmp(var, "train.time_budget_s") || str_ends_with(last, "time_budget") ||
	       str_ends_with(last, "time_budget_s");
}

/* Each run's time budget: recorded (budget.seconds or the config), else a
 * change of it against the parent, else the parent's (a changed budget
 * stays changed in the runs built on it). Runs come in time order, so a
 * parent in the campaign is resolved before its children. */
static void resolve_budgets(struct audit *a)
{
	struct strmap by_id = STRMAP_INIT;
	for (int i = 0; i < a->n; i++) {
		struct arun *r = &a->r[i];
		for (int j = 0; j < r->nch && isnan(r->budget); j++) {
			double v;
			if (is_budget_var(r->ch[j].var) && r->ch[j].new_ && !parse_double(r->ch[j].new_, &v) && v > 0)
				r->budget = v;
		}
		const struct strmap_slot *p = r->row.parent && isnan(r->budget) ? strmap_find(&by_id, r->row.parent) : NULL;
		if (p)
			r->budget = a->r[p->v.n].budget;
		strmap_get(&by_id, r->row.run_id, NULL)->v.n = i;
	}
	strmap_release(&by_id);
}

/* The campaign's budget is its baseline's; a run with another known
 * budget is not compared with it (docs/audit.md, other_budget). */
static void mark_comparable(struct audit *a)
{
	a->budget = NAN;
	for (int i = 0; i < a->n; i++)
		if (a->r[i].is_baseline)
			a->budget = a->r[i].budget;
	struct strmap by_id = STRMAP_INIT;
	for (int i = 0; i < a->n; i++) {
		struct arun *r = &a->r[i];
		r->off_budget = !isnan(a->budget) && !isnan(r->budget) && fabs(r->budget - a->budget) > 0.5;
		r->comparable = r->on_hw && !r->off_budget;
		const struct strmap_slot *p = r->row.parent ? strmap_find(&by_id, r->row.parent) : NULL;
		if (p) {
			double pb = a->r[p->v.n].budget;
			r->parent_budget_differs = !isnan(pb) && !isnan(r->budget) && fabs(pb - r->budget) > 0.5;
		}
		strmap_get(&by_id, r->row.run_id, NULL)->v.n = i;
	}
	strmap_release(&by_id);
}

/* The declared baseline (any run in the ledger, member or not), else the
 * first valid run of the campaign on its hardware. -1 when a declared
 * baseline is not in the ledger. */
static int resolve_baseline(struct audit *a)
{
	a->baseline_value = NAN;
	if (!a->c.baseline) {
		for (int i = 0; i < a->n && !a->baseline_run; i++)
			if (!isnan(a->r[i].value) && a->r[i].on_hw) {
				a->baseline_run = xstrdup(a->r[i].row.run_id);
				a->baseline_value = a->r[i].value;
				a->r[i].is_baseline = 1;
			}
		return 0;
	}
	sqlite3_int64 id;
	int miss = run_lookup(a->db, a->c.baseline, &id, 1);
	if (miss == LOOKUP_DB_ERROR)
		return -2;
	if (miss) {
		rl_error("audit: campaign '%s': baseline '%s' is not a run in the ledger",
			 a->c.name, a->c.baseline);
		rl_hint("ingest the baseline run, or declare \"baseline\": \"first valid run\"");
		return -1;
	}
	sqlite3_stmt *st = prepare_metric(a, "SELECT r.run_id, ", " FROM runs r WHERE r.id = ?2");
	sqlite3_bind_int64(st, 2, id);
	int rc = db_step(st, "read the campaign's baseline");
	if (rc == SQLITE_ROW) {
		a->baseline_run = db_column_dup(st, 0);
		a->baseline_value = db_column_num(st, 1);
	}
	sqlite3_finalize(st);
	if (rc == DB_ERROR)
		return -2;
	for (int i = 0; i < a->n; i++)
		a->r[i].is_baseline = a->baseline_run && !strcmp(a->r[i].row.run_id, a->baseline_run);
	return 0;
}

/* ---- grouping --------------------------------------------------------- */

/* Runs grouped by a key per run (NULL: in no group). Groups come in the
 * order of their first run, each group's runs in time order. Sorting keeps
 * it O(n log n) for campaigns of thousands of runs. */
struct groups {
	int *idx;      /* the grouped runs' indices, group after group */
	int *start;    /* group g is idx[start[g]] .. idx[start[g + 1] - 1] */
	int n;
};

struct keyed {
	const char *key;
	int i;
};

static int keyed_cmp(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	return c ? c : a->i - b->i;
}

/* Group heads (first run, offset into the sorted array, size) by first run. */
struct head {
	int first, at, len;
};

static int head_cmp(const void *x, const void *y)
{
	return ((const struct head *)x)->first - ((const struct head *)y)->first;
}

static void groups_build(int nruns, char *const *keys, struct groups *g)
{
	struct keyed *k = xcalloc((size_t)nruns + 1, sizeof(*k));
	struct head *h = xcalloc((size_t)nruns + 1, sizeof(*h));
	int nk = 0, nh = 0;
	for (int i = 0; i < nruns; i++)
		if (keys[i])
			k[nk++] = (struct keyed){ keys[i], i };
	qsort(k, (size_t)nk, sizeof(*k), keyed_cmp);
	for (int i = 0; i < nk; i++) {
		if (i == 0 || strcmp(k[i].key, k[i - 1].key))
			h[nh++] = (struct head){ k[i].i, i, 0 };
		h[nh - 1].len++;
	}
	qsort(h, (size_t)nh, sizeof(*h), head_cmp);
	g->idx = xcalloc((size_t)nk + 1, sizeof(int));
	g->start = xcalloc((size_t)nh + 1, sizeof(int));
	g->n = nh;
	for (int j = 0, at = 0; j < nh; j++) {
		g->start[j] = at;
		for (int m = 0; m < h[j].len; m++)
			g->idx[at++] = k[h[j].at + m].i;
		g->start[j + 1] = at;
	}
	free(k);
	free(h);
}

static void groups_release(struct groups *g)
{
	free(g->idx);
	free(g->start);
}

/* Each run's parent_ref: one measurement of the parent is itself noisy,
 * so where the campaign repeated the parent's configuration the mean of
 * those repeats is the better reference. The repeat groups are the
 * noise's (groups_build over every run's repeat key); the parent is found
 * by run_id among the campaign's runs. */
static void parent_refs(struct audit *a)
{
	char **keys = xcalloc((size_t)a->n + 1, sizeof(char *));
	double *mean = xcalloc((size_t)a->n + 1, sizeof(double)); /* of run i's group */
	int *cnt = xcalloc((size_t)a->n + 1, sizeof(int));        /* its valid runs */
	struct strmap by_id = STRMAP_INIT;
	struct groups g;
	for (int i = 0; i < a->n; i++) {
		keys[i] = a->r[i].rkey;
		strmap_get(&by_id, a->r[i].row.run_id, NULL)->v.n = i;
	}
	groups_build(a->n, keys, &g);
	for (int k = 0; k < g.n; k++) {
		const int *idx = g.idx + g.start[k];
		int n = g.start[k + 1] - g.start[k], nv = 0;
		double sum = 0;
		for (int j = 0; j < n; j++)
			if (!isnan(a->r[idx[j]].value)) {
				sum += a->r[idx[j]].value;
				nv++;
			}
		for (int j = 0; j < n; j++) {
			mean[idx[j]] = nv ? sum / nv : NAN;
			cnt[idx[j]] = nv;
		}
	}
	for (int i = 0; i < a->n; i++) {
		struct arun *r = &a->r[i];
		const struct strmap_slot *p = r->row.parent ? strmap_find(&by_id, r->row.parent) : NULL;
		r->parent_ref = r->parent_value;
		r->parent_n = isnan(r->parent_value) ? 0 : 1;
		if (p && cnt[p->v.n] >= 2) {
			r->parent_ref = mean[p->v.n];
			r->parent_n = cnt[p->v.n];
		}
	}
	groups_release(&g);
	strmap_release(&by_id);
	free(keys);
	free(mean);
	free(cnt);
}

/* ---- noise ---------------------------------------------------------------- */

/* One repeat_noise finding when the group idx[0..n) has two or more valid
 * measurements; returns how many it has, and adds (n - 1) * sd^2 to *ss
 * for the pooled sd. */
static int repeat_group(struct audit *a, const int *idx, int n, double *ss)
{
	double *v = xcalloc((size_t)n, sizeof(double));
	int *valid = xcalloc((size_t)n, sizeof(int));
	int nv = 0;
	for (int j = 0; j < n; j++)
		if (!isnan(a->r[idx[j]].value)) {
			valid[nv] = idx[j];
			v[nv++] = a->r[idx[j]].value;
		}
	if (nv >= 2) {
		double mean, sd, lo = v[0], hi = v[0];
		repeats_stats(v, nv, &mean, &sd);
		for (int j = 1; j < nv; j++) {
			lo = fmin(lo, v[j]);
			hi = fmax(hi, v[j]);
		}
		*ss += (nv - 1) * sd * sd;
		const struct arun *r0 = &a->r[valid[0]];
		struct finding *f = finding_new(a->out, a->c.name, AUDIT_REPEAT_NOISE, AUDIT_INFO);
		for (int j = 0; j < nv; j++)
			finding_run(f, a->r[valid[j]].row.run_id);
		finding_run_vars(f, r0);
		finding_val(f, "n", nv);
		finding_val(f, "mean", mean);
		finding_val(f, "sd", sd);
		finding_val(f, "min", lo);
		finding_val(f, "max", hi);
		finding_val(f, "range", hi - lo);
		finding_val(f, "failed", n - nv);
		finding_say(f, "%d repeat measurements of %s: mean %.6f, sd %.6f, range %.6f (%.6f to %.6f)%s.",
			    nv, r0->what ? r0->what : "one configuration", mean, sd, hi - lo, lo, hi,
			    n > nv ? "; more attempts failed without a measurement" : "");
	}
	free(v);
	free(valid);
	return nv >= 2 ? nv : 0;
}

static void audit_noise(struct audit *a, const struct audit_opts *o)
{
	/* the floor is the campaign's hardware's: noise elsewhere says nothing here */
	char **keys = xcalloc((size_t)a->n + 1, sizeof(char *));
	for (int i = 0; i < a->n; i++)
		keys[i] = a->r[i].comparable ? a->r[i].rkey : NULL;
	struct groups g;
	groups_build(a->n, keys, &g);
	double ss = 0;
	int dof = 0, runs = 0;
	for (int k = 0; k < g.n; k++) {
		int n = repeat_group(a, g.idx + g.start[k], g.start[k + 1] - g.start[k], &ss);
		if (n) {
			a->groups++;
			dof += n - 1;
			runs += n;
		}
	}
	groups_release(&g);
	free(keys);

	double dflt = !isnan(o->noise_default) ? o->noise_default : a->c.noise_default;
	struct finding *f = finding_new(a->out, a->c.name, AUDIT_NOISE_FLOOR, AUDIT_INFO);
	a->pooled_sd = dof ? sqrt(ss / dof) : NAN;
	if (dof) {
		a->floor = NOISE_FLOOR_SDS * a->pooled_sd;
		a->noise_source = "repeats";
		finding_say(f, "Noise floor %.6f %s: twice the pooled sd %.6f of %d repeat group%s (%d runs); "
			    "differences smaller than this are not evidence.",
			    a->floor, a->c.metric, a->pooled_sd, a->groups, a->groups == 1 ? "" : "s", runs);
	} else if (!isnan(dflt)) {
		a->floor = dflt;
		a->noise_source = "default";
		finding_say(f, "Noise floor %.6f %s: the stated default, since no run was repeated; "
			    "repeat the baseline to measure it.", a->floor, a->c.metric);
	} else {
		a->floor = NAN;
		a->noise_source = "none";
		f->level = AUDIT_WARN;
		finding_say(f, "No run was repeated and no noise_default is declared, so no gain can be told "
			    "from noise; repeat the baseline at least twice or declare noise_default.");
	}
	finding_val(f, "floor", a->floor);
	finding_val(f, "pooled_sd", a->pooled_sd);
	finding_val(f, "groups", a->groups);
	finding_val(f, "n_runs", runs);
}

/* ---- the kinds ------------------------------------------------------------ */

static int better(const struct audit *a, double x, double than)
{
	return a->c.maximize ? x > than : x < than;
}

/* Improvement of x over ref in the campaign's direction (negative = worse). */
static double gain(const struct audit *a, double x, double ref)
{
	return a->c.maximize ? x - ref : ref - x;
}

static const char *hw_name(const struct audit *a)
{
	return a->c.hardware ? a->c.hardware : "any hardware";
}

static void audit_no_improvement(struct audit *a)
{
	int best = -1, others = 0;
	for (int i = 0; i < a->n; i++) {
		const struct arun *r = &a->r[i];
		if (r->is_baseline || isnan(r->value) || !r->comparable)
			continue;
		others++;
		if (best < 0 || better(a, r->value, a->r[best].value))
			best = i;
	}
	if (isnan(a->baseline_value)) {
		struct finding *f = finding_new(a->out, a->c.name, AUDIT_NO_IMPROVEMENT, AUDIT_WARN);
		if (a->baseline_run)
			finding_run(f, a->baseline_run);
		if (a->baseline_run)
			finding_say(f, "The baseline %s has no valid %s measurement, so no run can be shown to "
				    "beat it; measure the baseline first.", a->baseline_run, a->c.metric);
		else
			finding_say(f, "No run of the campaign has a valid %s measurement on %s, so there is no "
				    "baseline to beat; measure the baseline first.", a->c.metric, hw_name(a));
		return;
	}
	if (best >= 0 && better(a, a->r[best].value, a->baseline_value))
		return;
	struct finding *f = finding_new(a->out, a->c.name, AUDIT_NO_IMPROVEMENT, AUDIT_WARN);
	finding_run(f, a->baseline_run);
	finding_val(f, "baseline", a->baseline_value);
	finding_val(f, "compared", others);
	if (best < 0) {
		finding_say(f, "No run other than the baseline %s (%s %.6f) was validly measured on %s; "
			    "nothing is known to beat it.", a->baseline_run, a->c.metric, a->baseline_value, hw_name(a));
		return;
	}
	finding_run(f, a->r[best].row.run_id);
	finding_val(f, "best", a->r[best].value);
	finding_say(f, "No run beat the baseline %s (%s %.6f) on %s: the best of %d other valid run%s, %s, "
		    "reached %.6f (%+.6f); keep the baseline configuration.",
		    a->baseline_run, a->c.metric, a->baseline_value, hw_name(a), others, others == 1 ? "" : "s",
		    a->r[best].row.run_id, a->r[best].value, a->r[best].value - a->baseline_value);
}

static int decided(const struct arun *r, const char *d)
{
	return r->row.decision && !strcmp(r->row.decision, d);
}

/* Autoresearch's keep rate (analysis.ipynb): keeps / (keeps + discards),
 * the baseline counted as a keep; runs without a valid measurement are
 * crashes, counted apart whatever their decision, but for a measured
 * result that was not admitted (size_violation), which was measured and
 * not kept: a discard, as the session itself counts it. */
static void keep_counts(const struct audit *a, long *keeps, long *discards, long *crashes)
{
	*keeps = *discards = *crashes = 0;
	for (int i = 0; i < a->n; i++) {
		const struct arun *r = &a->r[i];
		if (r->inadmissible)
			++*discards;
		else if (isnan(r->value))
			++*crashes;
		else if (r->is_baseline || decided(r, "keep") || decided(r, "baseline"))
			++*keeps;
		else if (decided(r, "discard"))
			++*discards;
	}
}

static double keep_rate(long keeps, long discards)
{
	return keeps + discards ? (double)keeps / (double)(keeps + discards) : NAN;
}

static void audit_budget(struct audit *a)
{
	long oos = 0, invalid = 0, both = 0, in_scope_valid = 0, unknown = 0, keeps, discards, crashes;
	long inadmissible = 0;
	keep_counts(a, &keeps, &discards, &crashes);
	for (int i = 0; i < a->n; i++) {
		const struct arun *r = &a->r[i];
		int bad = isnan(r->value) && !r->inadmissible;
		inadmissible += r->inadmissible;
		oos += r->oos > 0;
		invalid += bad;
		both += bad && r->oos > 0;
		in_scope_valid += !bad && !r->oos && !r->is_baseline;
		unknown += !bad && !r->oos && !r->is_baseline && r->unknown_scope > 0;
	}
	long budget = a->c.record_budget;
	int warn = oos || invalid || (budget && a->n > budget);
	struct finding *f = finding_new(a->out, a->c.name, AUDIT_BUDGET, warn ? AUDIT_WARN : AUDIT_INFO);
	finding_val(f, "records", a->n);
	finding_val(f, "budget", budget ? (double)budget : NAN);
	finding_val(f, "out_of_scope", oos);
	finding_val(f, "invalid", invalid);
	finding_val(f, "both", both);
	finding_val(f, "in_scope_valid", in_scope_valid);
	if (inadmissible) /* only then: the value lists of every other campaign stay as they were */
		finding_val(f, "inadmissible", inadmissible);
	finding_val(f, "keeps", keeps);
	finding_val(f, "discards", discards);
	finding_val(f, "crashes", crashes);
	finding_val(f, "keep_rate", keep_rate(keeps, discards));
	sb s = SB_INIT;
	if (budget)
		sb_addf(&s, "%d of %ld record%s used", a->n, budget, budget == 1 ? "" : "s");
	else
		sb_addf(&s, "%d record%s used (no record_budget declared)", a->n, a->n == 1 ? "" : "s");
	if (budget && a->n > budget)
		sb_addf(&s, ", %ld over budget", a->n - budget);
	sb_addf(&s, ": %ld changed variables outside the search space, %ld produced no valid measurement",
		oos, invalid);
	if (both)
		sb_addf(&s, " (%ld of them also out of scope)", both);
	if (inadmissible)
		sb_addf(&s, ", %ld %s measured but not admissible (a rule of the result broken)", inadmissible,
			inadmissible == 1 ? "was" : "were");
	sb_addf(&s, ", %ld validly measured an in-scope change or repeat", in_scope_valid);
	if (unknown)
		sb_addf(&s, " (%ld of them changed a knob the registry does not know: its scope cannot be told)",
			unknown);
	sb_adds(&s, warn ? "; spend what is left on single in-scope changes." : ".");
	if (keeps + discards)
		sb_addf(&s, " Keep rate %ld/%ld (%.1f%%): %ld kept, the baseline included, %ld discarded; "
			"%ld without a valid measurement counted apart.", keeps, keeps + discards,
			100.0 * keep_rate(keeps, discards), keeps, discards, crashes);
	f->sentence = sb_detach(&s);
}

/* Variables outside the search space, each once, in the order first changed. */
static int out_of_scope_vars(const struct audit *a, const char ***out)
{
	const char **vars = NULL;
	int n = 0;
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < a->r[i].nch; j++) {
			const char *var = a->r[i].ch[j].var;
			int k = 0;
			while (k < n && strcmp(vars[k], var))
				k++;
			if (k < n || campaign_in_scope(&a->c, var))
				continue;
			vars = xrealloc(vars, (size_t)(n + 1) * sizeof(*vars));
			vars[n++] = var;
		}
	*out = vars;
	return n;
}

static void audit_out_of_scope(struct audit *a)
{
	const char **vars;
	int nvars = out_of_scope_vars(a, &vars);
	sb space = SB_INIT;
	for (int q = 0; q < a->c.nsearch; q++)
		sb_addf(&space, "%s%s", q ? ", " : "", a->c.search_space[q]);
	for (int v = 0; v < nvars; v++) {
		int unknown = unknown_knob(vars[v]);
		struct finding *f = finding_new(a->out, a->c.name, AUDIT_OUT_OF_SCOPE,
						unknown ? AUDIT_INFO : AUDIT_WARN);
		finding_var(f, vars[v]);
		for (int i = 0; i < a->n; i++)
			for (int j = 0; j < a->r[i].nch; j++)
				if (!strcmp(a->r[i].ch[j].var, vars[v]))
					finding_run(f, a->r[i].row.run_id);
		finding_val(f, "n_runs", f->nruns);
		if (unknown)
			finding_say(f, "%d run%s changed %s, a knob the variable registry does not know "
				    "(named from the description), so whether it is inside the search space "
				    "(%s) cannot be told: if it is, name it there ('%s'); if not, %s not "
				    "answer the campaign's question.", f->nruns, f->nruns == 1 ? "" : "s",
				    vars[v], space.buf, vars[v], f->nruns == 1 ? "it does" : "they do");
		else
			finding_say(f, "%d run%s changed %s, which is outside the search space (%s); "
				    "%s not answer the campaign's question: keep to the search space "
				    "or declare a new campaign.",
				    f->nruns, f->nruns == 1 ? "" : "s", vars[v], space.buf,
				    f->nruns == 1 ? "it does" : "they do");
	}
	sb_release(&space);
	free(vars);
}

static const struct knob_change *find_change(const struct knob_change *ch, int n, const char *var)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(ch[i].var, var))
			return &ch[i];
	return NULL;
}

/* Both sides of c as positive numbers; 0 when either is unknown or not one. */
static int known_sides(const struct knob_change *c, double *old, double *new_)
{
	return c && c->old && c->new_ && !parse_double(c->old, old) &&
	       !parse_double(c->new_, new_) && *old > 0 && *new_ > 0;
}

/* The width follows a depth change at a fixed aspect ratio (autoresearch:
 * width = depth x ratio): "depth=8 dim=512" after depth 4, width 256
 * keeps 64 per layer. Only with both old values known: "depth 8, dim
 * 512" against a '?' parent may have moved the ratio too. */
static int width_follows_depth(const struct knob_change *ch, int n)
{
	double d0, d1, w0, w1;
	if (find_change(ch, n, "model.aspect_ratio") ||
	    !known_sides(find_change(ch, n, "model.depth"), &d0, &d1) ||
	    !known_sides(find_change(ch, n, "model.dim"), &w0, &w1))
		return 0;
	double r0 = w0 / d0, r1 = w1 / d1;
	return fabs(r0 - r1) <= 1e-9 * fmax(r0, r1);
}

/* autoresearch's default head dimension: train.py rounds depth x ratio
 * up to a multiple of it to get the width. */
#define AR_HEAD_DIM 128.0

/* The aspect ratio follows a depth change made at a fixed width: "DEPTH
 * 12→14 at same 768 dim (ASPECT_RATIO 64→54)" (a real session,
 * tests/fixtures/real/djordje-rtx5070-results.tsv): 12 x 64 = 768 and
 * 14 x 54 = 756, which train.py rounds up to the same 768. The run
 * measured depth at constant width, one knob; before, it was confounded
 * ("test them one at a time": depth alone would move the width too). Only
 * with all four values known, the width and head_dim not changed, and
 * both products rounded to one multiple of the default head_dim. */
static int ratio_keeps_width(const struct knob_change *ch, int n)
{
	double d0, d1, r0, r1;
	if (find_change(ch, n, "model.dim") || find_change(ch, n, "model.head_dim") ||
	    !known_sides(find_change(ch, n, "model.depth"), &d0, &d1) ||
	    !known_sides(find_change(ch, n, "model.aspect_ratio"), &r0, &r1) || d0 == d1)
		return 0;
	return ceil(d0 * r0 / AR_HEAD_DIM) == ceil(d1 * r1 / AR_HEAD_DIM);
}

/* A variable that follows from another the run changed, and so is no
 * second knob: with the model width fixed the head count is width /
 * head_dim ("more heads, head_dim 128 -> 64"), and autoresearch's width is
 * depth x aspect ratio ("ASPECT_RATIO 64 to 80; model_dim goes from 256 to
 * 384"; "depth 4 -> 8, dim 256 -> 512" at ratio 64). Only where the third
 * variable of the relation did not change: width and heads changed
 * together may be two knobs (head_dim follows). */
int audit_derived_var(const struct knob_change *ch, int n, int i)
{
	static const struct { const char *var, *from, *fixed; } rules[] = {
		{ "model.heads", "model.head_dim", "model.dim" },
		{ "model.dim", "model.aspect_ratio", "model.depth" },
	};
	const char *var = ch[i].var;
	for (size_t k = 0; k < ARRAY_SIZE(rules); k++)
		if (!strcmp(var, rules[k].var) && find_change(ch, n, rules[k].from) &&
		    !find_change(ch, n, rules[k].fixed))
			return 1;
	if (!strcmp(var, "model.aspect_ratio"))
		return ratio_keeps_width(ch, n);
	return !strcmp(var, "model.dim") && width_follows_depth(ch, n);
}

/* The run's changed variables that are knobs of their own (not derived),
 * and the first of them in *first (NULL when none). */
static int run_knobs(const struct arun *r, const char **first)
{
	struct knob_change *ch = xcalloc((size_t)r->nch + 1, sizeof(*ch));
	for (int i = 0; i < r->nch; i++)
		ch[i] = (struct knob_change){ r->ch[i].var, r->ch[i].old, r->ch[i].new_ };
	int knobs = 0;
	*first = NULL;
	for (int i = 0; i < r->nch; i++)
		if (!audit_derived_var(ch, r->nch, i) && !knobs++)
			*first = r->ch[i].var;
	free(ch);
	return knobs;
}

static int is_confounded(const struct audit *a, const struct arun *r)
{
	const char *first;
	if (run_knobs(r, &first) < 2)
		return 0;
	char **vars = xcalloc((size_t)r->nch, sizeof(char *));
	for (int i = 0; i < r->nch; i++)
		vars[i] = r->ch[i].var;
	int bundled = campaign_in_bundle(&a->c, vars, r->nch);
	free(vars);
	return !bundled;
}

/* What a group of runs changed, for its sentence: the values when every
 * run made the same change, else only the variables (runs that moved the
 * same knobs to different values are one finding, and quoting the first
 * run's values would say the others made its change). */
static const char *group_what(const struct audit *a, const int *idx, int n, sb *buf)
{
	const struct arun *r = &a->r[idx[0]];
	for (int j = 1; j < n; j++)
		if (strcmp(a->r[idx[j]].what, r->what))
			break;
	else
		return r->what;
	for (int i = 0; i < r->nch; i++)
		sb_addf(buf, "%s%s", i ? " + " : "", r->ch[i].var);
	return buf->buf;
}

static void audit_confounded(struct audit *a)
{
	char **keys = xcalloc((size_t)a->n + 1, sizeof(char *));
	for (int i = 0; i < a->n; i++)
		keys[i] = is_confounded(a, &a->r[i]) ? a->r[i].vset : NULL;
	struct groups g;
	groups_build(a->n, keys, &g);
	for (int k = 0; k < g.n; k++) {
		const int *idx = g.idx + g.start[k];
		int n = g.start[k + 1] - g.start[k], valid = 0;
		for (int j = 0; j < n; j++)
			valid += !isnan(a->r[idx[j]].value);
		const struct arun *r = &a->r[idx[0]];
		struct finding *f = finding_new(a->out, a->c.name, AUDIT_CONFOUNDED, AUDIT_WARN);
		for (int j = 0; j < n; j++)
			finding_run(f, a->r[idx[j]].row.run_id);
		finding_run_vars(f, r);
		finding_val(f, "n_runs", n);
		finding_val(f, "valid", valid);
		sb s = SB_INIT, what = SB_INIT;
		add_run_list(&s, a->r, idx, n);
		if (n == 1 && valid)
			finding_say(f, "%s changed %s together (%s %.6f): the effect of each is unknowable; "
				    "test them one at a time.", s.buf, r->what, a->c.metric, r->value);
		else
			finding_say(f, "%s changed %s together (%d with a valid measurement): the effect of "
				    "each is unknowable; test them one at a time.", s.buf,
				    group_what(a, idx, n, &what), valid);
		sb_release(&s);
		sb_release(&what);
	}
	groups_release(&g);
	free(keys);
}

static void unresolved(struct audit *a, const int *idx, int n)
{
	const struct arun *r = &a->r[idx[0]];
	struct finding *f = finding_new(a->out, a->c.name, AUDIT_UNRESOLVED, AUDIT_WARN);
	sb s = SB_INIT;
	for (int j = 0; j < n; j++) {
		finding_run(f, a->r[idx[j]].row.run_id);
		sb_addf(&s, "%s%s: %s", j ? "; " : "", a->r[idx[j]].row.run_id, a->r[idx[j]].failure);
	}
	finding_run_vars(f, r);
	finding_val(f, "attempts", n);
	finding_say(f, "%s was attempted %d time%s and never validly measured (%s); its effect is unknown: "
		    "fix the failure and rerun it unchanged against its parent.",
		    r->what, n, n == 1 ? "" : "s", s.buf);
	sb_release(&s);
}

/* "q20-03 (val_bpb 1.313461, discard)", "q20-08 (crash in eval: 'msg')":
 * an attempt named with what it gave. */
static void say_attempt(sb *s, const struct audit *a, const struct arun *r)
{
	sb_addf(s, "%s (", r->row.run_id);
	if (isnan(r->value))
		sb_adds(s, r->failure ? r->failure : r->row.status);
	else
		sb_addf(s, "%s %.6f%s%s", a->c.metric, r->value, r->row.decision ? ", " : "",
			r->row.decision ? r->row.decision : "");
	sb_addc(s, ')');
}

static void duplicate(struct audit *a, const int *idx, int n, int measured)
{
	const struct arun *m = &a->r[idx[measured]];
	int extra = n - measured - 1;
	struct finding *f = finding_new(a->out, a->c.name, AUDIT_DUPLICATE_ATTEMPT, AUDIT_WARN);
	for (int j = measured; j < n; j++)
		finding_run(f, a->r[idx[j]].row.run_id);
	finding_run_vars(f, m);
	finding_val(f, "attempts", n);
	finding_val(f, "after_measured", extra);
	finding_val(f, "measured", m->value);
	sb first = SB_INIT, later = SB_INIT;
	say_attempt(&first, a, m);
	for (int j = measured + 1; j < n; j++) {
		if (j > measured + 1)
			sb_adds(&later, j == n - 1 ? " and " : ", ");
		say_attempt(&later, a, &a->r[idx[j]]);
	}
	finding_say(f, "%s against %s was already measured by %s and tried %d more time%s against the same "
		    "parent configuration: %s; to measure noise repeat the parent unchanged, otherwise move on.",
		    m->what, m->row.parent, first.buf, extra, extra == 1 ? "" : "s", later.buf);
	sb_release(&first);
	sb_release(&later);
}

/* unresolved: a change (whatever its parent) never validly measured.
 * duplicate_attempt: a change tried again against the same parent
 * configuration after a valid measurement of it. */
static void audit_hypotheses(struct audit *a, enum audit_kind kind)
{
	char **keys = xcalloc((size_t)a->n + 1, sizeof(char *));
	for (int i = 0; i < a->n; i++)
		keys[i] = kind == AUDIT_UNRESOLVED ? a->r[i].hyp : a->r[i].dkey;
	struct groups g;
	groups_build(a->n, keys, &g);
	for (int k = 0; k < g.n; k++) {
		const int *idx = g.idx + g.start[k];
		int n = g.start[k + 1] - g.start[k], measured = -1;
		int answered = 0; /* a result not admitted still says what the change does */
		for (int j = 0; j < n; j++) {
			answered |= a->r[idx[j]].inadmissible;
			if (measured < 0 && !isnan(a->r[idx[j]].value))
				measured = j;
		}
		if (kind == AUDIT_UNRESOLVED && measured < 0 && !answered)
			unresolved(a, idx, n);
		/* dkey is NULL for an unreadable description, which may well be
		 * a repeat of the parent, which is how noise is measured */
		else if (kind == AUDIT_DUPLICATE_ATTEMPT && measured >= 0 && measured < n - 1)
			duplicate(a, idx, n, measured);
	}
	groups_release(&g);
	free(keys);
}

/* A run claims an improvement when kept, or undecided and better than its parent. */
static int claims_gain(const struct audit *a, const struct arun *r)
{
	if (r->row.decision && !strcmp(r->row.decision, "keep"))
		return 1;
	return !r->row.decision && better(a, r->value, r->parent_ref);
}

/* A warning about run r measured against its parent's reference: the
 * runs, r's variables, and value / parent / parent_n, as both kinds that
 * compare with the parent (within_noise, impl_changed_metric) begin. */
static struct finding *against_parent(struct audit *a, enum audit_kind kind, const struct arun *r)
{
	struct finding *f = finding_new(a->out, a->c.name, kind, AUDIT_WARN);
	finding_run(f, r->row.run_id);
	finding_run(f, r->row.parent);
	finding_run_vars(f, r);
	finding_val(f, "value", r->value);
	finding_val(f, "parent", r->parent_ref);
	finding_val(f, "parent_n", r->parent_n);
	return f;
}

/* " for its parent P" or ", the mean of N measurements of its parent P". */
static void say_parent(sb *s, const struct arun *r)
{
	if (r->parent_n >= 2)
		sb_addf(s, ", the mean of %d measurements of its parent %s,", r->parent_n, r->row.parent);
	else
		sb_addf(s, " for its parent %s,", r->row.parent);
}

static void audit_within_noise(struct audit *a)
{
	if (isnan(a->floor))
		return;
	for (int i = 0; i < a->n; i++) {
		const struct arun *r = &a->r[i];
		/* a rerun is the repetition this finding asks for */
		if (r->is_baseline || r->rerun || r->off_budget || r->parent_budget_differs || isnan(r->value) ||
		    isnan(r->parent_ref) || !claims_gain(a, r))
			continue;
		double g = gain(a, r->value, r->parent_ref);
		if (g >= a->floor)
			continue;
		struct finding *f = against_parent(a, AUDIT_WITHIN_NOISE, r);
		finding_val(f, "gain", g);
		finding_val(f, "floor", a->floor);
		sb par = SB_INIT;
		say_parent(&par, r);
		finding_say(f, "%s %s %.6f against %.6f%s a gain of %.6f, below the noise floor "
			    "%.6f; repeat it before building on it.",
			    r->row.run_id, r->row.decision ? "was kept at" : "claims", r->value, r->parent_ref,
			    par.buf, g, a->floor);
		sb_release(&par);
	}
}

static int impl_only(const struct arun *r)
{
	for (int i = 0; i < r->nch; i++)
		if (varreg_kind_of(r->ch[i].var) != VAR_IMPL)
			return 0;
	return r->nch > 0;
}

/* Relative change in the amount trained (tokens, else steps) against the
 * parent; NAN when neither is recorded for both. */
static double work_change(const struct arun *r)
{
	if (!isnan(r->tokens[0]) && !isnan(r->tokens[1]) && r->tokens[1] > 0)
		return r->tokens[0] / r->tokens[1] - 1;
	if (!isnan(r->steps[0]) && !isnan(r->steps[1]) && r->steps[1] > 0)
		return r->steps[0] / r->steps[1] - 1;
	return NAN;
}

/* Within this relative difference two runs trained "the same amount". */
#define SAME_WORK 0.01

/* Under a time budget an implementation change may train more or fewer
 * tokens, and the metric follows: that is throughput, not math. So a move
 * beyond the noise floor is flagged unless the amount trained explains it
 * (more work and better, or less work and worse); with the same amount,
 * or when the amount is not recorded, the math is suspect. */
static void audit_impl_changed_metric(struct audit *a)
{
	if (isnan(a->floor))
		return;
	for (int i = 0; i < a->n; i++) {
		const struct arun *r = &a->r[i];
		if (!impl_only(r) || r->off_budget || r->parent_budget_differs || isnan(r->value) ||
		    isnan(r->parent_ref))
			continue;
		double delta = r->value - r->parent_ref, w = work_change(r);
		double g = gain(a, r->value, r->parent_ref);
		if (fabs(delta) <= a->floor || (fabs(w) > SAME_WORK && (w > 0) == (g > 0)))
			continue;
		struct finding *f = against_parent(a, AUDIT_IMPL_CHANGED_METRIC, r);
		finding_val(f, "delta", delta);
		finding_val(f, "floor", a->floor);
		finding_val(f, "work_change", w);
		sb why = SB_INIT;
		if (isnan(w))
			sb_adds(&why, "no token or step counts are recorded to tell throughput from math");
		else if (fabs(w) <= SAME_WORK)
			sb_addf(&why, "with the same amount of training (%+.1f%%)", 100 * w);
		else
			sb_addf(&why, "%s training (%+.1f%%), the wrong way for throughput", w > 0 ? "more" : "less",
				100 * w);
		sb par = SB_INIT;
		if (r->parent_n >= 2)
			sb_addf(&par, "the mean of %d measurements of %s", r->parent_n, r->row.parent);
		else
			sb_adds(&par, r->row.parent);
		finding_say(f, "%s changed only %s, which must not change the math, yet %s moved %+.6f "
			    "(%.6f vs %.6f for %s), beyond the noise floor %.6f, %s: check the implementation.",
			    r->row.run_id, r->what, a->c.metric, delta, r->value, r->parent_ref, par.buf, a->floor,
			    why.buf);
		sb_release(&par);
		sb_release(&why);
	}
}

static void audit_other_hardware(struct audit *a)
{
	char **keys = xcalloc((size_t)a->n + 1, sizeof(char *));
	for (int i = 0; i < a->n; i++)
		if (!a->r[i].on_hw)
			keys[i] = a->r[i].row.hw_class ? a->r[i].row.hw_class : "unknown hardware";
	struct groups g;
	groups_build(a->n, keys, &g);
	for (int k = 0; k < g.n; k++) {
		const int *idx = g.idx + g.start[k];
		int n = g.start[k + 1] - g.start[k];
		struct finding *f = finding_new(a->out, a->c.name, AUDIT_OTHER_HARDWARE, AUDIT_WARN);
		for (int j = 0; j < n; j++)
			finding_run(f, a->r[idx[j]].row.run_id);
		finding_val(f, "n_runs", n);
		finding_say(f, "%d run%s ran on %s, not on the campaign's %s; %s against the budget but "
			    "cannot be compared with the baseline: rerun on %s or assign %s to another campaign.",
			    n, n == 1 ? "" : "s", keys[idx[0]], a->c.hardware, n == 1 ? "it counts" : "they count",
			    a->c.hardware, n == 1 ? "it" : "them");
	}
	groups_release(&g);
	free(keys);
}

/* A 600-second result is not comparable with 300-second ones: runs with
 * another budget than the baseline's are shown here, once per budget, and
 * left out of every comparison (comparable = 0). */
static void audit_other_budget(struct audit *a)
{
	char **keys = xcalloc((size_t)a->n + 1, sizeof(char *));
	for (int i = 0; i < a->n; i++)
		if (a->r[i].off_budget) {
			sb k = SB_INIT;
			sb_addf(&k, "%g", a->r[i].budget);
			keys[i] = sb_detach(&k);
		}
	struct groups g;
	groups_build(a->n, keys, &g);
	for (int k = 0; k < g.n; k++) {
		const int *idx = g.idx + g.start[k];
		int n = g.start[k + 1] - g.start[k];
		struct finding *f = finding_new(a->out, a->c.name, AUDIT_OTHER_BUDGET, AUDIT_WARN);
		sb runs = SB_INIT;
		for (int j = 0; j < n; j++)
			finding_run(f, a->r[idx[j]].row.run_id);
		add_run_list(&runs, a->r, idx, n);
		finding_val(f, "n_runs", n);
		finding_val(f, "budget", a->r[idx[0]].budget);
		finding_val(f, "campaign_budget", a->budget);
		finding_say(f, "%s trained for %g s, not the %g s of the baseline %s; %s shown but never compared with "
			    "%g-second results (the baseline, the best run, the kept frontier, the noise floor and "
			    "gains over a parent leave %s out): rerun at %g s to compare.",
			    runs.buf, a->r[idx[0]].budget, a->budget, a->baseline_run, n == 1 ? "it is" : "they are",
			    a->budget, n == 1 ? "it" : "them", a->budget);
		sb_release(&runs);
	}
	groups_release(&g);
	for (int i = 0; i < a->n; i++)
		free(keys[i]);
	free(keys);
}

/* The kept frontier, as `ledger frontier` draws it for runs with
 * decisions: the running best of comparable valid runs that were not
 * discarded. A discarded run that beat it was thrown away while better
 * than anything kept — autoresearch keeps every improvement. Reruns are
 * measurements of noise, not candidates, and do not count. */
static void audit_discarded_improvement(struct audit *a)
{
	int best = -1;
	for (int i = 0; i < a->n; i++) {
		const struct arun *r = &a->r[i];
		if (!r->comparable || isnan(r->value))
			continue;
		if (!decided(r, "discard")) {
			if (best < 0 || better(a, r->value, a->r[best].value))
				best = i;
			continue;
		}
		if (best < 0 || r->rerun || !better(a, r->value, a->r[best].value))
			continue;
		const struct arun *b = &a->r[best];
		double g = gain(a, r->value, b->value);
		/* discarding a gain inside the noise floor is a fair call */
		if (!isnan(a->floor) && g < a->floor)
			continue;
		struct finding *f = finding_new(a->out, a->c.name, AUDIT_DISCARDED_IMPROVEMENT, AUDIT_WARN);
		finding_run(f, b->row.run_id);
		finding_run(f, r->row.run_id);
		finding_run_vars(f, r);
		finding_val(f, "value", r->value);
		finding_val(f, "frontier", b->value);
		finding_val(f, "gain", g);
		finding_val(f, "floor", a->floor);
		sb noise = SB_INIT;
		if (isnan(a->floor))
			sb_adds(&noise, "the noise floor is unknown");
		else
			sb_addf(&noise, "beyond the noise floor %.6f", a->floor);
		finding_say(f, "%s (%s) was discarded at %s %.6f though it beat the kept frontier %.6f of %s by "
			    "%.6f (%s): repeat it and keep it if it holds.",
			    r->row.run_id, r->what ? r->what : "no change recorded", a->c.metric, r->value, b->value,
			    b->row.run_id, g, noise.buf);
		sb_release(&noise);
	}
}

/* ---- entry points --------------------------------------------------------- */

/* Move tmp's findings onto out in kind order, keeping order within a kind. */
static void append_by_kind(struct finding_list *out, struct finding_list *tmp)
{
	for (int k = 0; k < AUDIT_KIND_COUNT; k++) {
		for (int i = 0; i < tmp->n; i++) {
			if (tmp->v[i].kind != (enum audit_kind)k)
				continue;
			struct finding *f = finding_new(out, "", tmp->v[i].kind, AUDIT_INFO);
			free(f->campaign);
			*f = tmp->v[i];
		}
	}
	free(tmp->v);
	tmp->v = NULL;
	tmp->n = tmp->cap = 0;
}

static void fill_summary(const struct audit *a, const struct finding_list *fl, struct audit_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->campaign = xstrdup(a->c.name);
	s->metric = xstrdup(a->c.metric);
	s->hardware = a->c.hardware ? xstrdup(a->c.hardware) : NULL;
	s->maximize = a->c.maximize;
	s->baseline_run = a->baseline_run ? xstrdup(a->baseline_run) : NULL;
	s->baseline_value = a->baseline_value;
	s->best_value = NAN;
	for (int i = 0; i < a->n; i++) {
		const struct arun *r = &a->r[i];
		if (!isnan(r->value) && r->comparable && (isnan(s->best_value) || better(a, r->value, s->best_value))) {
			free(s->best_run);
			s->best_run = xstrdup(r->row.run_id);
			s->best_value = r->value;
		}
	}
	keep_counts(a, &s->keeps, &s->discards, &s->crashes);
	s->keep_rate = keep_rate(s->keeps, s->discards);
	s->budget_seconds = a->budget;
	for (int i = 0; i < a->n; i++)
		if (a->r[i].off_budget) {
			s->other_budget_runs = xrealloc(s->other_budget_runs,
							(size_t)(s->other_budget + 1) * sizeof(char *));
			s->other_budget_runs[s->other_budget++] = xstrdup(a->r[i].row.run_id);
		}
	s->noise_floor = a->floor;
	s->pooled_sd = a->pooled_sd;
	s->noise_source = a->noise_source;
	s->repeat_groups = a->groups;
	s->records = a->n;
	s->record_budget = a->c.record_budget;
	for (int i = 0; i < fl->n; i++) {
		if (fl->v[i].kind == AUDIT_BUDGET) {
			s->out_of_scope = (long)finding_value(&fl->v[i], "out_of_scope");
			s->invalid = (long)finding_value(&fl->v[i], "invalid");
			s->in_scope_valid = (long)finding_value(&fl->v[i], "in_scope_valid");
			double inadmissible = finding_value(&fl->v[i], "inadmissible");
			s->inadmissible = isnan(inadmissible) ? 0 : (long)inadmissible;
		}
	}
}

void audit_summary_release(struct audit_summary *s)
{
	free(s->campaign);
	free(s->metric);
	free(s->hardware);
	free(s->baseline_run);
	free(s->best_run);
	for (long i = 0; i < s->other_budget; i++)
		free(s->other_budget_runs[i]);
	free(s->other_budget_runs);
	memset(s, 0, sizeof(*s));
}

int audit_campaign(sqlite3 *db, const char *campaign, const struct audit_opts *o,
		   struct audit_summary *sum, struct finding_list *out)
{
	struct audit a = { .db = db, .floor = NAN, .pooled_sd = NAN };
	struct audit_opts dflt = AUDIT_OPTS_INIT;
	struct finding_list tmp = FINDING_LIST_INIT;
	if (!o)
		o = &dflt;
	if (sum) /* safe to release whatever happens below */
		memset(sum, 0, sizeof(*sum));
	int loaded = campaign_load(db, campaign, &a.c, 0);
	if (loaded)
		return loaded == CAMPAIGN_DB_ERROR ? -2 : -1;
	a.out = &tmp;
	int rc = load_runs(&a);
	if (!rc) {
		parent_refs(&a);
		rc = resolve_baseline(&a);
	}
	if (!rc) {
		resolve_budgets(&a);
		mark_comparable(&a);
		audit_noise(&a, o);
		audit_no_improvement(&a);
		audit_budget(&a);
		audit_out_of_scope(&a);
		audit_confounded(&a);
		audit_hypotheses(&a, AUDIT_UNRESOLVED);
		audit_hypotheses(&a, AUDIT_DUPLICATE_ATTEMPT);
		audit_within_noise(&a);
		audit_impl_changed_metric(&a);
		audit_other_hardware(&a);
		audit_other_budget(&a);
		audit_discarded_improvement(&a);
		if (sum)
			fill_summary(&a, &tmp, sum);
		append_by_kind(out, &tmp);
	}
	finding_list_release(&tmp);
	runs_release(&a);
	campaign_release(&a.c);
	return rc;
}

/* 0, or -2 when the ledger cannot be read (reported). */
static int audit_undeclared(sqlite3 *db, struct finding_list *out)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT campaign, run_id FROM runs WHERE campaign IS NOT NULL"
		" AND campaign NOT IN (SELECT name FROM campaigns)"
		" ORDER BY campaign, t_finished IS NULL, t_finished, id");
	struct finding *f = NULL;
	int rc;
	while ((rc = db_step(st, "read the runs' campaigns")) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (!f || strcmp(f->campaign, name)) {
			f = finding_new(out, name, AUDIT_UNDECLARED, AUDIT_WARN);
			finding_val(f, "n_runs", 0);
		}
		finding_run(f, (const char *)sqlite3_column_text(st, 1));
		f->values[0].v = f->nruns; /* the sentence is rewritten as runs come */
		int one = f->nruns == 1;
		/* the name is not repeated in the example: a sentence that lands in
		 * a terminal, markdown or HTML must not become a command to paste */
		finding_say(f, "%d run%s campaign '%s', which was never declared, so nothing holds %s "
			    "to a question; declare it with 'ledger campaign add FILE' (the least a declaration "
			    "holds is its name and a search space: {\"name\": …, \"search_space\": [\"*\"]} "
			    "puts every variable in scope), then audit it.",
			    f->nruns, one ? " names" : "s name", name, one ? "it" : "them");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -2;
}

int audit_all(sqlite3 *db, const struct audit_opts *o, struct finding_list *out)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name FROM campaigns ORDER BY name");
	int rc = 0, step = SQLITE_ROW;
	/* one campaign with a broken declaration must not hide the others */
	while (rc != -2 && (step = db_step(st, "list the campaigns")) == SQLITE_ROW) {
		int one = audit_campaign(db, (const char *)sqlite3_column_text(st, 0), o, NULL, out);
		if (one && rc != -2)
			rc = one;
	}
	sqlite3_finalize(st);
	if (step == DB_ERROR)
		rc = -2;
	if (rc != -2 && audit_undeclared(db, out))
		rc = -2;
	return rc;
}

/* ---- coverage ------------------------------------------------------------- */

static int in_comma_list(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',') {
		if (!strncmp(p, item, n) && (p[n] == ',' || !p[n]))
			return 1;
	}
	return 0;
}

static void coverage_row(const struct audit *a, const char *glob, struct coverage_row *row)
{
	sb vars = SB_INIT;
	row->glob = xstrdup(glob);
	for (int i = 0; i < a->n; i++) {
		const struct arun *r = &a->r[i];
		int touches = 0;
		for (int j = 0; j < r->nch; j++)
			touches |= glob_match(glob, r->ch[j].var);
		row->attempts += touches;
		/* one knob, with what follows from it ("head_dim 128 -> 64" and
		 * its head count): a single-variable run of that knob */
		const char *knob;
		if (run_knobs(r, &knob) != 1 || !glob_match(glob, knob) || isnan(r->value))
			continue;
		row->valid_alone++;
		if (!in_comma_list(vars.buf, knob)) /* once each, first-tested order */
			sb_addf(&vars, "%s%s", vars.len ? "," : "", knob);
	}
	row->vars_tested = sb_detach(&vars);
}

int audit_coverage(sqlite3 *db, const char *campaign, struct coverage *out)
{
	struct audit a = { .db = db, .floor = NAN };
	memset(out, 0, sizeof(*out));
	int loaded = campaign_load(db, campaign, &a.c, 0);
	if (loaded)
		return loaded == CAMPAIGN_DB_ERROR ? -2 : -1;
	int rc = load_runs(&a);
	if (!rc) {
		out->rows = xcalloc((size_t)a.c.nsearch + 1, sizeof(*out->rows));
		for (int i = 0; i < a.c.nsearch; i++)
			coverage_row(&a, a.c.search_space[i], &out->rows[out->n++]);
	}
	runs_release(&a);
	campaign_release(&a.c);
	return rc;
}

void coverage_release(struct coverage *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->rows[i].glob);
		free(c->rows[i].vars_tested);
	}
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
