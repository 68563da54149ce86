/* jsonarena.h — jansson values built into an arena and dropped at once.
 *
 * A parsed run record is ~100 small jansson allocations (values, hash
 * buckets, strings) that die together; malloc and free for them were a
 * quarter of the time of ingest's worker thread. With json_arena_install,
 * jansson allocates from the arena that is current on the calling thread
 * (json_arena_begin) and from malloc otherwise; json_arena_drop drops a
 * whole arena without walking the values. Memory jansson allocates with no
 * arena current is plain malloc memory, so what json_dumps returns may
 * still be given to free().
 *
 * Rules: an arena is used by one thread at a time (each thread may have
 * its own current; the pool of chunks behind them all is locked). A value
 * in an arena must not be kept past its drop (copy it). Install before the
 * first arena is begun, uninstall after the last drop. An arena holding
 * several roots with n_big > 0 needs each root decref'd before the drop.
 * Low-level: no ledger code, no SQLite. */
#ifndef RL_JSONARENA_H
#define RL_JSONARENA_H
#include <jansson.h>
#include <stddef.h>

struct json_arena {
	char *cur, *end;  /* free space in the newest chunk */
	void *chunks;     /* the arena's chunks, newest first; NULL: unused */
	size_t n_big;     /* requests too large for a chunk, given to malloc */
};
#define JSON_ARENA_INIT { NULL, NULL, NULL, 0 }

/* Route jansson's allocations through the arenas; json_arena_uninstall
 * gives jansson malloc and free back. 0, or -1 when the pool's address
 * space cannot be reserved (jansson then keeps malloc). */
int json_arena_install(void);
void json_arena_uninstall(void);

/* Make a the arena of this thread's jansson allocations until end. */
void json_arena_begin(struct json_arena *a);
void json_arena_end(void);

/* Drop root, the value built in a, and everything else allocated in a;
 * a is unused afterwards. Without walking root when a holds only chunk
 * memory; root is decref'd first when it may hold malloc'd pieces. */
void json_arena_drop(struct json_arena *a, json_t *root);

#endif
