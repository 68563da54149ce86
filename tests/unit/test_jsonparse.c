/* test_jsonparse.c — common/jsonparse.c against jansson's json_loadb(…,
 * JSON_REJECT_DUPLICATES): whatever the fast parser accepts, jansson must
 * accept and build the same value (same types, same member order, same
 * bytes); whatever jansson rejects, the fast parser must decline.
 *
 * Test plan:
 *   jsonparse-1.x  hand-picked texts it must accept (escapes, surrogate
 *                  pairs, UTF-8, numbers of every shape, nesting)
 *   jsonparse-2.x  hand-picked texts it must decline (errors, duplicates,
 *                  \u0000, overlong UTF-8, overflow, not an object)
 *   jsonparse-3.x  8,000 random objects printed compact, indented and
 *                  ASCII-escaped: every one accepted and equal
 *   jsonparse-4.1  80,000 mutations of those texts (bytes changed,
 *                  inserted, deleted): never accepted unless jansson builds
 *                  the same value */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "jsonparse.h"
#include "randjson.h"

/* Member order and integer/real matter: compare printed forms unsorted. */
static char *shape(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY);
}

/* 1 accepted and equal to jansson's, 0 declined where jansson also fails
 * or where it succeeds, -1 wrong (accepted what jansson rejects, or a
 * different value). */
static int compare(const char *text, size_t len)
{
	json_t *fast = json_parse_object_fast(text, len);
	json_t *ref = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	int r = 0;
	if (fast) {
		char *a = shape(fast), *b = ref ? shape(ref) : NULL;
		r = b && json_is_object(ref) && !strcmp(a, b) ? 1 : -1;
		if (r < 0)
			printf("#   text: %.*s\n#   fast: %s\n#   jansson: %s\n", (int)len, text, a,
			       b ? b : "(error)");
		free(a);
		free(b);
	}
	json_decref(fast);
	json_decref(ref);
	return r;
}

static int cmp_str(const char *text)
{
	return compare(text, strlen(text));
}

static void accepted(void)
{
	static const char *const texts[] = {
		"{}", " \t\r\n{ } \n",
		"{\"a\":\"\\u00e9\\u20ac\\ud83d\\ude00\\/\\\"\\\\\\b\\f\\n\\r\\t\",\"b\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}",
		"{\"n\":[0,-0,1,-1,9223372036854775807,-9223372036854775808,0.5,-0.0,1e5,1E-5,1.5e+300,4.9e-324,1e-400]}",
		"{\"x\":{\"y\":{\"z\":[[],{},[null,true,false]]}},\"\":\"\",\"k\":\"\\u007f\\u0080\"}",
		"{\"schema\":\"runrec/1\",\"config\":{\"optim.lr\":0.04,\"model.depth\":8},\"metrics\":{\"val_bpb\":1.2457}}",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char id[32];
		snprintf(id, sizeof(id), "jsonparse-1.%zu", i + 1);
		CHECK(id, cmp_str(texts[i]) == 1);
	}
}

static void declined(void)
{
	static const char *const texts[] = {
		"", "[]", "\"s\"", "1", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{,}", "{\"a\":1}x",
		"{\"a\":1 \"b\":2}", "{\"a\":1,\"a\":2}", "{\"a\":\"\\u0000\"}", "{\"a\":\"\\ud800\"}",
		"{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\t\"}",
		"{\"a\":\"\xc0\xaf\"}", "{\"a\":\"\xed\xa0\x80\"}", "{\"a\":\"\xf4\x90\x80\x80\"}",
		"{\"a\":\"\xe2\x82\"}", "{\"a\":01}", "{\"a\":-}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":+1}",
		"{\"a\":1e}", "{\"a\":1e400}", "{\"a\":99999999999999999999}", "{\"a\":truex}",
		"{\"a\":nul}", "{\"a\":True}", "{'a':1}", "\xef\xbb\xbf{}", "{\"a\":1}\0",
	};
	int ok = 1;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t len = strlen(texts[i]) + (i == sizeof(texts) / sizeof(texts[0]) - 1);
		json_t *v = json_parse_object_fast(texts[i], len);
		if (v) {
			printf("#   accepted: %s\n", texts[i]);
			ok = 0;
		}
		json_decref(v);
	}
	CHECK("jsonparse-2.1", ok);
	char deep[300];
	memset(deep, '[', sizeof(deep));
	deep[0] = '{', deep[1] = '"', deep[2] = 'a', deep[3] = '"', deep[4] = ':';
	CHECK("jsonparse-2.2", !json_parse_object_fast(deep, sizeof(deep))); /* unclosed, deep */
}

static json_t *random_object(void)
{
	for (;;) { /* json_is_object() evaluates its argument twice */
		json_t *v = random_value(0);
		if (json_is_object(v))
			return v;
		json_decref(v);
	}
}

static const size_t dump_flags[] = { JSON_COMPACT, JSON_INDENT(2), JSON_COMPACT | JSON_ENSURE_ASCII,
				     JSON_INDENT(1) | JSON_ENSURE_ASCII | JSON_ESCAPE_SLASH };

static void randomised(void)
{
	int bad = 0, mutated_bad = 0;
	long accepted_mut = 0;
	for (int i = 0; i < 8000; i++) {
		json_t *v = random_object();
		char *text = json_dumps(v, dump_flags[i % 4] | JSON_REAL_PRECISION(17));
		size_t len = strlen(text);
		bad += compare(text, len) != 1;
		for (int m = 0; m < 10; m++) { /* mutations of this text */
			static const char alphabet[] = "{}[]\",:\\u0123456789abcdefE.+-tnl \n\x01\x80\xc3\xed\xff";
			char *t = malloc(len + 2);
			size_t at = len ? next() % len : 0, tl = len;
			memcpy(t, text, len);
			char ch = alphabet[next() % (sizeof(alphabet) - 1)];
			switch (next() % 3) {
			case 0: if (len) t[at] = ch; break;
			case 1: memmove(t + at + 1, t + at, len - at); t[at] = ch; tl++; break;
			default: if (len) { memmove(t + at, t + at + 1, len - at - 1); tl--; }
			}
			int r = compare(t, tl);
			mutated_bad += r < 0;
			accepted_mut += r > 0;
			free(t);
		}
		free(text);
		json_decref(v);
	}
	CHECK("jsonparse-3.1", bad == 0);
	CHECK("jsonparse-4.1", mutated_bad == 0);
	printf("# %ld of 80000 mutated texts were still valid and parsed alike\n", accepted_mut);
}

int main(void)
{
	accepted();
	declined();
	randomised();
	return check_status();
}
