/* cmd_reinfer.c — `ledger reinfer`: read every stored description again
 * with the current inference rules (infer.h INFER_VERSION) after an
 * upgrade. Inferred changes (how = 'inferred') are replaced, and exact ones
 * diffed again from the two configs as ingest diffs them now; code changes,
 * and the runs themselves, are left as they are. A repeat
 * key builds on the parent's key and the run's changes (rkey.h), so new
 * changes can move the keys of their runs and of every run below them:
 * every run is keyed again, in ingest order (parents first), as ingest
 * keys it (store.h store_repeat_key). One transaction: a failure leaves
 * the ledger as it was. */
#include <jansson.h>
#include "db.h"
#include "infer.h"
#include "ledger.h"
#include "store.h"
#include "util.h"

enum { O_DRY_RUN = 1 };
static const struct opt reinfer_opts[] = {
	{ .name = "--dry-run", .id = O_DRY_RUN, .help = "count, write nothing" },
};
static const struct opt_group reinfer_group = { NULL, NULL, reinfer_opts, ARRAY_SIZE(reinfer_opts) };

const struct opt_cmd cmd_reinfer_spec = {
	.name = "reinfer",
	.summary = "recompute changes inferred from descriptions with the current rules",
	.about = "Recompute the changes inferred from descriptions (how = 'inferred') with the\n"
		 "current rules, after an upgrade of the ledger, and the changes between two\n"
		 "configs (exact) as ingest finds them now; changes from the code (code) are\n"
		 "kept. Every run's repeat key is formed again, since a key builds on the\n"
		 "parent's key and the run's changes. All in one transaction.\n"
		 "\n"
		 "Prints the rules' version, how many runs were read, how many of them got\n"
		 "another change set, and how many another repeat key.\n",
	.groups = { &reinfer_group },
};

/* Every run, parents first (a parent is ingested before its children), and
 * whether its changes are inferred: a parent, no exact or code change, and
 * either inferred changes already or no pair of configs to diff. */
static const char sql_runs[] =
	"SELECT r.id, r.description, r.repeat_key, r.record,"
	" r.parent IS NOT NULL AND r.parent <> '' AS has_parent,"
	" NOT EXISTS (SELECT 1 FROM changes c WHERE c.run = r.id AND c.how <> 'inferred')"
	" AND (EXISTS (SELECT 1 FROM changes c WHERE c.run = r.id)"
	"  OR json_type(r.record, '$.config') IS NOT 'object'"
	"  OR NOT EXISTS (SELECT 1 FROM runs p WHERE p.run_id = r.parent"
	"   AND json_type(p.record, '$.config') = 'object')) AS inferred,"
	" EXISTS (SELECT 1 FROM changes c WHERE c.run = r.id AND c.how = 'code') AS code"
	" FROM runs r ORDER BY r.id";

struct reinfer {
	sqlite3 *db;
	struct store *store;
	sqlite3_stmt *old_changes, *del, *ins, *set_key;
	int dry_run;
	int failed; /* a statement failed (reported): roll back, exit 3 */
	long runs, changed, keys;
};

/* db_step that stops at the first failure: later steps are skipped, so
 * one message stands for the run, and reinfer_all rolls back. */
static int step(struct reinfer *ri, sqlite3_stmt *q, const char *purpose)
{
	if (ri->failed)
		return DB_ERROR;
	int rc = db_step(q, purpose);
	ri->failed = rc == DB_ERROR;
	return rc;
}

static int same_text(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* The stored inferred changes of run, sorted by variable. Returns 1 when
 * some row was made by other rules (its version differs). */
static int load_changes(struct reinfer *ri, sqlite3_int64 run, struct change_list *out)
{
	sqlite3_stmt *q = ri->old_changes;
	int stale = 0;
	sqlite3_bind_int64(q, 1, run);
	while (step(ri, q, "read the stored changes") == SQLITE_ROW) {
		char *v[4];
		for (int k = 0; k < 4; k++)
			v[k] = db_column_dup(q, k);
		change_list_add_span(out, v[0], v[1], v[2], v[3]);
		stale |= sqlite3_column_int(q, 4) != INFER_VERSION;
		for (int k = 0; k < 4; k++)
			free(v[k]);
	}
	sqlite3_reset(q);
	return stale;
}

/* Same variables with the same old and new values (spans aside). */
static int same_changes(const struct change_list *a, const struct change_list *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->v[i].var, b->v[i].var) || !same_text(a->v[i].old_val, b->v[i].old_val) ||
		    !same_text(a->v[i].new_val, b->v[i].new_val))
			return 0;
	return 1;
}

