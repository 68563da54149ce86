/* filter.c — run filters to a parameterised WHERE fragment; see filter.h.
 * Option values only ever reach SQLite through sql_args (bound parameters);
 * the SQL text built here is made of fixed pieces and the caller's alias. */
#include "db.h"
#include "filter.h"
#include "metrics.h"
#include "runrec.h"
#include "where.h"
#include "util.h"

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
	free_list(f->agent.v, f->agent.n);
	free_list(f->campaign.v, f->campaign.n);
	free_list(f->tier.v, f->tier.n);
	free_list(f->hardware.v, f->hardware.n);
	free_list(f->status, f->nstatus);
	free_list(f->changed, f->nchanged);
	for (int k = 0; k < f->nwhere; k++)
		where_cond_release(&f->where[k]);
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

static void add_to_list(char ***list, int *n, const char *v)
{
	*list = xrealloc(*list, (size_t)(*n + 1) * sizeof(char *));
	(*list)[(*n)++] = xstrdup(v);
}

/* Copy of s[0..n) without surrounding white space. */
char *filter_trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

static int is_tier(const char *v)
{
	static const char *const tiers[] = { "small", "medium", "large", "xl", NULL };
	return runrec_in_list(tiers, v);
}

static int is_status(const char *v)
{
	return runrec_in_list(runrec_statuses, v) || !strcmp(v, "lost");
}

/* Check one item of a list option; 0 when fine, else -1 (message printed). */
static int check_item(const char *cmd, const char *opt, const char *item)
{
	if (!strcmp(opt, "--tier") && !is_tier(item)) {
		rl_error("%s: --tier '%s' is not a VRAM tier", cmd, item);
		rl_hint("use one of small (<=16 GB), medium (<=24), large (<=48), xl");
		return -1;
	}
	if (!strcmp(opt, "--status") && !is_status(item)) {
		rl_error("%s: --status '%s' is not a run status", cmd, item);
		rl_hint("use ok, crash, oom, nan, timeout, killed or invalid (comma-separated)");
		return -1;
	}
	return 0;
}

/* "forge, titan" → two names, appended: a list and a repeated option both
 * mean "any of these". Items are trimmed; an empty one is an error (a
 * stray comma is more likely a mistake than a name). */
static int add_items(char ***list, int *n, const char *cmd, const char *opt, const char *v)
{
	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ",");
		char *item = filter_trim_dup(p, len);
		int rc = 0;
		if (!*item) {
			rl_error("%s: %s '%s': an empty name in the list", cmd, opt, v);
			rl_hint("separate names with one comma: %s forge,titan", opt);
			rc = -1;
		} else {
			rc = check_item(cmd, opt, item);
		}
		if (!rc)
			add_to_list(list, n, item);
		free(item);
		if (rc)
			return -1;
		p += len;
		if (!*p)
			return 0;
	}
}

/* ---- dates --------------------------------------------------------------- */

static double day_start(double t)
{
	return floor(t / 86400) * 86400;
}

/* "2026-03" or "2026": the month or year, [start, end). */
static int parse_month_or_year(const char *s, double *from, double *to)
{
	int y, m = 0, n = 0;
	char buf[48];
	size_t len = strlen(s);
	if (len == 7 && sscanf(s, "%4d-%2d%n", &y, &m, &n) == 2 && n == 7 && isdigit((unsigned char)s[5])) {
		if (m < 1 || m > 12)
			return -1;
		snprintf(buf, sizeof(buf), "%04d-%02d-01", y, m);
		if (parse_iso_utc(buf, from))
			return -1;
		snprintf(buf, sizeof(buf), "%04d-%02d-01", m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1);
		return parse_iso_utc(buf, to);
	}
	long year;
	if (len == 4 && strspn(s, "0123456789") == 4 && !parse_long(s, &year)) {
		snprintf(buf, sizeof(buf), "%04ld-01-01", year);
		if (parse_iso_utc(buf, from))
			return -1;
		snprintf(buf, sizeof(buf), "%04ld-01-01", year + 1);
		return parse_iso_utc(buf, to);
	}
	return -1;
}

/* "-3d", "-12h", "-2w", "-30m": that long before now. Whole numbers only,
 * up to 10^6 units (a typo of many digits is refused, not a date in 1970). */
static int parse_ago(const char *s, double now, double *t)
{
	static const struct { char unit; double seconds; } units[] = {
		{ 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 7 * 86400 },
	};
	size_t digits = s[0] == '-' ? strspn(s + 1, "0123456789") : 0;
	if (!digits || digits > 7 || !s[1 + digits] || s[2 + digits])
		return -1;
	char number[8];
	long n;
	snprintf(number, sizeof(number), "%.*s", (int)digits, s + 1);
	if (parse_long(number, &n) || n > 1000000)
		return -1;
	for (size_t k = 0; k < ARRAY_SIZE(units); k++)
		if (s[1 + digits] == units[k].unit) {
			*t = now - (double)n * units[k].seconds;
			return 0;
		}
	return -1;
}

/* 1 when s starts with a day of the calendar: parse_iso_utc takes any day
 * up to 31 (2026-02-30 as March 2nd), a typed date must name a real one. */
static int calendar_day(const char *s)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, d;
	if (sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 || m > 12)
		return 0;
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return d >= 1 && d <= days[m - 1] + (m == 2 && leap);
}

