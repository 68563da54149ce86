/* test_canonical.c — runrec_canonical (common/runrec.c, our own printer)
 * against jansson's json_dumps(COMPACT | SORT_KEYS | REAL_PRECISION(17)),
 * the definition of the canonical text: a record's identity is the SHA-256
 * of these bytes, so every byte must agree.
 *
 * Test plan:
 *   canonical-1.x  hand-picked values: escapes, unicode, numbers of every
 *                  shape (exponents, -0.0, integral reals, extremes)
 *   canonical-2.x  parsed texts with \u escapes, surrogate pairs, nesting
 *   canonical-3.x  20,000 random values (fixed seed): nested objects and
 *                  arrays, keys sharing prefixes, random bytes of UTF-8,
 *                  random doubles from bit patterns and from decimals
 *   canonical-4.x  runrec_identity is the SHA-256 of jansson's text;
 *                  runrec_canonical_add and runrec_canonical_member agree */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "randjson.h"
#include "runrec.h"
#include "sha256.h"

static char *reference(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17) |
				     JSON_ENCODE_ANY);
}

/* 1 when both printers agree; prints both on a mismatch. */
static int same(const json_t *v)
{
	char *ours = runrec_canonical(v), *theirs = reference(v);
	int ok = ours && theirs && !strcmp(ours, theirs);
	if (!ok)
		printf("#   ours:   %s\n#   jansson: %s\n", ours ? ours : "(null)",
		       theirs ? theirs : "(null)");
	free(ours);
	free(theirs);
	return ok;
}

static int same_new(json_t *v)
{
	int ok = same(v);
	json_decref(v);
	return ok;
}

static void hand_picked(void)
{
	static const double reals[] = { 0.0, -0.0, 1.0, -1.0, 0.1, 0.03, 1.0 / 3, 300.1, 1e16,
					 1e17, 1.5e17, 1e20, 1e100, 1e-4, 1e-5, 1.25e-7, 1e-300,
					 5e-324, DBL_MIN, DBL_MAX, -DBL_MAX, 123456789012345678.0,
					 0.000123, 9007199254740993.0, 2.5e-310 };
	static const json_int_t ints[] = { 0, 1, -1, 42, 1000000, LLONG_MAX, LLONG_MIN,
					   LLONG_MIN + 1 };
	int ok = 1;
	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++)
		ok &= same_new(json_real(reals[i]));
	CHECK("canonical-1.1", ok);
	ok = 1;
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		ok &= same_new(json_integer(ints[i]));
	CHECK("canonical-1.2", ok);
	/* every control character, quote, backslash, slash, DEL, UTF-8 */
	char s[40];
	for (int c = 1; c < 32; c++)
		s[c - 1] = (char)c;
	memcpy(s + 31, "\"\\/\x7f\xc3\xa9", 7);
	CHECK("canonical-1.3", same_new(json_stringn(s, 38)));
	CHECK("canonical-1.4", same_new(json_string("line\nbreak \xe2\x80\xa8 \xf0\x9f\x98\x80")));
	CHECK("canonical-1.5", same_new(json_pack("{s:[], s:{}, s:n, s:b, s:b, s:[n,[],{}]}", "z", "a",
						  "m", "t", 1, "f", 0, "nest")));
	CHECK("canonical-1.6", same_new(json_pack("{s:i, s:i, s:i, s:i}", "b", 1, "a", 2, "ab", 3,
						  "a\n", 4)));
	json_t *big = json_object();
	for (int i = 0; i < 100; i++) { /* more members than the printer's stack array */
		char key[16];
		snprintf(key, sizeof(key), "k%d", (i * 37) % 100);
		json_object_set_new(big, key, json_real(i / 7.0));
	}
	CHECK("canonical-1.7", same_new(big));
}

static void parsed(void)
{
	static const char *const texts[] = {
		"{\"b\":\"\\u00e9\\u0001\\u001f\\ud83d\\ude00\",\"a\":\"\\/\\\"\\\\\",\"\\u00e9\":1}",
		"{\"x\":{\"z\":[1,2.0,-0.0,1e2,1E-7,0.1e1,1234567890123456789,-9223372036854775808]},\"w\":{\"b\":{\"a\":{}}}}",
		"{\"schema\":\"runrec/1\",\"config\":{\"optim.lr\":0.04,\"model.depth\":8,\"impl.x\":true},"
		"\"metrics\":{\"val_bpb\":1.2457,\"n\":-3},\"description\":\"a\\tb\\r\\n\\b\\f\"}",
		"{\"\":\"\",\" \":\" \",\"~\":\"\\u007f\",\"\\u0080\":\"\\uffff\"}",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char id[32];
		json_t *v = json_loads(texts[i], 0, NULL);
		snprintf(id, sizeof(id), "canonical-2.%zu", i + 1);
		CHECK(id, v && same_new(v));
	}
}

static void randomised(void)
{
	int bad = 0;
	for (int i = 0; i < 20000; i++) {
		if (!same_new(random_value(0)) && ++bad > 3)
			break;
	}
	CHECK("canonical-3.1", bad == 0);
	bad = 0;
	for (int i = 0; i < 20000; i++) /* reals alone, the hardest part */
		bad += !same_new(json_real(random_double()));
	CHECK("canonical-3.2", bad == 0);
}

static void identity(void)
{
	json_t *rec = json_loads("{\"schema\":\"runrec/1\",\"status\":\"ok\",\"metrics\":"
				 "{\"val_bpb\":0.9979}}", 0, NULL);
	char *text = reference(rec), want[65], got[65];
	sha256_hex(text, strlen(text), want);
	runrec_identity(rec, got);
	CHECK("canonical-4.1", !strcmp(got, want));
	sb s = SB_INIT;
	sb_adds(&s, "[");
	runrec_canonical_add(rec, &s);
	sb_adds(&s, "]");
	CHECK("canonical-4.2", s.len == strlen(text) + 2 && !strncmp(s.buf + 1, text, strlen(text)));
	sb_release(&s);
	size_t off, len;
	char *whole = runrec_canonical_member(rec, "metrics", &off, &len);
	const char *metrics = "{\"val_bpb\":0.99790000000000001}";
	CHECK("canonical-4.3", !strcmp(whole, text) && len == strlen(metrics) &&
				       !strncmp(whole + off, metrics, len));
	free(whole);
	whole = runrec_canonical_member(rec, "config", &off, &len);
	CHECK("canonical-4.4", !strcmp(whole, text) && len == 0);
	free(whole);
	free(text);
	json_decref(rec);
}

int main(void)
{
	hand_picked();
	parsed();
	randomised();
	identity();
	return check_status();
}
