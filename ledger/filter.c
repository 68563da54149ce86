/* filter.c — run filters to a parameterised WHERE fragment; see filter.h.
 * Option values only ever reach SQLite through sql_args (bound parameters);
 * the SQL text built here is made of fixed pieces and the caller's alias. */
#include "db.h"
#include "filter.h"
#include "runrec.h"
#include "util.h"

const char run_filter_usage[] =
	"Filters (all that are given must hold):\n"
	"  --agent NAME         runs by this agent\n"
	"  --campaign NAME      runs of this campaign\n"
	"  --hardware HW        hardware class (H100, RTX 3090; any case), else a\n"
	"                       substring of the GPU name\n"
	"  --tier TIER          VRAM tier: small, medium, large, xl\n"
	"  --status S[,S…]      ok, crash, oom, nan, timeout, killed, invalid, running,\n"
	"                       lost (running past its budget + grace: no final record)\n"
	"  --since DATE         finished at or after DATE (ISO-8601, UTC)\n"
	"  --until DATE         finished before the end of DATE (a bare day counts\n"
	"                       whole), or at or before DATE[THH:MM[:SS]]\n"
	"  --changed VAR        changed VAR against its parent (glob: 'impl.*');\n"
	"                       repeatable, all must match\n"
	"  --where 'M OP V'     metric M compared with number V; OP is one of\n"
	"                       < <= > >= = != (repeatable)\n";

/* ---- bound parameters ---------------------------------------------------- */

static struct sql_arg *push(struct sql_args *a, int type)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = xrealloc(a->v, (size_t)a->cap * sizeof(*a->v));
	}
	struct sql_arg *x = &a->v[a->n++];
	memset(x, 0, sizeof(*x));
	x->type = type;
	return x;
}

void sql_args_text(struct sql_args *a, const char *s)
{
	push(a, SQLITE_TEXT)->text = xstrdup(s);
}

void sql_args_double(struct sql_args *a, double v)
{
	push(a, SQLITE_FLOAT)->num = v;
}

void sql_args_int(struct sql_args *a, sqlite3_int64 v)
{
	push(a, SQLITE_INTEGER)->i = v;
}

int sql_args_bind(const struct sql_args *a, sqlite3_stmt *st, int first)
{
	for (int k = 0; k < a->n; k++, first++) {
		const struct sql_arg *x = &a->v[k];
		if (x->type == SQLITE_TEXT)
			sqlite3_bind_text(st, first, x->text, -1, SQLITE_TRANSIENT);
		else if (x->type == SQLITE_FLOAT)
			sqlite3_bind_double(st, first, x->num);
		else
			sqlite3_bind_int64(st, first, x->i);
	}
	return first;
}

void sql_args_release(struct sql_args *a)
{
	for (int k = 0; k < a->n; k++)
		free(a->v[k].text);
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

/* ---- the filter ---------------------------------------------------------- */

void run_filter_init(struct run_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->since = f->until = NAN;
}

static void free_list(char **v, int n)
{
	for (int k = 0; k < n; k++)
		free(v[k]);
	free(v);
}

void run_filter_release(struct run_filter *f)
{
	free(f->agent);
	free(f->campaign);
	free(f->tier);
	free(f->hardware);
	free_list(f->status, f->nstatus);
	free_list(f->changed, f->nchanged);
	for (int k = 0; k < f->nwhere; k++)
		free(f->where[k].metric);
	free(f->where);
	run_filter_init(f);
}

int metric_name_check(const char *name)
{
	if (!*name)
		return -1;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			return -1;
	return 0;
}

int metric_precision(const char *metric)
{
	return !metric || !strcmp(metric, "val_bpb") ? 6 : -1;
}

static void set_string(char **slot, const char *v)
{
	free(*slot);
	*slot = xstrdup(v);
}

static void add_to_list(char ***list, int *n, const char *v)
{
	*list = xrealloc(*list, (size_t)(*n + 1) * sizeof(char *));
	(*list)[(*n)++] = xstrdup(v);
}

static int set_tier(struct run_filter *f, const char *cmd, const char *v)
{
	static const char *const tiers[] = { "small", "medium", "large", "xl", NULL };
	if (!runrec_in_list(tiers, v)) {
		rl_error("%s: --tier '%s' is not a VRAM tier", cmd, v);
		rl_hint("use one of small (<=16 GB), medium (<=24), large (<=48), xl");
		return -1;
	}
	set_string(&f->tier, v);
	return 0;
}

/* "crash,oom" → two statuses, each checked against runrec/1. */
static int add_statuses(struct run_filter *f, const char *cmd, const char *v)
{
	char *copy = xstrdup(v), *save = NULL;
	int rc = 0;
	for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (!runrec_in_list(runrec_statuses, s) && strcmp(s, "lost")) {
			rl_error("%s: --status '%s' is not a run status", cmd, s);
			rl_hint("use ok, crash, oom, nan, timeout, killed or invalid (comma-separated)");
			rc = -1;
			break;
		}
		add_to_list(&f->status, &f->nstatus, s);
	}
	free(copy);
	if (!rc && !f->nstatus) {
		rl_error("%s: --status needs at least one status", cmd);
		rc = -1;
	}
	return rc;
}

