/* cmd_audit.c — `ledger audit`: print the findings of the audit library
 * (audit.h) for one campaign or all, or the search-space coverage. This
 * file only parses options and renders; every rule lives in audit.c and
 * docs/audit.md. */
#include <jansson.h>
#include "audit.h"
#include "db.h"
#include "ledger.h"
#include "util.h"

enum { O_CAMPAIGN = 1, O_COVERAGE, O_NOISE_DEFAULT, O_KIND };
static const struct opt audit_opts[] = {
	{ .name = "--campaign", .id = O_CAMPAIGN, .type = OPT_STRING, .value = "NAME",
	  .help = "audit one campaign (default: every declared campaign,\n"
		  "plus runs that name a campaign nobody declared)" },
	{ .name = "--coverage", .id = O_COVERAGE,
	  .help = "instead, list each search-space glob with the number of\n"
		  "valid runs that changed it alone" },
	{ .name = "--noise-default", .id = O_NOISE_DEFAULT, .type = OPT_DOUBLE, .value = "X",
	  .lo = 0, .hi = 1e300, .flags = OPT_ABOVE_LO, .bad = "is not a positive number",
	  .help = "noise floor when a campaign has no repeats (overrides\n"
		  "the campaign's noise_default)" },
	{ .name = "--kind", .id = O_KIND, .type = OPT_STRING, .value = "KIND", .flags = OPT_REPEAT,
	  .help = "only findings of KIND (repeatable); the exit status\ncounts only those" },
};
static const struct opt_group audit_group = { NULL, NULL, audit_opts, ARRAY_SIZE(audit_opts) };

const struct opt_cmd cmd_audit_spec = {
	.name = "audit",
	.summary = "audit campaigns: confounded, out-of-scope, unresolved, noise",
	.about = "Hold each declared campaign's runs against its declaration and list one\n"
		 "finding per row: kind, level, runs, variables and a sentence to act on.\n"
		 "Kinds: no_improvement, budget, out_of_scope, confounded, unresolved,\n"
		 "duplicate_attempt, within_noise, impl_changed_metric, other_hardware,\n"
		 "other_budget, discarded_improvement, repeat_noise, noise_floor,\n"
		 "undeclared (docs/audit.md explains each with\n"
		 "an example).\n",
	.notes = "Exit status: 0 no warnings (info rows only), 1 warnings found (or, without\n"
		 "--campaign, some campaign could not be audited), 2 usage error, unknown\n"
		 "campaign or unresolvable baseline, 3 database failure.\n",
	.groups = { &audit_group, &archived_opts },
};

struct audit_args {
	const char *campaign;
	int coverage;
	struct audit_opts opts;
	int kinds[AUDIT_KIND_COUNT];  /* --kind given for it */
	int any_kind;                 /* some --kind given */
};

static int parse_kind(const char *val, struct audit_args *a)
{
	enum audit_kind k;
	if (audit_kind_parse(val, &k)) {
		rl_error("audit: --kind '%s' is not a finding kind", val);
		rl_hint("kinds are listed in 'ledger audit --help'");
		return -1;
	}
	a->kinds[k] = a->any_kind = 1;
	return 0;
}

static int parse_args(int argc, char **argv, struct audit_args *a)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_audit_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("audit: unexpected argument '%s'", p.val);
			rl_hint("see 'ledger audit --help'");
			return -1;
		}
		if (r == O_COVERAGE)
			a->coverage = 1;
		else if (r == O_CAMPAIGN)
			a->campaign = p.val;
		else if (r == O_KIND && parse_kind(p.val, a))
			return -1;
		else if (r == O_NOISE_DEFAULT)
			a->opts.noise_default = p.num;
	}
	return 0;
}

/* Values as "name=value;…": whole numbers plainly, others with 6 decimals. */
static char *values_text(const struct finding *f)
{
	sb s = SB_INIT;
	for (int i = 0; i < f->nvalues; i++) {
		double v = f->values[i].v;
		sb_addf(&s, "%s%s=", i ? ";" : "", f->values[i].name);
		if (isnan(v))
			sb_adds(&s, "null");
		else if (v == floor(v) && fabs(v) < 1e15)
			sb_addf(&s, "%.0f", v);
		else
			sb_addf(&s, "%.6f", v);
	}
	return sb_detach(&s);
}

static char *join(char **v, int n)
{
	sb s = SB_INIT;
	for (int i = 0; i < n; i++)
		sb_addf(&s, "%s%s", i ? ", " : "", v[i]);
	return sb_detach(&s);
}

