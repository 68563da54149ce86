/* main.c — `report`: global options, then dispatch to a subcommand.
 * Reports read the ledger and write markdown, HTML and charts into --out;
 * they never write the ledger.
 *
 * Adding a command:
 *   1. write report/NAME.c exporting cmd_NAME(argc, argv, ctx) and its
 *      option table cmd_NAME_spec (common/opts.h; index.c is the shortest
 *      example, with the shared groups of options.c), its exit status as
 *      return value; parse with opts_begin(&p, &report_prog, …)/opts_next;
 *   2. declare both in report.h and add a row to commands[] below;
 *   3. the Makefile picks up every .c file in report/ by itself;
 *   4. document it in docs/report.md and add tests/t-report-NAME.sh.
 */
#include <unistd.h>
#include "annot.h"
#include "db.h"
#include "dialect.h"
#include "opts.h"
#include "pg.h"
#include "output.h"
#include "replica.h"
#include "report.h"
#include "util.h"

enum { NEED_DB = 1 };

enum { G_DB = 900, G_FORMAT };
static const struct opt global_opts[] = {
	{ .name = "--db", .id = G_DB, .type = OPT_STRING, .value = "FILE", .flags = OPT_FILE,
	  .help = "ledger database (default $LEDGER_DB, else ./ledger.db)" },
	{ .name = "--format", .id = G_FORMAT, .type = OPT_STRING, .value = "FMT",
	  .choices = "text|json", .help = "text (default), or json: the files written as one object,\n"
	  "messages as JSON lines (docs/exit-codes.md)" },
};
static const struct opt_group global_group = { "Options (accepted before or after COMMAND)", NULL,
	global_opts, ARRAY_SIZE(global_opts) };

static const struct opt_cmd report_top = {
	.args = "COMMAND [ARGS]",
	.about = "Read a ledger (never write it) and write markdown from editable templates,\n"
		 "HTML, and charts through gnuplot.\n",
	.notes = "Environment: RUNLEDGER_TEMPLATES (templates directory), RUNLEDGER_GNUPLOT\n"
		 "(gnuplot program; charts are skipped when it is missing),\n"
		 "RUNLEDGER_GNUPLOT_TIMEOUT (seconds gnuplot may take per chart; default 60).\n"
		 "\n"
		 "Exit status: 0 ok, 1 partial (a chart or section could not be made),\n"
		 "2 usage error, 3 runtime failure (database, I/O).\n",
	.groups = { &global_group },
};

/* A command's table (its name, summary and options: --help, the man page
 * and the completion come from it), its entry point and what it needs. */
static const struct command {
	const struct opt_cmd *spec;
	report_fn fn;
	int flags;
} commands[] = {
	{ &cmd_daily_spec, cmd_daily, NEED_DB },
	{ &cmd_campaign_spec, cmd_campaign, NEED_DB },
	{ &cmd_index_spec, cmd_index, 0 },
};

static const struct opt_cmd *specs[ARRAY_SIZE(commands)];

struct opt_prog report_prog = {
	.name = "report",
	.man_name = "runledger report",
	.summary = "daily digests and campaign reports from a runledger ledger",
	.top = &report_top,
	.cmds = specs,
	.ncmds = ARRAY_SIZE(commands),
};

static int take_global(const struct opt_parser *p, void *arg)
{
	struct report_ctx *ctx = arg;
	if (p->opt->id == G_FORMAT)
		ctx->json = !strcmp(p->val, "json");
	else
		ctx->db_path = p->val;
	return 0;
}

/* The local replica when --db is a PostgreSQL URL */
static struct replica *replica;

static void close_ledger(struct report_ctx *ctx)
{
	if (replica)
		replica_close(replica);
	else
		db_close(ctx->db);
	replica = NULL;
	ctx->db = NULL;
}

/* The database must exist: a report of a ledger that is not there would be
 * an empty report of a typo. */
