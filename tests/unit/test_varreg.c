/* test_varreg.c — the variable registry (common/varreg.c) against the
 * trainer's config table (trainer/config.c) and against itself.
 *
 * Fails when the two tables disagree: a trainer key missing from the
 * registry, a different type, kind or choice list, a registry key that
 * claims a trainer device path for a key, value or device the trainer does
 * not have. Fails when an alias names no key, is not in normalised form, or
 * shares its normalised name with an alias of another key; when one of
 * autoresearch's train.py / prepare.py constants does not resolve to the
 * key written here by hand. Each failed check lists what disagrees. */
#include "check.h"
#include "config.h"
#include "impl.h"
#include "varreg.h"
#include "util.h"

/* Problems found by one group of checks, printed under its "not ok". */
static int nproblems;

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("#   ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	nproblems++;
}

/* 1 when the "a|b|c" list holds word (len bytes). */
static int in_list(const char *list, const char *word, size_t len)
{
	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, "|");
		if (l == len && !strncmp(p, word, len))
			return 1;
		p += l + (p[l] == '|');
	}
	return 0;
}

static enum var_type type_of_cfg(enum cfg_type t)
{
	switch (t) {
	case CFG_INT: case CFG_LONG: return VAR_INT;
	case CFG_FLOAT: return VAR_NUMBER;
	case CFG_BOOL: return VAR_BOOL;
	case CFG_ENUM: return VAR_CHOICE;
	default: return VAR_STRING;
	}
}

/* The trainer's device paths: train.device's choices other than "auto". */
static int trainer_has_device(const char *dev, size_t len)
{
	const struct cfg_key *k = config_find("train.device");
	return k && k->choices && !(len == 4 && !strncmp(dev, "auto", 4)) &&
	       in_list(k->choices, dev, len);
}

static void check_trainer_key(const struct cfg_key *k)
{
	const struct var_def *d = varreg_find(k->key);
	if (!d) {
		problem("trainer key %s is not in the registry (common/varreg.c)", k->key);
		return;
	}
	if (d->type != type_of_cfg(k->type))
		problem("%s: the trainer's type maps to %s, the registry says %s", k->key,
			varreg_type_name(type_of_cfg(k->type)), varreg_type_name(d->type));
	if ((k->kind == CFG_IMPL) != (d->kind == VAR_IMPL))
		problem("%s: the trainer says kind %s, the registry %s", k->key,
			k->kind == CFG_IMPL ? "impl" : "math", varreg_kind_name(d->kind));
	if (!d->devices)
		problem("%s is a trainer key but the registry claims no device path for it", k->key);
	if (k->type == CFG_ENUM)
		for (const char *p = k->choices; p && *p;) {
			size_t l = strcspn(p, "|");
			if (!in_list(d->choices, p, l))
				problem("%s: the trainer accepts '%.*s', the registry's choices (%s) do not",
					k->key, (int)l, p, d->choices ? d->choices : "none");
			p += l + (p[l] == '|');
		}
}

/* A device list "cpu|cuda" (len bytes): every device is the trainer's. */
static void check_devices(const char *key, const char *list, size_t len)
{
	for (const char *p = list, *end = list + len; p < end;) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t l = bar ? (size_t)(bar - p) : (size_t)(end - p);
		if (!trainer_has_device(p, l))
			problem("%s claims device path '%.*s', which the trainer does not have "
				"(train.device's choices)", key, (int)l, p);
		p += l + 1;
	}
}

