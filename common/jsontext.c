/* jsontext.c — JSON scalars as text; see jsontext.h. */
#include "jsontext.h"
#include "util.h"

void double_text(double x, sb *out)
{
	char buf[40];
	if (!isfinite(x)) {
		sb_adds(out, isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	/* a whole number in digits, not "8e+01" for 80.0 (a real session's
	 * mfu 80.0 read so in ledger compare) */
	if (strchr(buf, 'e') && x == floor(x) && fabs(x) < 1e15)
		snprintf(buf, sizeof(buf), "%.0f", x);
	sb_adds(out, buf);
}

void json_text(const json_t *v, sb *out)
{
	char *s;
	switch (json_typeof(v)) {
	case JSON_STRING:
		sb_add(out, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		sb_addf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		double_text(json_real_value(v), out);
		break;
	case JSON_TRUE: sb_adds(out, "true"); break;
	case JSON_FALSE: sb_adds(out, "false"); break;
	case JSON_NULL: sb_adds(out, "null"); break;
	default:
		s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
		sb_adds(out, s ? s : "");
		free(s);
	}
}

/* Deep, so that a tuple [8, 0.9] is the same as [8.0, 0.9] too. */
int json_same(const json_t *a, const json_t *b)
{
	if (!a || !b)
		return a == b;
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_is_array(a) && json_is_array(b)) {
		size_t n = json_array_size(a);
		if (n != json_array_size(b))
			return 0;
		for (size_t i = 0; i < n; i++)
			if (!json_same(json_array_get(a, i), json_array_get(b, i)))
				return 0;
		return 1;
	}
	if (json_is_object(a) && json_is_object(b)) {
		if (json_object_size(a) != json_object_size(b))
			return 0;
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)a, k, v)
			if (!json_same(v, json_object_get(b, k)))
				return 0;
		return 1;
	}
	return json_equal(a, b);
}
