/* main.c — `ledger`: global options, then dispatch to a subcommand.
 *
 * Adding a command:
 *   1. write ledger/cmd_NAME.c exporting cmd_NAME(argc, argv, ctx) and its
 *      table `const struct opt_cmd cmd_NAME_spec` (common/opts.h): name,
 *      summary, about, notes, option groups; cmd_query.c is a short example.
 *      Give each option an id (an enum in the file, ids > 0 and below 799;
 *      --archived is 799, the filters use 800..899, the global options 900..);
 *   2. parse with opts_begin(&p, &ledger_prog, &cmd_NAME_spec, argc, argv)
 *      and a loop over opts_next(): `--opt V`, `--opt=V`, int/double/date
 *      values, unknown options with "did you mean" are done there. Add
 *      &run_filter_opts to .groups to take the filters and hand them to
 *      run_filter_take_opt() (ledger/filter.h); a command that reads runs
 *      as annotated (EFFECTIVE below) adds &archived_opts, which main
 *      takes before the command runs (the command skips O_ARCHIVED);
 *   3. declare both in ledger.h and add { &cmd_NAME_spec, cmd_NAME, FLAGS }
 *      to commands[] below; `--help`, `ledger help NAME`, the man page and
 *      the bash completion come from the table, so there is no usage string;
 *   4. the Makefile picks up every .c file in ledger/ by itself;
 *   5. document it in docs/ledger.md (tests/t-docs-usage.sh checks the
 *      usage block against --help) and add tests/t-ledger-NAME.sh
 *      (tests/t-help.sh already runs `--help` for every row).
 */
#include <unistd.h>
#include "annot.h"
#include "db.h"
#include "dialect.h"
#include "filter.h"
#include "ledger.h"
#include "pg.h"
#include "pg_schema.h"
#include "replica.h"
#include "opts.h"
#include "util.h"

/* NEED_DB: the command works on a ledger. CREATES_DB: it may start a new
 * one (init, ingest, campaign add); every other command needs the file to exist,
 * so that `ledger query --db typo.db` says so instead of creating an empty
 * ledger and answering that it holds nothing. */
enum { NEED_DB = 1, CREATES_DB = 2, READS_DB = 4, EFFECTIVE = 8, ON_PG = 16 };
/* READS_DB: the command only reads, so the ledger is opened read-only
 * (db_open_read): a read-only file, directory or mount can be read, and a
 * read never writes a schema into an empty file.
 * EFFECTIVE: the command reads runs as annotated (annot.h annot_view):
 * decided decisions, archived runs hidden unless --archived is given
 * (archived_opts in its table; read here, before the command runs).
 * ON_PG: the command talks to a PostgreSQL server itself (--db
 * postgresql://…; docs/postgres.md): it finds ctx->pg open instead of
 * ctx->db. Every other command given a URL runs on the ledger's local
 * replica (replica.h): ctx->db is an SQLite ledger kept up to date from the
 * server, whose write transactions go through the server; a URL is never
 * taken for a file name. */

/* The global options: taken out of argv by main() wherever they stand
 * (before "--"), listed in every command's help. */
enum { G_DB = 900, G_FORMAT };
static const struct opt global_opts[] = {
	{ .name = "--db", .id = G_DB, .type = OPT_STRING, .value = "FILE", .flags = OPT_FILE,
	  .help = "ledger database (default $LEDGER_DB, else ./ledger.db)" },
	{ .name = "--format", .id = G_FORMAT, .type = OPT_STRING, .value = "FMT", .flags = OPT_OWN,
	  .choices = "table|tsv|csv|json|md", .help = "output format: table (default), tsv, csv, json, md" },
};
static const struct opt_group global_group = { "Options (accepted before or after COMMAND)", NULL,
	global_opts, ARRAY_SIZE(global_opts) };

/* --archived, for the EFFECTIVE commands and compare (its filters). */
static const struct opt archived_opt[] = {
	{ .name = "--archived", .id = O_ARCHIVED,
	  .help = "count archived runs too (ledger archive hides them)" },
};
const struct opt_group archived_opts = { NULL, NULL, archived_opt, ARRAY_SIZE(archived_opt) };

static const struct opt_cmd ledger_top = {
	.args = "COMMAND [ARGS]",
	.about = "Keep run records in one SQLite file and answer questions about them.\n"
		 "Installed (make install), every command runs as 'runledger COMMAND'; the\n"
		 "reports as 'runledger report …' and training as 'runledger train …'.\n",
	.notes = "query, frontier, repeats, audit, summary and compare leave archived runs\n"
		 "out; --archived (after the command) takes them in.\n"
		 "\n"
		 "Exit status: 0 ok, 1 findings or partial failure, 2 usage error,\n"
		 "3 runtime failure (database, I/O).\n",
	.groups = { &global_group },
};

