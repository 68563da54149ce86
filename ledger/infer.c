/* infer.c — changed variables: change lists, exact config diffs, and the
 * changes a description states (the grammar is ledger/describe.c); see
 * infer.h. Pure string code: no SQLite, no I/O. */
#include "describe.h"
#include "infer.h"
#include "jsontext.h"
#include "varreg.h"
#include "util.h"

/* ---- change lists ---------------------------------------------------- */

/* What one change owns; the list's slot is the caller's. */
static void change_free(struct change *c)
{
	free(c->var);
	free(c->old_val);
	free(c->new_val);
	free(c->span);
}

void change_list_release(struct change_list *cl)
{
	for (int i = 0; i < cl->n; i++)
		change_free(&cl->v[i]);
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

/* Shortest text that reads back as the same double, in plain decimals:
 * 0.04, not 0.040000000000000001; 300, not "3e+02"; 0.00001, not
 * "1e-05". A value's text keys repeats and is compared as text after a
 * reinfer, so one value must always be written one way. Magnitudes
 * outside [1e-12, 1e15) keep the exponent (a plain form would be long). */
void infer_number_text(double v, char *buf, size_t n)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, n, "%.0f", v == 0 ? 0.0 : v); /* no "-0" */
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (!strchr(buf, 'e') || fabs(v) < 1e-12 || fabs(v) >= 1e15)
		return;
	for (int decimals = 1; decimals <= 30; decimals++) {
		snprintf(buf, n, "%.*f", decimals, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void json_scalar_text(const json_t *v, sb *out)
{
	char buf[64];
	switch (json_typeof(v)) {
	case JSON_STRING:
		sb_add(out, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		sb_addf(out, "%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		infer_number_text(json_real_value(v), buf, sizeof(buf));
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
		if (!pv || !json_same(pv, v)) /* 8 and 8.0 are one value, not a change */
			add_exact(out, k, pv, v);
	}
	json_object_foreach((json_t *)parent_cfg, k, v)
		if (!json_object_get(cfg, k))
			add_exact(out, k, v, NULL);
	change_list_sort(out);
}

/* ---- names ---------------------------------------------------------- */

/* Names come from the variable registry (common/varreg.c). */
const char *infer_alias(const char *name)
{
	const struct var_alias *a = varreg_alias(name);
	return a ? a->key : NULL;
}

/* ---- descriptions ---------------------------------------------------- */

/* A token of text written as code rather than as an English word. */
static int identifier_like(const char *t, size_t n)
{
	int marks = 0, caps = 0, letters = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];
		marks |= c == '_' || c == '-' || isdigit(c);
		caps += i > 0 && isupper(c);
		letters += isalpha(c) != 0;
	}
	return letters >= 1 && n >= 2 && (marks || caps);
}

/* The tokens of span: letters, digits, '_', '-' and inner dots. */
static int span_tokens(const char *span, const char **tok, size_t *len, int max)
{
	int n = 0;
	for (const char *p = span; *p && n < max;) {
		size_t k = 0;
		while (p[k] && (isalnum((unsigned char)p[k]) || p[k] == '_' || p[k] == '-' ||
				(p[k] == '.' && isalnum((unsigned char)p[k + 1]))))
			k++;
		if (k) {
			tok[n] = p;
			len[n++] = k;
			p += k;
		} else {
			p++;
		}
	}
	return n;
}

int infer_name_written(const struct change *c)
{
	const char *tok[64];
	size_t len[64];
	if (!str_starts_with(c->var, "desc.") || !c->span)
		return 0;
	int n = span_tokens(c->span, tok, len, 64);
	for (int a = 0; a < n; a++) { /* tokens [a, b) that spell the name */
		char words[256] = "", key[80];
		size_t o = 0;
		for (int b = a; b < n && b - a < 5; b++) {
			o += (size_t)snprintf(words + o, o < sizeof(words) ? sizeof(words) - o : 0, "%s%.*s",
					      b > a ? " " : "", (int)len[b], tok[b]);
			if (o >= sizeof(words))
				break;
			varreg_desc_key(words, key, sizeof(key));
			if (strcmp(key, c->var))
				continue;
			for (int i = a; i <= b; i++)
				if (identifier_like(tok[i], len[i]))
					return 1;
		}
	}
	return 0;
}

/* The span states a transition, not only a new value or a toggle: an
 * arrow, '=', ':', "from … to" or "a to b" with a number before "to"
 * ("conv kernel 15->31", "VE gate channels from 32 to 128"). */
static int states_transition(const char *span)
{
	if (!span)
		return 0;
	if (strstr(span, "->") || strstr(span, "\xe2\x86\x92") || strstr(span, "=>") ||
	    strchr(span, '=') || strchr(span, ':'))
		return 1;
	const char *from = strcasestr(span, "from ");
	if (from && (from == span || from[-1] == ' ') && strcasestr(from, " to "))
		return 1;
	for (const char *to = strstr(span, " to "); to; to = strstr(to + 1, " to "))
		if (to > span && isdigit((unsigned char)to[-1]))
			return 1; /* "0.1 to 0.2" */
	return 0;
}

int infer_drop_coined(struct change_list *changes)
{
	int kept = 0, dropped = 0;
	for (int i = 0; i < changes->n; i++) {
		struct change *c = &changes->v[i];
		int coined = str_starts_with(c->var, "desc.") && !describe_name_known(c->var);
		/* "MLP hidden size multiplier from 4x to 6x" read as ? -> ?: the
		 * values were written, no value of this knob was read — the name
		 * is as unsure as its values */
		int unread = coined && !c->old_val && !c->new_val && c->span && strpbrk(c->span, "0123456789");
		if ((coined && !infer_name_written(c) && !states_transition(c->span)) || unread) {
			change_free(c);
			dropped++;
			continue;
		}
		changes->v[kept++] = *c;
	}
	changes->n = kept;
	return dropped;
}

int infer_keep_coined;

/* ---- a bare LR, named from the parent's state (round 13) ----------------
 * "LR=0.06", "increase LR from 1e-3 to 3e-3": autoresearch's train.py has
 * four learning rates (matrix, embedding, unembedding, scalar) and a bare
 * "LR" names none of them; a file with one optimizer has one (desc.lr,
 * the corpus's name). Which kind of file this is the text does not say,
 * but the parent's state may:
 *   - it knows desc.lr (an earlier bare LR, or the baseline's "lr=5e-4"):
 *     desc.lr again;
 *   - it knows part LRs: the one whose value is nearest the new one (a
 *     factor of 3 at most, and half as far as the next): "LR=0.06" after a
 *     kept MATRIX_LR=0.08 is the matrix LR, "LR=0.006" after matrix 0.003
 *     and scalar 0.03 the matrix's;
 *   - it knows none: desc.lr when every value is under 0.01, below every
 *     part LR autoresearch and its forks run (unembedding 0.004 aside,
 *     which no text calls bare "LR"): an AdamW-sized rate, 1e-4 to 3e-3.
 * Otherwise, and without a state, nothing. */
static const char *const part_lrs[] = { "optim.matrix_lr", "optim.embedding_lr",
					"optim.unembedding_lr", "optim.scalar_lr" };

static const char *state_value(const struct change_list *state, const char *var);

/* The factor between two positive numbers (>= 1). */
static double factor_between(double a, double b)
{
	return a > b ? a / b : b / a;
}

static const char *bare_lr_var(const struct change_list *state, const struct change *c)
{
	double v, old = 0, known;
	if (!state || !c->new_val || parse_double(c->new_val, &v) || v <= 0 ||
	    (c->old_val && (parse_double(c->old_val, &old) || old <= 0)))
		return NULL;
	if (state_value(state, "desc.lr"))
		return "desc.lr";
	const char *best = NULL;
	double f1 = 0, f2 = 0; /* the nearest factor and the next */
	int parts = 0;
	for (size_t i = 0; i < ARRAY_SIZE(part_lrs); i++) {
		const char *had = state_value(state, part_lrs[i]);
		if (!had || parse_double(had, &known) || known <= 0)
			continue;
		double f = factor_between(v, known);
		if (!parts++ || f < f1) {
			f2 = parts > 1 ? f1 : 0;
			f1 = f;
			best = part_lrs[i];
		} else if (!f2 || f < f2) {
			f2 = f;
		}
	}
	if (parts)
		return f1 <= 3 && (parts == 1 || f2 >= 2 * f1) ? best : NULL;
	return v < 0.01 && old < 0.01 ? "desc.lr" : NULL;
}

/* Each bare LR of changes named from state (NULL: none is), or dropped. */
static void resolve_bare_lr(const struct change_list *state, struct change_list *changes)
{
	int kept = 0;
	for (int i = 0; i < changes->n; i++) {
		struct change *c = &changes->v[i];
		if (strcmp(c->var, DESCRIBE_BARE_LR)) {
			changes->v[kept++] = *c;
			continue;
		}
		const char *var = bare_lr_var(state, c);
		int taken = 0; /* a knob the text named as well keeps its own reading */
		for (int k = 0; var && k < changes->n; k++)
			taken |= !strcmp(changes->v[k].var, var);
		if (!var || taken) {
			change_free(c);
			continue;
		}
		free(c->var);
		c->var = xstrdup(var);
		changes->v[kept++] = *c;
	}
	changes->n = kept;
}

/* Append the changes of mine to out, release mine; returns how many. */
static int move_changes(struct change_list *mine, struct change_list *out)
{
	for (int i = 0; i < mine->n; i++)
		change_list_add_span(out, mine->v[i].var, mine->v[i].old_val, mine->v[i].new_val,
				     mine->v[i].span);
	int n = mine->n;
	change_list_release(mine);
	return n;
}

int infer_changes(const char *description, struct change_list *out)
{
	return infer_changes_in(description, NULL, out);
}

int infer_changes_in(const char *description, const struct change_list *parent_state,
		     struct change_list *out)
{
	struct change_list mine = CHANGE_LIST_INIT;
	describe_changes(description, &mine);
	resolve_bare_lr(parent_state, &mine);
	if (!infer_keep_coined)
		infer_drop_coined(&mine);
	return move_changes(&mine, out);
}

int infer_stated(const char *description, struct change_list *out)
{
	/* a root states its settings against nothing: "baseline: lr=5e-4
	 * AdamW" is a one-optimizer file's desc.lr (bare_lr_var) */
	static const struct change_list nothing = CHANGE_LIST_INIT;
	struct change_list mine = CHANGE_LIST_INIT;
	describe_stated(description, &mine);
	resolve_bare_lr(&nothing, &mine);
	return move_changes(&mine, out);
}

/* ---- context --------------------------------------------------------- */

/* A state entry no description names: set ("1") while the state's width
 * may be stale, because the depth or the aspect ratio moved without a
 * width being stated (autoresearch derives width = depth x ratio, so
 * "DEPTH=8" after depth 4, width 256 made it 512, while the state still
 * says 256). Only infer_fill_old reads it: a restatement is still judged
 * against the state as it is (infer_drop_restated, the infer-eval
 * replay), but no width, and no ratio implied by one, is written down as
 * a run's old value from it. */
#define WIDTH_STALE "~model.dim.stale"

void infer_state_advance(struct change_list *state, const struct change_list *changes)
{
	int width = 0, moved = 0;
	const char *carried = NULL; /* a state copied into another carries its mark */
	for (int i = 0; i < changes->n; i++) {
		const struct change *c = &changes->v[i];
		if (!strcmp(c->var, WIDTH_STALE)) {
			carried = c->new_val ? c->new_val : "";
			continue;
		}
		/* the old side too: a later run that states the same transition
		 * restates this change (infer_drop_restated) */
		change_list_add(state, c->var, c->old_val, c->new_val);
		width |= !strcmp(c->var, "model.dim");
		moved |= !strcmp(c->var, "model.depth") || !strcmp(c->var, "model.aspect_ratio");
	}
	if (width || moved)
		change_list_add(state, WIDTH_STALE, NULL, width ? NULL : "1");
	if (carried)
		change_list_add(state, WIDTH_STALE, NULL, *carried ? carried : NULL);
}

int infer_state_resets(const char *description)
{
	return describe_no_change(description) == 2;
}

void infer_state_kept(struct change_list *state, const char *description,
		      const struct change_list *changes)
{
	int kind = changes->n ? 0 : describe_no_change(description);
	if (kind == 2)
		change_list_release(state);
	else
		infer_state_advance(state, changes);
	if (kind) {
		struct change_list stated = CHANGE_LIST_INIT;
		infer_stated(description, &stated);
		infer_drop_coined(&stated); /* a name made of prose words is no setting */
		infer_state_advance(state, &stated);
		change_list_release(&stated);
	}
}

/* Text without white space, lower case: "(0.8, 0.95)" = "(0.8,0.95)". */
static void squeeze_lower(const char *s, char *buf, size_t n)
{
	size_t o = 0;
	for (; *s && o + 1 < n; s++)
		if (!isspace((unsigned char)*s))
			buf[o++] = (char)tolower((unsigned char)*s);
	buf[o] = '\0';
}

static int same_value(const char *a, const char *b)
{
	double x, y;
	char sa[128], sb_[128];
	if (!parse_double(a, &x) && !parse_double(b, &y))
		return x == y || fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
	squeeze_lower(a, sa, sizeof(sa));
	squeeze_lower(b, sb_, sizeof(sb_));
	return !strcmp(sa, sb_);
}

static const struct change *state_entry(const struct change_list *state, const char *var)
{
	for (int i = 0; i < state->n; i++)
		if (!strcmp(state->v[i].var, var))
			return &state->v[i];
	return NULL;
}

static const char *state_value(const struct change_list *state, const char *var)
{
	const struct change *e = state_entry(state, var);
	return e ? e->new_val : NULL;
}

/* c states both sides, and they are the transition that set the state's
 * value: "WARMDOWN_RATIO 0.5->0.3" after a kept "WARMDOWN_RATIO 0.5->0.3"
 * (two GPUs ran one change side by side; the second row restates the
 * first's). A stated old side that differs from the recorded one, or one
 * the state never recorded ("EMBEDDING_LR 0.65 -> 0.6" after a kept
 * "EMBEDDING_LR=0.6"), says the text knows the parent better: kept. */
static int restates_transition(const struct change_list *state, const struct change *c)
{
	const struct change *e = state_entry(state, c->var);
	return e && e->old_val && e->new_val && c->old_val && c->new_val &&
	       same_value(e->old_val, c->old_val) && same_value(e->new_val, c->new_val);
}

static int width_stale(const struct change_list *state)
{
	return state_value(state, WIDTH_STALE) != NULL;
}

/* The aspect ratio a state implies where it knows the depth and the width
 * but not the ratio: autoresearch sets model_dim = depth * ASPECT_RATIO
 * (rounded up to whole heads, so only a ratio that divides evenly is
 * implied). buf gets it; NULL when the state implies none. */
static const char *implied_aspect_ratio(const struct change_list *state, char *buf, size_t n)
{
	const char *depth = state_value(state, "model.depth"), *dim = state_value(state, "model.dim");
	double d, w;
	if (state_value(state, "model.aspect_ratio") || !depth || !dim || parse_double(depth, &d) ||
	    parse_double(dim, &w) || d < 1 || w / d != floor(w / d))
		return NULL;
	snprintf(buf, n, "%.0f", w / d);
	return buf;
}

/* The form of a value, for telling whether two values can be one knob's
 * old and new: "#" for a number, "w" for a word ("relu", "true"), else
 * the text squeezed (squeeze_lower) with each run of digits and points
 * as '#': "(0.8, 0.95)" -> "(#,#)", "50M" -> "#m", "2^15" -> "#^#". */
static void value_form(const char *v, char *buf, size_t n)
{
	double x;
	char sq[128];
	if (!parse_double(v, &x)) {
		snprintf(buf, n, "#");
		return;
	}
	squeeze_lower(v, sq, sizeof(sq));
	size_t o = 0;
	int word = 1;
	for (const char *s = sq; *s && o + 1 < n; s++) {
		if (isdigit((unsigned char)*s) || *s == '.') {
			if (!o || buf[o - 1] != '#')
				buf[o++] = '#';
			word = 0;
			continue;
		}
		if (!isalpha((unsigned char)*s) && *s != '_' && *s != '-')
			word = 0;
		buf[o++] = *s;
	}
	buf[o] = '\0';
	if (word && o)
		snprintf(buf, n, "w");
}

static int same_form(const char *a, const char *b)
{
	char fa[128], fb[128];
	value_form(a, fa, sizeof(fa));
	value_form(b, fb, sizeof(fb));
	return !strcmp(fa, fb);
}

/* What the state knows of var: its value, or for the aspect ratio, when
 * with_implied, the ratio its depth and width imply (buf holds it). */
static const char *known_value(const struct change_list *state, const char *var, int with_implied,
			       char *buf, size_t n)
{
	const char *had = state_value(state, var);
	if (!had && with_implied && !strcmp(var, "model.aspect_ratio"))
		had = implied_aspect_ratio(state, buf, n);
	return had;
}

int infer_fill_old(const struct change_list *parent_state, struct change_list *changes)
{
	int filled = 0, stale = width_stale(parent_state);
	char ratio[32];
	for (int i = 0; i < changes->n; i++) {
		struct change *c = &changes->v[i];
		if (c->old_val || !c->new_val || (stale && !strcmp(c->var, "model.dim")))
			continue;
		const char *had = known_value(parent_state, c->var, !stale, ratio, sizeof(ratio));
		/* a value of another form ("2^15" for 32768, "50K" for "11.5M")
		 * may be another reading of the knob: '?' says less, not wrong */
		if (!had || same_value(had, c->new_val) || !same_form(had, c->new_val))
			continue;
		c->old_val = xstrdup(had);
		filled++;
	}
	return filled;
}

int infer_drop_restated(const struct change_list *parent_state, struct change_list *changes)
{
	int kept = 0, dropped = 0;
	char ratio[32];
	for (int i = 0; i < changes->n; i++) {
		struct change *c = &changes->v[i];
		/* "X 0.65 -> 0.6" where the state says 0.6: the text knows the
		 * parent better than the state does, and is kept */
		const char *had = c->new_val && !c->old_val
					  ? known_value(parent_state, c->var, 1, ratio, sizeof(ratio))
					  : NULL;
		if ((had && same_value(had, c->new_val)) || restates_transition(parent_state, c)) {
			change_free(c);
			dropped++;
			continue;
		}
		changes->v[kept++] = *c;
	}
	changes->n = kept;
	return dropped;
}
