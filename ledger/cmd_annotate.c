/* cmd_annotate.c — `ledger note`, `tag`, `decide`, `archive`: annotations
 * after the fact (annot.h). Each adds rows to the annotations table, with
 * who and when, in one transaction, and prints what it added; the run's
 * record is never touched. */
#include "annot.h"
#include "db.h"
#include "ledger.h"
#include "lookup.h"
#include "util.h"

enum { O_WHO = 1, O_UNDO };
static const struct opt who_opt[] = {
	{ .name = "--who", .id = O_WHO, .type = OPT_STRING, .value = "NAME",
	  .help = "who makes it (default $LEDGER_WHO, else $USER)" },
};
static const struct opt_group who_group = { NULL, NULL, who_opt, ARRAY_SIZE(who_opt) };
static const struct opt undo_opt[] = {
	{ .name = "--undo", .id = O_UNDO, .help = "restore archived runs" },
};
static const struct opt_group undo_group = { NULL, NULL, undo_opt, ARRAY_SIZE(undo_opt) };

const struct opt_cmd cmd_note_spec = {
	.name = "note",
	.args = "RUN TEXT",
	.summary = "add a note to a run (kept beside its record, with who and when)",
	.about = "Add a note to a run: free text kept beside its unchanged record, with who\n"
		 "and when; shown by 'ledger show', included in 'ledger export'. A text\n"
		 "that starts with '-' goes after \"--\".\n",
	.groups = { &who_group },
};

const struct opt_cmd cmd_tag_spec = {
	.name = "tag",
	.args = "RUN KEY=VALUE...",
	.summary = "tag a run KEY=VALUE",
	.about = "Tag a run. A later tag of the same key replaces the value; KEY= (empty\n"
		 "value) removes the tag. KEY is letters, digits, '_', '.' and '-'.\n",
	.groups = { &who_group },
};

const struct opt_cmd cmd_decide_spec = {
	.name = "decide",
	.args = "RUN keep|discard",
	.summary = "decide a run keep or discard after the fact",
	.about = "Decide a run again: the decision the ledger uses from now on (frontier,\n"
		 "audit, query, report), while the record keeps the decision it was\n"
		 "recorded with; 'ledger show' says both. The latest decision wins.\n",
	.groups = { &who_group },
};

const struct opt_cmd cmd_archive_spec = {
	.name = "archive",
	.args = "RUN...",
	.summary = "hide runs from frontier, audit, query and reports (never deleted)",
	.about = "Archive runs: hidden from frontier, audit, repeats, query, summary and\n"
		 "report unless they are given --archived; never deleted ('ledger show'\n"
		 "and 'ledger export' still show them).\n",
	.groups = { &who_group, &undo_group },
};

struct annot_args {
	const struct opt_cmd *spec;
	const char *cmd;
	const char *who;
	int undo;          /* archive only */
	const char **pos;  /* positional arguments */
	int npos;
};

/* The options of a->spec; the rest is positional ("--" ends the
 * options). 0, or -1 (reported). */
static int parse_args(int argc, char **argv, struct annot_args *a)
{
	struct opt_parser p;
	int r;
	a->pos = xcalloc((size_t)argc, sizeof(char *));
	opts_begin(&p, &ledger_prog, a->spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR)
			return -1;
		if (r == OPTS_ARG) {
			a->pos[a->npos++] = p.val;
		} else if (r == O_UNDO) {
			a->undo = 1;
		} else if (r == O_WHO) {
			if (!*p.val) {
				rl_error("%s: --who needs a name", a->cmd);
				return -1;
			}
			a->who = p.val;
		}
	}
	return 0;
}

/* "KEY=VALUE" with a key of letters, digits, '_', '.', '-'. */
static int tag_split(const char *cmd, const char *arg, char **key, const char **value)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	for (size_t k = 0; k < n; k++)
		if (!isalnum((unsigned char)arg[k]) && !strchr("_.-", arg[k]))
			n = 0;
	if (!n) {
		rl_error("%s: '%s' is not KEY=VALUE", cmd, arg);
		rl_hint("write e.g. 'ledger tag RUN reviewed=yes' (KEY: letters, digits, '_', '.', '-'; "
			"KEY= removes the tag)");
		return -1;
	}
	*key = xstrndup(arg, n);
	*value = eq + 1;
	return 0;
}

static const char *const out_cols[] = { "run_id", "kind", "key", "value", "who", "at" };

static void out_row(table *t, const char *run_id, const char *kind, const char *key, const char *value,
		    const char *who, const char *at)
{
	int r = table_add_row(t);
	table_set_text(t, r, 0, run_id);
	table_set_text(t, r, 1, kind);
	table_set_text(t, r, 2, key);
	table_set_text(t, r, 3, value);
	table_set_text(t, r, 4, who);
	table_set_text(t, r, 5, at);
}

/* The run's id and run_id from a reference; 0, or an exit status. */
static int resolve(sqlite3 *db, const char *ref, sqlite3_int64 *id, char **run_id)
{
	int rc = run_lookup(db, ref, id, 0);
	if (rc)
		return rc == LOOKUP_DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
	sqlite3_stmt *st = db_prepare(db, "SELECT run_id FROM runs WHERE id = ?1");
	sqlite3_bind_int64(st, 1, *id);
	rc = db_step(st, "read the run");
	*run_id = rc == SQLITE_ROW ? db_column_dup(st, 0) : NULL;
	sqlite3_finalize(st);
	return *run_id ? 0 : EXIT_FAILURE_RT;
}

