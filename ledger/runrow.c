/* runrow.c — the shared reader of a run's row (runrow.h). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "runrow.h"
#include "util.h"

/* The text columns, from column 2 on, in RUNROW_COLS' order: one list for
 * reading and for freeing. */
static const size_t text_at[] = {
	offsetof(struct runrow, run_id),      offsetof(struct runrow, parent),
	offsetof(struct runrow, agent),       offsetof(struct runrow, description),
	offsetof(struct runrow, status),      offsetof(struct runrow, shown_status),
	offsetof(struct runrow, decision),    offsetof(struct runrow, started_at),
	offsetof(struct runrow, finished_at), offsetof(struct runrow, gpu_name),
	offsetof(struct runrow, hw_class),    offsetof(struct runrow, vram_tier),
	offsetof(struct runrow, repeat_key),
};

static char **text_field(struct runrow *r, size_t i)
{
	return (char **)((char *)r + text_at[i]);
}

void runrow_read(sqlite3_stmt *st, struct runrow *r)
{
	r->id = sqlite3_column_int64(st, 0);
	r->t_finished = db_column_num(st, 1);
	for (size_t i = 0; i < ARRAY_SIZE(text_at); i++)
		*text_field(r, i) = db_column_dup(st, (int)i + 2);
}

void runrow_release(struct runrow *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(text_at); i++) {
		free(*text_field(r, i));
		*text_field(r, i) = NULL;
	}
}