static int same_spans(const struct change_list *a, const struct change_list *b)
{
	for (int i = 0; i < a->n; i++)
		if (!same_text(a->v[i].span, b->v[i].span))
			return 0;
	return 1;
}

/* Replace the run's changes of one kind: inferred ones carry their span
 * and the rules' version, exact ones neither (as ingest stores them). */
static void write_changes(struct reinfer *ri, sqlite3_int64 run, const struct change_list *cl,
			  const char *how)
{
	int inferred = !strcmp(how, "inferred");
	sqlite3_bind_int64(ri->del, 1, run);
	sqlite3_bind_text(ri->del, 2, how, -1, SQLITE_STATIC);
	step(ri, ri->del, "delete the changes found again");
	sqlite3_reset(ri->del);
	for (int i = 0; i < cl->n; i++) {
		sqlite3_stmt *q = ri->ins;
		sqlite3_bind_int64(q, 1, run);
		db_bind_text(q, 2, cl->v[i].var);
		db_bind_text(q, 3, cl->v[i].old_val);
		db_bind_text(q, 4, cl->v[i].new_val);
		sqlite3_bind_text(q, 5, how, -1, SQLITE_STATIC);
		db_bind_text(q, 6, inferred ? cl->v[i].span : NULL);
		if (inferred)
			sqlite3_bind_int(q, 7, INFER_VERSION);
		else
			sqlite3_bind_null(q, 7);
		step(ri, q, "store the changes found again");
		sqlite3_reset(q);
	}
}

static void write_key(struct reinfer *ri, sqlite3_int64 run, const char *key)
{
	db_bind_text(ri->set_key, 1, key[0] ? key : NULL);
	sqlite3_bind_int64(ri->set_key, 2, run);
	step(ri, ri->set_key, "store the repeat key");
	sqlite3_reset(ri->set_key);
}

/* How the run's changes were found (store.c find_changes), from the row. */
static int row_how(sqlite3_stmt *row)
{
	if (!sqlite3_column_int(row, 4))
		return -1;
	if (sqlite3_column_int(row, 5))
		return CHANGES_INFERRED;
	return sqlite3_column_int(row, 6) ? CHANGES_CODE : CHANGES_EXACT;
}

/* Inferred runs: read the description again, against the parent's state
 * as ingest does (store.h store_infer_changes), replace what changed. The
 * run's changes end up in now. */
static void reinfer_changes(struct reinfer *ri, sqlite3_int64 id, const json_t *rec,
			    struct change_list *now)
{
	struct change_list before = CHANGE_LIST_INIT;
	store_infer_changes(ri->store, rec, now);
	int stale = load_changes(ri, id, &before), same = same_changes(now, &before);
	ri->runs++;
	ri->changed += !same;
	if (!ri->dry_run && (!same || stale || !same_spans(now, &before)))
		write_changes(ri, id, now, "inferred");
	change_list_release(&before);
}

/* Runs of two configs: the diff again, as ingest takes it now. Builds
 * before INFER_VERSION 8 compared the configs' JSON, not their values, and
 * recorded a parent's 8 against a child's 8.0 as a change. */
static void reexact_changes(struct reinfer *ri, sqlite3_int64 id, const json_t *rec,
			    struct change_list *now)
{
	struct change_list before = CHANGE_LIST_INIT;
	load_changes(ri, id, &before);
	if (store_exact_changes(ri->store, rec, now)) { /* the parent is gone: keep them */
		change_list_release(now);
		*now = before;
		return;
	}
	ri->runs++;
	if (!same_changes(now, &before)) {
		ri->changed++;
		if (!ri->dry_run)
			write_changes(ri, id, now, "exact");
	}
	change_list_release(&before);
}

/* One row of sql_runs: its changes (inferred again, or as stored), then
 * its repeat key as ingest would form it now. */
