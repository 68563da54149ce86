/* where.c — `--where 'KEY OP VALUE'` and the known-key check; see where.h.
 *
 * A key names where a value is read: a run field (a column of the runs
 * table), a metric (the val_bpb column, or the run's row NAME of the
 * metrics table: metrics.h) or a config variable (config."KEY" of the
 * record; for a run that did not record KEY, the new value of its change
 * of KEY, which ingest may have inferred from the description). The user's text reaches SQLite only as
 * bound parameters: keys and values go through sql_args, and the SQL text
 * is fixed pieces, the caller's alias and an operator from a fixed list. */
#include "db.h"
#include "suggest.h"
#include "varreg.h"
#include "where.h"
#include "util.h"

/* Metrics every format may record (docs/run-record.md#metrics): known
 * without asking the ledger. Others are known once some run records them. */
static const char *const common_metrics[] = {
	"val_bpb", "training_seconds", "total_seconds", "peak_vram_mb", "mfu_percent",
	"total_tokens_M", "num_params_M", "num_steps", "tokens_per_second",
};

/* Run fields, by the names `query` prints (hardware, tier) and the runs
 * table's own. col NULL: the status a run shows (lost is computed). */
static const struct column {
	const char *name, *col;
	int numeric;
} columns[] = {
	{ "run_id", "run_id", 0 }, { "parent", "parent", 0 }, { "campaign", "campaign", 0 },
	{ "agent", "agent", 0 }, { "description", "description", 0 }, { "status", NULL, 0 },
	{ "decision", "decision", 0 }, { "started_at", "started_at", 0 },
	{ "finished_at", "finished_at", 0 }, { "hardware", "hw_class", 0 },
	{ "hw_class", "hw_class", 0 }, { "tier", "vram_tier", 0 }, { "vram_tier", "vram_tier", 0 },
	{ "gpu_name", "gpu_name", 0 }, { "gpu_count", "gpu_count", 1 },
	{ "gpu_mem_mb", "gpu_mem_mb", 1 }, { "code_commit", "code_commit", 0 },
	{ "code_dirty", "code_dirty", 1 }, { "data_name", "data_name", 0 },
	{ "data_sha256", "data_sha256", 0 }, { "source_format", "source_format", 0 },
	{ "source_file", "source_file", 0 },
};

/* Prefixes of config keys (docs/variables.md): a key with one of them is a
 * config variable even when the registry does not know it. */
static const char *const config_prefixes[] = {
	"model.", "optim.", "sched.", "train.", "impl.", "data.", "budget.", "desc.",
};

void where_cond_release(struct where_cond *w)
{
	free(w->written);
	free(w->key);
	free(w->text);
	memset(w, 0, sizeof(*w));
}

static int in_strings(const char *s, const char *const *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(s, v[k]))
			return 1;
	return 0;
}

static int has_config_prefix(const char *s)
{
	for (size_t k = 0; k < ARRAY_SIZE(config_prefixes); k++)
		if (str_starts_with(s, config_prefixes[k]))
			return 1;
	return 0;
}

static int find_column(const char *name)
{
	for (size_t k = 0; k < ARRAY_SIZE(columns); k++)
		if (!strcmp(name, columns[k].name))
			return (int)k;
	return -1;
}

static void set_config(struct where_cond *w, const char *name)
{
	const char *key = varreg_resolve(name, NULL);
	w->field = WHERE_CONFIG;
	w->key = xstrdup(key ? key : name);
	w->check = !key;
}

static void set_metric(struct where_cond *w, const char *name)
{
	w->field = WHERE_METRIC;
	w->key = xstrdup(name);
	w->check = !in_strings(name, common_metrics, ARRAY_SIZE(common_metrics));
}

/* Which value a key names, in this order: metrics.NAME, config.KEY, a run
 * field, a common metric, a registry key or alias (any case: "depth",
 * "MATRIX_LR"), a key with a config prefix, else a metric. 0, or -1 when
 * name cannot be a key (a character a key never has). */
static int resolve_key(struct where_cond *w, const char *name)
{
	int col;
	if (str_starts_with(name, "metrics."))
		set_metric(w, name + 8);
	else if (str_starts_with(name, "config."))
		set_config(w, name + 7);
	else if ((col = find_column(name)) >= 0) {
		w->field = WHERE_COLUMN;
		w->column = col;
		w->key = xstrdup(name);
	} else if (in_strings(name, common_metrics, ARRAY_SIZE(common_metrics)))
		set_metric(w, name);
	else if (varreg_resolve(name, NULL) || has_config_prefix(name))
		set_config(w, name);
	else
		set_metric(w, name);
	return metric_name_check(w->key);
}

/* The operator at the first operator character, longest first ("==" is
 * "="). NULL when there is none. */
