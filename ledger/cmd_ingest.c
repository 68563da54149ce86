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
#include "ingest.h"
#include "ledger.h"
#include "utf8.h"
#include "util.h"

static const char usage[] =
	"usage: ledger ingest [OPTIONS] FILE...\n"
	"\n"
	"Add run records to the ledger; FILE '-' is standard input. Each file's\n"
	"format is detected from its content:\n"
	"  runrec       runrec/1 JSONL (one record a line) or one JSON object\n"
	"  results.tsv  autoresearch results.tsv (a header row naming val_bpb)\n"
	"  run.log      autoresearch run.log: '---' summary, step lines, traceback or FAIL\n"
	"  arh.json     autoresearch@home result JSON (one object, or JSONL of them)\n"
	"\n"
	"Options:\n"
	"  --as FORMAT        read every FILE as FORMAT instead of detecting it\n"
	"  --agent NAME       agent for records that lack one\n"
	"  --campaign NAME    campaign for records that lack one\n"
	"  --hardware GPU     hardware.gpu_name for records that lack one,\n"
	"                     e.g. \"NVIDIA H100 80GB HBM3\"\n"
	"  --started-at TIME  started_at (ISO-8601 UTC) for records that lack one;\n"
	"                     for results.tsv the time of the first row\n"
	"  --every SECONDS    with --started-at, results.tsv rows start this far\n"
	"                     apart (default 300)\n"
	"  --repo DIR         the git repository of the runs' commits: a run with a\n"
	"                     commit whose parent run has one gets the two commits'\n"
	"                     diff as its changes (how 'code'): the training\n"
	"                     script's top-level constants (DEPTH -> model.depth,\n"
	"                     others code.NAME) and one change per other changed\n"
	"                     function (code.train.py:GPT.forward). Commits are\n"
	"                     looked up by hash or prefix, reset-away ones too; a\n"
	"                     commit not there falls back to the description\n"
	"  --script PATH      the training script's path in the repository\n"
	"                     (default train.py)\n"
	"  --format FMT       the summary as table|tsv|csv|json|md\n"
	"  --wait SECONDS     how long to wait for the ledger while another process\n"
	"                     writes to it (default: as long as it takes; a line on\n"
	"                     stderr says so after a second)\n"
	"\n"
	"Prints 'FILE: N new, M already present, Q quarantined (FORMAT)' per file.\n"
	"A bad line is reported as 'ledger: ingest: FILE:LINE: reason' and kept in\n"
	"the quarantine table ('ledger quarantine'); the rest of the file goes in.\n"
	"Ingesting the same content twice adds nothing. One transaction per file.\n"
	"On a terminal, a status line on stderr shows how far a long file has got.\n"
	"\n"
	"Exit status: 0 all stored, 1 some input quarantined, 2 bad usage or a file\n"
	"that cannot be read or recognised (the other files are still ingested),\n"
	"3 database failure.\n";

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

/* --name VALUE or --name=VALUE at argv[*i]; advances *i. 1 when matched. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n])
		return 0;
	if (*i + 1 >= argc) {
		*val = NULL;
		return 1;
	}
	*val = argv[++*i];
	return 1;
}

/* Options may stand before or after the files (until "--"); the files are
 * moved to the front of argv, their count returned in *nfiles. */
static int parse_args(int argc, char **argv, struct ingest_opts *o, enum ingest_format *as,
		      int *nfiles)
{
	int n = 0, literal = 0;
	for (int i = 1; i < argc; i++) {
		const char *v = "", *a = argv[i];
		if (literal || a[0] != '-' || !a[1]) {
			argv[n++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--"))
			literal = 1;
		else if (opt_value(argc, argv, &i, "--agent", &v))
			o->agent = v;
		else if (opt_value(argc, argv, &i, "--campaign", &v))
			o->campaign = v;
		else if (opt_value(argc, argv, &i, "--hardware", &v))
			o->hardware = v;
		else if (opt_value(argc, argv, &i, "--started-at", &v)) {
			if (v && parse_iso_utc(v, &o->started_at)) {
				rl_error("ingest: --started-at '%s' is not an ISO-8601 time", v);
				rl_hint("write it like 2026-03-16T04:00:00Z");
				return -1;
			}
		} else if (opt_value(argc, argv, &i, "--every", &v)) {
			if (v && (parse_double(v, &o->every) || o->every < 0)) {
				rl_error("ingest: --every '%s' is not a number of seconds", v);
				return -1;
			}
		} else if (opt_value(argc, argv, &i, "--wait", &v)) {
			if (v && (parse_double(v, &o->wait_s) || !(o->wait_s >= 0))) {
				rl_error("ingest: --wait '%s' is not a number of seconds", v);
				return -1;
			}
		} else if (opt_value(argc, argv, &i, "--repo", &v)) {
			o->repo = v;
		} else if (opt_value(argc, argv, &i, "--script", &v)) {
			o->script = v;
		} else if (opt_value(argc, argv, &i, "--as", &v)) {
			if (v && ingest_format_parse(v, as)) {
				rl_error("ingest: --as '%s' is not a format", v);
				rl_hint("use runrec, results.tsv, run.log or arh.json");
				return -1;
			}
		} else {
			rl_error("ingest: unknown option '%s'", a);
			rl_hint("run 'ledger ingest --help'");
			return -1;
		}
		if (!v) {
			rl_error("ingest: option '%s' needs a value", a);
			return -1;
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
	if (wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
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
