/* cmd_variables.c — `ledger variables`: the variable registry
 * (common/varreg.c) as a listing, so people and agents see the vocabulary
 * the ledger records changes in; `--alias NAME` resolves one name. Needs
 * no ledger file. */
#include "filter.h"
#include "ledger.h"
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

/* The aliases of key, sorted, ", "-joined; "flash attention (=flash)" for
 * one that implies a value. */
static void aliases_of(const char *key, sb *out)
{
	const struct var_alias **v = xcalloc(varreg_alias_count() + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < varreg_alias_count(); i++)
		if (!strcmp(varreg_alias_at(i)->key, key))
			v[n++] = varreg_alias_at(i);
	qsort(v, n, sizeof(*v), alias_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(v[i]->name, v[i - 1]->name))
			continue; /* the same name twice in the table */
		sb_addf(out, "%s%s", out->len ? ", " : "", v[i]->name);
		if (v[i]->implied)
			sb_addf(out, " (=%s)", v[i]->implied);
	}
	free(v);
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
		aliases_of(d->key, &al);
		table_set_text(&t, r, 0, d->key);
		table_set_text(&t, r, 1, varreg_kind_name(d->kind));
		table_set_text(&t, r, 2, varreg_type_name(d->type));
		table_set_text(&t, r, 3, d->choices);
		table_set_text(&t, r, 4, d->devices);
		table_set_text(&t, r, 5, d->constant);
		table_set_text(&t, r, 6, al.len ? al.buf : NULL);
		table_set_text(&t, r, 7, d->help);
	}
	table_render(&t, fmt, stdout);
	sb_release(&al);
	table_release(&t);
}

/* One name: name, key, implied, kind, type; exit 1 when it is no key's. */
/* The key closest to a name that resolves to none ("model.dpeth"), or
 * NULL: suggest.h's rule over every key. */
static const char *closest_key(const char *name)
{
	size_t n = varreg_count();
	const char **keys = xcalloc(n, sizeof(*keys));
	for (size_t i = 0; i < n; i++)
		keys[i] = varreg_at(i)->key;
	const char *best = suggest_closest(name, keys, n);
	free(keys);
	return best;
}

static int resolve(const char *name, enum out_format fmt)
{
	static const char *const names[] = { "name", "key", "implied", "kind", "type" };
	const char *implied;
	const char *key = varreg_resolve(name, &implied);
	if (!key) {
		char desc[64];
		varreg_desc_key(name, desc, sizeof(desc));
		const char *best = closest_key(name);
		rl_error("variables: '%s' names no variable", name);
		if (best)
			rl_hint("did you mean '%s'? ('ledger variables' lists the names)", best);
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
	table_render(&t, fmt, stdout);
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
