/* ingest_tsv.h — a results.tsv row's identity across edits of the file
 * (ingest_tsv_ident.c), for the results.tsv reader (ingest_tsv.c). */
#ifndef RL_INGEST_TSV_H
#define RL_INGEST_TSV_H
#include <jansson.h>

struct ingest_file;
struct tsv_ident;

/* One per file, made after the file's transaction began. */
struct tsv_ident *tsv_ident_new(struct ingest_file *f);
void tsv_ident_free(struct tsv_ident *ti);

enum tsv_match {
	TSV_STORED, /* stored as it reads now (or read already in this file) */
	TSV_EDITED, /* a stored row with its status or figures edited: rec's run_id set to it */
	TSV_NEW,    /* neither */
};
/* Which stored run rec (a converted row at this line of the file, options
 * not yet filled in) is: stored as it reads; else a stored row of the same
 * parent, commit and description whose status or figures were edited;
 * else the stored row of the same commit at the same line of a file of
 * this name, whose description, or whose parent (a keep before it edited
 * to a discard, or back), was edited too. TSV_EDITED sets rec's run_id to
 * the stored run's. *stored_record is the stored run's record (malloc'd),
 * NULL for TSV_NEW and for a row read already in this file. Nothing is
 * claimed. */
enum tsv_match tsv_ident_match(struct tsv_ident *ti, json_t *rec, long line, char **stored_record);
/* run_id is a run this file's rows are stored as: no later row of the
 * file is taken for an edit of it. */
void tsv_ident_claim(struct tsv_ident *ti, const char *run_id);

#endif
