/* main.c — `ledger`: global options, then dispatch to a subcommand.
 *
 * Adding a command:
 *   1. write ledger/cmd_NAME.c exporting cmd_NAME(argc, argv, ctx), with its
 *      usage string at the top and its exit status as return value;
 *   2. declare it in ledger.h and add a row to commands[] below;
 *   3. the Makefile picks up every .c file in ledger/ by itself;
 *   4. document it in docs/ledger.md and add tests/t-ledger-NAME.sh
 *      (tests/t-help.sh already runs `--help` for every row).
 */
#include <unistd.h>
#include "annot.h"
#include "db.h"
#include "ledger.h"
#include "util.h"

/* NEED_DB: the command works on a ledger. CREATES_DB: it may start a new
 * one (init, ingest, campaign add); every other command needs the file to exist,
 * so that `ledger query --db typo.db` says so instead of creating an empty
 * ledger and answering that it holds nothing. */
enum { NEED_DB = 1, CREATES_DB = 2, READS_DB = 4, EFFECTIVE = 8 };
/* READS_DB: the command only reads, so the ledger is opened read-only
 * (db_open_read): a read-only file, directory or mount can be read, and a
 * read never writes a schema into an empty file.
 * EFFECTIVE: the command reads runs as annotated (annot.h annot_view):
 * decided decisions, archived runs hidden unless --archived is given
 * (taken out of argv here, before "--"). */

static const struct command {
	const char *name;
	cmd_fn fn;
	int flags;
	const char *summary;
} commands[] = {
	{ "init", cmd_init, NEED_DB | CREATES_DB, "create an empty ledger, or check an existing one" },
	{ "ingest", cmd_ingest, NEED_DB | CREATES_DB, "add run records (runrec/1, results.tsv, run.log, autoresearch@home JSON)" },
	{ "query", cmd_query, NEED_DB | READS_DB | EFFECTIVE, "list runs matching filters" },
	{ "show", cmd_show, NEED_DB | READS_DB, "show one run in full" },
	{ "diff", cmd_diff, NEED_DB | READS_DB, "compare two runs: config, code, hardware, metrics" },
	{ "frontier", cmd_frontier, NEED_DB | READS_DB | EFFECTIVE, "running best per hardware class and the runs that moved it" },
	{ "repeats", cmd_repeats, NEED_DB | READS_DB | EFFECTIVE, "groups of repeat measurements with n, mean, sd" },
	{ "quarantine", cmd_quarantine, NEED_DB | READS_DB, "list input lines that could not be ingested" },
	{ "campaign", cmd_campaign, NEED_DB | CREATES_DB, "declare, list, show and assign campaigns" },
	{ "audit", cmd_audit, NEED_DB | READS_DB | EFFECTIVE, "audit campaigns: confounded, out-of-scope, unresolved, noise" },
	{ "variables", cmd_variables, 0, "the variable vocabulary: keys, kinds, types, aliases (no ledger needed)" },
	{ "reinfer", cmd_reinfer, NEED_DB, "recompute changes inferred from descriptions with the current rules" },
	{ "check", cmd_check, NEED_DB, "check the ledger file for damage (SQLite's integrity and foreign key checks)" },
	{ "compare", cmd_compare, NEED_DB | READS_DB, "runs side by side: the config keys that differ and the metrics" },
	{ "summary", cmd_summary, NEED_DB | READS_DB | EFFECTIVE, "where a campaign stands: keeps, crashes, best, trend, untested" },
	{ "note", cmd_note, NEED_DB, "add a note to a run (kept beside its record, with who and when)" },
	{ "tag", cmd_tag, NEED_DB, "tag a run KEY=VALUE" },
	{ "decide", cmd_decide, NEED_DB, "decide a run keep or discard after the fact" },
	{ "archive", cmd_archive, NEED_DB, "hide runs from frontier, audit, query and reports (never deleted)" },
	{ "export", cmd_export, NEED_DB | READS_DB, "every run as runrec/1 JSONL with its changes and annotations" },
};

static const char usage[] =
	"usage: ledger [--db FILE] [--format table|tsv|csv|json|md] COMMAND [ARGS]\n"
	"\n"
	"Options (accepted before or after COMMAND):\n"
	"  --db FILE       ledger database (default $LEDGER_DB, else ./ledger.db)\n"
	"  --format FMT    output format: table (default), tsv, csv, json, md\n"
	"  --archived      query, frontier, repeats, audit, summary: archived runs too\n"
	"  -h, --help      this help; `ledger COMMAND --help` for a command\n"
	"\n"
	"Exit status: 0 ok, 1 findings or partial failure, 2 usage error,\n"
	"3 runtime failure (database, I/O).\n"
	"\n"
	"Commands:\n";

