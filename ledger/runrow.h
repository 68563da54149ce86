/* runrow.h — one reader of a run's row (issue 12 item 2): the columns of
 * runs that commands show and reason about, one struct, one function that
 * fills it from a statement row. audit.c, frontier.c and report/campaign.c
 * select RUNROW_COLS(alias) first and read them with runrow_read, instead
 * of each keeping its own struct, column list and copying code.
 *
 * SQL NULL stays NULL (strings) and NaN (numbers), as db_column_dup and
 * db_column_num read it. */
#ifndef RL_RUNROW_H
#define RL_RUNROW_H
#include <sqlite3.h>
#include "db.h"

struct runrow {
	sqlite3_int64 id;        /* runs.id: ingest order */
	double t_finished;       /* epoch seconds; NaN when the run has no time */
	char *run_id, *parent, *agent, *description;
	char *status;            /* as stored: ok, crash, running, … */
	char *shown_status;      /* as shown: 'lost' for a running record past its budget (db.h) */
	char *decision, *started_at, *finished_at;
	char *gpu_name, *hw_class, *vram_tier, *repeat_key;
};

/* The columns runrow_read reads, in its order, for table alias a ("" or
 * "r."); RUNROW_NCOLS of them. A select list starts with them, so a
 * command's own columns follow from RUNROW_NCOLS. */
#define RUNROW_COLS(a)                                                                       \
	a "id, " a "t_finished, " a "run_id, " a "parent, " a "agent, " a "description, "      \
	a "status, " RUN_STATUS_SQL(a) ", " a "decision, " a "started_at, " a "finished_at, " \
	a "gpu_name, " a "hw_class, " a "vram_tier, " a "repeat_key"
#define RUNROW_NCOLS 15

/* Fill r from columns 0 .. RUNROW_NCOLS-1 of st's current row; owned
 * copies, freed by runrow_release. */
void runrow_read(sqlite3_stmt *st, struct runrow *r);
void runrow_release(struct runrow *r);

#endif
