/* infer.c — changed variables: exact config diffs and inference from
 * descriptions; see infer.h. The description grammar, in short:
 *
 *   description := part { (" + " | " & " | ";") part }
 *   part        := piece { (" and " | ", ") piece }   -- split only when every
 *                                                        piece is a change
 *   piece       := [verb] name ["from"] a ("to" | "->" | "→" | "=>") b
 *                | [verb] name "=" v  |  [verb] name v  |  [verb] name
 *
 * A bare name (no value) counts only when the alias table knows it, so prose
 * like "baseline" or "try something" yields nothing. Pure string code: no
 * SQLite, no I/O. */
#include <strings.h>
#include "infer.h"
#include "varreg.h"
#include "util.h"

/* ---- change lists ---------------------------------------------------- */

void change_list_release(struct change_list *cl)
{
	for (int i = 0; i < cl->n; i++) {
		free(cl->v[i].var);
		free(cl->v[i].old_val);
		free(cl->v[i].new_val);
		free(cl->v[i].span);
	}
	free(cl->v);
	cl->v = NULL;
	cl->n = cl->cap = 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

const char *change_how_name(enum change_how how)
{
	static const char *const names[] = { "exact", "code", "inferred" };
	return (unsigned)how < ARRAY_SIZE(names) ? names[how] : "inferred";
}

void change_list_add(struct change_list *cl, const char *var, const char *old_val,
		     const char *new_val)
{
	change_list_add_span(cl, var, old_val, new_val, NULL);
}

void change_list_add_span(struct change_list *cl, const char *var, const char *old_val,
			  const char *new_val, const char *span)
{
	struct change *c = NULL;
	for (int i = 0; i < cl->n && !c; i++)
		if (!strcmp(cl->v[i].var, var))
			c = &cl->v[i];
	if (c) {
		free(c->old_val);
		free(c->new_val);
		free(c->span);
	} else {
		if (cl->n == cl->cap) {
			cl->cap = cl->cap ? 2 * cl->cap : 4;
			cl->v = xrealloc(cl->v, (size_t)cl->cap * sizeof(*cl->v));
		}
		c = &cl->v[cl->n++];
		c->var = xstrdup(var);
	}
	c->old_val = dup_or_null(old_val);
	c->new_val = dup_or_null(new_val);
	c->span = dup_or_null(span);
}

static int change_cmp(const void *a, const void *b)
{
	return strcmp(((const struct change *)a)->var, ((const struct change *)b)->var);
}

void change_list_sort(struct change_list *cl)
{
	if (cl->n > 1)
		qsort(cl->v, (size_t)cl->n, sizeof(*cl->v), change_cmp);
}

/* ---- exact diffs ----------------------------------------------------- */

void json_scalar_text(const json_t *v, sb *out)
{
	char buf[40];
	switch (json_typeof(v)) {
	case JSON_STRING:
		sb_add(out, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		sb_addf(out, "%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		/* Shortest text that reads back as the same double: 0.04, not
		 * 0.040000000000000001. */
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, json_real_value(v));
			if (strtod(buf, NULL) == json_real_value(v))
				break;
		}
		sb_adds(out, buf);
		break;
	case JSON_TRUE: sb_adds(out, "true"); break;
	case JSON_FALSE: sb_adds(out, "false"); break;
	case JSON_NULL: sb_adds(out, "null"); break;
	default: sb_adds(out, json_is_object(v) ? "{…}" : "[…]"); break;
	}
}

static void add_exact(struct change_list *out, const char *key, const json_t *a, const json_t *b)
{
	sb ta = SB_INIT, tb = SB_INIT;
	if (a)
		json_scalar_text(a, &ta);
	if (b)
		json_scalar_text(b, &tb);
	change_list_add(out, key, a ? ta.buf : NULL, b ? tb.buf : NULL);
	sb_release(&ta);
	sb_release(&tb);
}

void changes_exact(const json_t *parent_cfg, const json_t *cfg, struct change_list *out)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)cfg, k, v) {
		json_t *pv = json_object_get(parent_cfg, k);
		if (!pv || !json_equal(pv, v))
			add_exact(out, k, pv, v);
	}
	json_object_foreach((json_t *)parent_cfg, k, v)
		if (!json_object_get(cfg, k))
			add_exact(out, k, v, NULL);
	change_list_sort(out);
}

