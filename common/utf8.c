/* utf8.c — see utf8.h. The rules are RFC 3629's, which are jansson's: a
 * string this file calls valid is one json_string accepts. */
#include <string.h>
#include "sb.h"
#include "utf8.h"
#include "util.h"

int utf8_sequence_len(const unsigned char *s, size_t n)
{
	if (n == 0)
		return 0;
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	int len;
	unsigned cp, min;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0; /* continuation byte, 0xc0/0xc1 (always overlong), 0xf5.. */
	if ((size_t)len > n)
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

int utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		if (p[i] < 0x80) { /* the common case, one byte at a time */
			i++;
			continue;
		}
		int len = utf8_sequence_len(p + i, n - i);
		if (!len)
			return 0;
		i += (size_t)len;
	}
	return 1;
}

/* s[0..n) into out, each invalid byte as U+FFFD. */
static void repair(const char *s, size_t n, sb *out)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		int len = utf8_sequence_len(p + i, n - i);
		if (len) {
			sb_add(out, s + i, (size_t)len);
			i += (size_t)len;
		} else {
			sb_adds(out, "\xef\xbf\xbd"); /* U+FFFD REPLACEMENT CHARACTER */
			i++;
		}
	}
}

char *utf8_lossy_strdup(const char *s, int *repaired)
{
	size_t n = strlen(s);
	int bad = !utf8_valid(s, n);
	if (repaired)
		*repaired = bad;
	if (!bad)
		return xstrdup(s);
	sb out = SB_INIT;
	repair(s, n, &out);
	return sb_detach(&out);
}

json_t *json_string_lossy(const char *s, int *repaired)
{
	if (repaired)
		*repaired = 0;
	if (!s)
		return NULL;
	/* validated here, so jansson need not validate again (_nocheck): the
	 * two agree on every string (tests/unit/test_common.c, utf8-2) */
	size_t n = strlen(s);
	if (utf8_valid(s, n))
		return json_stringn_nocheck(s, n);
	sb out = SB_INIT;
	repair(s, n, &out);
	json_t *v = json_stringn_nocheck(out.buf, out.len);
	sb_release(&out);
	if (repaired)
		*repaired = 1;
	return v;
}
