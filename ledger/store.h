/* store.h — put one run record into the ledger: the runs row with its tags
 * (hardware class, VRAM tier, times, valid val_bpb), dedupe by content
 * hash, the repeat key, and the changed variables against the parent.
 * Also the quarantine table. Every ingest format ends here, so the columns
 * are filled one way (ledger/db.c documents them). Knows nothing about
 * input formats or command lines. */
#ifndef RL_STORE_H
#define RL_STORE_H
#include <jansson.h>
#include <sqlite3.h>
#include "infer.h"
#include "sb.h"
#include "sha256.h"

/* The columns of runs, in table order, but its id (the ledger's own
 * number): what ingest writes and what push copies to another ledger
 * (cmd_push.c), written once. */
#define RUN_COLUMNS(X)                                                                  \
	X(run_id) X(content_hash) X(parent) X(campaign) X(agent) X(description) X(status) \
	X(decision) X(started_at) X(finished_at) X(t_finished) X(gpu_name) X(hw_class)     \
	X(vram_tier) X(gpu_count) X(gpu_mem_mb) X(code_commit) X(code_dirty)               \
	X(diff_sha256) X(data_name) X(data_sha256) X(val_bpb) X(repeat_key)                \
	X(source_format) X(source_file) X(source_line) X(ingested_at) X(record)

struct store;

/* A quarantined line (source_file ?1, line ?2, reason ?3, content ?4,
 * ingested_at ?5), added unless the ledger has it already: the same file,
 * line, reason and content. Ingest's rule, and push's (cmd_push.c). */
extern const char store_quarantine_insert_sql[];

/* Where a record came from; format is runrec|results.tsv|run.log|arh.json. */
struct store_src {
	const char *file;
	const char *format;
	long line;
};

enum store_outcome {
	STORE_NEW,      /* inserted */
	STORE_PRESENT,  /* same content already stored: nothing added */
	STORE_CONFLICT, /* same run_id, different content: caller quarantines */
	STORE_SUPERSEDE, /* the run's final record replaced its running record */
	STORE_UPDATED   /* the stored run changed in place, keeping its id: a crash
	                 * given the status its words name, a results.tsv row
	                 * edited since (store.c judge_clash) */
};

/* Prepare statements on an open ledger. A failed prepare is reported and
 * fails the first transaction that needs the statement. */
struct store *store_new(sqlite3 *db);
void store_free(struct store *st);

/* One transaction per input file. 0 = ok; -1 with a message printed.
 * A statement that fails inside it (reported once, with the ledger and
 * what to do) makes store_commit refuse, so the file is rolled back whole
 * and nothing partial is stored; store_failed says so meanwhile. */
int store_begin(struct store *st);
int store_commit(struct store *st);
void store_rollback(struct store *st);
int store_failed(const struct store *st);

/* Store a validated record. rec may be modified: a missing run_id is
 * derived from the content hash ("r-<16 hex>"). *run_id is set to the
 * record's run_id (valid while rec lives). On STORE_CONFLICT the reason is
 * appended to why. */
enum store_outcome store_put(struct store *st, json_t *rec, const struct store_src *src,
			     const char **run_id, sb *why);

/* What ingest records for a run without two configs or a commit diff:
 * the changes its description states against the parent's inferred state
 * (infer.h infer_changes_in: the state may name a bare LR), less those
 * that restate a value its parent already had (infer_drop_restated, with
 * that state: its config, or a root's stated values advanced down the
 * chain by each run's stored changes as infer_state_kept says, a mid-file
 * "Default … baseline" starting it afresh), with the old value of
 * each remaining change the text leaves '?' taken from that state where
 * it knows one of the same form (infer_fill_old). Sorted. The run's own
 * state is remembered for its children. */
void store_infer_changes(struct store *st, const json_t *rec, struct change_list *out);

/* The exact changes ingest records for a run whose parent is stored and
 * both have a config (infer.h changes_exact): 0 and out filled, sorted;
 * -1 when either config is missing. For ledger reinfer. */
int store_exact_changes(struct store *st, const json_t *rec, struct change_list *out);

/* The runs columns that come straight from the record, read by
 * store_prepare so that the storing thread only binds them. Strings point
 * into the record (valid while it lives and is not changed); NULL when
 * absent, NaN for an absent number. */