static const char *find_op(const char *s, size_t *at, size_t *len)
{
	static const char *const ops[] = { "<=", ">=", "!=", "!~", "==", "<", ">", "=", "~", NULL };
	*at = strcspn(s, "<>=!~");
	for (int k = 0; ops[k]; k++)
		if (str_starts_with(s + *at, ops[k])) {
			*len = strlen(ops[k]);
			return strcmp(ops[k], "==") ? ops[k] : "=";
		}
	return NULL;
}

/* A value in double or single quotes is text, whatever it looks like. */
static char *unquote(char *v, int *quoted)
{
	size_t n = strlen(v);
	*quoted = n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0];
	if (*quoted) {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
	}
	return v;
}

/* How the key's values compare: 1 numbers, 0 text, -1 a type the value
 * does not fit (why in *why). Types come from the key: metrics and numeric
 * run fields and variables are numbers, booleans true or false, choices
 * and strings text; a variable the registry does not know is compared as
 * the value is written (a number unless quoted). */
static int value_kind(const struct where_cond *w, const char *v, int quoted, const char **why)
{
	double x;
	int number = !quoted && !parse_double(v, &x) && isfinite(x);
	const struct var_def *d = w->field == WHERE_CONFIG ? varreg_find(w->key) : NULL;
	int numeric_key = w->field == WHERE_METRIC ||
			  (w->field == WHERE_COLUMN && columns[w->column].numeric) ||
			  (d && (d->type == VAR_INT || d->type == VAR_NUMBER));
	*why = NULL;
	if (w->op[strlen(w->op) - 1] == '~') { /* a glob matches the value as text */
		if (w->field == WHERE_METRIC)
			*why = "a number, and '~' matches text";
		return *why ? -1 : 0;
	}
	if (d && d->type == VAR_BOOL) {
		if (strcmp(w->op, "=") && strcmp(w->op, "!="))
			*why = "true or false, compared with = or !=";
		else if (strcmp(v, "true") && strcmp(v, "false"))
			*why = "true or false";
		return *why ? -1 : 0;
	}
	if (numeric_key) {
		if (!number)
			*why = "is not a number";
		return *why ? -1 : 1;
	}
	if (w->field == WHERE_COLUMN || d) /* a text field, a choice or string variable */
		return 0;
	return number;
}

static void where_error(const char *cmd, const char *text, const struct where_cond *w,
			const char *v, const char *why)
{
	if (!strcmp(why, "is not a number")) {
		rl_error("%s: --where '%s': '%s' is not a number", cmd, text, v);
		rl_hint(w->field == WHERE_METRIC
				? "write METRIC OP NUMBER, e.g. --where 'val_bpb<1.0' (OP: < <= > >= = !=)"
				: "'%s' is a number: write e.g. --where '%s >= 2'", w->key, w->key);
	} else {
		rl_error("%s: --where '%s': '%s' is %s", cmd, text, w->key, why);
		rl_hint("write KEY OP VALUE, e.g. --where 'model.depth >= 12' or "
			"--where 'impl.attention = flash' (OP: < <= > >= = != ~ !~)");
	}
}

int where_parse(struct where_cond *w, const char *cmd, const char *text)
{
	memset(w, 0, sizeof(*w));
	size_t at, len = 0;
	const char *op = find_op(text, &at, &len);
	if (!op) {
		rl_error("%s: --where '%s' has no operator", cmd, text);
		rl_hint("write KEY OP VALUE, e.g. --where 'val_bpb<1.0' or --where 'model.depth = 12'"
			" (OP: < <= > >= = != ~ !~)");
		return -1;
	}
	snprintf(w->op, sizeof(w->op), "%s", op);
	char *name = filter_trim_dup(text, at);
	int quoted;
	char *v = unquote(filter_trim_dup(text + at + len, strlen(text + at + len)), &quoted);
	const char *why = NULL;
	int kind = -1;
	if (!*name || resolve_key(w, name)) {
		rl_error("%s: --where '%s': '%s' is not a key", cmd, text, name);
		rl_hint("a key is letters, digits, '_', '.' and '-': a variable (model.depth), a "
			"metric (val_bpb, metrics.NAME) or a run field (agent, status)");
	} else if (!*v && !quoted) {
		rl_error("%s: --where '%s': no value after '%s'", cmd, text, op);
		rl_hint("write KEY OP VALUE; quote an empty text: --where 'campaign = \"\"'");
	} else if ((kind = value_kind(w, v, quoted, &why)) < 0) {
		where_error(cmd, text, w, v, why);
	}
	free(name);
	if (kind < 0) {
		free(v);
		where_cond_release(w);
		return -1;
	}
	w->written = xstrdup(text);
	w->numeric = kind;
	if (kind)
		parse_double(v, &w->value);
	w->text = v;
	return 0;
}