/* ---- names ---------------------------------------------------------- */

/* Names come from the variable registry (common/varreg.c). */
static const struct var_alias *find_alias(const char *name)
{
	return varreg_alias(name);
}

const char *infer_alias(const char *name)
{
	const struct var_alias *a = find_alias(name);
	return a ? a->key : NULL;
}

/* ---- tokens ---------------------------------------------------------- */

#define MAX_TOKENS 24
#define MAX_NAME_TOKENS 4 /* longer "names" are prose, not a variable */

struct tokens {
	char *buf;               /* owned, NUL-separated */
	char *t[MAX_TOKENS];
	int n;
	int overflow;
};

/* Copy s with arrows ("→", "->", "=>") turned into " -> " and '=' into
 * " = ", then split on whitespace. Trailing ",.;)" and leading "(" are
 * trimmed from each token. */
static void tokenize(const char *s, struct tokens *tk)
{
	sb b = SB_INIT;
	for (; *s; s++) {
		if (!strncmp(s, "\xe2\x86\x92", 3)) { /* U+2192 RIGHTWARDS ARROW */
			sb_adds(&b, " -> ");
			s += 2;
		} else if ((s[0] == '-' || s[0] == '=') && s[1] == '>') {
			sb_adds(&b, " -> ");
			s++;
		} else if (*s == '=') {
			sb_adds(&b, " = ");
		} else {
			sb_addc(&b, *s);
		}
	}
	tk->buf = sb_detach(&b);
	tk->n = 0;
	tk->overflow = 0;
	char *save = NULL;
	for (char *p = strtok_r(tk->buf, " \t\r\n", &save); p; p = strtok_r(NULL, " \t\r\n", &save)) {
		while (*p == '(')
			p++;
		size_t len = strlen(p);
		while (len > 1 && strchr(",.;)", p[len - 1]))
			p[--len] = '\0';
		if (!*p)
			continue;
		if (tk->n == MAX_TOKENS) {
			tk->overflow = 1;
			break;
		}
		tk->t[tk->n++] = p;
	}
}

/* A number as people write it in descriptions: 0.04, 1e-3, 32, 2^19,
 * 2**19, 512k, 1.5M, 10%, 2x. */
static int is_number(const char *s)
{
	double d;
	if (!parse_double(s, &d))
		return 1;
	const char *p = s;
	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (*p == '^' || (p[0] == '*' && p[1] == '*')) { /* a power: 2^19, 2**19 */
		p += *p == '^' ? 1 : 2;
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
		return !*p;
	}
	return *p && strchr("kKmMxX%", *p) && !p[1]; /* one unit letter */
}

static int is_value(const char *s)
{
	static const char *const words[] = { "true", "false", "on", "off", "yes", "no", "none" };
	if (is_number(s))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (str_ieq(s, words[i]))
			return 1;
	return 0;
}

static int tok_is(const char *t, const char *word)
{
	return str_ieq(t, word);
}

/* ---- one piece ------------------------------------------------------- */

/* Leading words that say how, not what ("increase matrix LR …"). */
static const char *const verbs[] = {
	"increase", "decrease", "reduce", "raise", "lower", "bump", "change", "set",
	"try", "tune", "adjust", "tweak", "switch", "use", "revert", "restore",
	"scale", "update", "with", "the", "to",
};
static const char *const disable_words[] = { "remove", "disable", "drop", "no", "without" };
static const char *const enable_words[] = { "enable", "add" };

static int in_words(const char *t, const char *const *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tok_is(t, w[i]))
			return 1;
	return 0;
}

/* Variable for tokens [a, b): alias, a dotted config key as written, or
 * desc.<slug>. Returns 0 and fills var, or -1 when it is not a name. */
