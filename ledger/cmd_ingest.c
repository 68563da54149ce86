/* cmd_ingest.c — `ledger ingest FILE…`: detect each file's format, let its
 * reader (ingest_*.c) convert it to runrec/1 records, validate them, fill
 * what the command line supplies, store them (store.c) in one transaction
 * per file, and print one summary line per file.
 * Must not parse formats itself or write SQL: readers and store.c do. */
#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "codediff.h"
#include "db.h"
#include "carried.h"
#include "ingest.h"
#include "jsonarena.h"
#include "ledger.h"
#include "runrec.h"
#include "store.h"
#include "utf8.h"
#include "util.h"

enum { O_AS = 1, O_AGENT, O_CAMPAIGN, O_HARDWARE, O_STARTED_AT, O_EVERY, O_REPO, O_SCRIPT, O_WAIT };
static const struct opt ingest_opts[] = {
	{ .name = "--as", .id = O_AS, .type = OPT_STRING, .value = "FORMAT", .flags = OPT_OWN,
	  .choices = "runrec|results.tsv|run.log|arh.json",
	  .help = "read every FILE as FORMAT instead of detecting it" },
	{ .name = "--agent", .id = O_AGENT, .type = OPT_STRING, .value = "NAME",
	  .help = "agent for records that lack one" },
	{ .name = "--campaign", .id = O_CAMPAIGN, .type = OPT_STRING, .value = "NAME",
	  .help = "campaign for records that lack one" },
	{ .name = "--hardware", .id = O_HARDWARE, .type = OPT_STRING, .value = "GPU",
	  .help = "hardware.gpu_name for records that lack one,\ne.g. \"NVIDIA H100 80GB HBM3\"" },
	{ .name = "--started-at", .id = O_STARTED_AT, .type = OPT_DATE, .value = "TIME",
	  .help = "started_at for records that lack one; for results.tsv\n"
		  "the time of the first row: 2026-03-16T04:00:00Z, a day\n"
		  "(its midnight), today, yesterday, now, -2h, -1d (UTC)",
	  .bad = "is not a time", .hint = "write 2026-03-16T04:00:00Z, 2026-03-16 (its midnight), today, "
		  "yesterday, now or -2h / -1d (before now); times are UTC" },
	{ .name = "--every", .id = O_EVERY, .type = OPT_DOUBLE, .value = "SECONDS", .lo = 0, .hi = 1e300,
	  .help = "with --started-at, results.tsv rows start this far\napart (default 300)",
	  .bad = "is not a number of seconds" },
	{ .name = "--repo", .id = O_REPO, .type = OPT_STRING, .value = "DIR", .flags = OPT_DIR,
	  .help = "the git repository of the runs' commits: a run with a\n"
		  "commit whose parent run has one gets the two commits'\n"
		  "diff as its changes (how 'code'): the training\n"
		  "script's top-level constants (DEPTH -> model.depth,\n"
		  "others code.NAME) and one change per other changed\n"
		  "function (code.train.py:GPT.forward). Commits are\n"
		  "looked up by hash or prefix, reset-away ones too; a\n"
		  "commit not there falls back to the description" },
	{ .name = "--script", .id = O_SCRIPT, .type = OPT_STRING, .value = "PATH",
	  .help = "the training script's path in the repository\n(default train.py)" },
	{ .name = "--wait", .id = O_WAIT, .type = OPT_DOUBLE, .value = "SECONDS", .lo = 0, .hi = 1e300,
	  .help = "how long to wait for the ledger while another process\n"
		  "writes to it (default: as long as it takes; a line on\n"
		  "stderr says so after a second)",
	  .bad = "is not a number of seconds" },
};
static const struct opt_group ingest_group = { NULL, NULL, ingest_opts, ARRAY_SIZE(ingest_opts) };