int parse_user_date(const char *s, double now, double *from, double *to)
{
	double t;
	if (!strcmp(s, "today") || !strcmp(s, "yesterday")) {
		*from = day_start(now) - (s[0] == 'y' ? 86400 : 0);
		*to = *from + 86400;
		return 0;
	}
	if (!parse_month_or_year(s, from, to))
		return 0;
	if (!strcmp(s, "now"))
		t = now;
	else if (parse_ago(s, now, &t) && (!calendar_day(s) || parse_iso_utc(s, &t)))
		return -1;
	else if (s[0] != '-' && strlen(s) == 10) { /* a bare day: the whole day */
		*from = t;
		*to = t + 86400;
		return 0;
	}
	*from = t;
	*to = nextafter(t, INFINITY); /* an instant: --until includes it */
	return 0;
}

int parse_user_moment(const char *s, double now, double *t, int *is_day)
{
	double from, to;
	if (parse_user_date(s, now, &from, &to))
		return -1;
	if (to - from > 86400)
		return 1; /* a month or a year */
	*t = from;
	*is_day = to - from == 86400;
	return 0;
}

/* Both bounds must hold, so a repeated --since keeps the later start and a
 * repeated --until the earlier end. */
static int set_time(struct run_filter *f, const char *cmd, const char *opt, const char *v)
{
	double from, to;
	if (parse_user_date(v, db_now(), &from, &to)) {
		rl_error("%s: %s '%s' is not a date", cmd, opt, v);
		rl_hint("write 2026-03-16, 2026-03-16T04:00:00Z, 2026-03 (a month), today, "
			"yesterday, now or -3d / -12h / -2w / -30m (before now); times are UTC");
		return -1;
	}
	if (!strcmp(opt, "--since"))
		f->since = isnan(f->since) ? from : fmax(f->since, from);
	else
		f->until = isnan(f->until) ? to : fmin(f->until, to);
	return 0;
}

/* ---- options ------------------------------------------------------------- */

int run_filter_take(struct run_filter *f, const char *cmd, const char *opt, const char *v)
{
	if (!strcmp(opt, "--agent"))
		return add_items(&f->agent.v, &f->agent.n, cmd, opt, v);
	if (!strcmp(opt, "--campaign"))
		return add_items(&f->campaign.v, &f->campaign.n, cmd, opt, v);
	if (!strcmp(opt, "--hardware"))
		return add_items(&f->hardware.v, &f->hardware.n, cmd, opt, v);
	if (!strcmp(opt, "--tier"))
		return add_items(&f->tier.v, &f->tier.n, cmd, opt, v);
	if (!strcmp(opt, "--status"))
		return add_items(&f->status, &f->nstatus, cmd, opt, v);
	if (!strcmp(opt, "--since") || !strcmp(opt, "--until"))
		return set_time(f, cmd, opt, v);
	if (!strcmp(opt, "--changed")) {
		add_to_list(&f->changed, &f->nchanged, v);
		return 0;
	}
	if (!strcmp(opt, "--where")) {
		f->where = xrealloc(f->where, (size_t)(f->nwhere + 1) * sizeof(*f->where));
		if (where_parse(&f->where[f->nwhere], cmd, v))
			return -1;
		f->nwhere++;
		return 0;
	}
	rl_error("%s: '%s' is not a filter option", cmd, opt); /* a caller's bug */
	return -1;
}

/* ---- SQL ----------------------------------------------------------------- */

void run_metric_sql(const char *metric, const char *alias, sb *sql, struct sql_args *args)
{
	if (!metric || !strcmp(metric, "val_bpb")) {
		sb_addf(sql, "%s.val_bpb", alias);
		return;
	}
	/* the metrics table (schema 4): one key lookup, not a parse of the
	 * record text per row; the name is bound, not pasted */
	metrics_value_sql(sql, alias);
	sql_args_text(args, metric);
}

/* " AND alias.col IN (?, …)" over a list's names. */
static void in_list(sb *sql, struct sql_args *args, const char *alias, const char *col,
		    const struct str_list *l)
{
	sb_addf(sql, " AND %s.%s IN (", alias, col);
	for (int k = 0; k < l->n; k++) {
		sb_adds(sql, k ? ", ?" : "?");
		sql_args_text(args, l->v[k]);
	}
	sb_adds(sql, ")");
}

/* A known class wins over a substring, so "A10" does not also pick A100s:
 * the substring test applies only when no run has that class. */
static void hardware_sql(sb *sql, struct sql_args *args, const char *alias, const char *hw)
{
	sb_addf(sql, "(%s.hw_class = ? COLLATE NOCASE OR (NOT EXISTS"
		" (SELECT 1 FROM runs WHERE hw_class = ? COLLATE NOCASE)"
		" AND instr(lower(%s.gpu_name), lower(?)) > 0))", alias, alias);
	sql_args_text(args, hw);
	sql_args_text(args, hw);
	sql_args_text(args, hw);
}

static void hardware_list_sql(sb *sql, struct sql_args *args, const char *alias,
			      const struct str_list *l)
{
	sb_adds(sql, " AND (");
	for (int k = 0; k < l->n; k++) {
		if (k)
			sb_adds(sql, " OR ");
		hardware_sql(sql, args, alias, l->v[k]);
	}
	sb_adds(sql, ")");
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

void run_filter_sql(const struct run_filter *f, const char *alias, sb *sql, struct sql_args *args)
{
	if (f->agent.n)
		in_list(sql, args, alias, "agent", &f->agent);
	if (f->campaign.n)
		in_list(sql, args, alias, "campaign", &f->campaign);
	if (f->tier.n)
		in_list(sql, args, alias, "vram_tier", &f->tier);
	if (f->hardware.n)
		hardware_list_sql(sql, args, alias, &f->hardware);
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
		where_sql(&f->where[k], alias, sql, args);
}
