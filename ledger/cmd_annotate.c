/* cmd_annotate.c — `ledger note`, `tag`, `decide`, `archive`: annotations
 * after the fact (annot.h). Each adds rows to the annotations table, with
 * who and when, in one transaction, and prints what it added; the run's
 * record is never touched. */
#include "annot.h"
#include "db.h"
#include "ledger.h"
#include "lookup.h"
#include "util.h"

static const char note_usage[] =
	"usage: ledger note [--who NAME] RUN TEXT\n"
	"\n"
	"Add a note to a run: free text kept beside its unchanged record, with who\n"
	"and when; shown by 'ledger show', included in 'ledger export'.\n"
	"\n"
	"  --who NAME   who writes it (default $LEDGER_WHO, else $USER)\n";

static const char tag_usage[] =
	"usage: ledger tag [--who NAME] RUN KEY=VALUE...\n"
	"\n"
	"Tag a run. A later tag of the same key replaces the value; KEY= (empty\n"
	"value) removes the tag. KEY is letters, digits, '_', '.' and '-'.\n"
	"\n"
	"  --who NAME   who tags it (default $LEDGER_WHO, else $USER)\n";

static const char decide_usage[] =
	"usage: ledger decide [--who NAME] RUN keep|discard\n"
	"\n"
	"Decide a run again: the decision the ledger uses from now on (frontier,\n"
	"audit, query, report), while the record keeps the decision it was\n"
	"recorded with; 'ledger show' says both. The latest decision wins.\n"
	"\n"
	"  --who NAME   who decides (default $LEDGER_WHO, else $USER)\n";

static const char archive_usage[] =
	"usage: ledger archive [--who NAME] [--undo] RUN...\n"
	"\n"
	"Archive runs: hidden from frontier, audit, repeats, query, summary and\n"
	"report unless they are given --archived; never deleted ('ledger show'\n"
	"and 'ledger export' still show them).\n"
	"\n"
	"  --undo       restore archived runs\n"
	"  --who NAME   who archives them (default $LEDGER_WHO, else $USER)\n";

struct annot_args {
	const char *cmd, *usage;
	const char *who;
	int undo;          /* archive only */
	char **pos;        /* positional arguments */
	int npos;
};

/* --who NAME (and --undo for archive) anywhere, "--" ends the options;
 * the rest is positional. 0, or -1 (reported). */
static int parse_args(int argc, char **argv, struct annot_args *a)
{
	int literal = 0;
	a->pos = xcalloc((size_t)argc, sizeof(char *));
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (!literal && !strcmp(arg, "--")) {
			literal = 1;
		} else if (!literal && (!strcmp(arg, "--who") || str_starts_with(arg, "--who="))) {
			if (arg[5] == '=') {
				a->who = arg + 6;
			} else if (i + 1 < argc) {
				a->who = argv[++i];
			} else {
				rl_error("%s: option '--who' needs a value", a->cmd);
				return -1;
			}
			if (!*a->who) {
				rl_error("%s: --who needs a name", a->cmd);
				return -1;
			}
		} else if (!literal && !strcmp(arg, "--undo") && !strcmp(a->cmd, "archive")) {
			a->undo = 1;
		} else if (!literal && arg[0] == '-' && arg[1]) {
			rl_error("%s: unknown option '%s'", a->cmd, arg);
			rl_hint("run 'ledger %s --help'", a->cmd);
			return -1;
		} else {
			a->pos[a->npos++] = argv[i];
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

static int store_items(struct ledger_ctx *ctx, const char *cmd, struct item *items, int n, const char *who)
{
	char at[32];
	annot_now(at, sizeof(at));
	if (db_exec(ctx->db, "BEGIN IMMEDIATE"))
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
	if (rc == EXIT_OK && db_exec(ctx->db, "COMMIT"))
		rc = EXIT_FAILURE_RT;
	if (rc != EXIT_OK) {
		sqlite3_exec(ctx->db, "ROLLBACK", NULL, NULL, NULL);
		rl_error("%s: nothing was stored", cmd);
	} else {
		table_render(&t, ctx->fmt, stdout);
	}
	table_release(&t);
	return rc;
}

static int usage_error(const struct annot_args *a, const char *what)
{
	rl_error("%s: %s", a->cmd, what);
	rl_hint("%.*s", (int)strcspn(a->usage, "\n"), a->usage);
	return EXIT_USAGE;
}

/* Parse, build the items with build(), store them. */
typedef int (*build_fn)(struct annot_args *a, struct item *items, int *n);

static int run_annotation(int argc, char **argv, struct ledger_ctx *ctx, const char *cmd,
			  const char *usage, build_fn build)
{
	if (wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	struct annot_args a = { .cmd = cmd, .usage = usage };
	int rc = EXIT_USAGE, n = 0;
	struct item *items = xcalloc((size_t)argc + 1, sizeof(*items));
	if (parse_args(argc, argv, &a) == 0) {
		rc = build(&a, items, &n);
		if (rc == EXIT_OK)
			rc = store_items(ctx, cmd, items, n, annot_who(a.who));
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
	return run_annotation(argc, argv, ctx, "note", note_usage, build_note);
}

int cmd_tag(int argc, char **argv, struct ledger_ctx *ctx)
{
	return run_annotation(argc, argv, ctx, "tag", tag_usage, build_tag);
}

int cmd_decide(int argc, char **argv, struct ledger_ctx *ctx)
{
	return run_annotation(argc, argv, ctx, "decide", decide_usage, build_decide);
}

int cmd_archive(int argc, char **argv, struct ledger_ctx *ctx)
{
	return run_annotation(argc, argv, ctx, "archive", archive_usage, build_archive);
}