static int name_to_var(char **t, int a, int b, sb *var, const char **implied)
{
	*implied = NULL;
	if (b > a && tok_is(t[b - 1], "from"))
		b--;
	if (b <= a || b - a > MAX_NAME_TOKENS)
		return -1;
	sb name = SB_INIT;
	for (int i = a; i < b; i++)
		sb_addf(&name, "%s%s", i > a ? " " : "", t[i]);
	while (name.len && name.buf[name.len - 1] == ':')
		name.buf[--name.len] = '\0';
	int has_alpha = 0, dotted = strchr(name.buf, '.') && !strchr(name.buf, ' ');
	for (const char *p = name.buf; *p; p++)
		has_alpha |= isalpha((unsigned char)*p);
	const struct var_alias *al = find_alias(name.buf);
	int rc = 0;
	if (al) {
		sb_adds(var, al->key);
		*implied = al->implied;
	} else if (!has_alpha) {
		rc = -1;
	} else if (dotted) {
		for (const char *p = name.buf; *p; p++)
			sb_addc(var, (char)tolower((unsigned char)*p));
	} else {
		char norm[128];
		varreg_normalise(name.buf, norm, sizeof(norm));
		sb_adds(var, "desc.");
		int us = 0;
		for (const char *p = norm; *p && var->len < 5 + 48; p++) {
			if (isalnum((unsigned char)*p)) {
				sb_addc(var, *p);
				us = 0;
			} else if (!us) {
				sb_addc(var, '_');
				us = 1;
			}
		}
	}
	sb_release(&name);
	return rc;
}

/* Index of the arrow in t[a, n): "->" always; "to" only between a value
 * and something, or after a name ("attention to flash"). -1 when none. */
static int find_arrow(char **t, int a, int n)
{
	for (int i = a + 1; i + 1 < n; i++)
		if (!strcmp(t[i], "->") || tok_is(t[i], "to"))
			return i;
	return -1;
}

/* A plain "batch" is ambiguous: autoresearch's total batch is counted in
 * tokens (2**19), the per-device batch in sequences (32, 64). Values below
 * 4096 can only be sequences, so "batch 32 -> 64" is the device batch. */
static int batch_is_per_device(char **t, int a, int b, const char *var,
			       const char *old_val, const char *new_val)
{
	double v;
	if (strcmp(var, "train.total_batch_size"))
		return 0;
	for (int i = a; i < b; i++)
		if (tok_is(t[i], "total"))
			return 0;
	const char *val = new_val ? new_val : old_val;
	return val && !parse_double(val, &v) && v > 0 && v < 4096;
}

/* Add "name(t[a..b)) old -> new"; returns 1 when the name is a name. */
static int emit(struct change_list *out, char **t, int a, int b, const char *old_val,
		const char *new_val)
{
	sb var = SB_INIT;
	const char *implied;
	int ok = !name_to_var(t, a, b, &var, &implied);
	if (ok && batch_is_per_device(t, a, b, var.buf, old_val, new_val)) {
		sb_reset(&var);
		sb_adds(&var, "train.device_batch_size");
	}
	if (ok)
		change_list_add(out, var.buf, old_val, new_val ? new_val : implied);
	sb_release(&var);
	return ok;
}

/* Variables whose values are words, so "activation relu2" is a change but
 * "warmdown tweaks" is not. */
static int is_categorical(const char *var)
{
	return varreg_categorical(varreg_find(var));
}

/* A piece without a value counts only through the alias table: the whole
 * name ("grad checkpointing"), or all but a last word that is the value of
 * a categorical variable ("activation relu2"). flag is "true"/"false"
 * after enable/disable. */
static int parse_bare(struct change_list *out, char **t, int a, int n, const char *flag)
{
	sb name = SB_INIT;
	for (int i = a; i < n; i++)
		sb_addf(&name, "%s%s", i > a ? " " : "", t[i]);
	int found = 0;
	if (find_alias(name.buf)) {
		found = emit(out, t, a, n, NULL, flag);
	} else if (n - a >= 2) {
		sb_reset(&name);
		for (int i = a; i < n - 1; i++)
			sb_addf(&name, "%s%s", i > a ? " " : "", t[i]);
		const struct var_alias *al = find_alias(name.buf);
		if (al && (is_categorical(al->key) || is_value(t[n - 1])))
			found = emit(out, t, a, n - 1, NULL, t[n - 1]);
	}
	sb_release(&name);
	return found;
}

/* Leading verbs are skipped; disable/enable words set the value when the
 * piece has none. Returns the index of the first name token. */
