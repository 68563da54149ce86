/* termtext.h — record text made safe for a terminal: control characters
 * (ESC, CR, tab, …) become visible \xNN escapes, so text from a run record
 * cannot move the cursor, recolour the screen or break a line layout.
 * For the aligned text views that do not go through table.h (ledger show,
 * ledger diff), and excerpts of input for messages. Low-level: sb and utf8. */
#ifndef RL_TERMTEXT_H
#define RL_TERMTEXT_H
#include "sb.h"

/* Append s with every byte < 0x20 and 0x7f written as \xNN, except '\n'
 * when keep_newlines. Other bytes (UTF-8 included) pass unchanged. */
void term_escape(sb *out, const char *s, int keep_newlines);

/* Append at most max bytes of s[0..n) (which need not be NUL-terminated
 * nor valid UTF-8) for a message about input: control characters and bytes
 * that are not valid UTF-8 as \xNN, cut on a character boundary, "…" when
 * cut. For naming a line by its start ("starts with 'xxxx…'") instead of
 * by a column number. */
void term_excerpt(sb *out, const char *s, size_t n, size_t max);

#endif
