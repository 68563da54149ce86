/* main.c — `report`: global options, then dispatch to a subcommand.
 * Reports read the ledger and write markdown, HTML and charts into --out;
 * they never write the ledger.
 *
 * Adding a command:
 *   1. write report/NAME.c exporting cmd_NAME(argc, argv, ctx), with its
 *      usage string at the top and its exit status as return value;
 *   2. declare it in report.h and add a row to commands[] below;
 *   3. the Makefile picks up every .c file in report/ by itself;
 *   4. document it in docs/report.md and add tests/t-report-NAME.sh.
 */
#include <unistd.h>
#include "annot.h"
#include "db.h"
#include "report.h"
#include "util.h"

enum { NEED_DB = 1 };

static const struct command {
	const char *name;
	report_fn fn;
	int flags;
	const char *summary;
} commands[] = {
	{ "daily", cmd_daily, NEED_DB, "the daily digest of one UTC day: frontier, agents, failures" },
	{ "campaign", cmd_campaign, NEED_DB, "one campaign: baseline, best, variables, audit, what to test next" },
	{ "index", cmd_index, 0, "rebuild DIR/index.html linking every report in DIR" },
};

static const char usage[] =
	"usage: report [--db FILE] COMMAND [ARGS]\n"
	"\n"
	"Options (accepted before or after COMMAND):\n"
	"  --db FILE       ledger database (default $LEDGER_DB, else ./ledger.db)\n"
	"  -h, --help      this help; `report COMMAND --help` for a command\n"
	"\n"
	"Environment: RUNLEDGER_TEMPLATES (templates directory), RUNLEDGER_GNUPLOT\n"
	"(gnuplot program; charts are skipped when it is missing),\n"
	"RUNLEDGER_GNUPLOT_TIMEOUT (seconds gnuplot may take per chart; default 60).\n"
	"\n"
	"Exit status: 0 ok, 1 partial (a chart or section could not be made),\n"
	"2 usage error, 3 runtime failure (database, I/O).\n"
	"\n"
	"Commands:\n";

static void print_usage(FILE *out)
{
	fputs(usage, out);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
}

/* Take --db out of argv wherever it stands. Returns 0 or EXIT_USAGE. */
static int take_global_options(int *argc, char **argv, struct report_ctx *ctx)
{
	int out = 1;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (!strcmp(a, "--db")) {
			if (i + 1 >= *argc) {
				rl_error("option '--db' needs a value");
				return EXIT_USAGE;
			}
			ctx->db_path = argv[++i];
		} else if (str_starts_with(a, "--db=")) {
			ctx->db_path = a + 5;
		} else {
			argv[out++] = argv[i];
		}
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

/* The database must exist: a report of a ledger that is not there would be
 * an empty report of a typo. */
static int open_ledger(struct report_ctx *ctx)
{
	if (access(ctx->db_path, F_OK)) {
		rl_error("cannot open ledger '%s': %s", ctx->db_path, strerror(errno));
		rl_hint("pass --db FILE or set LEDGER_DB; create a ledger with 'ledger ingest'");
		return EXIT_FAILURE_RT;
	}
	if (db_open_read(ctx->db_path, &ctx->db)) /* a report only reads: a read-only ledger will do */
		return EXIT_FAILURE_RT;
	/* decided decisions, and archived runs left out (ledger/annot.h) */
	if (annot_view(ctx->db, ANNOT_HIDE_ARCHIVED)) {
		db_close(ctx->db);
		ctx->db = NULL;
		return EXIT_FAILURE_RT;
	}
	/* One read transaction for the whole report: every section sees the
	 * same snapshot even while agents keep ingesting (WAL), and SQLite
	 * takes its locks once instead of per statement. The larger page cache
	 * keeps a day's pages from being read again by each section. */
	if (db_exec(ctx->db, "PRAGMA cache_size = -65536; BEGIN")) {
		db_close(ctx->db);
		ctx->db = NULL;
		return EXIT_FAILURE_RT;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct report_ctx ctx = { 0 };
	rl_progname = "report";
	ctx.db_path = getenv("LEDGER_DB");
	if (!ctx.db_path || !*ctx.db_path)
		ctx.db_path = "ledger.db";
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
		if ((c->flags & NEED_DB) && !wants_help(argc - 1, argv + 1) &&
		    (rc = open_ledger(&ctx)))
			return rc;
		rc = c->fn(argc - 1, argv + 1, &ctx);
		if (ctx.db) {
			db_exec(ctx.db, "COMMIT"); /* read-only: ends the snapshot */
			db_close(ctx.db);
		}
		/* as in ledger/main.c: no result read past an SQLite error exits 0 */
		if (db_errors() && rc < EXIT_FAILURE_RT)
			rc = EXIT_FAILURE_RT;
		if (fflush(stdout) || ferror(stdout)) {
			rl_error("cannot write output: %s", strerror(errno));
			return EXIT_FAILURE_RT;
		}
		return rc;
	}
	rl_error("'%s' is not a report command", argv[1]);
	rl_hint("run 'report --help' for the list");
	return EXIT_USAGE;
}
