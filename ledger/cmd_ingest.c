/* cmd_ingest.c — `ledger ingest FILE…`: the command line, each file opened
 * and its format detected, then handed to the ingest core (ingest_core.c:
 * the readers, validation, storage, one transaction per file), and one
 * summary line per file. Must not parse formats, store records or write
 * SQL: the readers, the core and store.c do. */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "codediff.h"
#include "db.h"
#include "ingest.h"
#include "ledger.h"
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
	.notes = "Prints 'FILE: N new, M already present, Q quarantined (FORMAT)' per file,\n"
		 "with ', E running runs ended' and ', U updated in place' before the format\n"
		 "when there are (a running record replaced by its final one; a stored run\n"
		 "changed, keeping its id: a results.tsv row edited since, a crash given the\n"
		 "status its description names). --format gives the columns file, format,\n"
		 "new, present, quarantined, ended, updated.\n"
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
		/* only when there are: the line others parse keeps its shape */
		if (f->n_ended)
			printf(", %ld running run%s ended", f->n_ended, f->n_ended == 1 ? "" : "s");
		if (f->n_updated)
			printf(", %ld updated in place", f->n_updated);
		printf(" (%s)\n", ingest_format_name(f->format));
		return;
	}
	int r = table_add_row(&s->t);
	table_set_text(&s->t, r, 0, f->name);
	table_set_text(&s->t, r, 1, ingest_format_name(f->format));
	table_set_int(&s->t, r, 2, f->n_new);
	table_set_int(&s->t, r, 3, f->n_present);
	table_set_int(&s->t, r, 4, f->n_quarantined);
	table_set_int(&s->t, r, 5, f->n_ended);
	table_set_int(&s->t, r, 6, f->n_updated);
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
static int ingest_one(const char *path, enum ingest_format forced, struct ingest_session *in,
		      struct summary *s)
{
	struct ingest_file f = { .path = path, .name = strcmp(path, "-") ? path : "stdin",
				 .run_id = SB_INIT, .warned = SB_INIT,
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
	} else if ((rc = ingest_session_file(in, &f)) == EXIT_OK) {
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
	static const char *const cols[] = { "file", "format", "new", "present", "quarantined", "ended", "updated" };
	struct ingest_opts o = { .started_at = NAN, .every = 300, .wait_s = -1 };
	enum ingest_format as = IN_UNKNOWN;
	int nfiles, rc = EXIT_OK;
	if (parse_args(argc, argv, &o, &as, &nfiles))
		return EXIT_USAGE;
	if (o.wait_s >= 0) /* a PostgreSQL ledger's lock waits as long (replica.c) */
		db_set_write_wait(o.wait_s);
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
	table_init(&s.t, ARRAY_SIZE(cols), cols);
	struct ingest_session *in = ingest_session_new(ctx->db, &o, cd);
	int i = 0;
	for (; i < nfiles && rc != EXIT_FAILURE_RT; i++) {
		int r = ingest_one(argv[i], as, in, &s);
		rc = r > rc ? r : rc;
	}
	if (rc == EXIT_FAILURE_RT)
		say_not_ingested(argv + i - 1, nfiles - i + 1);
	ingest_session_free(in);
	codediff_free(cd);
	if (s.structured)
		table_render(&s.t, ctx->fmt, stdout);
	table_release(&s.t);
	return rc;
}