static void print_usage(FILE *out)
{
	fputs(usage, out);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
}

/* Take --db and --format out of argv wherever they stand (before "--"), so
 * every command accepts them in either position. Returns 0 or EXIT_USAGE. */
static int take_global_options(int *argc, char **argv, struct ledger_ctx *ctx)
{
	int out = 1, i = 1, literal = 0;
	for (; i < *argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		int is_db = 0, is_fmt = 0;
		if (!literal && !strcmp(a, "--"))
			literal = 1;
		if (!literal) {
			if (!strcmp(a, "--db") || !strcmp(a, "--format")) {
				is_db = a[2] == 'd';
				is_fmt = !is_db;
				if (i + 1 >= *argc) {
					rl_error("option '%s' needs a value", a);
					return EXIT_USAGE;
				}
				val = argv[++i];
			} else if (str_starts_with(a, "--db=")) {
				is_db = 1;
				val = a + 5;
			} else if (str_starts_with(a, "--format=")) {
				is_fmt = 1;
				val = a + 9;
			}
		}
		if (is_db) {
			ctx->db_path = val;
		} else if (is_fmt) {
			if (out_format_parse(val, &ctx->fmt)) {
				rl_error("unknown format '%s'", val);
				rl_hint("use one of table, tsv, csv, json, md");
				return EXIT_USAGE;
			}
			ctx->fmt_given = 1;
		} else {
			argv[out++] = argv[i];
		}
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

/* Remove every flag from argv (before "--"); 1 when it was there. */
static int take_flag(int *argc, char **argv, const char *flag)
{
	int out = 1, found = 0, literal = 0;
	for (int i = 1; i < *argc; i++) {
		if (!literal && !strcmp(argv[i], "--"))
			literal = 1;
		if (!literal && !strcmp(argv[i], flag))
			found = 1;
		else
			argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	return found;
}

static int open_ledger(struct ledger_ctx *ctx, int flags)
{
	if (!(flags & CREATES_DB) && access(ctx->db_path, F_OK)) {
		rl_error("cannot open ledger '%s': %s", ctx->db_path, strerror(errno));
		rl_hint("pass --db FILE or set LEDGER_DB; 'ledger ingest FILE' or 'ledger init' creates one");
		return -1;
	}
	if (flags & READS_DB)
		return db_open_read(ctx->db_path, &ctx->db);
	return db_open(ctx->db_path, &ctx->db);
}

int main(int argc, char **argv)
{
	struct ledger_ctx ctx = { 0 };
	rl_progname = "ledger";
	ctx.db_path = getenv("LEDGER_DB");
	if (!ctx.db_path || !*ctx.db_path)
		ctx.db_path = "ledger.db";
	ctx.fmt = FMT_TABLE;
	int rc = take_global_options(&argc, argv, &ctx);
	if (rc)
		return rc;
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		print_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		const struct command *c = &commands[i];
		if (strcmp(argv[1], c->name))
			continue;
		int flags = c->flags;
		/* campaign list and show only read: a read-only ledger will do */
		if (!strcmp(c->name, "campaign") && argc > 2 &&
		    (!strcmp(argv[2], "list") || !strcmp(argv[2], "show")))
			flags = NEED_DB | READS_DB;
		int archived = (flags & EFFECTIVE) ? take_flag(&argc, argv, "--archived") : 0;
		if ((flags & NEED_DB) && !wants_help(argc - 1, argv + 1) && open_ledger(&ctx, flags))
			return EXIT_FAILURE_RT;
		if (ctx.db && (flags & EFFECTIVE) &&
		    annot_view(ctx.db, archived ? ANNOT_WITH_ARCHIVED : ANNOT_HIDE_ARCHIVED)) {
			db_close(ctx.db);
			return EXIT_FAILURE_RT;
		}
		rc = c->fn(argc - 1, argv + 1, &ctx);
		if (ctx.db)
			db_close(ctx.db);
		/* the commands pass SQLite errors up; should one not, a result
		 * read past an error must still not pass for a good one */
		if (db_errors() && rc < EXIT_FAILURE_RT)
			rc = EXIT_FAILURE_RT;
		if (fflush(stdout) || ferror(stdout)) {
			rl_error("cannot write output: %s", strerror(errno));
			return EXIT_FAILURE_RT;
		}
		return rc;
	}
	rl_error("'%s' is not a ledger command", argv[1]);
	rl_hint("run 'ledger --help' for the list");
	return EXIT_USAGE;
}
