/* runrow.c — the shared reader of a run's row (runrow.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "runrow.h"

void runrow_read(sqlite3_stmt *st, struct runrow *r)
{
	char **text[] = { &r->run_id, &r->parent, &r->agent, &r->description, &r->status,
			  &r->shown_status, &r->decision, &r->finished_at };
	char **hw[] = { &r->gpu_name, &r->hw_class, &r->vram_tier, &r->repeat_key };
	r->id = sqlite3_column_int64(st, 0);
	for (int i = 0; i < 8; i++)
		*text[i] = db_column_dup(st, 1 + i);
	r->t_finished = db_column_num(st, 9);
	for (int i = 0; i < 4; i++)
		*hw[i] = db_column_dup(st, 10 + i);
}

void runrow_release(struct runrow *r)
{
	char *owned[] = { r->run_id, r->parent, r->agent, r->description, r->status, r->shown_status,
			  r->decision, r->finished_at, r->gpu_name, r->hw_class, r->vram_tier, r->repeat_key };
	for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
		free(owned[i]);
	memset(r, 0, sizeof(*r));
	r->t_finished = NAN;
}