/* ---- SQL ----------------------------------------------------------------- */

static void push_path(struct sql_args *args, const char *object, const char *key)
{
	sb path = SB_INIT;
	sb_addf(&path, "$.%s.\"%s\"", object, key); /* key: no quote (metric_name_check) */
	sql_args_text(args, path.buf);
	sb_release(&path);
}

/* The run's value of a config key: the record's, else its change's new value.
 * As a number through rl_number() (text that reads as one counts), or as
 * text. json_extract reads a JSON true as 1, so a comparison with the word
 * true or false asks json_type instead: a second look into the record, only
 * then (it costs as much as the first: 10^5 records, docs/ledger.md). NULL
 * when the run has neither. */
static void config_value_sql(const struct where_cond *w, const char *a, sb *sql, struct sql_args *args)
{
	const char *change = "(SELECT c.new FROM changes c WHERE c.run = %s.id AND c.var = ?)";
	int boolean = !w->numeric && (!strcmp(w->text, "true") || !strcmp(w->text, "false"));
	if (w->numeric)
		sb_addf(sql, "rl_number(coalesce(json_extract(%s.record, ?), ", a);
	else if (boolean)
		sb_addf(sql, "coalesce(CASE json_type(%s.record, ?) WHEN 'true' THEN 'true'"
			" WHEN 'false' THEN 'false' END, ", a);
	else
		sb_addf(sql, "coalesce(CAST(json_extract(%s.record, ?) AS TEXT), ", a);
	push_path(args, "config", w->key);
	sb_addf(sql, change, a);
	sb_adds(sql, w->numeric ? "))" : ")");
	sql_args_text(args, w->key);
}

static void column_value_sql(const struct where_cond *w, const char *a, sb *sql)
{
	const struct column *c = &columns[w->column];
	sb_adds(sql, w->numeric ? "rl_number(" : "CAST(");
	if (c->col)
		sb_addf(sql, "%s.%s", a, c->col);
	else
		db_run_status(sql, a);
	sb_adds(sql, w->numeric ? ")" : " AS TEXT)");
}

void where_sql(const struct where_cond *w, const char *alias, sb *sql, struct sql_args *args)
{
	sb_adds(sql, " AND ");
	if (w->field == WHERE_METRIC)
		run_metric_sql(w->key, alias, sql, args);
	else if (w->field == WHERE_CONFIG)
		config_value_sql(w, alias, sql, args);
	else
		column_value_sql(w, alias, sql);
	/* the operator comes from a fixed list, never from the user's text */
	if (!strcmp(w->op, "~") || !strcmp(w->op, "!~"))
		sb_adds(sql, w->op[0] == '!' ? " NOT GLOB ?" : " GLOB ?");
	else
		sb_addf(sql, " %s ?", w->op);
	if (w->numeric)
		sql_args_double(args, w->value);
	else
		sql_args_text(args, w->text);
}

/* ---- known keys ---------------------------------------------------------- */

/* 1 when the query (one bound text, ?1, and maybe a second, ?2) finds a row. */
static int ledger_has(sqlite3 *db, const char *sql, const char *p1, const char *p2, int *found)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	sqlite3_bind_text(st, 1, p1, -1, SQLITE_TRANSIENT);
	if (p2)
		sqlite3_bind_text(st, 2, p2, -1, SQLITE_TRANSIENT);
	int rc = db_step(st, "look up a filter's key");
	*found = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == DB_ERROR ? -1 : 0;
}

/* Some run records the key: in its config or as a change (config), or in
 * its metrics. -1 when the ledger cannot be read (reported). */
static int key_recorded(sqlite3 *db, const struct where_cond *w, int *found)
{
	sb path = SB_INIT;
	sb_addf(&path, "$.%s.\"%s\"", w->field == WHERE_CONFIG ? "config" : "metrics", w->key);
	int rc = w->field == WHERE_CONFIG
			 ? ledger_has(db, "SELECT 1 WHERE EXISTS (SELECT 1 FROM changes WHERE var = ?1)"
					  " OR EXISTS (SELECT 1 FROM runs WHERE json_type(record, ?2)"
					  " IS NOT NULL)", w->key, path.buf, found)
			 : ledger_has(db, "SELECT 1 FROM runs r WHERE EXISTS (SELECT 1 FROM metrics m"
					  " WHERE m.run = r.id AND m.name = ?1) LIMIT 1", w->key, NULL, found);
	sb_release(&path);
	return rc;
}

struct words {
	char **v;
	size_t n;
};

static void words_add(struct words *ws, const char *s)
{
	ws->v = xrealloc(ws->v, (ws->n + 1) * sizeof(char *));
	ws->v[ws->n++] = xstrdup(s);
}

