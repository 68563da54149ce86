/* randjson.h — random JSON values for the unit tests that compare our JSON
 * code with jansson's (test_canonical.c): nested objects
 * and arrays, keys sharing prefixes, strings mixing escapes and UTF-8,
 * doubles from bit patterns and from decimals. Deterministic (fixed seed).
 * Header-only: each test program includes it once. */
#ifndef RL_RANDJSON_H
#define RL_RANDJSON_H
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13; /* xorshift64 */
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double random_double(void)
{
	static const double decimals[] = { 0.04, 0.6, 0.01, 300.1, 325.9, 1.2457, 46.01, 538.0 };
	switch (next() % 5) {
	case 0: { /* any finite bit pattern: subnormals, huge, tiny */
		uint64_t bits;
		double d;
		do {
			bits = next();
			memcpy(&d, &bits, sizeof(d));
		} while (!isfinite(d));
		return d;
	}
	case 1: return (double)(int64_t)(next() % 2000001) - 1000000; /* integral reals */
	case 2: { /* two statements: the order of next() calls is then fixed */
		double d = decimals[next() % 8];
		return d * (double)(next() % 100);
	}
	case 3: return (double)(next() % 1000000) / 1e6;
	default: {
		double m = (double)(next() % 1000);
		return ldexp(m, (int)(next() % 200) - 100);
	}
	}
}

/* Random valid UTF-8 with a bias to the characters that need escapes. */
static json_t *random_string(void)
{
	static const char *const pieces[] = { "a", "model.", "lr", "\"", "\\", "/", "\n", "\t",
					      "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac",
					      "\xf0\x9f\x98\x80", " ", "0", "_", "seed" };
	char buf[128];
	size_t len = 0, n = next() % 12;
	for (size_t i = 0; i < n; i++) {
		const char *p = pieces[next() % (sizeof(pieces) / sizeof(pieces[0]))];
		size_t l = strlen(p);
		memcpy(buf + len, p, l);
		len += l;
	}
	return json_stringn(buf, len);
}

static json_t *random_value(int depth)
{
	int kind = (int)(next() % (depth > 3 ? 6 : 8));
	switch (kind) {
	case 0: return json_null();
	case 1: return json_boolean(next() & 1);
	case 2: {
		json_int_t i = (json_int_t)next();
		return json_integer(i >> (next() % 64));
	}
	case 3: return json_real(random_double());
	case 4: case 5: return random_string();
	case 6: {
		json_t *a = json_array();
		for (size_t n = next() % 5; n > 0; n--)
			json_array_append_new(a, random_value(depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object();
		for (size_t n = next() % 14; n > 0; n--) {
			json_t *k = random_string();
			json_object_set_new(o, json_string_value(k), random_value(depth + 1));
			json_decref(k);
		}
		return o;
	}
	}
}

#endif
