/* cmd_push.c — `ledger push URL`: send the runs of the local SQLite ledger
 * (--db) that a PostgreSQL ledger lacks, with their changes, annotations
 * and campaign assignments, and the quarantined lines it lacks (issue 12
 * item 4; docs/postgres.md, "push").
 * It writes through the server's local replica (replica.h) like every
 * other write, so the other replicas see what it sent: each batch of runs
 * is one write transaction there (the ledger's lock, the change log).
 * Idempotent: a run the server has (same run_id) is not sent again, an
 * annotation it has (same run, kind, key, value, who, at) is not added
 * again; resumable: runs go in transactions of PUSH_BATCH, so an
 * interrupted push leaves whole batches, and the next push skips them.
 * Quarantined lines go after the runs, in batches of their own, each
 * line once (the same file, line, reason and content: ingest's rule).
 * Reads the local ledger only. */
#include "db.h"
#include "dialect.h"
#include "ledger.h"
#include "metrics.h"
#include "replica.h"
#include "store.h"
#include "util.h"

#define PUSH_BATCH_SQL "500"

const struct opt_cmd cmd_push_spec = {
	.name = "push",
	.args = "URL",
	.summary = "send the runs a PostgreSQL ledger lacks, with their changes and annotations",
	.about = "Send every run of the local ledger (--db FILE) that the PostgreSQL ledger at\n"
		 "URL (postgresql://…) does not have yet, with its changes, and every\n"
		 "annotation it lacks; makes the schema there first if the database has none.\n"
		 "A run the server has is left as it is: 'present' when its record is the\n"
		 "same, 'differs' (a warning, exit 1) when not. Prints the counts; running it\n"
		 "again sends nothing twice, and after an interruption sends the rest.\n"
		 "Campaigns the server lacks, campaign assignments and the quarantined lines\n"
		 "the server lacks (same file, line, reason and content) go too.\n",
	.notes = "Exit status: 0 pushed, 1 some runs differ from the server's, 2 usage error,\n"
		 "3 the local ledger or the server failed (what was committed stays).\n",
	.groups = { NULL },
};

/* The runs columns both sides share (store.h), in this order; id stays
 * local. */
#define RUN_COL_NAME(c) #c,
static const char *const run_cols[] = { RUN_COLUMNS(RUN_COL_NAME) };
#undef RUN_COL_NAME
#define N_RUN_COLS ((int)ARRAY_SIZE(run_cols))

/* head, the columns, then ?1, ?2, … (with values) or nothing; then tail */
static sqlite3_stmt *prepare_with_columns(sqlite3 *db, const char *head, int values, const char *tail)
{
	sb sql = SB_INIT;
	sb_adds(&sql, head);
	for (int c = 0; c < N_RUN_COLS; c++)
		sb_addf(&sql, "%s%s", c ? ", " : "", run_cols[c]);
	if (values) {
		sb_adds(&sql, ") VALUES (");
		for (int c = 0; c < N_RUN_COLS; c++)
			sb_addf(&sql, "%s?%d", c ? ", " : "", c + 1);
	}
	sb_adds(&sql, tail);
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sb_release(&sql);
	return st;
}

struct counts {
	long long n, fresh, present, differ, annots_new, quar_new;
};

struct push {
	sqlite3 *db;            /* the local ledger */
	sqlite3 *to;            /* the server's replica */
	struct replica *replica;
	sqlite3_stmt *runs, *changes, *annots, *assigned, *quar;  /* local */
	sqlite3_stmt *find, *ins_run, *ins_change, *ins_annot, *ins_assign, *fill_metrics, *ins_quar; /* replica */
	struct counts done, batch; /* committed; in the open transaction */
	char first_differ[128];
};

/* The local row's columns from `from` on, as the parameters 1.. of st:
 * values as they are stored (a REAL keeps every bit). */
static void bind_row(sqlite3_stmt *st, sqlite3_stmt *row, int from, int n)
{
	sqlite3_reset(st);
	for (int i = 0; i < n; i++)
		sqlite3_bind_value(st, i + 1, sqlite3_column_value(row, from + i));
}

