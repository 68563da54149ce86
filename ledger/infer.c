/* infer.c — changed variables: change lists, exact config diffs, and the
 * changes a description states (the grammar is ledger/describe.c); see
 * infer.h. Pure string code: no SQLite, no I/O. */
#include "describe.h"
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

/* ---- descriptions ---------------------------------------------------- */

int infer_changes(const char *description, struct change_list *out)
{
	return describe_changes(description, out);
}
