/* ingest_core.c — the ingest core: what every format reader calls (see
 * ingest.h) and one file's way into the ledger. A reader turns its file into
 * runrec/1 records; here each record gets what the command line supplies,
 * is validated and stored (store.c), or quarantined with the reason; a file
 * is read and stored in one write transaction, waiting for the ledger's
 * lock as --wait allows. No command line and no summary here (cmd_ingest.c);
 * no format parsing (ingest_FORMAT.c); no SQL (store.c). */
#include "carried.h"
#include "codediff.h"
#include "db.h"
#include "ingest.h"
#include "runrec.h"
#include "store.h"
#include "util.h"

/* ---- the plain path ------------------------------------------------------ */

static int plain = -1; /* -1 until read */

void ingest_plain_set(int on)
{
	plain = on;
}

int ingest_plain(void)
{
	if (plain < 0) {
		const char *v = getenv("RL_INGEST_PLAIN");
		plain = v && *v && strcmp(v, "0");
	}
	return plain;
}

/* ---- formats --------------------------------------------------------- */

static const struct {
	enum ingest_format fmt;
	int (*read)(struct ingest_file *f);
} readers[] = {
	{ IN_RUNREC, ingest_runrec },
	{ IN_TSV, ingest_tsv },
	{ IN_RUNLOG, ingest_runlog },
	{ IN_ARH, ingest_arh },
};

/* ---- the sink the readers call ---------------------------------------- */

void ingest_fill_options(json_t *rec, const struct ingest_opts *o)
{
	if (o->agent && !json_is_string(json_object_get(rec, "agent")))
		json_object_set_new(rec, "agent", json_string(o->agent));
	if (o->campaign && !json_is_string(json_object_get(rec, "campaign")))
		json_object_set_new(rec, "campaign", json_string(o->campaign));
	if (o->hardware) {
		json_t *hw = json_object_get(rec, "hardware");
		if (!hw || json_is_null(hw)) {
			hw = json_object();
			json_object_set_new(rec, "hardware", hw);
		}
		if (json_is_object(hw) && !json_is_string(json_object_get(hw, "gpu_name")))
			json_object_set_new(hw, "gpu_name", json_string(o->hardware));
	}
	if (!isnan(o->started_at) && !json_is_string(json_object_get(rec, "started_at")) &&
	    !json_is_string(json_object_get(rec, "finished_at"))) {
		char t[32];
		format_iso_utc(o->started_at, t, sizeof(t));
		json_object_set_new(rec, "started_at", json_string(t));
	}
}

static void reject_sb(struct ingest_file *f, long line, const char *raw, size_t rawlen, sb *why)
{
	/* runrec_validate gives one problem a line; the report is one line */
	sb one = SB_INIT;
	for (const char *p = why->buf; *p; p++)
		if (*p == '\n')
			sb_adds(&one, "; ");
		else
			sb_addc(&one, *p);
	ingest_reject(f, line, raw, rawlen, "%s", one.buf);
	sb_release(&one);
}

void ingest_prepare(const struct ingest_file *f, struct ingest_item *it)
{
	it->prep.canon = NULL;
	it->prep.carried = NULL;
	/* what an export carries is the ledger's, not the record's (carried.h) */
	struct carried *carried = NULL;
	if (carried_take(it->rec, &carried, &it->why)) {
		json_decref(it->rec);
		it->rec = NULL;
		return;
	}
	ingest_fill_options(it->rec, f->opts);
	if (runrec_validate(it->rec, &it->why)) {
		json_decref(it->rec);
		it->rec = NULL;
		carried_free(carried);
		return;
	}
	store_prepare(it->rec, &it->prep);
	it->prep.carried = carried;
}

/* ---- progress ----------------------------------------------------------- */

/* On a terminal, twice a second once a file has taken half a second: the
 * records so far and how far into the file they are (raw is where the
 * current one came from). The clock is read once in 1,024 records. */
