/* curve.c — bounded training curves and their runrec/1 form; see curve.h. */
#include <math.h>
#include <string.h>
#include "curve.h"
#include "runrec.h"
#include "util.h"

void curve_init(struct curve *c)
{
	memset(c, 0, sizeof(*c));
	c->stride = 1;
}

/* Keep kept[0], kept[2], kept[4], …: the points whose index is a multiple
 * of twice the stride. */
static void halve(struct curve *c)
{
	int j = 0;
	for (int i = 0; i < c->n; i += 2)
		c->kept[j++] = c->kept[i];
	c->n = j;
	c->stride *= 2;
}

void curve_add(struct curve *c, const struct curve_point *p)
{
	long index = c->offered++;
	if (!c->stride) /* a zeroed struct curve is an empty curve too */
		c->stride = 1;
	c->last = *p;
	if (index % c->stride)
		return;
	if (c->n == (int)ARRAY_SIZE(c->kept)) {
		halve(c);
		if (index % c->stride)
			return;
	}
	c->kept[c->n++] = *p;
}

void curve_add_eval(struct curve *c, double step, double val_bpb)
{
	int i = c->neval < CURVE_MAX_EVALS ? c->neval++ : CURVE_MAX_EVALS - 1;
	c->eval_step[i] = step;
	c->eval_bpb[i] = val_bpb;
}

double curve_round(double v)
{
	return isfinite(v) ? round(v * 4096.0) / 4096.0 : v;
}

/* Index (among offered points) of the last kept point. */
static long last_kept_index(const struct curve *c)
{
	return c->n ? (long)(c->n - 1) * c->stride : -1;
}

int curve_points(const struct curve *c)
{
	return c->n + (c->offered && c->offered - 1 != last_kept_index(c));
}

/* step and tokens are counts: integers in the JSON; the rest reals. */
static json_t *num(double v, int count)
{
	if (!isfinite(v))
		return json_null();
	if (count && v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

static double field(const struct curve_point *p, int f)
{
	switch (f) {
	case 0: return p->step;
	case 1: return p->tokens;
	case 2: return p->train_loss;
	case 3: return p->lr_mult;
	default: return p->tok_per_s;
	}
}

static const char *const names[] = { "step", "tokens", "train_loss", "lr_mult", "tok_per_s" };

json_t *curve_to_json(const struct curve *c)
{
	if (!c->offered && !c->neval)
		return json_null();
	json_t *o = json_object();
	int with_last = curve_points(c) > c->n;
	for (int f = 0; f < (int)ARRAY_SIZE(names); f++) {
		json_t *a = json_array();
		for (int i = 0; i < c->n; i++)
			json_array_append_new(a, num(field(&c->kept[i], f), f <= 1));
		if (with_last)
			json_array_append_new(a, num(field(&c->last, f), f <= 1));
		json_object_set_new(o, names[f], a);
	}
	if (c->neval) {
		json_t *steps = json_array(), *bpb = json_array();
		for (int i = 0; i < c->neval; i++) {
			json_array_append_new(steps, num(c->eval_step[i], 1));
			json_array_append_new(bpb, num(c->eval_bpb[i], 0));
		}
		json_object_set_new(o, "eval", json_pack("{s:o,s:o}", "step", steps, "val_bpb", bpb));
	}
	return o;
}

/* ---- validation ---------------------------------------------------------- */

static const char *kind(const json_t *v)
{
	return json_is_object(v) ? "object" : json_is_array(v) ? "array" : json_is_string(v) ? "string" :
	       json_is_boolean(v) ? "boolean" : json_is_null(v) ? "null" : "number";
}

/* path must be an array of numbers or nulls, of *len elements when *len >= 0
 * (else it sets *len), at most CURVE_MAX_POINTS. */
static int check_column(const json_t *a, const char *path, long *len, sb *err)
{
	if (!json_is_array(a))
		return field_problem(err, path, "expected an array of numbers or null, got %s", kind(a));
	long n = (long)json_array_size(a);
	if (n > CURVE_MAX_POINTS)
		return field_problem(err, path, "has %ld points; a curve has at most %d (down-sample it)",
				     n, CURVE_MAX_POINTS);
	if (*len >= 0 && n != *len)
		return field_problem(err, path, "has %ld points but the curve's other arrays have %ld; "
				     "every array of a curve has one value a point", n, *len);
	*len = n;
	for (size_t i = 0; i < (size_t)n; i++) {
		json_t *v = json_array_get(a, i);
		if (!json_is_number(v) && !json_is_null(v))
			return field_problem(err, path, "point %zu: expected a number or null, got %s", i,
					     kind(v));
	}
	return 0;
}

/* An object of columns; step is required, other members are columns too. */
static int check_columns(const json_t *o, const char *path, sb *err)
{
	char sub[96];
	long len = -1;
	int n = 0;
	if (!json_is_object(o))
		return field_problem(err, path, "expected an object of arrays, got %s", kind(o));
	if (!json_object_get(o, "step"))
		n += field_problem(err, path, "has no 'step' array");
	else {
		snprintf(sub, sizeof(sub), "%s.step", path);
		n += check_column(json_object_get(o, "step"), sub, &len, err);
	}
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v) {
		if (!strcmp(k, "step") || (!strcmp(path, "curve") && !strcmp(k, "eval")))
			continue;
		snprintf(sub, sizeof(sub), "%s.%.40s", path, k);
		n += check_column(v, sub, &len, err);
	}
	return n;
}

int curve_validate(const json_t *v, sb *err)
{
	if (!v || json_is_null(v))
		return 0;
	int n = check_columns(v, "curve", err);
	json_t *ev = json_is_object(v) ? json_object_get(v, "eval") : NULL;
	if (ev && !json_is_null(ev))
		n += check_columns(ev, "curve.eval", err);
	return n;
}
