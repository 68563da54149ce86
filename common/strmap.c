/* strmap.c — see strmap.h. The table is at most half full, so a probe
 * ends soon; it doubles when a new key would pass that. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "strmap.h"
#include "util.h"

uint64_t strmap_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static size_t probe(const struct strmap *m, const char *key)
{
	size_t i = (size_t)strmap_hash(key) & (m->cap - 1);
	while (m->slots[i].key && strcmp(m->slots[i].key, key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void grow(struct strmap *m)
{
	struct strmap bigger = { NULL, m->cap ? 2 * m->cap : 16, 0 };
	bigger.slots = xcalloc(bigger.cap, sizeof(*bigger.slots));
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key) {
			bigger.slots[probe(&bigger, m->slots[i].key)] = m->slots[i];
			bigger.used++;
		}
	free(m->slots);
	*m = bigger;
}

struct strmap_slot *strmap_get(struct strmap *m, const char *key, int *created)
{
	if (2 * (m->used + 1) > m->cap)
		grow(m);
	struct strmap_slot *s = &m->slots[probe(m, key)];
	if (created)
		*created = !s->key;
	if (!s->key) {
		s->key = xstrdup(key);
		memset(&s->v, 0, sizeof(s->v));
		m->used++;
	}
	return s;
}

struct strmap_slot *strmap_find(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	struct strmap_slot *s = &m->slots[probe(m, key)];
	return s->key ? s : NULL;
}

void strmap_clear(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++) {
		free(m->slots[i].key);
		m->slots[i].key = NULL;
	}
	m->used = 0;
}

void strmap_release(struct strmap *m)
{
	strmap_clear(m);
	free(m->slots);
	m->slots = NULL;
	m->cap = 0;
}