/* "v=cpu|cuda;w=cuda": each v a value the trainer accepts for the key. */
static void check_value_claims(const struct var_def *d, const struct cfg_key *k)
{
	for (const char *p = d->devices; *p;) {
		size_t len = strcspn(p, ";");
		const char *eq = memchr(p, '=', len);
		if (!eq) {
			problem("%s: devices '%s' mixes per-value claims with a plain list", d->key, d->devices);
			return;
		}
		size_t vl = (size_t)(eq - p);
		int number = k->type == CFG_INT || k->type == CFG_LONG;
		int ok = k->type == CFG_BOOL ? (vl == 4 && !strncmp(p, "true", 4)) ||
						       (vl == 5 && !strncmp(p, "false", 5))
			 : k->type == CFG_ENUM ? in_list(k->choices, p, vl)
			 : number && ((vl == 1 && *p == '*') || strspn(p, "0123456789") == vl);
		if (!ok)
			problem("%s claims value '%.*s' runs on a device, but the trainer does not accept it",
				d->key, (int)vl, p);
		check_devices(d->key, eq + 1, len - vl - 1);
		p += len + (p[len] == ';');
	}
}

static void check_registry_key(const struct var_def *d)
{
	const struct cfg_key *k = config_find(d->key);
	if (!d->devices)
		return;
	if (!k) {
		problem("%s claims trainer device paths (%s) but is not a trainer key", d->key, d->devices);
		return;
	}
	if (strchr(d->devices, '='))
		check_value_claims(d, k);
	else
		check_devices(d->key, d->devices, strlen(d->devices));
}

static void check_well_formed(const struct var_def *d, size_t i)
{
	static const char *const prefixes[] = { "model.", "optim.", "sched.", "train.", "data.", "impl." };
	int pre = 0;
	for (size_t p = 0; p < ARRAY_SIZE(prefixes); p++)
		pre |= !strncmp(d->key, prefixes[p], strlen(prefixes[p]));
	if (!pre)
		problem("%s: key has no known prefix (model. optim. sched. train. data. impl.)", d->key);
	for (const char *c = d->key; *c; c++)
		if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '.' && *c != '_')
			problem("%s: key is not lowercase [a-z0-9._]", d->key);
	if ((d->type == VAR_CHOICE) != (d->choices != NULL))
		problem("%s: choices are for (and required by) type choice", d->key);
	if (!d->help || !*d->help)
		problem("%s has no help text", d->key);
	if (!strncmp(d->key, "impl.", 5) != (d->kind == VAR_IMPL))
		problem("%s: kind impl is for impl.* keys, and every impl.* key is impl", d->key);
	for (size_t j = 0; j < i; j++)
		if (!strcmp(varreg_at(j)->key, d->key))
			problem("%s is in the registry twice", d->key);
}

static void check_alias(const struct var_alias *a, size_t i)
{
	char norm[128];
	varreg_normalise(a->name, norm, sizeof(norm));
	if (!*a->name || strcmp(norm, a->name))
		problem("alias '%s' is not in normalised form ('%s')", a->name, norm);
	const struct var_def *d = varreg_find(a->key);
	if (!d) {
		problem("alias '%s' points to '%s', which is no registry key", a->name, a->key);
		return;
	}
	if (a->implied && (d->type == VAR_BOOL || d->type == VAR_CHOICE) &&
	    !(d->type == VAR_BOOL ? !strcmp(a->implied, "true") || !strcmp(a->implied, "false")
				  : in_list(d->choices, a->implied, strlen(a->implied))))
		problem("alias '%s' implies %s = '%s', not one of its values", a->name, a->key, a->implied);
	for (size_t j = 0; j < i; j++) {
		const struct var_alias *b = varreg_alias_at(j);
		if (strcmp(b->name, a->name))
			continue;
		int same = !strcmp(b->key, a->key) &&
			   (a->implied ? b->implied && !strcmp(a->implied, b->implied) : !b->implied);
		if (!same)
			problem("alias '%s' means %s%s%s and %s%s%s", a->name, b->key,
				b->implied ? "=" : "", b->implied ? b->implied : "", a->key,
				a->implied ? "=" : "", a->implied ? a->implied : "");
		else /* the first match wins, so a second row is dead weight */
			problem("alias '%s' is listed twice", a->name);
	}
}