static int open_ledger(struct report_ctx *ctx)
{
	if (db_is_pg_url(ctx->db_path)) { /* never a file name: its local replica (ledger/replica.h) */
		if (replica_open(ctx->db_path, "report", 0, &replica, &ctx->db))
			return EXIT_FAILURE_RT;
		ctx->db_path = replica_name(replica);
	} else if (access(ctx->db_path, F_OK)) {
		rl_error("cannot open ledger '%s': %s", ctx->db_path, strerror(errno));
		rl_hint("pass --db FILE or set LEDGER_DB; create a ledger with 'ledger ingest'");
		return EXIT_FAILURE_RT;
	} else if (db_open_read(ctx->db_path, &ctx->db)) { /* a report only reads: a read-only ledger will do */
		return EXIT_FAILURE_RT;
	}
	/* decided decisions, and archived runs left out (ledger/annot.h) */
	if (annot_view(ctx->db, ANNOT_HIDE_ARCHIVED)) {
		close_ledger(ctx);
		return EXIT_FAILURE_RT;
	}
	/* One read transaction for the whole report: every section sees the
	 * same snapshot even while agents keep ingesting (WAL), and SQLite
	 * takes its locks once instead of per statement. The larger page cache
	 * keeps a day's pages from being read again by each section. */
	if (db_exec(ctx->db, "PRAGMA cache_size = -65536") || db_begin_read(ctx->db)) {
		close_ledger(ctx);
		return EXIT_FAILURE_RT;
	}
	return 0;
}

static int run_command(const struct command *c, int argc, char **argv, struct report_ctx *ctx)
{
	int rc;
	if (wants_help(argc - 1, argv + 1)) {
		opts_print_help(stdout, &report_prog, c->spec);
		return EXIT_OK;
	}
	if (opts_check(&report_prog, c->spec, argc - 1, argv + 1))
		return EXIT_USAGE;
	if ((c->flags & NEED_DB) && (rc = open_ledger(ctx)))
		return rc;
	rc = c->fn(argc - 1, argv + 1, ctx);
	if (ctx->db) {
		db_end_read(ctx->db); /* ends the snapshot */
		close_ledger(ctx);
	}
	/* as in ledger/main.c: no result read past an SQLite error exits 0 */
	if (db_errors() && rc < EXIT_FAILURE_RT)
		rc = EXIT_FAILURE_RT;
	return rc;
}

/* `report help [COMMAND]` */
static int help_command(int argc, char **argv)
{
	if (argc < 3) {
		opts_print_help(stdout, &report_prog, NULL);
		return EXIT_OK;
	}
	const struct opt_cmd *spec = opts_command(&report_prog, argv[2], 1);
	if (!spec)
		return EXIT_USAGE;
	opts_print_help(stdout, &report_prog, spec);
	return EXIT_OK;
}

static int run_report(int argc, char **argv)
{
	struct report_ctx ctx = { 0 };
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		specs[i] = commands[i].spec;
	int rc = opts_special(&report_prog, argc, argv);
	if (rc >= 0)
		return rc;
	ctx.db_path = getenv("LEDGER_DB");
	if (!ctx.db_path || !*ctx.db_path)
		ctx.db_path = "ledger.db";
	/* --format json anywhere: even its own usage errors come as JSON */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--format=json") ||
		    (!strcmp(argv[i], "--format") && i + 1 < argc && !strcmp(argv[i + 1], "json")))
			rl_messages_json(1);
	if (opts_take_global(&report_prog, &argc, argv, take_global, &ctx))
		return EXIT_USAGE;
	rl_messages_json(ctx.json);
	report_written_as_json(ctx.json);
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		opts_print_help(argc < 2 ? stderr : stdout, &report_prog, NULL);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		rc = help_command(argc, argv);
	} else if (!strcmp(argv[1], "--version")) {
		opts_print_version(&report_prog);
		rc = EXIT_OK;
	} else if (argv[1][0] == '-') {
		struct opt_parser p; /* an option before any command: not a global one */
		opts_begin(&p, &report_prog, NULL, argc, argv);
		opts_next(&p);
		return EXIT_USAGE;
	} else {
		const struct opt_cmd *spec = opts_command(&report_prog, argv[1], 1);
		size_t at = 0;
		if (!spec)
			return EXIT_USAGE;
		while (commands[at].spec != spec)
			at++;
		rc = run_command(&commands[at], argc, argv, &ctx);
	}
	if (fflush(stdout) || ferror(stdout)) {
		rl_error("cannot write output: %s", strerror(errno));
		return EXIT_FAILURE_RT;
	}
	return rc;
}

/* Errors are held in JSON mode until the exit status is known (rl_finish,
 * common/util.h), as in ledger/main.c. */
int main(int argc, char **argv)
{
	rl_progname = "report";
	return rl_finish(run_report(argc, argv));
}