/* --until is kept as an exclusive bound so one comparison ("<") serves
 * both forms: a bare day means the whole day, a time of day is inclusive. */
static int set_time(struct run_filter *f, const char *cmd, const char *opt, const char *v)
{
	double t;
	if (parse_iso_utc(v, &t)) {
		rl_error("%s: %s '%s' is not an ISO-8601 date", cmd, opt, v);
		rl_hint("write 2026-03-16 or 2026-03-16T04:00:00Z (times are UTC)");
		return -1;
	}
	if (!strcmp(opt, "--since"))
		f->since = t;
	else if (strlen(v) == 10)   /* bare YYYY-MM-DD: up to the next midnight */
		f->until = t + 86400;
	else                        /* inclusive: the smallest double above t */
		f->until = nextafter(t, INFINITY);
	return 0;
}

/* Copy of s[0..n) without surrounding white space. */
static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* Parse "val_bpb<1.2", "mfu_percent >= 40": name, operator, number. The
 * operator is matched against a fixed list, longest first. */
static int add_where(struct run_filter *f, const char *cmd, const char *v)
{
	static const char *const ops[] = { "<=", ">=", "!=", "<", ">", "=", NULL };
	size_t at = strcspn(v, "<>=!");
	const char *op = NULL;
	for (int k = 0; ops[k] && !op; k++)
		if (str_starts_with(v + at, ops[k]))
			op = ops[k];
	char *name = trim_dup(v, at);
	char *num = op ? trim_dup(v + at + strlen(op), strlen(v + at + strlen(op))) : NULL;
	double x = 0;
	int rc = -1;
	if (!op)
		rl_error("%s: --where '%s' has no operator", cmd, v);
	else if (metric_name_check(name))
		rl_error("%s: --where '%s': '%s' is not a metric name", cmd, v, name);
	else if (parse_double(num, &x) || !isfinite(x))
		rl_error("%s: --where '%s': '%s' is not a number", cmd, v, num);
	else
		rc = 0;
	if (rc) {
		rl_hint("write METRIC OP NUMBER, e.g. --where 'val_bpb<1.0' (OP: < <= > >= = !=)");
		free(name);
	} else {
		f->where = xrealloc(f->where, (size_t)(f->nwhere + 1) * sizeof(*f->where));
		struct where_cond *w = &f->where[f->nwhere++];
		w->metric = name; /* owned by the filter now */
		snprintf(w->op, sizeof(w->op), "%s", op);
		w->value = x;
	}
	free(num);
	return rc;
}

int run_filter_apply(struct run_filter *f, const char *cmd, const char *opt, const char *v)
{
	if (!strcmp(opt, "--agent"))
		set_string(&f->agent, v);
	else if (!strcmp(opt, "--campaign"))
		set_string(&f->campaign, v);
	else if (!strcmp(opt, "--hardware"))
		set_string(&f->hardware, v);
	else if (!strcmp(opt, "--tier"))
		return set_tier(f, cmd, v);
	else if (!strcmp(opt, "--status"))
		return add_statuses(f, cmd, v);
	else if (!strcmp(opt, "--since") || !strcmp(opt, "--until"))
		return set_time(f, cmd, opt, v);
	else if (!strcmp(opt, "--changed"))
		add_to_list(&f->changed, &f->nchanged, v);
	else
		return add_where(f, cmd, v);
	return 0;
}