struct store_cols {
	/* the record's top-level strings; NULL when absent or not a string */
	const char *run_id, *parent, *campaign, *agent, *description, *status, *decision;
	const char *started_at, *finished_at;
	double t_finished;      /* finished_at, else started_at, as epoch seconds */
	const char *gpu_name;   /* as recorded */
	int cpu_only;           /* no GPU named, a CPU named: tagged "CPU" */
	int has_gpu_count;
	sqlite3_int64 gpu_count;
	double gpu_mem_mb;
	const char *code_commit, *diff_sha256, *data_name, *data_sha256;
	int code_dirty;         /* 0/1, -1 when absent */
	double val_bpb;         /* valid measurements only */
};

/* store_put in two steps, so the first can run on another thread:
 * store_prepare is pure (no database, no shared state): the identity, a
 * derived run_id, the canonical text and the columns; store_put_prepared
 * stores. */
struct store_prep {
	char hash[65];
	char *canon;
	size_t canon_len; /* known, so the storing thread binds without a strlen */
	size_t config_off, config_len; /* where the config's text lies in canon; len 0: none */
	struct store_cols cols;
	/* The repeat key of a record with a config, hashed as far as it can
	 * be without the store: all parts but the hardware class (store.c). */
	int has_repeat_prefix;
	sha256_ctx repeat_prefix;
	/* What an exported record carries (carried.h), taken out of it
	 * before store_prepare; NULL for any other record. Owned: freed by
	 * store_prep_release. The store then takes its changes, repeat key,
	 * source and annotations instead of working them out. */
	struct carried *carried;
};
void store_prepare(json_t *rec, struct store_prep *p);
void store_prep_release(struct store_prep *p);
enum store_outcome store_put_prepared(struct store *st, json_t *rec, const struct store_prep *p,
				      const struct store_src *src, const char **run_id, sb *why);

/* Changes from the code (ledger ingest --repo, codediff.h): a run with a
 * commit whose parent run has one too, and no config diff, gets the diff
 * of the two commits as its changes (how 'code') instead of what its
 * description says. cd stays the caller's; NULL turns it off. */
struct codediff;
void store_set_codediff(struct store *st, struct codediff *cd);

/* The highest runs.id (0 for an empty ledger): runs stored later have
 * higher ids. */
sqlite3_int64 store_last_id(struct store *st);
/* How many runs stored after since_id from file look like runs stored
 * before it from a file of that name: same line, code commit, description,
 * status and val_bpb, but another agent, campaign or GPU name. That is the
 * same rows ingested again with other --agent/--campaign/--hardware
 * options, which makes them new content and so new runs. */
long store_lookalikes(struct store *st, const char *file, sqlite3_int64 since_id);
/* The stored record of the run of this run_id (malloc'd), or NULL. */
char *store_run_record(struct store *st, const char *run_id);
/* Each run with id <= upto_id ingested from a results.tsv, in id order:
 * its run_id, parent, code commit, description, and the file and line it
 * was last stored from (each text may be NULL), valid during the call
 * (the record is not read: store_run_record). */
struct store_tsv_run {
	const char *run_id, *parent, *commit, *description, *file;
	long line;
};
typedef void store_tsv_run_fn(void *arg, const struct store_tsv_run *run);
void store_each_tsv_run(struct store *st, sqlite3_int64 upto_id, store_tsv_run_fn *fn, void *arg);
/* rec and stored are the same results.tsv row but for what it measured or
 * how it failed (status, decision, metrics, failure, occurrence, run_id):
 * an edit of those keeps the row's run_id, and the stored record is
 * replaced in place when rec carries that run_id (ingest_tsv.c). */
int store_same_row_remeasured(const json_t *rec, const json_t *stored);
/* The same experiment of a session edited more widely: equal but for the
 * fields above, the description (its words corrected) and the parent (a
 * keep edited to a discard, or back, before it), and with the same
 * commit, which must be there (ingest_tsv_ident.c finds it by its commit
 * and its place in the file). */
int store_same_row_edited(const json_t *rec, const json_t *stored);
/* on (the results.tsv reader, for one file): once a run was changed in
 * place (an edited row), every run found present after it is keyed again
 * and its changes found again as ingest finds them now, since its parent's
 * key or state may have moved; off (the default): present runs are left
 * as stored. */
void store_refresh_present(struct store *st, int on);
/* The repeat key of a stored record whose changes against its parent are
 * cl (sorted by variable; how: enum change_how, or -1 without a parent),
 * formed as store_put forms it (rkey.h), the parent's key read from the
 * ledger: `ledger reinfer` keys runs again with it. */
struct change_list;
void store_repeat_key(struct store *st, json_t *rec, const struct change_list *cl, int how,
		      char key[65]);
/* Keep input that could not be ingested (content may be NULL). */
void store_quarantine(struct store *st, const struct store_src *src, const char *reason,
		      const char *content, size_t len);

#endif
