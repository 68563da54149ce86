/* sb.h — a growable, always NUL-terminated string builder.
 * Low-level: must not call SQLite, jansson, CUDA or ledger code.
 * buf is never NULL (an empty builder points at a static ""), so callers can
 * print it without checks. Allocation failure aborts (see xmalloc in util.h). */
#ifndef RL_SB_H
#define RL_SB_H
#include <stddef.h>
#include <stdarg.h>

typedef struct sb {
	char *buf;
	size_t len;
	size_t cap;
} sb;

#define SB_INIT { sb_empty, 0, 0 }
extern char sb_empty[];

void sb_init(sb *s);
void sb_release(sb *s);          /* free and reset to empty */
void sb_reset(sb *s);            /* keep memory, length 0 */
void sb_grow(sb *s, size_t extra);
void sb_add(sb *s, const char *data, size_t n);
void sb_adds(sb *s, const char *str);
void sb_addc(sb *s, char c);
void sb_addf(sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(sb *s, const char *fmt, va_list ap);
char *sb_detach(sb *s);          /* caller frees; s becomes empty */
void sb_rtrim(sb *s);            /* drop trailing whitespace */

#endif
