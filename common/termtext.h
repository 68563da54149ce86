/* termtext.h — record text made safe for a terminal: control characters
 * (ESC, CR, tab, …) become visible \xNN escapes, so text from a run record
 * cannot move the cursor, recolour the screen or break a line layout.
 * For the aligned text views that do not go through table.h (ledger show,
 * ledger diff). Low-level: builds on sb only. */
#ifndef RL_TERMTEXT_H
#define RL_TERMTEXT_H
#include "sb.h"

/* Append s with every byte < 0x20 and 0x7f written as \xNN, except '\n'
 * when keep_newlines. Other bytes (UTF-8 included) pass unchanged. */
void term_escape(sb *out, const char *s, int keep_newlines);

#endif