static void render_table(const struct finding_list *fl, enum out_format fmt)
{
	static const char *const cols[] = {
		"campaign", "kind", "level", "runs", "variables", "sentence", "values"
	};
	/* tsv and csv are for machines and get the values too; people read the
	 * sentence, which carries the same numbers */
	int with_values = fmt == FMT_TSV || fmt == FMT_CSV;
	table t;
	table_init(&t, with_values ? 7 : 6, cols);
	for (int i = 0; i < fl->n; i++) {
		const struct finding *f = &fl->v[i];
		int row = table_add_row(&t);
		char *runs = join(f->runs, f->nruns), *vars = join(f->vars, f->nvars);
		table_set_text(&t, row, 0, f->campaign);
		table_set_text(&t, row, 1, audit_kind_name(f->kind));
		table_set_text(&t, row, 2, f->level == AUDIT_WARN ? "warn" : "info");
		table_set_text(&t, row, 3, runs);
		table_set_text(&t, row, 4, vars);
		table_set_text(&t, row, 5, f->sentence);
		if (with_values) {
			char *vals = values_text(f);
			table_set_text(&t, row, 6, vals);
			free(vals);
		}
		free(runs);
		free(vars);
	}
	table_render(&t, fmt, stdout);
	table_release(&t);
}

/* Text from run records goes to a terminal: control characters become
 * spaces so a run id cannot move the cursor or split a line. */
