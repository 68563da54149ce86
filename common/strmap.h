/* strmap.h — a small string-keyed hash map (open addressing, linear
 * probing, FNV-1a), for per-file and per-query bookkeeping: the frontier's
 * best per hardware class, a results.tsv's identical rows. Keys are copied;
 * each slot carries one value the caller interprets. Not thread-safe; not
 * for data that must survive the process (that is the ledger's job). */
#ifndef RL_STRMAP_H
#define RL_STRMAP_H
#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	char *key;                /* NULL: empty */
	union {
		double d;
		long n;
	} v;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap, used;         /* cap: 0 or a power of two */
};

#define STRMAP_INIT { NULL, 0, 0 }

/* The map's string hash (FNV-1a, 64 bits), for tables of other shapes
 * that want the same (ledger/store.c's parent-config cache). */
uint64_t strmap_hash(const char *s);

/* The slot for key, created with a zero value when new (*created = 1 then;
 * created may be NULL). The pointer is valid until the next strmap_get. */
struct strmap_slot *strmap_get(struct strmap *m, const char *key, int *created);
/* The slot for key, or NULL when key is not in the map. */
struct strmap_slot *strmap_find(const struct strmap *m, const char *key);
/* Forget every key; the map stays usable. */
void strmap_clear(struct strmap *m);
void strmap_release(struct strmap *m);

#endif