static void words_release(struct words *ws)
{
	for (size_t k = 0; k < ws->n; k++)
		free(ws->v[k]);
	free(ws->v);
}

/* The words a key may have meant: the registry's keys, run fields, common
 * metrics, every variable with a change, and the config and metric keys
 * of the latest 1000 records (a full scan would cost more than a typo). */
static void known_words(sqlite3 *db, struct words *ws)
{
	for (size_t k = 0; k < varreg_count(); k++)
		words_add(ws, varreg_at(k)->key);
	for (size_t k = 0; k < ARRAY_SIZE(columns); k++)
		words_add(ws, columns[k].name);
	for (size_t k = 0; k < ARRAY_SIZE(common_metrics); k++)
		words_add(ws, common_metrics[k]);
	sqlite3_stmt *st = db_prepare(db,
		"SELECT DISTINCT var FROM changes UNION SELECT j.key FROM"
		" (SELECT record FROM runs ORDER BY id DESC LIMIT 1000) r,"
		" json_each(r.record, '$.config') j WHERE j.key IS NOT NULL UNION SELECT m.name FROM"
		" (SELECT id FROM runs ORDER BY id DESC LIMIT 1000) r JOIN metrics m ON m.run = r.id");
	while (db_step(st, "list the ledger's keys") == SQLITE_ROW)
		words_add(ws, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static void hint_closest(sqlite3 *db, const char *word, const char *otherwise)
{
	struct words ws = { NULL, 0 };
	known_words(db, &ws);
	const char *best = suggest_closest(word, (const char *const *)ws.v, ws.n);
	if (best)
		rl_hint("did you mean '%s'?", best);
	else
		rl_hint("%s", otherwise);
	words_release(&ws);
}

/* EXIT_OK, EXIT_USAGE (an unknown key, said) or EXIT_FAILURE_RT (the
 * ledger could not be read, said). */
static int check_where(const struct where_cond *w, sqlite3 *db, const char *cmd)
{
	int found = 0;
	if (!w->check)
		return EXIT_OK;
	if (key_recorded(db, w, &found))
		return EXIT_FAILURE_RT;
	if (found)
		return EXIT_OK;
	if (!w->written) /* a --metric */
		rl_error("%s: --metric '%s': unknown metric: not a common one, and no run records it",
			 cmd, w->key);
	else
		rl_error("%s: --where '%s': unknown key '%s': not a variable, metric or run field,"
			 " and no run records it", cmd, w->written, w->key);
	hint_closest(db, w->key, w->written ? "a key is a variable ('ledger variables' lists them),"
				 " a metric (val_bpb, metrics.NAME) or a run field (agent, status, hardware)"
				 : "'ledger show RUN' lists a run's metrics");
	return EXIT_USAGE;
}

static int has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* --changed PATTERN names a variable of the registry or of some change;
 * returns as check_where. */
static int check_changed(const char *pattern, sqlite3 *db, const char *cmd)
{
	for (size_t k = 0; k < varreg_count(); k++)
		if (!sqlite3_strglob(pattern, varreg_at(k)->key))
			return EXIT_OK;
	int found = 0;
	if (ledger_has(db, "SELECT 1 FROM changes WHERE var GLOB ?1 LIMIT 1", pattern, NULL, &found))
		return EXIT_FAILURE_RT;
	if (found)
		return EXIT_OK;
	if (has_glob(pattern)) {
		rl_error("%s: --changed '%s' matches no variable: none of the registry's, and no run"
			 " changed one", cmd, pattern);
		rl_hint("'ledger variables' lists the variables; 'impl.*' matches every impl. one");
		return EXIT_USAGE;
	}
	rl_error("%s: --changed '%s': unknown variable: not in the registry, and no run changed it",
		 cmd, pattern);
	hint_closest(db, pattern, "'ledger variables' lists the variables");
	return EXIT_USAGE;
}

int run_filter_check(const struct run_filter *f, sqlite3 *db, const char *cmd)
{
	int rc = EXIT_OK;
	for (int k = 0; k < f->nwhere && rc == EXIT_OK; k++)
		rc = check_where(&f->where[k], db, cmd);
	for (int k = 0; k < f->nchanged && rc == EXIT_OK; k++)
		rc = check_changed(f->changed[k], db, cmd);
	return rc;
}

int run_metric_check(const char *metric, sqlite3 *db, const char *cmd)
{
	if (!metric)
		return EXIT_OK;
	struct where_cond w;
	memset(&w, 0, sizeof(w));
	set_metric(&w, metric);
	int rc = check_where(&w, db, cmd);
	where_cond_release(&w);
	return rc;
}
