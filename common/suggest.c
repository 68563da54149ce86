/* suggest.c — closest known word to a mistyped one (see suggest.h). */
#include "suggest.h"
#include "util.h"

enum { SUGGEST_MAX_LEN = 64 };

static int lower(int c) { return tolower((unsigned char)c); }

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;
	return m < c ? m : c;
}

int suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return SUGGEST_MAX_LEN + 1;
	/* three rows of the dynamic programme: i-2, i-1, i */
	int rows[3][SUGGEST_MAX_LEN + 1];
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int *cur = rows[i % 3], *prev = rows[(i + 2) % 3], *prev2 = rows[(i + 1) % 3];
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int same = lower(a[i - 1]) == lower(b[j - 1]);
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + !same);
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
	}
	return rows[la % 3][lb];
}

static int allowed_distance(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

const char *suggest_closest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	int best_d = allowed_distance(strlen(word)) + 1, tie = 0;
	for (size_t i = 0; i < n; i++) {
		if (!cands[i])
			continue;
		int d = suggest_distance(word, cands[i]);
		if (d == 0)
			return NULL;
		if (d < best_d) {
			best = cands[i];
			best_d = d;
			tie = 0;
		} else if (d == best_d && best && strcmp(best, cands[i])) {
			tie = 1;
		}
	}
	return tie ? NULL : best;
}