int option_value(const char *cmd, int argc, char **argv, int *i, const char *name,
		 const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) || (a[n] && a[n] != '='))
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (*i + 1 >= argc) {
		rl_error("%s: option '%s' needs a value", cmd, name);
		return -1;
	}
	*i += 1;
	*val = argv[*i];
	return 1;
}

int run_filter_option(struct run_filter *f, const char *cmd, int argc, char **argv, int *i)
{
	static const char *const opts[] = { "--agent", "--campaign", "--hardware", "--tier",
		"--status", "--since", "--until", "--changed", "--where", NULL };
	for (int k = 0; opts[k]; k++) {
		const char *v;
		int r = option_value(cmd, argc, argv, i, opts[k], &v);
		if (r)
			return r < 0 || run_filter_apply(f, cmd, opts[k], v) ? -1 : 1;
	}
	return 0;
}

/* ---- SQL ----------------------------------------------------------------- */

void run_metric_sql(const char *metric, const char *alias, sb *sql, struct sql_args *args)
{
	if (!metric || !strcmp(metric, "val_bpb")) {
		sb_addf(sql, "%s.val_bpb", alias);
		return;
	}
	/* Quoted path member, so dotted metric names are one key. The name is
	 * checked by metric_name_check (no quotes), and bound, not pasted. */
	sb path = SB_INIT;
	sb_addf(&path, "$.metrics.\"%s\"", metric);
	sb_addf(sql, "json_extract(%s.record, ?)", alias);
	sql_args_text(args, path.buf);
	sb_release(&path);
}

static void eq_text(sb *sql, struct sql_args *args, const char *alias, const char *col, const char *v)
{
	sb_addf(sql, " AND %s.%s = ?", alias, col);
	sql_args_text(args, v);
}

/* A known class wins over a substring, so "A10" does not also pick A100s:
 * the substring test applies only when no run has that class. */
static void hardware_sql(sb *sql, struct sql_args *args, const char *alias, const char *hw)
{
	sb_addf(sql, " AND (%s.hw_class = ? COLLATE NOCASE OR (NOT EXISTS"
		" (SELECT 1 FROM runs WHERE hw_class = ? COLLATE NOCASE)"
		" AND instr(lower(%s.gpu_name), lower(?)) > 0))", alias, alias);
	sql_args_text(args, hw);
	sql_args_text(args, hw);
	sql_args_text(args, hw);
}

static void status_sql(sb *sql, struct sql_args *args, const char *alias, const struct run_filter *f)
{
	sb_adds(sql, " AND ");
	db_run_status(sql, alias); /* lost is the status a run shows, not a stored one */
	sb_adds(sql, " IN (");
	for (int k = 0; k < f->nstatus; k++) {
		sb_adds(sql, k ? ", ?" : "?");
		sql_args_text(args, f->status[k]);
	}
	sb_adds(sql, ")");
}

static void where_sql(sb *sql, struct sql_args *args, const char *alias, const struct where_cond *w)
{
	sb_adds(sql, " AND ");
	run_metric_sql(w->metric, alias, sql, args);
	/* the operator comes from a fixed list, never from the user's text */
	sb_addf(sql, " %s ?", w->op);
	sql_args_double(args, w->value);
}

void run_filter_sql(const struct run_filter *f, const char *alias, sb *sql, struct sql_args *args)
{
	if (f->agent)
		eq_text(sql, args, alias, "agent", f->agent);
	if (f->campaign)
		eq_text(sql, args, alias, "campaign", f->campaign);
	if (f->tier)
		eq_text(sql, args, alias, "vram_tier", f->tier);
	if (f->hardware)
		hardware_sql(sql, args, alias, f->hardware);
	if (f->nstatus)
		status_sql(sql, args, alias, f);
	if (!isnan(f->since)) {
		sb_addf(sql, " AND %s.t_finished >= ?", alias);
		sql_args_double(args, f->since);
	}
	if (!isnan(f->until)) {
		sb_addf(sql, " AND %s.t_finished < ?", alias);
		sql_args_double(args, f->until);
	}
	for (int k = 0; k < f->nchanged; k++) {
		sb_addf(sql, " AND EXISTS (SELECT 1 FROM changes c WHERE c.run = %s.id"
			" AND c.var GLOB ?)", alias);
		sql_args_text(args, f->changed[k]);
	}
	for (int k = 0; k < f->nwhere; k++)
		where_sql(sql, args, alias, &f->where[k]);
}