/* One annotation per (run, key, value) triple the command built; all or
 * nothing, in one transaction. refs[k] names the run of item k. */
struct item {
	const char *ref;
	const char *kind;
	char *key;
	const char *value;
};

/* one: the command stores one annotation (note, decide), printed as one
 * object in json; tag and archive print an array, however many. */
static int store_items(struct ledger_ctx *ctx, const char *cmd, struct item *items, int n, const char *who,
		       int one)
{
	char at[32];
	annot_now(at, sizeof(at));
	if (db_begin_write(ctx->db))
		return EXIT_FAILURE_RT;
	table t;
	table_init(&t, (int)ARRAY_SIZE(out_cols), out_cols);
	int rc = EXIT_OK;
	for (int k = 0; k < n && rc == EXIT_OK; k++) {
		sqlite3_int64 id;
		char *run_id = NULL;
		rc = resolve(ctx->db, items[k].ref, &id, &run_id);
		if (rc == EXIT_OK && annot_add(ctx->db, id, items[k].kind, items[k].key, items[k].value, who, at))
			rc = EXIT_FAILURE_RT;
		if (rc == EXIT_OK)
			out_row(&t, run_id, items[k].kind, items[k].key, items[k].value, who, at);
		free(run_id);
	}
	if (rc == EXIT_OK && db_commit(ctx->db))
		rc = EXIT_FAILURE_RT;
	if (rc != EXIT_OK) {
		db_rollback(ctx->db);
		rl_error("%s: nothing was stored", cmd);
	} else if (one) {
		table_render_object(&t, ctx->fmt, stdout);
	} else {
		table_render(&t, ctx->fmt, stdout);
	}
	table_release(&t);
	return rc;
}

static int usage_error(const struct annot_args *a, const char *what)
{
	rl_error("%s: %s", a->cmd, what);
	rl_hint("write it as '%s %s %s' (--help says more)", opts_prog_name(&ledger_prog), a->cmd,
		a->spec->args);
	return EXIT_USAGE;
}

/* Parse, build the items with build(), store them. */
typedef int (*build_fn)(struct annot_args *a, struct item *items, int *n);

static int run_annotation(int argc, char **argv, struct ledger_ctx *ctx, const struct opt_cmd *spec,
			  build_fn build)
{
	const char *cmd = spec->name;
	struct annot_args a = { .spec = spec, .cmd = cmd };
	int rc = EXIT_USAGE, n = 0;
	struct item *items = xcalloc((size_t)argc + 1, sizeof(*items));
	if (parse_args(argc, argv, &a) == 0) {
		rc = build(&a, items, &n);
		if (rc == EXIT_OK)
			rc = store_items(ctx, cmd, items, n, annot_who(a.who),
					 spec == &cmd_note_spec || spec == &cmd_decide_spec);
	}
	for (int k = 0; k < n; k++)
		free(items[k].key);
	free(items);
	free(a.pos);
	return rc;
}

static int build_note(struct annot_args *a, struct item *items, int *n)
{
	if (a->npos != 2)
		return usage_error(a, a->npos < 2 ? "which run, and what note?" : "one note at a time (quote the text)");
	if (!*a->pos[1])
		return usage_error(a, "the note is empty");
	items[(*n)++] = (struct item){ a->pos[0], "note", NULL, a->pos[1] };
	return EXIT_OK;
}

static int build_tag(struct annot_args *a, struct item *items, int *n)
{
	if (a->npos < 2)
		return usage_error(a, "which run, and which KEY=VALUE?");
	for (int k = 1; k < a->npos; k++) {
		char *key;
		const char *value;
		if (tag_split(a->cmd, a->pos[k], &key, &value))
			return EXIT_USAGE;
		items[(*n)++] = (struct item){ a->pos[0], "tag", key, value };
	}
	return EXIT_OK;
}

static int build_decide(struct annot_args *a, struct item *items, int *n)
{
	if (a->npos != 2)
		return usage_error(a, a->npos < 2 ? "which run, and keep or discard?" : "one run and one decision");
	if (strcmp(a->pos[1], "keep") && strcmp(a->pos[1], "discard")) {
		rl_error("%s: '%s' is not a decision", a->cmd, a->pos[1]);
		rl_hint("decide keep or discard");
		return EXIT_USAGE;
	}
	items[(*n)++] = (struct item){ a->pos[0], "decision", NULL, a->pos[1] };
	return EXIT_OK;
}

static int build_archive(struct annot_args *a, struct item *items, int *n)
{
	if (a->npos < 1)
		return usage_error(a, "which runs?");
	for (int k = 0; k < a->npos; k++)
		items[(*n)++] = (struct item){ a->pos[k], "archive", NULL, a->undo ? "restored" : "archived" };
	return EXIT_OK;
}

int cmd_note(int argc, char **argv, struct ledger_ctx *ctx)
{
	return run_annotation(argc, argv, ctx, &cmd_note_spec, build_note);
}

int cmd_tag(int argc, char **argv, struct ledger_ctx *ctx)
{
	return run_annotation(argc, argv, ctx, &cmd_tag_spec, build_tag);
}

int cmd_decide(int argc, char **argv, struct ledger_ctx *ctx)
{
	return run_annotation(argc, argv, ctx, &cmd_decide_spec, build_decide);
}

int cmd_archive(int argc, char **argv, struct ledger_ctx *ctx)
{
	return run_annotation(argc, argv, ctx, &cmd_archive_spec, build_archive);
}
