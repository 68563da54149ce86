/* test_curve.c — common/curve.c: the down-sampler against its definition
 * (the points kept are the multiples of the smallest power-of-two stride s
 * with ceil(n / s) <= 511, plus the last), its JSON form, and the
 * validation of a record's "curve". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "curve.h"
#include "runrec.h"

static struct curve c; /* ~25 KB */

static void offer(long n)
{
	curve_init(&c);
	for (long i = 0; i < n; i++)
		curve_add(&c, &(struct curve_point){ .step = (double)(i + 1), .tokens = (double)(i + 1) * 1024,
				.train_loss = 10.0 / (i + 1), .lr_mult = 1.0, .tok_per_s = NAN });
}

/* The steps a curve of n offered points must hold, by the definition. */
static int expected(long n, long *steps)
{
	long s = 1;
	while ((n + s - 1) / s > CURVE_MAX_POINTS - 1)
		s *= 2;
	int k = 0;
	for (long i = 0; i < n; i += s)
		steps[k++] = i + 1;
	if (n && steps[k - 1] != n)
		steps[k++] = n;
	return k;
}

static int same_as_definition(long n)
{
	long want[CURVE_MAX_POINTS + 1];
	int k = expected(n, want);
	offer(n);
	json_t *j = curve_to_json(&c);
	json_t *steps = json_object_get(j, "step");
	int ok = (int)json_array_size(steps) == k && curve_points(&c) == k;
	for (int i = 0; ok && i < k; i++)
		ok = json_integer_value(json_array_get(steps, (size_t)i)) == want[i];
	json_decref(j);
	return ok;
}

static void test_downsample(void)
{
	static const long lengths[] = { 1, 2, 510, 511, 512, 513, 1021, 1022, 1023, 4096, 100003, 2000000 };
	int bad = 0, over = 0, under = 0;
	for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
		bad += !same_as_definition(lengths[i]);
		over += curve_points(&c) > CURVE_MAX_POINTS;
		under += lengths[i] > CURVE_MAX_POINTS && curve_points(&c) < CURVE_MAX_POINTS / 2;
	}
	for (long n = 0; n < 3000; n += 7)
		bad += !same_as_definition(n);
	CHECK("curve-1 kept points are the definition's, 12 lengths to 2M and 0..3000 step 7", bad == 0);
	CHECK("curve-2 never more than 512 points", over == 0);
	CHECK("curve-3 a long run keeps at least 256", under == 0);
	offer(511);
	CHECK("curve-4 a run of 511 steps keeps every step", curve_points(&c) == 511 && c.stride == 1);
	struct curve z;
	memset(&z, 0, sizeof(z));
	curve_add(&z, &(struct curve_point){ .step = 1 });
	curve_add(&z, &(struct curve_point){ .step = 2 });
	CHECK("curve-5 a zeroed curve works as an empty one", curve_points(&z) == 2);
	curve_init(&z);
	json_t *none = curve_to_json(&z);
	CHECK("curve-6 nothing offered is JSON null", json_is_null(none));
	json_decref(none);
}

static void test_json(void)
{
	offer(3);
	for (int i = 0; i < 70; i++)
		curve_add_eval(&c, i, 1.0 + i);
	json_t *j = curve_to_json(&c);
	json_t *ev = json_object_get(j, "eval");
	CHECK("curve-7 every column has one value a point",
	      json_array_size(json_object_get(j, "tokens")) == 3 &&
	      json_array_size(json_object_get(j, "train_loss")) == 3 &&
	      json_array_size(json_object_get(j, "lr_mult")) == 3 &&
	      json_array_size(json_object_get(j, "tok_per_s")) == 3);
	CHECK("curve-8 unknown values are null, counts integers",
	      json_is_null(json_array_get(json_object_get(j, "tok_per_s"), 0)) &&
	      json_is_integer(json_array_get(json_object_get(j, "tokens"), 2)) &&
	      json_is_real(json_array_get(json_object_get(j, "train_loss"), 2)));
	CHECK("curve-9 evals are bounded and the last one kept",
	      json_array_size(json_object_get(ev, "val_bpb")) == CURVE_MAX_EVALS &&
	      json_real_value(json_array_get(json_object_get(ev, "val_bpb"), CURVE_MAX_EVALS - 1)) == 70.0);
	sb err = SB_INIT;
	CHECK("curve-10 its own output validates", curve_validate(j, &err) == 0 && err.len == 0);
	json_decref(j);
	sb_release(&err);
	CHECK("curve-11 rounding to 1/4096", curve_round(2.3457) == 9608.0 / 4096 && isnan(curve_round(NAN)));
}

/* Problems runrec_validate finds in a record with this curve (JSON text). */
static int problems(const char *curve, const char *needle)
{
	sb text = SB_INIT, err = SB_INIT;
	sb_addf(&text, "{\"schema\":\"runrec/1\",\"status\":\"ok\",\"curve\":%s}", curve);
	json_t *rec = json_loads(text.buf, 0, NULL);
	int rc = runrec_validate(rec, &err);
	int found = !needle || strstr(err.buf ? err.buf : "", needle) != NULL;
	if (!found)
		printf("#   %s\n", err.buf ? err.buf : "(no error)");
	json_decref(rec);
	sb_release(&text);
	sb_release(&err);
	return rc && found;
}

static void test_validate(void)
{
	CHECK("curve-12 null and absent are valid", !problems("null", NULL));
	CHECK("curve-13 a full curve is valid",
	      !problems("{\"step\":[1,2],\"tokens\":[null,2],\"train_loss\":[3.5,3],\"lr_mult\":[1,1],"
			"\"tok_per_s\":[null,null],\"eval\":{\"step\":[2],\"val_bpb\":[1.2]}}", NULL));
	CHECK("curve-14 arrays of other lengths", problems("{\"step\":[1,2],\"train_loss\":[3]}",
							    "field 'curve.train_loss': has 1 points but"));
	CHECK("curve-15 a string in an array", problems("{\"step\":[1,\"2\"]}",
							 "field 'curve.step': point 1: expected a number or null, got string"));
	CHECK("curve-16 no step", problems("{\"train_loss\":[1]}", "field 'curve': has no 'step' array"));
	CHECK("curve-17 not an object", problems("[1]", "field 'curve': expected an object of arrays, got array"));
	CHECK("curve-18 eval checked alike", problems("{\"step\":[1],\"eval\":{\"step\":[1],\"val_bpb\":[]}}",
						       "field 'curve.eval.val_bpb': has 0 points"));
	sb big = SB_INIT;
	sb_adds(&big, "{\"step\":[0");
	for (int i = 1; i <= CURVE_MAX_POINTS; i++)
		sb_addf(&big, ",%d", i);
	sb_adds(&big, "]}");
	CHECK("curve-19 more than 512 points", problems(big.buf, "has 513 points; a curve has at most 512"));
	sb_release(&big);
}

int main(void)
{
	test_downsample();
	test_json();
	test_validate();
	return check_status();
}