static int push_changes(struct push *p, sqlite3_int64 local, sqlite3_int64 server)
{
	sqlite3_reset(p->changes);
	sqlite3_bind_int64(p->changes, 1, local);
	int rc;
	while ((rc = db_step(p->changes, "read the run's changes")) == SQLITE_ROW) {
		bind_row(p->ins_change, p->changes, 0, 6);
		sqlite3_bind_int64(p->ins_change, 7, server);
		if (db_step(p->ins_change, "store a change") != SQLITE_DONE)
			return -1;
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

static int push_annotations(struct push *p, sqlite3_int64 local, sqlite3_int64 server)
{
	sqlite3_reset(p->annots);
	sqlite3_bind_int64(p->annots, 1, local);
	int rc;
	while ((rc = db_step(p->annots, "read the run's annotations")) == SQLITE_ROW) {
		bind_row(p->ins_annot, p->annots, 0, 5);
		sqlite3_bind_int64(p->ins_annot, 6, server);
		if (db_step(p->ins_annot, "store an annotation") != SQLITE_DONE)
			return -1;
		p->batch.annots_new += sqlite3_changes(p->to);
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

static int push_assignments(struct push *p, sqlite3_int64 local, sqlite3_int64 server)
{
	sqlite3_reset(p->assigned);
	sqlite3_bind_int64(p->assigned, 1, local);
	int rc;
	while ((rc = db_step(p->assigned, "read the run's campaigns")) == SQLITE_ROW) {
		bind_row(p->ins_assign, p->assigned, 0, 2);
		sqlite3_bind_int64(p->ins_assign, 3, server);
		if (db_step(p->ins_assign, "assign a run") != SQLITE_DONE)
			return -1;
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

/* A new run's metrics rows, made from its record as ingest makes them
 * (metrics.h), in the replica: the write sends them with the run. */
static int push_metrics(struct push *p, sqlite3_int64 server)
{
	sqlite3_reset(p->fill_metrics);
	sqlite3_bind_int64(p->fill_metrics, 1, server);
	return db_step(p->fill_metrics, "store the run's metrics") == SQLITE_DONE ? 0 : -1;
}

/* The run in the current row of q (column 0 its local id, then run_cols):
 * stored when new (the server's next id), else compared by content_hash. */
static int push_run(struct push *p, sqlite3_stmt *q)
{
	sqlite3_int64 local = sqlite3_column_int64(q, 0), server;
	const char *run_id = (const char *)sqlite3_column_text(q, 1);
	sqlite3_reset(p->find);
	sqlite3_bind_value(p->find, 1, sqlite3_column_value(q, 1));
	sqlite3_bind_value(p->find, 2, sqlite3_column_value(q, 2));
	int rc = db_step(p->find, "look up a run");
	int fresh = rc == SQLITE_DONE;
	if (rc == SQLITE_ROW) { /* the server has it: whose record? */
		server = sqlite3_column_int64(p->find, 0);
		if (sqlite3_column_int(p->find, 1))
			p->batch.present++;
		else if (p->done.differ + p->batch.differ++ == 0)
			snprintf(p->first_differ, sizeof(p->first_differ), "%s", run_id);
		/* a statement left on its row keeps the replica's read snapshot
		 * past the commit: the next batch's write lock then meets another
		 * push's commit and fails at once ("database is locked") */
		sqlite3_reset(p->find);
	} else if (fresh) {
		bind_row(p->ins_run, q, 1, N_RUN_COLS);
		if (db_step(p->ins_run, "store a run") != SQLITE_DONE)
			return -1;
		server = sqlite3_last_insert_rowid(p->to);
	} else {
		return -1;
	}
	p->batch.fresh += fresh;
	p->batch.n++;
	return (fresh && (push_changes(p, local, server) || push_metrics(p, server))) ||
	       push_annotations(p, local, server) || push_assignments(p, local, server);
}

/* The end of a batch's write transaction, given how its loop ended (rc,
 * the last step) and the rows it read: 1 when there were none (rolled
 * back, nothing was written), 0 when committed, -1 on failure (rolled
 * back, here and on the server). */
static int end_batch(struct push *p, int rc, int step, int rows)
{
	if (!rc && step != SQLITE_DONE)
		rc = -1;
	if (!rc && !rows) {
		db_rollback(p->to);
		return 1;
	}
	if (!rc)
		rc = db_commit(p->to);
	if (rc) {
		db_rollback(p->to);
		return -1;
	}
	return 0;
}

/* One batch: the runs after local id *after, at most PUSH_BATCH, in one
 * write transaction. 1 when there were none left, 0 when committed
 * (*after moved on), -1 on failure (rolled back, here and on the server). */
static int push_batch(struct push *p, sqlite3_int64 *after)
{
	memset(&p->batch, 0, sizeof(p->batch));
	sqlite3_reset(p->runs);
	sqlite3_bind_int64(p->runs, 1, *after);
	sqlite3_int64 last = *after;
	int step = SQLITE_DONE, rc = db_begin_write(p->to);
	while (!rc && (step = db_step(p->runs, "read the runs")) == SQLITE_ROW) {
		last = sqlite3_column_int64(p->runs, 0);
		rc = push_run(p, p->runs);
	}
	if ((rc = end_batch(p, rc, step, p->batch.n)))
		return rc;
	p->done.n += p->batch.n;
	p->done.fresh += p->batch.fresh;
	p->done.present += p->batch.present;
	p->done.differ += p->batch.differ;
	p->done.annots_new += p->batch.annots_new;
	*after = last;
	return 0;
}

/* One batch of quarantined lines after local id *after, as push_batch:
 * 1 when none were left, 0 when committed, -1 on failure (rolled back). */
static int push_quarantine_batch(struct push *p, sqlite3_int64 *after)
{
	sqlite3_reset(p->quar);
	sqlite3_bind_int64(p->quar, 1, *after);
	sqlite3_int64 last = *after;
	long long added = 0;
	int n = 0, step = SQLITE_DONE, rc = db_begin_write(p->to);
	while (!rc && (step = db_step(p->quar, "read the quarantine")) == SQLITE_ROW) {
		last = sqlite3_column_int64(p->quar, 0);
		n++;
		bind_row(p->ins_quar, p->quar, 1, 5);
		if (db_step(p->ins_quar, "store a quarantined line") != SQLITE_DONE)
			rc = -1;
		added += sqlite3_changes(p->to);
	}
	if ((rc = end_batch(p, rc, step, n)))
		return rc;
	p->done.quar_new += added;
	*after = last;
	return 0;
}

/* Campaigns the server lacks, in a write of their own before the runs
 * (an assignment names one). 0 or -1. */
static int push_campaigns(struct push *p)
{
	sqlite3_stmt *q = db_prepare(p->db, "SELECT name, spec FROM campaigns ORDER BY name");
	sqlite3_stmt *ins = db_prepare(p->to, "INSERT OR IGNORE INTO campaigns(name, spec) VALUES (?1, ?2)");
	int rc = q && ins ? 0 : -1, step = SQLITE_DONE, any = 0;
	while (!rc && (step = db_step(q, "read the campaigns")) == SQLITE_ROW) {
		if (!any++ && db_begin_write(p->to))
			rc = -1;
		bind_row(ins, q, 0, 2);
		if (!rc && db_step(ins, "store a campaign") != SQLITE_DONE)
			rc = -1;
	}
	if (!rc && step != SQLITE_DONE)
		rc = -1;
	if (any && (rc || db_commit(p->to))) {
		db_rollback(p->to);
		rc = -1;
	}
	sqlite3_finalize(q);
	sqlite3_finalize(ins);
	return rc;
}

static int prepare_all(struct push *p)
{
	p->runs = prepare_with_columns(p->db, "SELECT id, ", 0,
				       " FROM runs WHERE id > ?1 ORDER BY id LIMIT " PUSH_BATCH_SQL);
	p->changes = db_prepare(p->db, "SELECT var, old, new, how, span, infer_version FROM changes"
				       " WHERE run = ?1 ORDER BY var");
	p->annots = db_prepare(p->db, "SELECT kind, key, value, who, at FROM annotations WHERE run = ?1 ORDER BY id");
	p->assigned = db_prepare(p->db, "SELECT campaign, campaign FROM campaign_runs WHERE run = ?1 ORDER BY campaign");
	p->find = db_prepare(p->to, "SELECT id, content_hash = ?2 FROM runs WHERE run_id = ?1");
	p->ins_run = prepare_with_columns(p->to, "INSERT INTO runs(", 1, ")");
	p->ins_change = db_prepare(p->to, "INSERT OR IGNORE INTO changes(var, old, new, how, span, infer_version, run)"
					  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	p->ins_annot = db_prepare(p->to, "INSERT INTO annotations(kind, key, value, who, at, run)"
					 " SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM annotations"
					 " WHERE run = ?6 AND kind = ?1 AND key IS ?2 AND value = ?3 AND who IS ?4"
					 " AND at = ?5)");
	/* the campaign once it is on the server (push_campaigns sent it) */
	p->ins_assign = db_prepare(p->to, "INSERT OR IGNORE INTO campaign_runs(campaign, run)"
					  " SELECT ?1, ?3 WHERE EXISTS (SELECT 1 FROM campaigns WHERE name = ?2)");
	p->fill_metrics = db_prepare(p->to, metrics_fill_sql(DIALECT_SQLITE, 1));
	p->quar = db_prepare(p->db, "SELECT id, source_file, line, reason, content, ingested_at FROM quarantine"
				    " WHERE id > ?1 ORDER BY id LIMIT " PUSH_BATCH_SQL);
	/* a line the server has is not added again, as ingest does not */
	p->ins_quar = db_prepare(p->to, store_quarantine_insert_sql);
	return p->runs && p->changes && p->annots && p->assigned && p->find && p->ins_run && p->ins_change &&
			       p->ins_annot && p->ins_assign && p->fill_metrics && p->quar && p->ins_quar ? 0 : -1;
}

static void finalize_all(struct push *p)
{
	sqlite3_stmt *all[] = { p->runs, p->changes, p->annots, p->assigned, p->find, p->ins_run,
				p->ins_change, p->ins_annot, p->ins_assign, p->fill_metrics, p->quar, p->ins_quar };
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		sqlite3_finalize(all[i]);
}

/* Every run, batch by batch: writers on the server take turns on its lock,
 * so two pushes of the same runs never both send one. */
static int push_all(struct push *p)
{
	int rc = prepare_all(p) || push_campaigns(p) ? -1 : 0;
	sqlite3_int64 after = -1; /* ids are positive; -1 takes them all */
	while (!rc)
		rc = push_batch(p, &after);
	if (rc == 1) { /* every run sent: then the quarantined lines */
		after = -1;
		rc = 0;
		while (!rc)
			rc = push_quarantine_batch(p, &after);
	}
	finalize_all(p);
	return rc < 0 ? -1 : 0;
}

static void render(const struct ledger_ctx *ctx, const struct push *p)
{
	static const char *const cols[] = { "server", "runs", "new", "present", "differs", "annotations_new",
					    "quarantine_new" };
	table t;
	table_init(&t, 7, cols);
	int r = table_add_row(&t);
	table_set_text(&t, r, 0, replica_name(p->replica));
	table_set_int(&t, r, 1, p->done.n);
	table_set_int(&t, r, 2, p->done.fresh);
	table_set_int(&t, r, 3, p->done.present);
	table_set_int(&t, r, 4, p->done.differ);
	table_set_int(&t, r, 5, p->done.annots_new);
	table_set_int(&t, r, 6, p->done.quar_new);
	table_render_object(&t, ctx->fmt, stdout);
	table_release(&t);
}

int cmd_push(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct opt_parser op;
	const char *url = NULL;
	int got;
	opts_begin(&op, &ledger_prog, &cmd_push_spec, argc, argv);
	while ((got = opts_next(&op)) != OPTS_END) {
		if (got != OPTS_ARG)
			return EXIT_USAGE;
		if (url || !db_is_pg_url(op.val)) {
			rl_error("push: %s '%s'", url ? "unexpected argument" : "not a PostgreSQL URL:", op.val);
			rl_hint("usage: ledger push postgresql://USER@HOST/DATABASE (the local ledger is --db FILE)");
			return EXIT_USAGE;
		}
		url = op.val;
	}
	if (!url) {
		rl_error("push: name the PostgreSQL ledger to push to");
		rl_hint("usage: ledger push postgresql://USER@HOST/DATABASE");
		return EXIT_USAGE;
	}
	struct push p = { .db = ctx->db };
	if (replica_open(url, "push", 1, &p.replica, &p.to))
		return EXIT_FAILURE_RT;
	int rc = push_all(&p);
	if (rc) {
		rl_hint("the runs committed before the failure stay on the server (%lld new); "
			"'ledger push' again sends the rest", p.done.fresh);
	} else {
		render(ctx, &p);
		if (p.done.differ)
			rl_warn("push: %lld run%s the server has with another record (first: '%s'); the server's "
				"copy is kept", p.done.differ, p.done.differ == 1 ? "" : "s", p.first_differ);
	}
	replica_close(p.replica);
	return rc ? EXIT_FAILURE_RT : p.done.differ ? EXIT_FINDINGS : EXIT_OK;
}