/* Written by hand from karpathy/autoresearch train.py and prepare.py, not
 * read from the registry: the registry must agree with them. */
static const struct { const char *name, *key; } autoresearch[] = {
	{ "DEPTH", "model.depth" }, { "ASPECT_RATIO", "model.aspect_ratio" },
	{ "HEAD_DIM", "model.head_dim" }, { "WINDOW_PATTERN", "model.window_pattern" },
	{ "TOTAL_BATCH_SIZE", "train.total_batch_size" },
	{ "DEVICE_BATCH_SIZE", "train.device_batch_size" }, { "MATRIX_LR", "optim.matrix_lr" },
	{ "EMBEDDING_LR", "optim.embedding_lr" }, { "UNEMBEDDING_LR", "optim.unembedding_lr" },
	{ "SCALAR_LR", "optim.scalar_lr" }, { "WEIGHT_DECAY", "optim.weight_decay" },
	{ "ADAM_BETAS", "optim.adam_betas" }, { "WARMUP_RATIO", "sched.warmup_ratio" },
	{ "WARMDOWN_RATIO", "sched.warmdown_ratio" }, { "FINAL_LR_FRAC", "sched.final_lr_frac" },
	{ "TIME_BUDGET", "train.time_budget_s" }, { "MAX_SEQ_LEN", "model.seq_len" },
	{ "VOCAB_SIZE", "model.vocab_size" }, { "EVAL_TOKENS", "train.eval_tokens" },
	/* GPTConfig's fields */
	{ "n_layer", "model.depth" }, { "n_embd", "model.dim" }, { "N_EMBD", "model.dim" },
	{ "n_head", "model.heads" }, { "sequence_len", "model.seq_len" },
	{ "vocab_size", "model.vocab_size" }, { "window_pattern", "model.window_pattern" },
};

static void check_autoresearch(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(autoresearch); i++) {
		const char *got = varreg_resolve(autoresearch[i].name, NULL);
		if (!got || strcmp(got, autoresearch[i].key))
			problem("%s resolves to %s, not %s", autoresearch[i].name, got ? got : "nothing",
				autoresearch[i].key);
	}
	for (size_t i = 0; i < varreg_count(); i++) {
		const struct var_def *d = varreg_at(i);
		const char *got = d->constant ? varreg_resolve(d->constant, NULL) : NULL;
		if (d->constant && (!got || strcmp(got, d->key)))
			problem("%s's constant %s resolves to %s", d->key, d->constant, got ? got : "nothing");
	}
}

/* vocab.md: knobs of autoresearch's train.py that our trainer does not have. */
static void lacking(void)
{
	static const char *const keys[] = { "model.head_dim", "model.aspect_ratio",
		"model.window_pattern", "model.activation", "model.rope_base", "model.dropout",
		"optim.adam_betas" };
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct var_def *d = varreg_find(keys[i]);
		if (!d || d->devices || config_find(keys[i]))
			problem("%s: %s", keys[i], !d ? "not in the registry" : "claimed by the trainer");
	}
}

/* Run one group of checks; one "ok"/"not ok" line for all of them. */
static void group(const char *id, const char *what, void (*checks)(void))
{
	nproblems = 0;
	checks();
	check_report(id, what, nproblems == 0, __FILE__, __LINE__);
}

static void trainer_keys(void)
{
	for (size_t i = 0; i < cfg_nkeys; i++)
		check_trainer_key(&cfg_keys[i]);
}

static void registry_keys(void)
{
	for (size_t i = 0; i < varreg_count(); i++)
		check_registry_key(varreg_at(i));
}

static void registry_rows(void)
{
	for (size_t i = 0; i < varreg_count(); i++)
		check_well_formed(varreg_at(i), i);
}

static void aliases(void)
{
	for (size_t i = 0; i < varreg_alias_count(); i++)
		check_alias(varreg_alias_at(i), i);
}