static int skip_verbs(char **t, int n, const char **flag)
{
	int a = 0;
	*flag = NULL;
	while (a + 1 < n) {
		if (in_words(t[a], disable_words, ARRAY_SIZE(disable_words)))
			*flag = "false";
		else if (in_words(t[a], enable_words, ARRAY_SIZE(enable_words)))
			*flag = "true";
		else if (!in_words(t[a], verbs, ARRAY_SIZE(verbs)))
			break;
		a++;
	}
	return a;
}

/* One piece; returns the number of changes added (0 or 1). */
static int parse_piece(const char *piece, struct change_list *out)
{
	struct tokens tk;
	tokenize(piece, &tk);
	char **t = tk.t;
	int n = tk.n, found = 0;
	const char *flag;
	int a = skip_verbs(t, n, &flag);
	if (tk.overflow || n == 0) {
		free(tk.buf);
		return 0;
	}
	int arrow = find_arrow(t, a, n), eq = -1;
	for (int i = a + 1; i + 1 < n && eq < 0; i++)
		if (!strcmp(t[i], "="))
			eq = i;
	if (arrow > a + 1 && (is_value(t[arrow - 1]) || !strcmp(t[arrow], "->")))
		found = emit(out, t, a, arrow - 1, t[arrow - 1], t[arrow + 1]); /* name a -> b */
	else if (arrow > a)
		found = emit(out, t, a, arrow, NULL, t[arrow + 1]);   /* name to b */
	else if (eq > a)
		found = emit(out, t, a, eq, NULL, t[eq + 1]);         /* name = v */
	else if (n - a >= 2 && is_value(t[n - 1]))
		found = emit(out, t, a, n - 1, NULL, t[n - 1]);       /* name v */
	else
		found = parse_bare(out, t, a, n, flag);
	free(tk.buf);
	return found;
}

/* ---- whole descriptions ---------------------------------------------- */

/* Split s at any of seps (matched literally); pieces are appended to out as
 * owned strings. Returns the number of pieces. */
static int split_on(const char *s, const char *const *seps, size_t nseps, char ***out, int *cap)
{
	int n = 0;
	const char *start = s;
	for (const char *p = s;; p++) {
		size_t len = 0;
		for (size_t i = 0; i < nseps && !len && *p; i++)
			if (!strncasecmp(p, seps[i], strlen(seps[i])))
				len = strlen(seps[i]);
		if (!*p || len) {
			if (n == *cap) {
				*cap = *cap ? 2 * *cap : 8;
				*out = xrealloc(*out, (size_t)*cap * sizeof(**out));
			}
			(*out)[n++] = xstrndup(start, (size_t)(p - start));
			if (!*p)
				break;
			p += len - 1;
			start = p + 1;
		}
	}
	return n;
}

static void free_pieces(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* " and " / ", " split a part only when every piece is a change on its own
 * ("depth 9 and dim 640"), not in prose ("warmup and warmdown tweaks"). */
static int infer_part(const char *part, struct change_list *out)
{
	static const char *const soft[] = { " and ", ", " };
	char **pieces = NULL;
	int cap = 0, n = split_on(part, soft, ARRAY_SIZE(soft), &pieces, &cap);
	int all = n > 1, added = 0;
	struct change_list tmp = CHANGE_LIST_INIT;
	for (int i = 0; i < n && all; i++)
		all = parse_piece(pieces[i], &tmp) > 0;
	change_list_release(&tmp);
	if (all)
		for (int i = 0; i < n; i++)
			added += parse_piece(pieces[i], out);
	else
		added = parse_piece(part, out);
	free_pieces(pieces, n);
	return added;
}

/* Remarks in parentheses ("(OOM)", "(retry)") say nothing about what
 * changed; drop them so "dim 576 (OOM)" still reads as a change. */
static char *drop_remarks(const char *s)
{
	sb b = SB_INIT;
	int depth = 0;
	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && depth)
			depth--;
		else if (!depth)
			sb_addc(&b, *s);
	}
	return sb_detach(&b);
}

int infer_changes(const char *description, struct change_list *out)
{
	static const char *const hard[] = { " + ", " & ", ";" };
	if (!description)
		return 0;
	char **parts = NULL, *text = drop_remarks(description);
	int cap = 0, n = split_on(text, hard, ARRAY_SIZE(hard), &parts, &cap), added = 0;
	for (int i = 0; i < n; i++)
		added += infer_part(parts[i], out);
	free_pieces(parts, n);
	free(text);
	return added;
}
