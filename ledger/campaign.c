/* campaign.c — campaign declarations: JSON in, struct campaign out, stored
 * in the campaigns table; see campaign.h. Judges no runs and prints nothing
 * but error messages. */
#include <jansson.h>
#include "campaign.h"
#include "db.h"
#include "filter.h"
#include "hw.h"
#include "runrec.h"
#include "util.h"
#include "varreg.h"

static const char *const known_keys[] = {
	"name", "metric", "direction", "hardware", "baseline", "search_space",
	"bundles", "record_budget", "noise_default", "description", NULL
};

/* The spelling of "use the first valid run" that the spec accepts. */
#define FIRST_VALID "first valid run"

/* A variable glob: dotted names of letters, digits, '_', '-', with '*'/'?'. */
static int glob_ok(const char *g)
{
	if (!*g)
		return 0;
	for (const char *p = g; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-*?", *p))
			return 0;
	return 1;
}

/* A JSON array of globs into a NULL-terminated list; NULL on error. */
/* A search space may name a variable as people do (MATRIX_LR, "matrix
 * LR"): a name without wildcards the registry knows is its key, so the
 * campaign matches the changes the ledger records. Globs and keys stay. */
static const char *resolved_glob(const char *g)
{
	if (strpbrk(g, "*?"))
		return g;
	const char *key = varreg_resolve(g, NULL);
	return key ? key : g;
}

static char **glob_list(const json_t *arr, const char *field, sb *err)
{
	if (!json_is_array(arr) || json_array_size(arr) == 0) {
		field_problem(err, field, "expected a non-empty list of variable globs such as [\"impl.*\"]");
		return NULL;
	}
	size_t n = json_array_size(arr);
	char **v = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		const char *g = json_string_value(json_array_get(arr, i));
		if (!g || !glob_ok(g)) {
			field_problem(err, field, "item %zu is not a variable glob (letters, digits, '.', '_', '-', '*', '?')", i + 1);
			for (size_t j = 0; j < i; j++)
				free(v[j]);
			free(v);
			return NULL;
		}
		v[i] = xstrdup(resolved_glob(g));
	}
	return v;
}

static int is_known_key(const char *key)
{
	for (const char *const *k = known_keys; *k; k++)
		if (!strcmp(*k, key))
			return 1;
	return 0;
}

static int count(char **list)
{
	int n = 0;
	while (list && list[n])
		n++;
	return n;
}

static void parse_strings(const json_t *o, struct campaign *c, sb *err)
{
	const json_t *v;
	if (!json_is_string(v = json_object_get(o, "name")) || !*json_string_value(v))
		field_problem(err, "name", "required: a non-empty string");
	else
		c->name = xstrdup(json_string_value(v));

	v = json_object_get(o, "metric");
	if (v && (!json_is_string(v) || !*json_string_value(v)))
		field_problem(err, "metric", "expected a metric name such as \"val_bpb\"");
	c->metric = xstrdup(v && json_is_string(v) && *json_string_value(v) ? json_string_value(v) : "val_bpb");
	if (metric_name_check(c->metric))
		field_problem(err, "metric", "'%s' is not a metric name (letters, digits, '_', '.', '-')", c->metric);

	v = json_object_get(o, "direction");
	const char *d = v ? json_string_value(v) : "min";
	if (!d || (strcmp(d, "min") && strcmp(d, "max")))
		field_problem(err, "direction", "expected \"min\" or \"max\"");
	else
		c->maximize = !strcmp(d, "max");

	v = json_object_get(o, "hardware");
	if (v && !json_is_null(v)) {
		char buf[128];
		if (!json_is_string(v) || !*json_string_value(v))
			field_problem(err, "hardware", "expected a GPU name or class such as \"RTX 3090\"");
		else
			c->hardware = xstrdup(hw_class(json_string_value(v), buf, sizeof(buf)));
	}

	v = json_object_get(o, "description");
	if (v && !json_is_null(v)) {
		if (!json_is_string(v))
			field_problem(err, "description", "expected a string");
		else
			c->description = xstrdup(json_string_value(v));
	}

	v = json_object_get(o, "baseline");
	if (v && !json_is_null(v)) {
		const char *b = json_string_value(v);
		if (!b || !*b)
			field_problem(err, "baseline", "expected a run reference or \"" FIRST_VALID "\"");
		else if (!str_ieq(b, FIRST_VALID))
			c->baseline = xstrdup(b);
	}
}

static void parse_lists(const json_t *o, struct campaign *c, sb *err)
{
	const json_t *v = json_object_get(o, "search_space");
	if (!v)
		field_problem(err, "search_space", "required: a list of variable globs such as [\"impl.*\"]");
	else if ((c->search_space = glob_list(v, "search_space", err)))
		c->nsearch = count(c->search_space);

	v = json_object_get(o, "bundles");
	if (!v || json_is_null(v))
		return;
	if (!json_is_array(v)) {
		field_problem(err, "bundles", "expected a list of lists of variable globs");
		return;
	}
	c->bundles = xcalloc(json_array_size(v) + 1, sizeof(char **));
	for (size_t i = 0; i < json_array_size(v); i++) {
		char field[32];
		snprintf(field, sizeof(field), "bundles[%zu]", i);
		char **b = glob_list(json_array_get(v, i), field, err);
		if (!b)
			return;
		c->bundles[c->nbundles++] = b;
	}
}