static void progress_tick(struct ingest_file *f, const char *raw)
{
	if (!f->progress || (++f->ticks & 1023))
		return;
	double now = mono_now();
	if (now < f->progress_next)
		return;
	f->progress_next = now + 0.5;
	long n = f->n_new + f->n_present + f->n_quarantined + f->n_ended + f->n_updated;
	if (raw >= f->text && raw < f->text + f->len)
		rl_progress("ingest: %s: %ld records, %.0f%% of the file", f->name, n,
			    100.0 * (double)(raw - f->text) / (double)f->len);
	else
		rl_progress("ingest: %s: %ld records", f->name, n);
}

void ingest_null_underflows(struct ingest_item *it, json_t *v)
{
	runrec_null_underflows(v, it->raw, it->rawlen, &it->underflow);
}

void ingest_warn_underflow(const struct ingest_file *f, long line, const char *fields)
{
	rl_warn("ingest: %s:%ld: %s %s too small for a double and would read as 0; stored as null "
		"(not measured)", f->name, line, fields, strstr(fields, "'), '") ? "are" : "is");
}

const char *ingest_finish(struct ingest_file *f, struct ingest_item *it)
{
	progress_tick(f, it->raw);
	if (it->underflow.len)
		ingest_warn_underflow(f, it->line, it->underflow.buf);
	const char *run_id = NULL;
	struct store_src src = { f->name, ingest_format_name(f->format), it->line };
	if (!it->rec) {
		reject_sb(f, it->line, it->raw, it->rawlen, &it->why);
		goto out;
	}
	switch (store_put_prepared(f->store, it->rec, &it->prep, &src, &run_id, &it->why)) {
	case STORE_NEW:
		f->n_new++;
		ingest_check_hardware(f, it->line, it->rec); /* runs already stored were said before */
		ingest_check_measurement(f, it->line, it->rec);
		break;
	case STORE_PRESENT: f->n_present++; break;
	case STORE_SUPERSEDE: f->n_ended++; break; /* counted apart: not a new run */
	case STORE_UPDATED: f->n_updated++; break;
	case STORE_CONFLICT:
		reject_sb(f, it->line, it->raw, it->rawlen, &it->why);
		run_id = NULL;
		break;
	}
	if (run_id) {
		sb_reset(&f->run_id);
		sb_adds(&f->run_id, run_id);
		run_id = f->run_id.buf;
	}
out:
	return run_id;
}

void ingest_item_release(struct ingest_item *it)
{
	json_decref(it->rec);
	it->rec = NULL;
	store_prep_release(&it->prep);
	sb_release(&it->why);
	sb_release(&it->underflow);
}

const char *ingest_put(struct ingest_file *f, long line, json_t *rec, const char *raw,
		       size_t rawlen)
{
	struct ingest_item it = { .line = line, .raw = raw, .rawlen = rawlen, .rec = rec,
				  .why = SB_INIT, .underflow = SB_INIT };
	ingest_prepare(f, &it);
	const char *run_id = ingest_finish(f, &it);
	ingest_item_release(&it);
	return run_id;
}

void ingest_reject(struct ingest_file *f, long line, const char *raw, size_t rawlen,
		   const char *fmt, ...)
{
	sb why = SB_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&why, fmt, ap);
	va_end(ap);
	/* the reason quotes input: keep control characters off the terminal */
	sb shown = SB_INIT;
	for (const char *p = why.buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			sb_addf(&shown, "\\x%02x", (unsigned char)*p);
		else
			sb_addc(&shown, *p);
	rl_error("ingest: %s:%ld: %s", f->name, line, shown.buf);
	sb_release(&shown);
	struct store_src src = { f->name, ingest_format_name(f->format), line };
	store_quarantine(f->store, &src, why.buf, raw, rawlen);
	f->n_quarantined++;
	progress_tick(f, raw);
	sb_release(&why);
}

