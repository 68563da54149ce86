/* cmd_check.c — `ledger check`: is the ledger file sound? SQLite's own
 * checks (check.h) say; this file prints what they found. Reads only. */
#include "check.h"
#include "ledger.h"
#include "pg_schema.h"
#include "util.h"

enum { O_QUICK = 1 };
static const struct opt check_opts[] = {
	{ .name = "--quick", .id = O_QUICK,
	  .help = "quick_check instead of integrity_check: the same checks but\n"
		  "the index contents, in linear time, for a very large ledger" },
};
static const struct opt_group check_group = { NULL, NULL, check_opts, ARRAY_SIZE(check_opts) };

const struct opt_cmd cmd_check_spec = {
	.name = "check",
	.summary = "check the ledger file for damage (SQLite's integrity and foreign key checks)",
	.about = "Check the ledger file with SQLite's own checks: integrity_check (every\n"
		 "page, and every index against its table) and foreign_key_check (changes\n"
		 "and campaign assignments whose run is gone). Prints one row per check\n"
		 "that passed ('ok') and one per problem found, with the ledger's name.\n"
		 "On PostgreSQL (--db postgresql://…) the server keeps its own pages sound;\n"
		 "the checks there are 'schema' (its version, every table and index there,\n"
		 "none invalid) and 'foreign_key_check' (docs/postgres.md#check).\n",
	.notes = "Exit status: 0 healthy, 1 damaged (restore it: docs/ledger.md#check),\n"
		 "2 usage error, 3 the checks could not run.\n",
	.groups = { &check_group },
};

static void render(const struct ledger_ctx *ctx, const struct ledger_check *c)
{
	const char *name = ctx->pg ? ctx->pg->name : ctx->db_path; /* a URL without its password */
	static const char *const cols[] = { "ledger", "check", "result" };
	table t;
	table_init(&t, 3, cols);
	for (int k = 0; k < 2; k++) {
		int found = 0;
		for (int i = 0; i < c->n; i++) {
			if (strcmp(c->v[i].check, c->checks[k]))
				continue;
			int r = table_add_row(&t);
			table_set_text(&t, r, 0, name);
			table_set_text(&t, r, 1, c->checks[k]);
			table_set_text(&t, r, 2, c->v[i].text);
			found++;
		}
		if (!found) {
			int r = table_add_row(&t);
			table_set_text(&t, r, 0, name);
			table_set_text(&t, r, 1, c->checks[k]);
			table_set_text(&t, r, 2, "ok");
		}
	}
	table_render(&t, ctx->fmt, stdout);
	table_release(&t);
}

int cmd_check(int argc, char **argv, struct ledger_ctx *ctx)
{
	int quick = 0, r;
	struct opt_parser p;
	opts_begin(&p, &ledger_prog, &cmd_check_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == O_QUICK) {
			quick = 1;
			continue;
		}
		if (r == OPTS_ARG) {
			rl_error("check: unexpected argument '%s'", p.val);
			rl_hint("usage: ledger check [--quick]; name the ledger with --db FILE");
		}
		return EXIT_USAGE;
	}
	struct ledger_check c;
	if (ctx->pg ? pg_check(ctx->pg, &c) : ledger_check(ctx->db, quick, &c)) {
		ledger_check_release(&c);
		return EXIT_FAILURE_RT;
	}
	render(ctx, &c);
	int rc = c.n ? EXIT_FINDINGS : EXIT_OK;
	if (c.n && ctx->pg) {
		rl_error("check: PostgreSQL ledger '%s' is damaged: %d problem%s", ctx->pg->name, c.n,
			 c.n == 1 ? "" : "s");
		rl_hint("no ledger there: 'ledger init' makes one; a missing or invalid index: create it again "
			"as docs/postgres.md#check says");
	} else if (c.n) {
		rl_error("check: ledger '%s' is damaged: %d problem%s", ctx->db_path, c.n, c.n == 1 ? "" : "s");
		rl_hint("ingest the source files again into a new ledger (ingest is idempotent), or recover "
			"what is readable with 'sqlite3 %s .recover | sqlite3 NEW.db'", ctx->db_path);
	}
	ledger_check_release(&c);
	return rc;
}