static void test_lookups(void)
{
	const char *implied = "x";
	CHECK("varreg-5.1", !strcmp(varreg_resolve("Matrix_LR", &implied), "optim.matrix_lr") && !implied);
	CHECK("varreg-5.2", !strcmp(varreg_resolve("flash-attention", &implied), "impl.attention") &&
				    implied && !strcmp(implied, "flash"));
	CHECK("varreg-5.3", !strcmp(varreg_resolve("Optim.Matrix_LR", NULL), "optim.matrix_lr"));
	CHECK("varreg-5.4", varreg_resolve("optim.matrix_lrx", NULL) == NULL);
	CHECK("varreg-5.5", varreg_resolve("value embeddings", NULL) == NULL);
	CHECK("varreg-5.6", varreg_kind_of("impl.attention") == VAR_IMPL);
	CHECK("varreg-5.7", varreg_kind_of("train.time_budget_s") == VAR_BUDGET);
	CHECK("varreg-5.8", varreg_kind_of("desc.value_embeddings") == VAR_MATH);
	CHECK("varreg-5.9", varreg_kind_of("impl.unheard_of") == VAR_IMPL);
	CHECK("varreg-5.10", varreg_kind_of("data.other") == VAR_DATA);
	/* one word written two ways (varreg_canonical): a rule, not an alias each */
	CHECK("varreg-5.11", !strcmp(varreg_resolve("embedding learning rate", NULL), "optim.embedding_lr"));
	CHECK("varreg-5.12", !strcmp(varreg_resolve("UNEMBED_LR", NULL), "optim.unembedding_lr"));
	CHECK("varreg-5.13", !strcmp(varreg_resolve("device_bs", NULL), "train.device_batch_size"));
	CHECK("varreg-5.14", !strcmp(varreg_resolve("Sequence Length", NULL), "model.seq_len"));
	CHECK("varreg-5.15", !strcmp(varreg_resolve("QK normalization", NULL), "model.qk_norm"));
	CHECK("varreg-5.16", varreg_resolve("learning rate", NULL) == NULL); /* "lr" alone is vague */
	CHECK("varreg-5.17", varreg_resolve("embeddings", NULL) == NULL);     /* whole words only */
	char canon[64];
	CHECK("varreg-5.18", varreg_canonical("muon learning rate warmup", canon, sizeof(canon)) &&
				     !strcmp(canon, "muon lr warmup"));
	CHECK("varreg-5.19", !varreg_canonical("embeddings lr", canon, sizeof(canon)) &&
				     !strcmp(canon, "embeddings lr"));
	/* a constant's words in the author's order (varreg_alias_any_order) */
	const struct var_alias *any = varreg_alias_any_order("LR_MIN_FRAC");
	CHECK("varreg-5.20", any && !strcmp(any->key, "sched.final_lr_frac"));
	CHECK("varreg-5.21", (any = varreg_alias_any_order("RATIO_WARMDOWN")) &&
				     !strcmp(any->key, "sched.warmdown_ratio"));
	CHECK("varreg-5.22", varreg_alias_any_order("DEPTH") == NULL); /* one word: varreg_alias's */
	CHECK("varreg-5.23", varreg_alias_any_order("LR_VALUE_EMBEDDING") == NULL);
	char buf[64];
	varreg_desc_key("Value Embeddings", buf, sizeof(buf));
	CHECK("varreg-6.1", !strcmp(buf, "desc.value_embeddings"));
	varreg_desc_key("  x0-lambda__init ", buf, sizeof(buf));
	CHECK("varreg-6.2", !strcmp(buf, "desc.x0_lambda_init"));
	varreg_desc_key("--", buf, sizeof(buf));
	CHECK("varreg-6.3", !strcmp(buf, ""));
	varreg_desc_key("a very long knob name that goes on and on past the limit of the key", buf,
			sizeof(buf));
	CHECK("varreg-6.4", strlen(buf) <= 5 + 48 && buf[strlen(buf) - 1] != '_' &&
				    !strncmp(buf, "desc.a_very_long_knob", 21));
	varreg_desc_key("abc", buf, 8);
	CHECK("varreg-6.5", !strcmp(buf, "desc.ab"));
	const struct var_def *att = varreg_find("impl.attention");
	CHECK("varreg-7.1", varreg_value_count(att) == 5 && !varreg_value_at(att, 4, buf, sizeof(buf)) &&
				    !strcmp(buf, "fa3"));
	CHECK("varreg-7.2", varreg_value_at(att, 5, buf, sizeof(buf)) == -1);
	const struct var_def *qk = varreg_find("model.qk_norm");
	CHECK("varreg-7.3", varreg_value_count(qk) == 2 && !varreg_value_at(qk, 1, buf, sizeof(buf)) &&
				    !strcmp(buf, "true"));
	CHECK("varreg-7.4", varreg_value_count(varreg_find("model.depth")) == 0);
	CHECK("varreg-7.5", varreg_on_device(att, "naive", "cpu") && !varreg_on_device(att, "sdpa", "cuda"));
}

