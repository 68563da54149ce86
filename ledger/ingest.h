/* ingest.h — the ingest core and its format readers.
 *
 * Each reader (ledger/ingest_FORMAT.c) turns one input file into runrec/1
 * records and hands every record to ingest_put() and every bad line to
 * ingest_reject(); the core (ingest_core.c) fills options, validates,
 * stores and counts, one transaction per file (ingest_session_file). The
 * command (cmd_ingest.c) parses its arguments, opens the files and prints
 * the summary. Readers never touch SQLite and never print summaries. */
#ifndef RL_INGEST_H
#define RL_INGEST_H
#include <jansson.h>
#include "sb.h"
#include "store.h"

enum ingest_format { IN_UNKNOWN, IN_RUNREC, IN_TSV, IN_RUNLOG, IN_ARH };

/* What the command line supplies where a format lacks it. */
struct ingest_opts {
	const char *agent, *campaign, *hardware;
	double started_at; /* epoch seconds; NaN unless --started-at */
	double every;      /* seconds between results.tsv rows (--every) */
	double wait_s;     /* --wait: seconds to wait for the ledger's lock; < 0 no limit */
	const char *repo;  /* --repo DIR: changes from the commits' diff, or NULL */
	const char *script; /* --script PATH: the training script in the tree */
};

struct ingest_file {
	const char *path;       /* as given; "-" is stdin */
	const char *name;       /* for messages: path, or "stdin" */
	const char *text;       /* whole content (mapped: NOT NUL-terminated) */
	size_t len;
	enum ingest_format format;
	const struct ingest_opts *opts;
	struct store *store;
	long n_new, n_present, n_quarantined;
	long n_ended;           /* running records replaced by their run's final record */
	long n_updated;         /* stored runs changed in place (store.h STORE_UPDATED) */
	sb run_id;              /* the last stored run_id (see ingest_put) */
	sb warned;              /* readers: "\n"-separated names already warned about */
	int progress;           /* stderr is a terminal: show how far the file has got */
	unsigned long ticks;    /* records seen, to look at the clock now and then */
	double progress_next;   /* monotonic time of the next progress line */
	long vram_over;         /* rows whose peak memory is above their GPU's (ingest_check.c) */
	long diverged;          /* new runs with a val_bpb above the uniform bound (ingest_check.c) */
};

/* Supply what rec lacks from the command line (--agent, --campaign,
 * --hardware, --started-at), as ingest_put does before the identity is
 * taken; again is a no-op. */
void ingest_fill_options(json_t *rec, const struct ingest_opts *o);

/* ---- the core (ingest_core.c) -------------------------------------------
 * A session stores files into one ledger, one at a time: a store on db, the
 * codediff of --repo (or NULL; the caller owns it), and the wait for the
 * ledger's write lock that o->wait_s (or $LEDGER_BUSY_TIMEOUT) allows. */
struct ingest_session;
struct ingest_session *ingest_session_new(sqlite3 *db, const struct ingest_opts *o,
					  struct codediff *cd);
/* Read f (path, name, text, len, format and progress set; opts and store
 * are set here) with its format's reader and store it in one transaction.
 * f's counters say what happened. Returns EXIT_OK (records may still have
 * been quarantined), EXIT_USAGE (the file could not be read as its format)
 * or EXIT_FAILURE_RT (the ledger failed, or another writer held it past the
 * wait); on either failure nothing of the file is stored. */
int ingest_session_file(struct ingest_session *s, struct ingest_file *f);
/* Frees s; db gets its ordinary busy timeout back. */
void ingest_session_free(struct ingest_session *s);

/* Ingest's one speed path, the worker thread of ingest_runrec.c, has a
 * plain path beside it that stores the same rows (one thread). It is taken
 * when $RL_INGEST_PLAIN is set to anything but "" or "0", or after
 * ingest_plain_set(1): bench/ingest_bench.sh measures what the worker buys,
 * fuzz/fuzz_paths.c compares the two. Read once; set only while no file
 * is being read. */
int ingest_plain(void);
void ingest_plain_set(int plain);

/* Warn once per file: 1 the first time name is seen (and records it). */
int ingest_warn_once(struct ingest_file *f, const char *name);

/* Store one converted record (reference stolen). raw/rawlen is the input it
 * came from, kept if the record is rejected. Returns the stored run_id
 * (valid until the next call) or NULL when the record was quarantined. */
const char *ingest_put(struct ingest_file *f, long line, json_t *rec, const char *raw,
		       size_t rawlen);

/* ingest_put in steps, for readers that prepare records on a worker
 * thread: ingest_prepare fills options, validates and computes the
 * identity without touching the database or f's counters (thread-safe for
 * distinct items); ingest_finish, on the main thread and in input order,
 * stores or rejects the item; ingest_item_release frees it (on any thread,
 * after finish; the thread that allocated it frees fastest). A reader may
 * also set rec NULL and why itself (a line that is not JSON) and skip
 * prepare. The returned run_id stays valid after release. */