/* A row names its command's table (name, summary, options; the generated
 * --help, man page and completion come from it). */
static const struct command {
	const struct opt_cmd *spec;
	cmd_fn fn;
	int flags;
} commands[] = {
#define TABLED(name, flags) { &cmd_##name##_spec, cmd_##name, flags }
	TABLED(init, NEED_DB | CREATES_DB | ON_PG),
	TABLED(ingest, NEED_DB | CREATES_DB),
	TABLED(query, NEED_DB | READS_DB | EFFECTIVE),
	TABLED(show, NEED_DB | READS_DB),
	TABLED(diff, NEED_DB | READS_DB),
	TABLED(frontier, NEED_DB | READS_DB | EFFECTIVE),
	TABLED(repeats, NEED_DB | READS_DB | EFFECTIVE),
	TABLED(quarantine, NEED_DB | READS_DB),
	TABLED(campaign, NEED_DB | CREATES_DB),
	TABLED(audit, NEED_DB | READS_DB | EFFECTIVE),
	TABLED(variables, 0),
	TABLED(reinfer, NEED_DB),
	TABLED(check, NEED_DB | ON_PG),
	{ &cmd_trim_log_spec, cmd_trim_log, NEED_DB | ON_PG }, /* a name with a '-' */
	TABLED(push, NEED_DB | READS_DB), /* --db: the local SQLite ledger it sends */
	TABLED(compare, NEED_DB | READS_DB), /* --archived: its filters only (annot_view there) */
	TABLED(summary, NEED_DB | READS_DB | EFFECTIVE),
	TABLED(note, NEED_DB),
	TABLED(tag, NEED_DB),
	TABLED(decide, NEED_DB),
	TABLED(archive, NEED_DB),
	TABLED(export, NEED_DB | READS_DB),
};

static const struct opt_cmd *specs[ARRAY_SIZE(commands)];

/* OPT_DATE values (ingest --started-at) as people type them: a time, or a
 * day's midnight, today, now, -2h (filter.h parse_user_moment; now is
 * db_now(), RUNLEDGER_NOW for tests); a month or a year names no moment. */
static int parse_moment(const char *s, double *t)
{
	int is_day;
	return parse_user_moment(s, db_now(), t, &is_day);
}

struct opt_prog ledger_prog = {
	.name = "ledger",
	.man_name = "runledger",
	.summary = "a ledger of training runs: ingest, query, compare, audit",
	.top = &ledger_top,
	.cmds = specs,
	.ncmds = ARRAY_SIZE(commands),
	.parse_date = parse_moment,
};

static void init_commands(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		specs[i] = commands[i].spec;
}

static int take_global(const struct opt_parser *p, void *arg)
{
	struct ledger_ctx *ctx = arg;
	if (p->opt->id == G_DB) {
		ctx->db_path = p->val;
		return 0;
	}
	if (out_format_parse(p->val, &ctx->fmt)) {
		rl_error("unknown format '%s'", p->val);
		rl_hint("use one of table, tsv, csv, json, md");
		return -1;
	}
	ctx->fmt_given = 1;
	rl_messages_json(ctx->fmt == FMT_JSON); /* errors as JSON too */
	return 0;
}

/* 1 when argv (checked by opts_check already) gives --archived. */
static int wants_archived(const struct opt_cmd *spec, int argc, char **argv)
{
	struct opt_parser p;
	int r, found = 0;
	opts_begin(&p, &ledger_prog, spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END && r != OPTS_ERROR)
		found |= r == O_ARCHIVED;
	return found;
}

/* A PostgreSQL ledger for a command that has ON_PG: connect, and for one
 * that may create a ledger (init) make the schema when there is none. */