/* The values to try of an impl.* trainer key: its choices, true/false, or
 * a few counts. "auto" is resolved to another value before the check. */
static int impl_values(const struct cfg_key *k, const char *out[], int max)
{
	static const char *const bools[] = { "true", "false" }, *const counts[] = { "0", "1", "7" };
	static char buf[256];
	int n = 0;
	if (k->type == CFG_BOOL || k->type == CFG_INT) {
		const char *const *v = k->type == CFG_BOOL ? bools : counts;
		for (int i = 0; i < (k->type == CFG_BOOL ? 2 : 3); i++)
			out[n++] = v[i];
		return n;
	}
	snprintf(buf, sizeof(buf), "%s", k->choices ? k->choices : "");
	for (char *save = NULL, *t = strtok_r(buf, "|", &save); t && n < max; t = strtok_r(NULL, "|", &save))
		if (strcmp(t, "auto"))
			out[n++] = t;
	return n;
}

/* The registry's per-value device claims are what trainer/impl.c runs. */
static void impl_claims(void)
{
	static const char *const devs[] = { "cpu", "cuda" };
	for (size_t i = 0; i < cfg_nkeys; i++) {
		const struct cfg_key *k = &cfg_keys[i];
		const struct var_def *d = varreg_find(k->key);
		const char *vals[16];
		if (k->kind != CFG_IMPL || !d)
			continue;
		int n = impl_values(k, vals, 16);
		for (int v = 0; v < n; v++)
			for (int j = 0; j < 2; j++) {
				int trainer = (impl_devices(k->key, vals[v]) & impl_device_bit(devs[j])) != 0;
				if (trainer != varreg_on_device(d, vals[v], devs[j]))
					problem("%s=%s on %s: the trainer %s it, the registry says it %s", k->key,
						vals[v], devs[j], trainer ? "runs" : "refuses",
						trainer ? "does not run" : "runs");
			}
	}
}

int main(void)
{
	group("varreg-1.1", "every trainer key is in the registry with its type, kind and choices",
	      trainer_keys);
	group("varreg-1.2", "registry device claims name trainer keys, values and device paths",
	      registry_keys);
	group("varreg-2.1", "registry rows are well formed (prefix, case, choices, help, unique)",
	      registry_rows);
	group("varreg-3.1", "aliases: normalised, pointing to a key, one meaning per name", aliases);
	group("varreg-1.3", "impl.* device claims per value are what trainer/impl.c runs", impl_claims);
	group("varreg-4.1", "autoresearch's constants and GPTConfig fields resolve to their keys",
	      check_autoresearch);
	group("varreg-4.2", "autoresearch's knobs our trainer lacks are keys, on no device", lacking);
	test_lookups();
	return check_status();
}
