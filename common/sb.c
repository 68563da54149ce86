/* sb.c — string builder; see sb.h. */
#include "sb.h"
#include "util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char sb_empty[1];

void sb_init(sb *s)
{
	s->buf = sb_empty;
	s->len = s->cap = 0;
}

void sb_release(sb *s)
{
	if (s->cap)
		free(s->buf);
	sb_init(s);
}

void sb_reset(sb *s)
{
	s->len = 0;
	if (s->cap)
		s->buf[0] = '\0';
}

void sb_grow(sb *s, size_t extra)
{
	size_t need = s->len + extra + 1;
	if (need <= s->cap)
		return;
	size_t cap = s->cap ? s->cap : 64;
	while (cap < need)
		cap = cap * 3 / 2 + 16;
	if (s->cap) {
		s->buf = xrealloc(s->buf, cap);
	} else {
		s->buf = xmalloc(cap);
		s->buf[0] = '\0';
	}
	s->cap = cap;
}

void sb_add(sb *s, const char *data, size_t n)
{
	sb_grow(s, n);
	memcpy(s->buf + s->len, data, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

void sb_adds(sb *s, const char *str)
{
	sb_add(s, str, strlen(str));
}

void sb_addc(sb *s, char c)
{
	sb_add(s, &c, 1);
}

void sb_vaddf(sb *s, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("sb_vaddf: bad format '%s'", fmt);
	sb_grow(s, (size_t)n);
	vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
	s->len += (size_t)n;
}

void sb_addf(sb *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(s, fmt, ap);
	va_end(ap);
}

char *sb_detach(sb *s)
{
	char *out = s->cap ? s->buf : xstrdup("");
	sb_init(s);
	return out;
}

void sb_rtrim(sb *s)
{
	while (s->len && isspace((unsigned char)s->buf[s->len - 1]))
		s->buf[--s->len] = '\0';
}