struct ingest_item {
	long line;
	const char *raw;
	size_t rawlen;
	json_t *rec;               /* owned; NULL when rejected */
	sb why;                    /* the reason when rejected */
	sb underflow;              /* numbers nulled (runrec_null_underflows): warned in order */
	struct store_prep prep;
};
void ingest_prepare(const struct ingest_file *f, struct ingest_item *it);
const char *ingest_finish(struct ingest_file *f, struct ingest_item *it);
void ingest_item_release(struct ingest_item *it);

/* Numbers of a parsed JSON text too small for a double ("1e-400") become
 * null, and ingest_finish warns about them at the item's line: a value
 * that would otherwise read as a silent 0. For the JSON readers, after
 * parsing (any thread). */
void ingest_null_underflows(struct ingest_item *it, json_t *v);
/* The same warning for a reader that stores the record itself. */
void ingest_warn_underflow(const struct ingest_file *f, long line, const char *fields);

/* Warnings about a new run's hardware (ingest_check.c): a GPU name
 * the table does not know (once per name and file), a peak memory above
 * the card's (at the first row of each GPU); ingest_check_done says how
 * many rows in all at the end of the file. Storing thread, input order. */
void ingest_check_hardware(struct ingest_file *f, long line, const json_t *rec);
void ingest_check_done(struct ingest_file *f);
/* A val_bpb above RUNREC_BPB_UNIFORM on an ok run: diverged, no measurement
 * (the store keeps it out of the val_bpb column); warned at the first such
 * run, counted at the end. */
void ingest_check_measurement(struct ingest_file *f, long line, const json_t *rec);

/* Report "ledger: ingest: FILE:LINE: reason" and quarantine raw. */
void ingest_reject(struct ingest_file *f, long line, const char *raw, size_t rawlen,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Format from content (see docs/ingest.md), or IN_UNKNOWN. */
enum ingest_format ingest_detect(const char *text, size_t len);
const char *ingest_format_name(enum ingest_format f); /* runrec|results.tsv|… */
int ingest_format_parse(const char *s, enum ingest_format *out);

/* Readers: 0 when the file could be read as the format (individual lines
 * may still be rejected), -1 when it could not at all (message printed). */
int ingest_runrec(struct ingest_file *f);
int ingest_tsv(struct ingest_file *f);
int ingest_runlog(struct ingest_file *f);
int ingest_arh(struct ingest_file *f);

/* JSON framing shared by runrec and arh.json: one object spread over the
 * whole file, or JSONL (blank lines skipped); calls each per JSON text with
 * its line number. Returns 0. */
int ingest_json_texts(struct ingest_file *f,
		      void (*each)(struct ingest_file *f, long line, const char *text, size_t n));

/* The file line where a JSON text starting at line first stops parsing
 * (first when it parses, or is one line). */
long ingest_json_error_line(long first, const char *text, size_t n);

/* Shared by the readers of formats without a status vocabulary of their
 * own: autoresearch "keep|discard|crash" (any case) -> status and decision;
 * "kept" and "best" are keeps, "reverted" and "discarded" discards.
 * Returns 0, or -1 for a word it does not know. */
int ingest_ar_status(const char *word, const char **status, const char **decision);

/* A cell of a results.tsv column named kept that says yes or no (True,
 * False, yes, no; any case): status ok, decision keep or discard, 0. -1
 * for another word, which is a status word as anywhere (ingest_ar_status). */
int ingest_kept_word(const char *word, const char **status, const char **decision);

/* The status a description's failure word names ("(OOM)" -> oom, "HUNG at
 * step 40" and "timed out" -> timeout, "SKIPPED" -> invalid; whole words,
 * any case, the first in the text wins), or NULL. Readers apply it only to
 * rows whose own status is crash or missing: never to a measured row. */
const char *ingest_failure_word(const char *description);
/* 1 when a measured row's description says its measurement is invalid:
 * the word "invalid" in the commentary (after " — ", " - ", "; " or in
 * parentheses), ending it or a clause, or before "run", "measurement",
 * "result", and not after "not"/"no" ("FINAL_LR_FRAC=0.1 — battery
 * throttle 546 steps invalid"). Not "fix invalid token handling", which
 * names what the run changed. */
int ingest_says_invalid(const char *description);

/* For a row the file calls a crash whose description names how it failed
 * (stored with that status, oom/timeout/invalid): give rec, when it has no
 * run_id, the id the row had as the file writes it (status crash). A
 * ledger written before failure words were read holds the row under that
 * id; ingesting the file again finds it there (store.c brings its status
 * up to date) instead of adding a second run. */
void ingest_keep_crash_identity(json_t *rec);

/* rec[key] as an object, created empty when absent ("metrics", "code", …). */
json_t *ingest_sub_object(json_t *rec, const char *key);
/* A metric value as JSON: a real, or null when it is not finite ("inf",
 * "nan" in a log). json_real refuses those, and the key would be dropped
 * without a word; null keeps it and says "not measured". */
json_t *ingest_number(double d);

/* Next line of text from *pos (no '\n'; a trailing '\r' is dropped). Returns
 * 0 at the end. */
int ingest_next_line(const char *text, size_t len, size_t *pos, const char **line,
		     size_t *line_len);

#endif
