/* cmd_variables.c — `ledger variables`: the variable registry
 * (common/varreg.c) as a listing, so people and agents see the vocabulary
 * the ledger records changes in; `--alias NAME` resolves one name. Needs
 * no ledger file. */
#include <jansson.h>
#include "filter.h"
#include "ledger.h"
#include "suggest.h"
#include "utf8.h"
#include "varreg.h"
#include "suggest.h"
#include "util.h"

enum { O_KIND = 1, O_TRAINER, O_ALIAS };
static const struct opt variables_opts[] = {
	{ .name = "--kind", .id = O_KIND, .type = OPT_STRING, .value = "KIND", .choices = "math|impl|data|budget",
	  .help = "only variables of that kind", .bad = "is not math, impl, data or budget" },
	{ .name = "--trainer", .id = O_TRAINER, .help = "only variables of our trainer (trainer --list-variables)" },
	{ .name = "--alias", .id = O_ALIAS, .type = OPT_STRING, .value = "NAME",
	  .help = "the key NAME stands for, with the value it implies;\nexit 1 when it names no variable" },
};
static const struct opt_group variables_group = { NULL, NULL, variables_opts, ARRAY_SIZE(variables_opts) };

const struct opt_cmd cmd_variables_spec = {
	.name = "variables",
	.usage = "[--kind KIND] [--trainer]\n--alias NAME",
	.summary = "the variable vocabulary: keys, kinds, types, aliases (no ledger needed)",
	.about = "Every variable a change can name: key, kind (math, impl, data, budget),\n"
		 "type, choices (the values known for a choice), devices (the trainer's\n"
		 "device paths that implement it: cpu|cuda, or per value\n"
		 "naive=cpu|cuda;flash=cuda; empty when our trainer lacks it), constant\n"
		 "(autoresearch's train.py / prepare.py name), aliases (names people write,\n"
		 "normalised: lowercase, '_' '-' and spaces as one space) and help.\n"
		 "A name that is no variable's is recorded as desc.NAME.\n",
	.groups = { &variables_group },
};

struct opts {
	const char *alias;
	int kind;     /* enum var_kind, -1 = every kind */
	int trainer;
};

static int parse_kind(const char *s, int *out)
{
	for (int k = VAR_MATH; k <= VAR_BUDGET; k++)
		if (!strcmp(s, varreg_kind_name((enum var_kind)k))) {
			*out = k;
			return 0;
		}
	rl_error("variables: --kind '%s' is not math, impl, data or budget", s);
	return -1;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_variables_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("variables: unexpected argument '%s'", p.val);
			rl_hint("run 'ledger variables --help'");
			return -1;
		}
		if (r == O_ALIAS)
			o->alias = p.val;
		else if (r == O_KIND && parse_kind(p.val, &o->kind))
			return -1;
		else if (r == O_TRAINER)
			o->trainer = 1;
	}
	if (o->alias && (o->kind >= 0 || o->trainer)) {
		rl_error("variables: --alias resolves one name; it takes no --kind or --trainer");
		return -1;
	}
	return 0;
}

static int alias_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct var_alias *const *)a)->name,
		      (*(const struct var_alias *const *)b)->name);
}

/* The aliases of key, sorted: a JSON array of names, ", "-joined as text;
 * "flash attention (=flash)" for one that implies a value. */
static json_t *aliases_of(const char *key, sb *text)
{
	const struct var_alias **v = xcalloc(varreg_alias_count() + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < varreg_alias_count(); i++)
		if (!strcmp(varreg_alias_at(i)->key, key))
			v[n++] = varreg_alias_at(i);
	qsort(v, n, sizeof(*v), alias_cmp);
	json_t *list = json_array();
	sb one = SB_INIT;
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(v[i]->name, v[i - 1]->name))
			continue; /* the same name twice in the table */
		sb_reset(&one);
		sb_adds(&one, v[i]->name);
		if (v[i]->implied)
			sb_addf(&one, " (=%s)", v[i]->implied);
		sb_addf(text, "%s%s", text->len ? ", " : "", one.buf);
		json_array_append_new(list, json_string_lossy(one.buf, NULL));
	}
	sb_release(&one);
	free(v);
	return list;
}