static void reinfer_run(struct reinfer *ri, sqlite3_stmt *row)
{
	sqlite3_int64 id = sqlite3_column_int64(row, 0);
	const char *old_key = (const char *)sqlite3_column_text(row, 2);
	int how = row_how(row);
	struct change_list now = CHANGE_LIST_INIT;
	json_t *rec = json_loads((const char *)sqlite3_column_text(row, 3), 0, NULL);
	if (how == CHANGES_INFERRED && rec)
		reinfer_changes(ri, id, rec, &now);
	else if (how == CHANGES_EXACT && rec)
		reexact_changes(ri, id, rec, &now);
	else if (how >= 0)
		load_changes(ri, id, &now);
	if (rec) {
		char key[65];
		store_repeat_key(ri->store, rec, &now, how, key);
		if (!same_text(key[0] ? key : NULL, old_key)) {
			ri->keys++;
			if (!ri->dry_run)
				write_key(ri, id, key);
		}
		json_decref(rec);
	}
	change_list_release(&now);
}

static void prepare(struct reinfer *ri)
{
	ri->old_changes = db_prepare(ri->db, "SELECT var, old, new, span, infer_version FROM changes"
					     " WHERE run = ?1 ORDER BY var");
	ri->del = db_prepare(ri->db, "DELETE FROM changes WHERE run = ?1 AND how = ?2");
	ri->ins = db_prepare(ri->db, "INSERT INTO changes(run, var, old, new, how, span, infer_version)"
				     " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	ri->set_key = db_prepare(ri->db, "UPDATE runs SET repeat_key = ?1 WHERE id = ?2");
}

static void finalize(struct reinfer *ri)
{
	sqlite3_finalize(ri->old_changes);
	sqlite3_finalize(ri->del);
	sqlite3_finalize(ri->ins);
	sqlite3_finalize(ri->set_key);
}

/* 0; -1 when the transaction could not begin or commit; -2 when a
 * statement failed (reported with its own hint; rolled back). */
static int reinfer_all(struct reinfer *ri)
{
	if (ri->dry_run ? db_begin_read(ri->db) : db_begin_write(ri->db))
		return -1;
	prepare(ri);
	sqlite3_stmt *q = db_prepare(ri->db, sql_runs);
	while (!store_failed(ri->store) && step(ri, q, "read the runs") == SQLITE_ROW)
		reinfer_run(ri, q);
	sqlite3_finalize(q);
	finalize(ri);
	if (ri->failed || store_failed(ri->store)) {
		db_rollback(ri->db);
		return -2;
	}
	if (!ri->dry_run)
		return db_commit(ri->db);
	db_rollback(ri->db); /* a dry run: what it wrote is only counted */
	return 0;
}

static void report(const struct reinfer *ri, enum out_format fmt)
{
	static const char *const cols[] = { "infer_version", "n_runs", "n_changed", "n_repeat_keys",
					    "written" };
	table t;
	table_init(&t, 5, cols);
	int r = table_add_row(&t);
	table_set_int(&t, r, 0, INFER_VERSION);
	table_set_int(&t, r, 1, ri->runs);
	table_set_int(&t, r, 2, ri->changed);
	table_set_int(&t, r, 3, ri->keys);
	table_set_json(&t, r, 4, json_boolean(!ri->dry_run), ri->dry_run ? "no" : "yes");
	table_render_object(&t, fmt, stdout);
	table_release(&t);
}

int cmd_reinfer(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct reinfer ri = { .db = ctx->db };
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_reinfer_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == O_DRY_RUN) {
			ri.dry_run = 1;
			continue;
		}
		if (r == OPTS_ARG) {
			rl_error("reinfer: unexpected argument '%s'", p.val);
			rl_hint("usage: ledger reinfer [--dry-run]");
		}
		return EXIT_USAGE;
	}
	ri.store = store_new(ctx->db);
	int rc = reinfer_all(&ri);
	store_free(ri.store);
	if (rc) {
		if (rc == -1)
			rl_hint("another process may hold the ledger; run 'ledger reinfer' again");
		return EXIT_FAILURE_RT;
	}
	report(&ri, ctx->fmt);
	return EXIT_OK;
}