static void parse_numbers(const json_t *o, struct campaign *c, sb *err)
{
	const json_t *v = json_object_get(o, "record_budget");
	if (v && !json_is_null(v)) {
		if (!json_is_integer(v) || json_integer_value(v) < 1)
			field_problem(err, "record_budget", "expected a positive whole number of records");
		else
			c->record_budget = (long)json_integer_value(v);
	}
	v = json_object_get(o, "noise_default");
	if (v && !json_is_null(v)) {
		if (!json_is_number(v) || json_number_value(v) <= 0)
			field_problem(err, "noise_default", "expected a positive number (metric units)");
		else
			c->noise_default = json_number_value(v);
	}
}

int campaign_parse(const char *text, size_t len, struct campaign *out, sb *err)
{
	json_error_t je;
	memset(out, 0, sizeof(*out));
	out->noise_default = NAN;
	size_t err_len = err->len;
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!o) {
		sb_addf(err, "line %d: invalid JSON: %s", je.line, je.text);
		return -1;
	}
	if (!json_is_object(o)) {
		sb_adds(err, "expected a JSON object");
		json_decref(o);
		return -1;
	}
	const char *key;
	json_t *val;
	json_object_foreach(o, key, val) {
		if (!is_known_key(key))
			field_problem(err, key, "unknown field (known: name, metric, direction, hardware, baseline, "
				"search_space, bundles, record_budget, noise_default, description)");
	}
	parse_strings(o, out, err);
	parse_lists(o, out, err);
	parse_numbers(o, out, err);
	json_decref(o);
	return err->len > err_len ? -1 : 0;
}

static void free_list(char **list)
{
	for (int i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

void campaign_release(struct campaign *c)
{
	free(c->name);
	free(c->metric);
	free(c->hardware);
	free(c->baseline);
	free(c->description);
	free_list(c->search_space);
	for (int i = 0; i < c->nbundles; i++)
		free_list(c->bundles[i]);
	free(c->bundles);
	memset(c, 0, sizeof(*c));
	c->noise_default = NAN;
}

static json_t *json_list(char **list)
{
	json_t *a = json_array();
	for (int i = 0; list && list[i]; i++)
		json_array_append_new(a, json_string(list[i]));
	return a;
}

char *campaign_to_json(const struct campaign *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(c->name));
	json_object_set_new(o, "metric", json_string(c->metric));
	json_object_set_new(o, "direction", json_string(c->maximize ? "max" : "min"));
	json_object_set_new(o, "hardware", c->hardware ? json_string(c->hardware) : json_null());
	json_object_set_new(o, "baseline", json_string(c->baseline ? c->baseline : FIRST_VALID));
	json_object_set_new(o, "search_space", json_list(c->search_space));
	json_t *b = json_array();
	for (int i = 0; i < c->nbundles; i++)
		json_array_append_new(b, json_list(c->bundles[i]));
	json_object_set_new(o, "bundles", b);
	json_object_set_new(o, "record_budget", c->record_budget ? json_integer(c->record_budget) : json_null());
	json_object_set_new(o, "noise_default", isnan(c->noise_default) ? json_null() : json_real(c->noise_default));
	if (c->description)
		json_object_set_new(o, "description", json_string(c->description));
	char *s = json_dumps(o, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(o);
	if (!s)
		die("out of memory writing campaign JSON");
	return s;
}

int campaign_store(sqlite3 *db, const struct campaign *c)
{
	/* a transaction of its own, as every write: on a PostgreSQL ledger's
	 * replica that is what goes to the server (db.h db_begin_write) */
	if (db_begin_write(db))
		return -1;
	char *spec = campaign_to_json(c);
	sqlite3_stmt *st = db_prepare(db, "INSERT OR REPLACE INTO campaigns(name, spec) VALUES(?, ?)");
	db_bind_text(st, 1, c->name);
	db_bind_text(st, 2, spec);
	int rc = db_step(st, "store the campaign");
	sqlite3_finalize(st);
	free(spec);
	if (rc != SQLITE_DONE || db_commit(db)) {
		db_rollback(db);
		return -1;
	}
	return 0;
}

int campaign_load(sqlite3 *db, const char *name, struct campaign *out, int quiet)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT spec FROM campaigns WHERE name = ?");
	db_bind_text(st, 1, name);
	int rc = -1;
	memset(out, 0, sizeof(*out));
	out->noise_default = NAN;
	int step = db_step(st, "read the campaign");
	if (step == DB_ERROR) {
		rc = CAMPAIGN_DB_ERROR;
	} else if (step == SQLITE_ROW) {
		const char *spec = (const char *)sqlite3_column_text(st, 0);
		sb err = SB_INIT;
		rc = 0;
		if (campaign_parse(spec, strlen(spec), out, &err)) {
			rl_error("campaign '%s': stored declaration no longer parses: %s", name, err.buf);
			rl_hint("declare it again with 'ledger campaign add FILE'");
			campaign_release(out);
			rc = -2;
		}
		sb_release(&err);
	} else if (!quiet) {
		rl_error("no campaign '%s' is declared", name);
		rl_hint("list campaigns with 'ledger campaign list', declare one with 'ledger campaign add FILE'");
	}
	sqlite3_finalize(st);
	return rc;
}

int campaign_in_scope(const struct campaign *c, const char *var)
{
	for (int i = 0; i < c->nsearch; i++)
		if (glob_match(c->search_space[i], var))
			return 1;
	return 0;
}

static int in_list(char **globs, const char *var)
{
	for (int i = 0; globs[i]; i++)
		if (glob_match(globs[i], var))
			return 1;
	return 0;
}

int campaign_in_bundle(const struct campaign *c, char *const *vars, int n)
{
	for (int b = 0; b < c->nbundles; b++) {
		int all = 1;
		for (int i = 0; i < n && all; i++)
			all = in_list(c->bundles[b], vars[i]);
		if (all)
			return 1;
	}
	return 0;
}