const struct opt_cmd cmd_ingest_spec = {
	.name = "ingest",
	.args = "FILE...",
	.summary = "add run records (runrec/1, results.tsv, run.log, autoresearch@home JSON)",
	.about = "Add run records to the ledger; FILE '-' is standard input. Each file's\n"
		 "format is detected from its content:\n"
		 "  runrec       runrec/1 JSONL (one record a line) or one JSON object\n"
		 "  results.tsv  autoresearch results.tsv (a header row naming val_bpb)\n"
		 "  run.log      autoresearch run.log: '---' summary, step lines, traceback or FAIL\n"
		 "  arh.json     autoresearch@home result JSON (one object, or JSONL of them)\n",
	.notes = "Prints 'FILE: N new, M already present, Q quarantined (FORMAT)' per file.\n"
		 "A bad line is reported as 'ledger: ingest: FILE:LINE: reason' and kept in\n"
		 "the quarantine table ('ledger quarantine'); the rest of the file goes in.\n"
		 "Ingesting the same content twice adds nothing. One transaction per file.\n"
		 "On a terminal, a status line on stderr shows how far a long file has got.\n"
		 "\n"
		 "Exit status: 0 all stored, 1 some input quarantined, 2 bad usage or a file\n"
		 "that cannot be read or recognised (the other files are still ingested),\n"
		 "3 database failure.\n",
	.groups = { &ingest_group },
};

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

/* Supply what the record lacks from the command line. */
static void fill_options(json_t *rec, const struct ingest_opts *o)
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
	fill_options(it->rec, f->opts);
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
	long n = f->n_new + f->n_present + f->n_quarantined + f->n_ended;
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
	json_arena_drop(&it->arena, it->rec); /* a plain json_decref without an arena */
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

/* ---- files ----------------------------------------------------------- */

/* The file's content: mapped for regular files (a 10^6-record JSONL need
 * not be copied), read for stdin and pipes. *mapped says how to free it. */