int ingest_warn_once(struct ingest_file *f, const char *name)
{
	for (const char *p = f->warned.buf; *p;) {
		size_t n = strcspn(p, "\n");
		if (n == strlen(name) && !strncmp(p, name, n))
			return 0;
		p += n + (p[n] == '\n');
	}
	sb_addf(&f->warned, "%s\n", name);
	return 1;
}

/* ---- one file ----------------------------------------------------------- */

static int run_reader(struct ingest_file *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(readers); i++)
		if (readers[i].fmt == f->format)
			return readers[i].read(f);
	return -1;
}

/* A converted format's rows carry what --agent, --campaign and --hardware
 * filled in, so the same file ingested again with other options is all
 * new content: new runs, not "already present". Legitimate (a correction)
 * but more often a slip, so say it. Only for results.tsv: the check reads
 * every run once (source_file has no index, which ingest would pay for on
 * every row), fine for the few results.tsv of a campaign but not for each
 * of a thousand one-run run.log files; runrec files carry their own fields. */
static void warn_lookalikes(struct ingest_file *f, sqlite3_int64 since)
{
	if (f->format != IN_TSV || !f->n_new)
		return;
	long n = store_lookalikes(f->store, f->name, since);
	if (!n)
		return;
	rl_warn("ingest: %s: %ld of the %ld new runs match runs ingested before from a file of this name "
		"but for their agent, campaign or hardware", f->name, n, f->n_new);
	rl_hint("--agent, --campaign and --hardware are part of a row's content; given as on the first "
		"ingest, the same file adds nothing");
}

/* COMMIT can take seconds on a big file (the WAL grows by gigabytes): say so where progress is shown. */
static int commit_file(struct ingest_file *f)
{
	if (f->progress && f->ticks >= 1024)
		rl_progress("ingest: %s: %ld records read; writing them to the ledger", f->name,
			    f->n_new + f->n_present + f->n_quarantined + f->n_ended + f->n_updated);
	int rc = store_commit(f->store);
	rl_progress_end();
	return rc;
}

/* Runs whose commits the repository could not diff got inferred changes:
 * said once per file, with the count and the first reason. */
static void warn_code_misses(struct ingest_file *f, struct codediff *cd)
{
	sb example = SB_INIT;
	long n = cd ? codediff_misses(cd, &example) : 0;
	if (n) {
		rl_warn("ingest: %s: %ld run%s not diffed in the repository %s, so %s changes are "
			"inferred from the description%s (e.g. %s)", f->name, n, n == 1 ? " was" : "s were",
			f->opts->repo, n == 1 ? "its" : "their", n == 1 ? "" : "s", example.buf);
		rl_hint("a commit is found by hash or prefix even after git reset, until git gc prunes it; "
			"give a longer prefix where one is ambiguous");
	}
	sb_release(&example);
}

/* ---- waiting for the write lock ----------------------------------------- */

/* One writer at a time holds a ledger, for a whole file (one transaction
 * per file). Several agents ingesting large files at once queue for it:
 * with SQLite's fixed 30 s busy timeout 3 of 8 concurrent 200,000-record
 * ingests gave up (docs/ingest.md). So ingest waits as long as it takes,
 * or --wait SECONDS, and says so after a second instead of seeming hung. */
struct lock_wait {
	const char *file;   /* the file waiting (messages) */
	double limit;       /* seconds; < 0: no limit */
	double since;       /* monotonic start of the current wait */
	double waited;      /* how long the last wait lasted */
	int said;           /* the waiting line was printed for this wait */
};

#define WAIT_SAY_AFTER_S 1.0

static void say_waiting(const struct lock_wait *w)
{
	rl_progress_end();
	if (w->limit >= 0)
		rl_note("ingest: %s: waiting for the ledger, held by another writer "
			"(up to %g s, --wait)", w->file, w->limit);
	else
		rl_note("ingest: %s: waiting for the ledger, held by another writer "
			"(as long as it takes; --wait SECONDS bounds it)", w->file);
}

