/* termtext.c — terminal-safe text; see termtext.h. */
#include "termtext.h"
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