static void put_flat(const char *s)
{
	for (; *s; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
}

static void put_list(const char *label, char **v, int n)
{
	if (!n)
		return;
	printf("  %s ", label);
	for (int i = 0; i < n; i++) {
		if (i)
			fputs(", ", stdout);
		put_flat(v[i]);
	}
}

/* The default format: the aligned table of table.h cuts cells at 60
 * columns, and the sentence is the point of a finding, so each finding is a
 * heading line (level, kind, campaign, variables, runs) and its sentence. */
static void render_text(const struct finding_list *fl)
{
	for (int i = 0; i < fl->n; i++) {
		const struct finding *f = &fl->v[i];
		printf("%s%-4s  %s  ", i ? "\n" : "", f->level == AUDIT_WARN ? "warn" : "info",
		       audit_kind_name(f->kind));
		put_flat(f->campaign);
		put_list("vars", f->vars, f->nvars);
		put_list("runs", f->runs, f->nruns);
		fputs("\n  ", stdout);
		put_flat(f->sentence);
		putchar('\n');
	}
}

static json_t *string_array(char **v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* JSON keeps the structure: runs and variables as arrays, values as an object. */
static void render_json(const struct finding_list *fl)
{
	json_t *arr = json_array();
	for (int i = 0; i < fl->n; i++) {
		const struct finding *f = &fl->v[i];
		json_t *o = json_object(), *vals = json_object();
		json_object_set_new(o, "campaign", json_string(f->campaign));
		json_object_set_new(o, "kind", json_string(audit_kind_name(f->kind)));
		json_object_set_new(o, "level", json_string(f->level == AUDIT_WARN ? "warn" : "info"));
		json_object_set_new(o, "runs", string_array(f->runs, f->nruns));
		json_object_set_new(o, "variables", string_array(f->vars, f->nvars));
		for (int k = 0; k < f->nvalues; k++) {
			double v = f->values[k].v;
			json_t *j = isnan(v) ? json_null()
				: v == floor(v) && fabs(v) < 1e15 ? json_integer((json_int_t)v) : json_real(v);
			json_object_set_new(vals, f->values[k].name, j);
		}
		json_object_set_new(o, "values", vals);
		json_object_set_new(o, "sentence", json_string(f->sentence));
		json_array_append_new(arr, o);
	}
	char *s = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	if (!s)
		die("out of memory writing JSON");
	puts(s);
	free(s);
	json_decref(arr);
}

static int run_coverage(struct ledger_ctx *ctx, const char *campaign)
{
	static const char *const cols[] = { "campaign", "glob", "valid_alone", "attempts", "variables_tested" };
	table t;
	table_init(&t, ARRAY_SIZE(cols), cols);
	sqlite3_stmt *st = db_prepare(ctx->db,
		"SELECT name FROM campaigns WHERE ?1 IS NULL OR name = ?1 ORDER BY name");
	sqlite3_bind_text(st, 1, campaign, -1, SQLITE_STATIC);
	int rc = EXIT_OK, step;
	while ((step = db_step(st, "list the campaigns")) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		struct coverage cov;
		if (audit_coverage(ctx->db, name, &cov)) {
			rc = EXIT_FAILURE_RT;
			break;
		}
		for (int i = 0; i < cov.n; i++) {
			int row = table_add_row(&t);
			table_set_text(&t, row, 0, name);
			table_set_text(&t, row, 1, cov.rows[i].glob);
			table_set_int(&t, row, 2, cov.rows[i].valid_alone);
			table_set_int(&t, row, 3, cov.rows[i].attempts);
			table_set_split(&t, row, 4, cov.rows[i].vars_tested, ","); /* [] for none */
		}
		coverage_release(&cov);
	}
	sqlite3_finalize(st);
	if (step == DB_ERROR)
		rc = EXIT_FAILURE_RT;
	if (rc == EXIT_OK)
		table_render(&t, ctx->fmt, stdout);
	table_release(&t);
	return rc;
}

/* Drop the findings whose kind was not asked for. */
static void keep_kinds(struct finding_list *fl, const int *kinds)
{
	struct finding_list kept = FINDING_LIST_INIT, drop = FINDING_LIST_INIT;
	for (int i = 0; i < fl->n; i++) {
		struct finding_list *to = kinds[fl->v[i].kind] ? &kept : &drop;
		if (to->n == to->cap) {
			to->cap = to->cap ? 2 * to->cap : 16;
			to->v = xrealloc(to->v, (size_t)to->cap * sizeof(*to->v));
		}
		to->v[to->n++] = fl->v[i];
	}
	free(fl->v);
	finding_list_release(&drop);
	*fl = kept;
}

/* 1 when some campaign is declared, 0 when none, DB_ERROR (reported). */
static int any_campaign(struct ledger_ctx *ctx)
{
	sqlite3_stmt *st = db_prepare(ctx->db, "SELECT 1 FROM campaigns LIMIT 1");
	int rc = db_step(st, "list the campaigns");
	sqlite3_finalize(st);
	return rc == DB_ERROR ? rc : rc == SQLITE_ROW;
}

/* An unknown --campaign is a usage error, like an unknown run reference:
 * 1 declared, 0 not (said), DB_ERROR (reported). */
static int campaign_declared(struct ledger_ctx *ctx, const char *name)
{
	sqlite3_stmt *st = db_prepare(ctx->db, "SELECT 1 FROM campaigns WHERE name = ?");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	int rc = db_step(st, "read the campaign");
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		rl_error("audit: no campaign '%s' is declared", name);
		rl_hint("list campaigns with 'ledger campaign list', declare one with 'ledger campaign add FILE'");
	}
	return rc == DB_ERROR ? rc : rc == SQLITE_ROW;
}

int cmd_audit(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct audit_args a = { .opts = AUDIT_OPTS_INIT };
	if (parse_args(argc, argv, &a))
		return EXIT_USAGE;
	int declared = a.campaign ? campaign_declared(ctx, a.campaign) : 1;
	if (declared != 1)
		return declared == DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
	if (a.coverage)
		return run_coverage(ctx, a.campaign);

	struct finding_list fl = FINDING_LIST_INIT;
	int rc = a.campaign ? audit_campaign(ctx->db, a.campaign, &a.opts, NULL, &fl)
			    : audit_all(ctx->db, &a.opts, &fl);
	/* -1: a declaration or baseline the user must fix (for one campaign a
	 * usage error; among all, the others are still shown: partial); -2:
	 * the database */
	if (rc == -2 || (rc == -1 && a.campaign)) {
		finding_list_release(&fl);
		return rc == -1 ? EXIT_USAGE : EXIT_FAILURE_RT;
	}
	if (a.any_kind)
		keep_kinds(&fl, a.kinds);
	int some = !a.campaign && !fl.n ? any_campaign(ctx) : 1;
	if (some == DB_ERROR) {
		finding_list_release(&fl);
		return EXIT_FAILURE_RT;
	}
	if (!some)
		rl_hint("no campaign is declared, so there is nothing to audit; see 'ledger campaign --help'");
	if (ctx->fmt == FMT_JSON)
		render_json(&fl);
	else if (ctx->fmt == FMT_TABLE)
		render_text(&fl);
	else
		render_table(&fl, ctx->fmt);
	rc = rc || finding_list_warnings(&fl) ? EXIT_FINDINGS : EXIT_OK;
	finding_list_release(&fl);
	return rc;
}
