/* jsonarena.c — jansson allocations from per-record arenas; see jsonarena.h.
 *
 * One reserved region of address space is cut into 16 KB chunks; an arena
 * bumps through its chunks, a dropped arena's chunks go onto a free list
 * and are reused at once, still warm in the cache. jansson's free is a
 * no-op inside the region and free() outside it, so memory from malloc (no
 * arena current, a request larger than a quarter chunk, a full region)
 * stays ordinary malloc memory. The region is reserved once and kept: its
 * pages are touched only as chunks are first used. A mutex guards the pool;
 * it is taken once a chunk (16 KB), not once a value. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "jsonarena.h"

#define CHUNK ((size_t)16 * 1024)
#define BIG (CHUNK / 4)                 /* larger requests go to malloc */
#define ALIGN 16                        /* malloc's alignment on x86-64 */
#define REGION ((size_t)1 << 30)        /* 65,536 chunks of address space */

static char *region;          /* NULL until install */
static char *region_top;      /* first chunk never handed out (under pool_lock) */
static void *free_chunks;     /* dropped chunks, linked through their first word (same) */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER; /* once a chunk */
static __thread struct json_arena *current;

static int in_region(const void *p)
{
	uintptr_t a = (uintptr_t)p, r = (uintptr_t)region;
	return region && a >= r && a - r < REGION;
}

static char *chunk_get(void)
{
	pthread_mutex_lock(&pool_lock);
	char *c = free_chunks;
	if (c) {
		free_chunks = *(void **)c;
	} else if ((size_t)(region_top - region) + CHUNK <= REGION) {
		c = region_top;
		region_top += CHUNK;
	}
	pthread_mutex_unlock(&pool_lock);
	return c;
}

static void *arena_malloc(size_t n)
{
	struct json_arena *a = current;
	size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (!a || n > BIG)
		goto heap;
	if ((size_t)(a->end - a->cur) < need) {
		char *c = chunk_get();
		if (!c)
			goto heap;
		*(void **)c = a->chunks; /* the first ALIGN bytes chain the chunks */
		a->chunks = c;
		a->cur = c + ALIGN;
		a->end = c + CHUNK;
	}
	void *p = a->cur;
	a->cur += need;
	return p;
heap:
	if (a)
		a->n_big++;
	return malloc(n);
}

static void arena_free(void *p)
{
	if (!in_region(p))
		free(p);
}

int json_arena_install(void)
{
	if (!region) {
		void *r = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (r == MAP_FAILED)
			return -1;
		region = region_top = r;
	}
	json_set_alloc_funcs(arena_malloc, arena_free);
	return 0;
}

void json_arena_uninstall(void)
{
	json_set_alloc_funcs(malloc, free);
}

void json_arena_begin(struct json_arena *a)
{
	current = a;
}

void json_arena_end(void)
{
	current = NULL;
}

void json_arena_drop(struct json_arena *a, json_t *root)
{
	/* malloc'd pieces are freed by jansson's walk; chunk memory is not */
	if (a->n_big || !a->chunks)
		json_decref(root);
	void *last = a->chunks;
	if (last) {
		while (*(void **)last) /* the arena's chain joins the free list whole */
			last = *(void **)last;
		pthread_mutex_lock(&pool_lock);
		*(void **)last = free_chunks;
		free_chunks = a->chunks;
		pthread_mutex_unlock(&pool_lock);
	}
	*a = (struct json_arena)JSON_ARENA_INIT;
}
