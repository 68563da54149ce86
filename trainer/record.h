/* record.h — turn a finished (or failed) run into a runrec/1 record and
 * append it (record.c). Uses common/runrec.h; never writes JSON by hand. */
#ifndef RL_TRAINER_RECORD_H
#define RL_TRAINER_RECORD_H
#include <jansson.h>
#include "run.h"

struct run_meta {
	const char *agent, *campaign, *parent, *description; /* NULL = null */
	char run_id[48];
	char started_at[32];
	json_t *code;         /* record_code() taken at start, before training */
};

/* A fresh run id: "t-YYYYMMDDTHHMMSSZ-" + 8 random hex digits. */
void record_new_id(char *buf, size_t n);
/* The full record of r (new reference). */
json_t *record_build(const struct run *r, const struct run_meta *meta);
/* The record written when the run starts (new reference): status
 * running, finished_at, metrics and failure null, all else as the
 * final record will have it, so the final one supersedes it on ingest
 * (runrec_supersedes). */
json_t *record_build_start(const struct run *r, const struct run_meta *meta);
/* Describe the source tree the trainer was built from: git commit, dirty
 * flag and sha256 of `git diff HEAD`; JSON null when git is unavailable. */
json_t *record_code(void);

#endif
