/* termtext.c — terminal-safe text; see termtext.h. */
#include "termtext.h"
#include "utf8.h"
#include "util.h"

void term_escape(sb *out, const char *s, int keep_newlines)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c < 0x20 && !(keep_newlines && c == '\n')) || c == 0x7f)
			sb_addf(out, "\\x%02x", c);
		else
			sb_addc(out, (char)c);
	}
}

void term_excerpt(sb *out, const char *s, size_t n, size_t max)
{
	size_t i = 0;
	while (i < n && i < max) {
		const unsigned char *c = (const unsigned char *)s + i;
		int k = *c < 0x80 ? 1 : utf8_sequence_len(c, n - i);
		if (k > 1 && i + (size_t)k > max)
			break; /* a character that does not fit whole */
		if (*c < 0x20 || *c == 0x7f || k == 0)
			sb_addf(out, "\\x%02x", *c);
		else
			sb_add(out, s + i, (size_t)k);
		i += k ? (size_t)k : 1;
	}
	if (i < n)
		sb_adds(out, "\u2026"); /* … */
}
