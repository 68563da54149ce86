/* suggest.h — "did you mean": the closest of a set of known words to one a
 * user typed (a command, an option, a variable key). One rule for every
 * program, so `ledger qeury`, `--fromat` and `model.dpeth` are all answered
 * the same way. */
#ifndef RL_SUGGEST_H
#define RL_SUGGEST_H
#include <stddef.h>

/* Edit distance with adjacent transpositions (optimal string alignment:
 * "qeury" -> "query" is 1), ASCII case-insensitive. Strings longer than 64
 * bytes get a distance of at least 65, enough to be never suggested. */
int suggest_distance(const char *a, const char *b);

/* The candidate closest to word, or NULL when none is close enough: a
 * distance of at most 1 for words of up to 4 characters, 2 up to 8, 3
 * beyond (git's rule is similar). A tie between two candidates at the best
 * distance suggests nothing rather than guess. cands may hold NULLs, which
 * are skipped; an exact match (case aside) is never a suggestion. */
const char *suggest_closest(const char *word, const char *const *cands, size_t n);
#endif
