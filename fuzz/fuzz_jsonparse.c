/* fuzz_jsonparse.c — libFuzzer harness: the fast JSON object reader
 * (common/jsonparse.c) against jansson's json_loadb(JSON_REJECT_DUPLICATES),
 * differentially. Aborts when
 *   - the fast reader accepts a text jansson rejects;
 *   - both accept and the values differ: jansson's compact dump in member
 *     order (types, order, strings, numbers) or the canonical text
 *     (common/runrec.h);
 *   - jansson accepts and the fast reader declines a text it should take:
 *     jsonparse.h lets it decline only a top-level value that is not an
 *     object, nesting deeper than 64 and (jsonparse.c) a number token of
 *     64 characters or more; everything else jansson accepts it must too.
 *     One more, jansson's own quirk: a NUL byte straight after a number or
 *     a literal ('{"a":1<NUL>}') is skipped by jansson 2.14 (its stream
 *     reader takes the NUL that ends its one-byte lookahead buffer for "no
 *     byte pushed back", and reads on), where the fast reader declines; the
 *     caller then gets jansson's answer, so the value is the same. */
#include <string.h>
#include "fuzz_check.h"
#include "jsonparse.h"
#include "runrec.h"

#define FAST_MAX_DEPTH 64 /* jsonparse.c's MAX_DEPTH */
#define FAST_MAX_NUMBER 63 /* jsonparse.c's number buffer, less the NUL */

static int depth(const json_t *v)
{
	int d = 0;
	if (json_is_object(v)) {
		const char *k;
		json_t *m;
		json_object_foreach((json_t *)v, k, m) {
			int dm = depth(m);
			d = dm > d ? dm : d;
		}
		return d + 1;
	}
	if (json_is_array(v)) {
		size_t i;
		json_t *m;
		json_array_foreach(v, i, m) {
			int dm = depth(m);
			d = dm > d ? dm : d;
		}
		return d + 1;
	}
	return 0;
}

/* Does text (which jansson accepted) hold a number token longer than the
 * fast reader's buffer? Strings are skipped; outside them a number is a
 * run of [-+.0-9eE]. */
static int long_number(const char *s, size_t n)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			run = 0;
		} else if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' ||
			   c == 'E') {
			if (++run > FAST_MAX_NUMBER)
				return 1;
		} else {
			run = 0;
		}
	}
	return 0;
}

static char *dump(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	json_error_t je;
	json_t *fast = json_parse_object_fast(text, size);
	json_t *ref = json_loadb(text, size, JSON_REJECT_DUPLICATES, &je);
	FUZZ_CHECK(!fast || ref, "the fast reader accepted what jansson rejects (%s, line %d column %d)",
		   je.text, je.line, je.column);
	if (!ref)
		return 0;
	if (!fast) {
		int d = depth(ref);
		FUZZ_CHECK(!json_is_object(ref) || d > FAST_MAX_DEPTH || long_number(text, size) ||
				   memchr(text, '\0', size),
			   "the fast reader declined an object jansson accepts (depth %d)", d);
		json_decref(ref);
		return 0;
	}
	char *a = dump(fast), *b = dump(ref);
	FUZZ_CHECK(a && b && !strcmp(a, b), "values differ:\nfast:    %s\njansson: %s", a, b);
	FUZZ_CHECK(json_equal(fast, ref), "values differ under json_equal: %s", a);
	char *ca = runrec_canonical(fast), *cb = runrec_canonical(ref);
	FUZZ_CHECK(!strcmp(ca, cb), "canonical texts differ:\nfast:    %s\njansson: %s", ca, cb);
	free(ca);
	free(cb);
	free(a);
	free(b);
	json_decref(fast);
	json_decref(ref);
	return 0;
}
