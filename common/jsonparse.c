/* jsonparse.c — fast JSON object parser onto jansson values; see jsonparse.h.
 *
 * Why: jansson's parser reads through a per-character stream callback and
 * copies every token through a growing buffer; on ~1 KB run records that was
 * the largest single cost of ingest. This one walks the bytes once and hands
 * jansson finished strings. Rules mirrored from json_loadb:
 *   - whitespace is space, \t, \n, \r; only whitespace may follow the value;
 *   - strings: no raw byte below 0x20, well-formed UTF-8 (no overlongs, no
 *     surrogates, nothing above U+10FFFF), escapes \" \\ \/ \b \f \n \r \t
 *     and \uXXXX with surrogate pairs; \u0000 declined (no JSON_ALLOW_NUL);
 *   - numbers: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; without a
 *     fraction or exponent an integer (strtoll, declined on overflow), else
 *     a real (strtod, declined on overflow; underflow accepted as jansson
 *     does);
 *   - true, false, null; a duplicate key declines (JSON_REJECT_DUPLICATES).
 * Anything else returns NULL and jansson takes over. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "jsonparse.h"

#define MAX_DEPTH 64

struct cursor {
	const char *p, *end;
	int depth;
};

static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
		c->p++;
}

/* Length of the well-formed UTF-8 sequence at s (lead byte >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *s, const unsigned char *end)
{
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
	else
		return 0;
	if ((size_t)(end - s) < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

static int hex4(const char *s, const char *end, unsigned *out)
{
	unsigned v = 0;
	if (end - s < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char ch = s[i];
		unsigned d;
		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			d = (unsigned)(ch - 'A' + 10);
		else
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* One escape after the backslash at *pp; appends its UTF-8 to o. Returns
 * the bytes written, 0 when declined. */
static size_t unescape(const char **pp, const char *end, char *o)
{
	const char *p = *pp + 1;
	unsigned cp, lo;
	if (p >= end)
		return 0;
	*pp = p + 1;
	switch (*p) {
	case '"': case '\\': case '/': *o = *p; return 1;
	case 'b': *o = '\b'; return 1;
	case 'f': *o = '\f'; return 1;
	case 'n': *o = '\n'; return 1;
	case 'r': *o = '\r'; return 1;
	case 't': *o = '\t'; return 1;
	case 'u': break;
	default: return 0;
	}
	if (hex4(p + 1, end, &cp) || cp == 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
		return 0;
	*pp = p + 5;
	if (cp >= 0xD800 && cp <= 0xDBFF) { /* a high surrogate needs its low half */
		if (end - *pp < 6 || (*pp)[0] != '\\' || (*pp)[1] != 'u' ||
		    hex4(*pp + 2, end, &lo) || lo < 0xDC00 || lo > 0xDFFF)
			return 0;
		*pp += 6;
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	}
	return put_utf8(o, cp);
}

/* A string at c->p (on the opening quote). Plain strings are handed to
 * jansson as they lie in the text; with escapes they are decoded into buf
 * (never longer than the text). Sets *s and *n; 0 ok, -1 declined. */
static int scan_string(struct cursor *c, char **buf, size_t *cap, const char **s, size_t *n)
{
	const char *p = ++c->p, *start = p;
	size_t o = 0;
	int escaped = 0;
	while (p < c->end && *p != '"') {
		unsigned char ch = (unsigned char)*p;
		if (ch < 0x20)
			return -1;
		if (ch == '\\') {
			if (!escaped) { /* copy what came before the first escape */
				size_t need = (size_t)(c->end - start);
				if (need > *cap) {
					char *nb = realloc(*buf, need);
					if (!nb)
						return -1;
					*buf = nb;
					*cap = need;
				}
				memcpy(*buf, start, (size_t)(p - start));
				o = (size_t)(p - start);
				escaped = 1;
			}
			size_t k = unescape(&p, c->end, *buf + o);
			if (!k)
				return -1;
			o += k;
			continue;
		}
		size_t k = ch < 0x80 ? 1 : utf8_len((const unsigned char *)p, (const unsigned char *)c->end);
		if (!k)
			return -1;
		if (escaped)
			memcpy(*buf + o, p, k);
		o += k;
		p += k;
	}
	if (p >= c->end)
		return -1;
	c->p = p + 1;
	*s = escaped ? *buf : start;
	*n = o;
	return 0;
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static json_t *scan_number(struct cursor *c)
{
	const char *p = c->p, *start = p;
	int real = 0;
	char tmp[64];
	if (p < c->end && *p == '-')
		p++;
	if (p >= c->end || !is_digit(*p))
		return NULL;
	if (*p == '0' && p + 1 < c->end && is_digit(p[1]))
		return NULL;
	while (p < c->end && is_digit(*p))
		p++;
	if (p < c->end && *p == '.') {
		real = 1;
		if (++p >= c->end || !is_digit(*p))
			return NULL;
		while (p < c->end && is_digit(*p))
			p++;
	}
	if (p < c->end && (*p == 'e' || *p == 'E')) {
		real = 1;
		if (++p < c->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= c->end || !is_digit(*p))
			return NULL;
		while (p < c->end && is_digit(*p))
			p++;
	}
	if ((size_t)(p - start) >= sizeof(tmp)) /* rare: jansson handles it */
		return NULL;
	memcpy(tmp, start, (size_t)(p - start));
	tmp[p - start] = '\0';
	c->p = p;
	errno = 0;
	if (!real) {
		long long v = strtoll(tmp, NULL, 10);
		return errno == ERANGE ? NULL : json_integer(v);
	}
	double d = strtod(tmp, NULL);
	if ((d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE)
		return NULL;
	return json_real(d);
}

static json_t *scan_value(struct cursor *c, char **buf, size_t *cap);

static int literal(struct cursor *c, const char *word, size_t n)
{
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n))
		return 0;
	c->p += n;
	return 1;
}

static json_t *scan_object(struct cursor *c, char **buf, size_t *cap)
{
	json_t *obj = json_object();
	c->p++;
	skip_ws(c);
	if (c->p < c->end && *c->p == '}') {
		c->p++;
		return obj;
	}
	for (;;) {
		const char *key;
		size_t klen;
		skip_ws(c);
		if (c->p >= c->end || *c->p != '"' || scan_string(c, buf, cap, &key, &klen))
			goto decline;
		if (json_object_getn(obj, key, klen)) /* duplicate */
			goto decline;
		/* the key must be copied before the value reuses buf */
		char small[128], *k = klen < sizeof(small) ? small : malloc(klen + 1);
		if (!k)
			goto decline;
		memcpy(k, key, klen);
		skip_ws(c);
		json_t *v = NULL;
		if (c->p < c->end && *c->p == ':') {
			c->p++;
			v = scan_value(c, buf, cap);
		}
		int bad = !v || json_object_setn_new_nocheck(obj, k, klen, v);
		if (k != small)
			free(k);
		if (bad)
			goto decline;
		skip_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == '}') {
			c->p++;
			return obj;
		}
		goto decline;
	}
decline:
	json_decref(obj);
	return NULL;
}