static void list(const struct opts *o, enum out_format fmt)
{
	static const char *const names[] = { "key", "kind", "type", "choices", "devices",
					     "constant", "aliases", "help" };
	table t;
	sb al = SB_INIT;
	table_init(&t, (int)ARRAY_SIZE(names), names);
	for (size_t i = 0; i < varreg_count(); i++) {
		const struct var_def *d = varreg_at(i);
		if ((o->kind >= 0 && (int)d->kind != o->kind) || (o->trainer && !d->devices))
			continue;
		int r = table_add_row(&t);
		sb_reset(&al);
		json_t *aliases = aliases_of(d->key, &al); /* before al.buf is read */
		table_set_text(&t, r, 0, d->key);
		table_set_text(&t, r, 1, varreg_kind_name(d->kind));
		table_set_text(&t, r, 2, varreg_type_name(d->type));
		table_set_split(&t, r, 3, d->choices, "|"); /* null for no choice */
		table_set_text(&t, r, 4, d->devices);
		table_set_text(&t, r, 5, d->constant);
		table_set_json(&t, r, 6, aliases, al.buf);
		table_set_text(&t, r, 7, d->help);
	}
	table_render(&t, fmt, stdout);
	sb_release(&al);
	table_release(&t);
}

/* "did you mean" over the registry's keys and aliases (suggest_closest,
 * the one rule); the alias is compared as normalised, as it is stored. */
static int hint_closest(const char *name)
{
	size_t nk = varreg_count(), na = varreg_alias_count();
	const char **cands = xmalloc((nk + na) * sizeof(*cands));
	for (size_t i = 0; i < nk; i++)
		cands[i] = varreg_at(i)->key;
	for (size_t i = 0; i < na; i++)
		cands[nk + i] = varreg_alias_at(i)->name;
	char norm[128];
	varreg_normalise(name, norm, sizeof(norm));
	const char *best = suggest_closest(strchr(name, '.') ? name : norm, cands, nk + na);
	if (best)
		rl_hint("did you mean '%s'? ('ledger variables' lists the names)", best);
	free(cands);
	return best != NULL;
}

/* One name: name, key, implied, kind, type; exit 1 when it is no key's. */
static int resolve(const char *name, enum out_format fmt)
{
	static const char *const names[] = { "name", "key", "implied", "kind", "type" };
	const char *implied;
	const char *key = varreg_resolve(name, &implied);
	if (!key) {
		char desc[64];
		varreg_desc_key(name, desc, sizeof(desc));
		rl_error("variables: '%s' names no variable", name);
		if (hint_closest(name))
			; /* one hint: the suggestion says where the names are */
		else if (*desc)
			rl_hint("a change to it is recorded as %s; 'ledger variables' lists the names",
				desc);
		else
			rl_hint("'ledger variables' lists the names");
		return EXIT_FINDINGS;
	}
	const struct var_def *d = varreg_find(key);
	table t;
	table_init(&t, (int)ARRAY_SIZE(names), names);
	int r = table_add_row(&t);
	table_set_text(&t, r, 0, name);
	table_set_text(&t, r, 1, key);
	table_set_text(&t, r, 2, implied);
	table_set_text(&t, r, 3, varreg_kind_name(d->kind));
	table_set_text(&t, r, 4, varreg_type_name(d->type));
	table_render_object(&t, fmt, stdout);
	table_release(&t);
	return EXIT_OK;
}

int cmd_variables(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct opts o = { NULL, -1, 0 };
	if (parse_args(argc, argv, &o))
		return EXIT_USAGE;
	if (o.alias)
		return resolve(o.alias, ctx->fmt);
	list(&o, ctx->fmt);
	return EXIT_OK;
}