/* SQLite's busy handler: called with count 0, 1, … while the lock is
 * held elsewhere; nonzero means try again. Sleeps a few ms, then 25 ms:
 * a waiter notices a released lock quickly without spinning. */
static int on_busy(void *arg, int count)
{
	struct lock_wait *w = arg;
	double now = mono_now();
	if (count == 0) {
		w->since = now;
		w->said = 0;
	}
	w->waited = now - w->since;
	/* said before giving up, so that a short --wait shows its cause too */
	double say_after = w->limit >= 0 && w->limit < WAIT_SAY_AFTER_S ? w->limit : WAIT_SAY_AFTER_S;
	if (!w->said && w->waited >= say_after) {
		say_waiting(w);
		w->said = 1;
	}
	if (w->limit >= 0 && w->waited >= w->limit)
		return 0;
	sqlite3_sleep(count < 5 ? 2 : 25);
	return 1;
}

/* BEGIN IMMEDIATE, waiting for the lock as w allows. 0, or -1 with the
 * message printed. */
static int begin_file(struct ingest_file *f, struct lock_wait *w)
{
	w->file = f->name;
	w->said = 0;
	w->waited = 0;
	if (store_begin(f->store)) {
		if (w->limit >= 0 && w->waited >= w->limit)
			rl_hint("ingest: %s and the files after it were not ingested: another writer "
				"held the ledger for longer than --wait %g s; ingest them again, or give "
				"a longer --wait (or none: wait as long as it takes)", f->name, w->limit);
		return -1;
	}
	if (w->said)
		rl_note("ingest: %s: got the ledger after %.1f s", f->name, w->waited);
	return 0;
}

/* Read, store and commit an open file of known format inside one
 * transaction. Returns an exit status. */
static int store_file(struct ingest_file *f, struct codediff *cd, struct lock_wait *w)
{
	if (begin_file(f, w))
		return EXIT_FAILURE_RT;
	sqlite3_int64 since = store_last_id(f->store); /* the last run before this file's */
	if (cd) { /* misses of a file that failed before are not this file's */
		sb none = SB_INIT;
		codediff_misses(cd, &none);
		sb_release(&none);
	}
	if (run_reader(f)) {
		store_rollback(f->store);
		return EXIT_USAGE;
	}
	warn_lookalikes(f, since);
	ingest_check_done(f);
	warn_code_misses(f, cd);
	if (commit_file(f)) {
		store_rollback(f->store);
		return EXIT_FAILURE_RT;
	}
	return EXIT_OK;
}


/* ---- the session ------------------------------------------------------- */

struct ingest_session {
	sqlite3 *db;
	const struct ingest_opts *opts;
	struct codediff *cd;
	struct store *store;
	struct lock_wait wait;
};

struct ingest_session *ingest_session_new(sqlite3 *db, const struct ingest_opts *o,
					  struct codediff *cd)
{
	struct ingest_session *s = xcalloc(1, sizeof(*s));
	s->db = db;
	s->opts = o;
	s->cd = cd;
	s->store = store_new(db);
	store_set_codediff(s->store, cd);
	/* Without --wait an ingest waits as long as it takes, unless an agent
	 * (or a test) that would rather fail fast sets $LEDGER_BUSY_TIMEOUT,
	 * the bound every other command's busy timeout takes too. */
	s->wait.limit = o->wait_s >= 0 ? o->wait_s : db_busy_env_s();
	sqlite3_busy_handler(db, on_busy, &s->wait);
	return s;
}

int ingest_session_file(struct ingest_session *s, struct ingest_file *f)
{
	f->opts = s->opts;
	f->store = s->store;
	return store_file(f, s->cd, &s->wait);
}

void ingest_session_free(struct ingest_session *s)
{
	if (!s)
		return;
	store_free(s->store);
	/* the wait goes away with s; closing the ledger may still wait */
	sqlite3_busy_timeout(s->db, db_busy_timeout_ms());
	free(s);
}