static json_t *scan_array(struct cursor *c, char **buf, size_t *cap)
{
	json_t *arr = json_array();
	c->p++;
	skip_ws(c);
	if (c->p < c->end && *c->p == ']') {
		c->p++;
		return arr;
	}
	for (;;) {
		json_t *v = scan_value(c, buf, cap);
		if (!v || json_array_append_new(arr, v))
			break;
		skip_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == ']') {
			c->p++;
			return arr;
		}
		break;
	}
	json_decref(arr);
	return NULL;
}

static json_t *scan_value(struct cursor *c, char **buf, size_t *cap)
{
	json_t *v = NULL;
	const char *s;
	size_t n;
	skip_ws(c);
	if (c->p >= c->end)
		return NULL;
	switch (*c->p) {
	case '{':
	case '[':
		if (++c->depth > MAX_DEPTH)
			return NULL;
		v = *c->p == '{' ? scan_object(c, buf, cap) : scan_array(c, buf, cap);
		c->depth--;
		break;
	case '"':
		if (!scan_string(c, buf, cap, &s, &n))
			v = json_stringn_nocheck(s, n);
		break;
	case 't': v = literal(c, "true", 4) ? json_true() : NULL; break;
	case 'f': v = literal(c, "false", 5) ? json_false() : NULL; break;
	case 'n': v = literal(c, "null", 4) ? json_null() : NULL; break;
	default: v = scan_number(c);
	}
	/* jansson reads "truex" or "1x" as one bad token: what follows a value
	 * must end it */
	if (v && c->p < c->end && (!*c->p || !strchr(" \t\r\n,]}", *c->p))) {
		json_decref(v);
		return NULL;
	}
	return v;
}

json_t *json_parse_object_fast(const char *text, size_t len)
{
	struct cursor c = { text, text + len, 0 };
	char *buf = NULL;
	size_t cap = 0;
	skip_ws(&c);
	if (c.p >= c.end || *c.p != '{')
		return NULL;
	json_t *v = scan_value(&c, &buf, &cap);
	free(buf);
	skip_ws(&c);
	if (v && c.p != c.end) {
		json_decref(v);
		return NULL;
	}
	return v;
}