static char *load(const char *path, size_t *len, int *mapped)
{
	struct stat sbuf;
	*mapped = 0;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : -1;
	if (fd >= 0 && fstat(fd, &sbuf) == 0 && S_ISREG(sbuf.st_mode) && sbuf.st_size > 0) {
		void *p = mmap(NULL, (size_t)sbuf.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		if (p != MAP_FAILED) {
			*len = (size_t)sbuf.st_size;
			*mapped = 1;
			return p;
		}
	} else if (fd >= 0) {
		close(fd);
	}
	return read_file(path, len);
}

static void unload(char *text, size_t len, int mapped)
{
	if (mapped)
		munmap(text, len);
	else
		free(text);
}

struct summary {
	table t;
	int structured; /* --format given: render t at the end */
};

static void report_file(struct summary *s, const struct ingest_file *f)
{
	if (!s->structured) {
		printf("%s: %ld new, %ld already present, %ld quarantined", f->name, f->n_new,
		       f->n_present, f->n_quarantined);
		if (f->n_ended) /* only then: the line others parse keeps its shape */
			printf(", %ld running run%s ended", f->n_ended, f->n_ended == 1 ? "" : "s");
		printf(" (%s)\n", ingest_format_name(f->format));
		return;
	}
	int r = table_add_row(&s->t);
	table_set_text(&s->t, r, 0, f->name);
	table_set_text(&s->t, r, 1, ingest_format_name(f->format));
	table_set_int(&s->t, r, 2, f->n_new);
	table_set_int(&s->t, r, 3, f->n_present);
	table_set_int(&s->t, r, 4, f->n_quarantined);
}

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

/* COMMIT can take seconds on a big file (a bulk load rebuilds indexes,
 * the WAL grows by gigabytes): say so where progress is shown. */
static int commit_file(struct ingest_file *f)
{
	if (f->progress && f->ticks >= 1024)
		rl_progress("ingest: %s: %ld records read; writing them to the ledger", f->name,
			    f->n_new + f->n_present + f->n_quarantined);
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

/* A UTF-8 byte-order mark (EF BB BF, what some Windows editors put first)
 * is no part of the data: left in, it glued itself to a results.tsv's
 * first column name and to a JSONL's first record, which were then lost.
 * Skipped, and said. Line numbers do not change (it lies inside line 1). */
static void skip_bom(struct ingest_file *f)
{
	if (f->len < 3 || memcmp(f->text, "\xef\xbb\xbf", 3))
		return;
	f->text += 3;
	f->len -= 3;
	rl_warn("ingest: %s:1: the file starts with a UTF-8 byte-order mark (EF BB BF); it is skipped",
		f->name);
}

/* One file: load, detect, store, report. Returns an exit status. */
static int ingest_one(const char *path, enum ingest_format forced, const struct ingest_opts *o,
		      struct store *st, struct codediff *cd, struct summary *s, struct lock_wait *w)
{
	struct ingest_file f = { .path = path, .name = strcmp(path, "-") ? path : "stdin",
				 .opts = o, .store = st, .run_id = SB_INIT, .warned = SB_INIT,
				 .progress = isatty(STDERR_FILENO), .progress_next = mono_now() + 0.5 };
	int mapped, rc;
	char *text = load(path, &f.len, &mapped);
	if (!text) {
		rl_hint("ingest: '%s' was skipped; the other files are still ingested", f.name);
		return EXIT_USAGE;
	}
	f.text = text;
	skip_bom(&f);
	f.format = forced != IN_UNKNOWN ? forced : ingest_detect(text, f.len);
	if (f.format == IN_UNKNOWN) {
		rl_error("ingest: %s: cannot tell the format from the content", f.name);
		rl_hint("pass --as runrec|results.tsv|run.log|arh.json");
		rc = EXIT_USAGE;
	} else if ((rc = store_file(&f, cd, w)) == EXIT_OK) {
		report_file(s, &f);
		rc = f.n_quarantined ? EXIT_FINDINGS : EXIT_OK;
	}
	rl_progress_end();
	unload(text, f.len + (size_t)(f.text - text), mapped);
	sb_release(&f.run_id);
	sb_release(&f.warned);
	return rc;
}

/* After a database failure (disk full, the ledger locked past the busy
 * timeout) ingest stops: name the file whose transaction was rolled back
 * and those not started, so that what to run again is not a guess. */
static void say_not_ingested(char **files, int n)
{
	sb list = SB_INIT;
	for (int k = 0; k < n; k++)
		sb_addf(&list, "%s'%s'%s", k ? ", " : "", strcmp(files[k], "-") ? files[k] : "stdin",
			k == 0 ? " (rolled back: nothing of it is stored)" : "");
	rl_error("ingest: not ingested: %s%s", list.buf, n > 1 ? " (not started)" : "");
	rl_hint("the files before them are stored; run ingest again on these once the ledger can be "
		"written (what is already stored is recognised, not added twice)");
	sb_release(&list);
}

/* ---- command line ---------------------------------------------------- */

/* Options may stand before or after the files (until "--"); the files are
 * moved to the front of argv, their count returned in *nfiles. */
static int parse_args(int argc, char **argv, struct ingest_opts *o, enum ingest_format *as,
		      int *nfiles)
{
	struct opt_parser p;
	int n = 0, r;
	opts_begin(&p, &ledger_prog, &cmd_ingest_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		switch (r) {
		case OPTS_ERROR:
			return -1;
		case OPTS_ARG:
			argv[n++] = (char *)p.val;
			break;
		case O_AGENT: o->agent = p.val; break;
		case O_CAMPAIGN: o->campaign = p.val; break;
		case O_HARDWARE: o->hardware = p.val; break;
		case O_STARTED_AT: o->started_at = p.num; break;
		case O_EVERY: o->every = p.num; break;
		case O_WAIT: o->wait_s = p.num; break;
		case O_REPO: o->repo = p.val; break;
		case O_SCRIPT: o->script = p.val; break;
		case O_AS:
			if (ingest_format_parse(p.val, as)) {
				rl_error("ingest: --as '%s' is not a format", p.val);
				rl_hint("use runrec, results.tsv, run.log or arh.json");
				return -1;
			}
			break;
		}
	}
	/* they go into records, which are JSON: refuse rather than mangle */
	const struct { const char *name, *value; } texts[] = {
		{ "--agent", o->agent }, { "--campaign", o->campaign }, { "--hardware", o->hardware },
	};
	for (size_t k = 0; k < ARRAY_SIZE(texts); k++)
		if (texts[k].value && !utf8_valid(texts[k].value, strlen(texts[k].value))) {
			rl_error("ingest: %s: the value is not valid UTF-8 text", texts[k].name);
			return -1;
		}
	if (o->script && !o->repo) {
		rl_error("ingest: --script names the training script in a repository; it needs --repo");
		return -1;
	}
	if (o->script && !*o->script) {
		rl_error("ingest: --script needs a path, e.g. train.py");
		return -1;
	}
	*nfiles = n;
	if (!n) {
		rl_error("ingest: no input files");
		rl_hint("name the files to ingest, or '-' for standard input");
		return -1;
	}
	return 0;
}

int cmd_ingest(int argc, char **argv, struct ledger_ctx *ctx)
{
	static const char *const cols[] = { "file", "format", "new", "present", "quarantined" };
	struct ingest_opts o = { .started_at = NAN, .every = 300, .wait_s = -1 };
	enum ingest_format as = IN_UNKNOWN;
	int nfiles, rc = EXIT_OK;
	if (parse_args(argc, argv, &o, &as, &nfiles))
		return EXIT_USAGE;
	struct codediff *cd = NULL;
	if (o.repo) {
		sb err = SB_INIT;
		cd = codediff_open(o.repo, o.script ? o.script : "train.py", &err);
		if (!cd)
			rl_error("ingest: --repo: %s", err.buf);
		sb_release(&err);
		if (!cd) {
			rl_hint("name the directory that holds the runs' commits (a work tree, its .git, or a bare repository)");
			return EXIT_USAGE;
		}
	}
	struct summary s = { .structured = ctx->fmt_given };
	table_init(&s.t, 5, cols);
	/* Each record is ~100 small jansson allocations freed together, and
	 * its ~1 KB canonical text is one of glibc's "large" requests, which
	 * makes malloc consolidate all fast-bin chunks first: 14% of ingest
	 * CPU in a profile. Without fast bins, 100k records took ~10% less
	 * CPU and ~8% less time (docs/ingest.md). Only this process's heap. */
	mallopt(M_MXFAST, 0);
	/* jansson's allocations go through common/jsonarena.c while ingest
	 * runs: the worker thread's records and the store's cached parent
	 * configs live in arenas dropped whole; all else is malloc as before. */
	int arenas = json_arena_install() == 0;
	struct store *st = store_new(ctx->db);
	store_set_codediff(st, cd);
	/* Without --wait an ingest waits as long as it takes, unless an agent
	 * (or a test) that would rather fail fast sets $LEDGER_BUSY_TIMEOUT,
	 * the bound every other command's busy timeout takes too. */
	struct lock_wait w = { .limit = o.wait_s >= 0 ? o.wait_s : db_busy_env_s() };
	sqlite3_busy_handler(ctx->db, on_busy, &w);
	int i = 0;
	for (; i < nfiles && rc != EXIT_FAILURE_RT; i++) {
		int r = ingest_one(argv[i], as, &o, st, cd, &s, &w);
		rc = r > rc ? r : rc;
	}
	if (rc == EXIT_FAILURE_RT)
		say_not_ingested(argv + i - 1, nfiles - i + 1);
	store_free(st);
	sqlite3_busy_timeout(ctx->db, db_busy_timeout_ms()); /* w is going away; closing may still wait */
	codediff_free(cd);
	if (arenas)
		json_arena_uninstall();
	if (s.structured)
		table_render(&s.t, ctx->fmt, stdout);
	table_release(&s.t);
	return rc;
}