static int open_pg(struct ledger_ctx *ctx, const char *cmd, int flags)
{
	if (!(flags & ON_PG)) { /* the command on the local replica */
		if (replica_open(ctx->db_path, cmd, (flags & CREATES_DB) != 0, &ctx->replica, &ctx->db))
			return EXIT_FAILURE_RT;
		ctx->db_path = replica_name(ctx->replica); /* without the password */
		return 0;
	}
	if (pg_connect(ctx->db_path, &ctx->pg))
		return EXIT_FAILURE_RT;
	int created;
	/* init makes the schema, and the change log of a ledger made before it */
	if ((flags & CREATES_DB) && (pg_schema_ensure(ctx->pg, &created) || pg_log_ensure(ctx->pg))) {
		pg_close(ctx->pg);
		ctx->pg = NULL;
		return EXIT_FAILURE_RT;
	}
	return 0;
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

/* `ledger help [COMMAND]`: the program's help, or the command's. */
static int help_command(int argc, char **argv)
{
	if (argc < 3) {
		opts_print_help(stdout, &ledger_prog, NULL);
		return EXIT_OK;
	}
	const struct opt_cmd *spec = opts_command(&ledger_prog, argv[2], 1);
	if (!spec)
		return EXIT_USAGE;
	opts_print_help(stdout, &ledger_prog, spec);
	return EXIT_OK;
}

static int run_command(size_t at, int argc, char **argv, struct ledger_ctx *ctx)
{
	const struct command *c = &commands[at];
	if (wants_help(argc - 1, argv + 1)) {
		opts_print_help(stdout, &ledger_prog, c->spec);
		return EXIT_OK;
	}
	int flags = c->flags;
	/* campaign list and show only read: a read-only ledger will do */
	if (c->fn == cmd_campaign && argc > 2 && (!strcmp(argv[2], "list") || !strcmp(argv[2], "show")))
		flags = NEED_DB | READS_DB;
	/* a mistyped option is said before the ledger is opened */
	if (opts_check(&ledger_prog, c->spec, argc - 1, argv + 1))
		return EXIT_USAGE;
	int archived = (flags & EFFECTIVE) && wants_archived(c->spec, argc - 1, argv + 1);
	if ((flags & NEED_DB) && db_is_pg_url(ctx->db_path)) {
		int prc = open_pg(ctx, argv[1], flags);
		if (prc)
			return prc;
	} else if ((flags & NEED_DB) && open_ledger(ctx, flags)) {
		return EXIT_FAILURE_RT;
	}
	int rc = EXIT_FAILURE_RT;
	if (!ctx->db || !(flags & EFFECTIVE) ||
	    !annot_view(ctx->db, archived ? ANNOT_WITH_ARCHIVED : ANNOT_HIDE_ARCHIVED))
		rc = c->fn(argc - 1, argv + 1, ctx);
	if (ctx->replica)
		replica_close(ctx->replica);
	else if (ctx->db)
		db_close(ctx->db);
	pg_close(ctx->pg);
	/* the commands pass SQLite errors up; should one not, a result
	 * read past an error must still not pass for a good one */
	if ((db_errors() || pg_errors()) && rc < EXIT_FAILURE_RT)
		rc = EXIT_FAILURE_RT;
	return rc;
}

static int run_ledger(int argc, char **argv)
{
	struct ledger_ctx ctx = { 0 };
	rl_progname = "ledger";
	init_commands();
	int rc = opts_special(&ledger_prog, argc, argv);
	if (rc >= 0)
		return rc;
	ctx.db_path = getenv("LEDGER_DB");
	if (!ctx.db_path || !*ctx.db_path)
		ctx.db_path = "ledger.db";
	ctx.fmt = FMT_TABLE;
	if (opts_take_global(&ledger_prog, &argc, argv, take_global, &ctx))
		return EXIT_USAGE;
	if (argc < 2 && rl_messages_are_json()) {
		rl_error("no command given");
		rl_hint("run 'ledger --help' for the list");
		return EXIT_USAGE;
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		opts_print_help(argc < 2 ? stderr : stdout, &ledger_prog, NULL);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		rc = help_command(argc, argv);
	} else if (!strcmp(argv[1], "--version")) {
		opts_print_version(&ledger_prog);
		rc = EXIT_OK;
	} else if (argv[1][0] == '-') {
		struct opt_parser p; /* an option before any command: not a global one */
		opts_begin(&p, &ledger_prog, NULL, argc, argv);
		opts_next(&p);
		return EXIT_USAGE;
	} else {
		const struct opt_cmd *spec = opts_command(&ledger_prog, argv[1], 1);
		size_t at = 0;
		if (!spec)
			return EXIT_USAGE;
		while (specs[at] != spec)
			at++;
		rc = run_command(at, argc, argv, &ctx);
	}
	if (fflush(stdout) || ferror(stdout)) {
		rl_error("cannot write output: %s", strerror(errno));
		return EXIT_FAILURE_RT;
	}
	return rc;
}

/* The exit status is known here, so errors held as JSON are written here
 * (rl_finish), each with the status the process returns. */
int main(int argc, char **argv)
{
	return rl_finish(run_ledger(argc, argv));
}
