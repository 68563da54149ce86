/* cmd_push.c — `ledger push URL`: send the runs of the local SQLite ledger
 * (--db) that a PostgreSQL ledger lacks, with their changes and
 * annotations (issue 12 item 4; docs/postgres.md, "push"). Idempotent: a
 * run the server has (same run_id) is skipped by ON CONFLICT DO NOTHING, an
 * annotation it has (same run, kind, key, value, who, at) is not added
 * again; resumable: runs go in transactions of PUSH_BATCH, so an
 * interrupted push leaves whole batches, and the next push skips them.
 * Reads the local ledger only; writes the server only through pg_exec. */
#include "db.h"
#include "dialect.h"
#include "ledger.h"
#include "metrics.h"
#include "pg.h"
#include "pg_schema.h"
#include "util.h"

#define PUSH_BATCH 500
#define PUSH_BATCH_SQL "500"
/* pg_advisory_xact_lock seed of a run's push: "runm" */
#define PUSH_LOCK "1920298605"

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
		 "Campaigns, campaign assignments and quarantined lines are not sent.\n",
	.notes = "Exit status: 0 pushed, 1 some runs differ from the server's, 2 usage error,\n"
		 "3 the local ledger or the server failed (what was committed stays).\n",
	.groups = { NULL },
};

/* The runs columns both sides share, in this order; id stays local. */
#define RUN_COLS \
	"run_id, content_hash, parent, campaign, agent, description, status, decision," \
	" started_at, finished_at, t_finished, gpu_name, hw_class, vram_tier, gpu_count," \
	" gpu_mem_mb, code_commit, code_dirty, diff_sha256, data_name, data_sha256, val_bpb," \
	" repeat_key, source_format, source_file, source_line, ingested_at, record"
#define N_RUN_COLS 28

struct counts {
	long long n, fresh, present, differ, annots_new;
};

struct push {
	sqlite3 *db;
	struct pg *pg;
	sqlite3_stmt *runs, *changes, *annots;
	struct counts done, batch; /* committed; in the open transaction */
	char first_differ[128];
};

/* Column i of st as text for a parameter: NULL for SQL NULL, a double
 * with all 17 digits (SQLite's own text of a REAL keeps 15). */
static const char *param(sqlite3_stmt *st, int i, char *num, size_t size)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return NULL;
	case SQLITE_FLOAT:
		snprintf(num, size, "%.17g", sqlite3_column_double(st, i));
		return num;
	default:
		return (const char *)sqlite3_column_text(st, i);
	}
}

/* Every column of the current row of st from column `from`, n of them. */
static void params_of(sqlite3_stmt *st, int from, int n, const char **v, char (*num)[32])
{
	for (int i = 0; i < n; i++)
		v[i] = param(st, from + i, num[i], sizeof(num[i]));
}

static int push_changes(struct push *p, sqlite3_int64 local, const char *server_id)
{
	sqlite3_reset(p->changes);
	sqlite3_bind_int64(p->changes, 1, local);
	int rc;
	while ((rc = db_step(p->changes, "read the run's changes")) == SQLITE_ROW) {
		const char *v[7];
		char num[7][32];
		v[0] = server_id;
		params_of(p->changes, 0, 6, v + 1, num + 1);
		if (pg_run(p->pg, "store a change",
			   "INSERT INTO changes(run, var, old, new, how, span, infer_version)"
			   " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING", 7, v))
			return -1;
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

static int push_annotations(struct push *p, sqlite3_int64 local, const char *server_id)
{
	sqlite3_reset(p->annots);
	sqlite3_bind_int64(p->annots, 1, local);
	int rc;
	while ((rc = db_step(p->annots, "read the run's annotations")) == SQLITE_ROW) {
		const char *v[6];
		char num[6][32];
		v[0] = server_id;
		params_of(p->annots, 0, 5, v + 1, num + 1);
		PGresult *r = pg_exec(p->pg, "store an annotation",
				      "INSERT INTO annotations(run, kind, key, value, who, at)"
				      " SELECT $1::bigint, $2::text, $3::text, $4::text, $5::text, $6::text"
				      " WHERE NOT EXISTS (SELECT 1 FROM annotations WHERE run = $1::bigint"
				      " AND kind = $2::text AND key IS NOT DISTINCT FROM $3::text AND value = $4::text"
				      " AND who IS NOT DISTINCT FROM $5::text AND at = $6::text)",
				      6, v);
		if (!r)
			return -1;
		p->batch.annots_new += strtoll(PQcmdTuples(r), NULL, 10);
		PQclear(r);
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The run in the current row of q (column 0 its local id, then RUN_COLS):
 * stored when new, else compared with the server's by content_hash. */
static int push_run(struct push *p, sqlite3_stmt *q)
{
	const char *v[N_RUN_COLS];
	char num[N_RUN_COLS][32];
	params_of(q, 1, N_RUN_COLS, v, num);
	sqlite3_int64 local = sqlite3_column_int64(q, 0);
	/* one pusher at a time per run (a hash of its run_id; a collision only
	 * makes two runs wait for each other): two pushes of the same run
	 * would otherwise both find its annotations missing and add them twice */
	if (pg_run(p->pg, "lock the run", "SELECT pg_advisory_xact_lock(hashtextextended($1, " PUSH_LOCK "))", 1, v))
		return -1;
	PGresult *r = pg_exec(p->pg, "store a run",
			      "INSERT INTO runs(" RUN_COLS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,"
			      " $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26,"
			      " $27, $28) ON CONFLICT (run_id) DO NOTHING RETURNING id",
			      N_RUN_COLS, v);
	if (!r)
		return -1;
	int fresh = PQntuples(r) == 1;
	if (!fresh) { /* the server has it: whose record? */
		PQclear(r);
		r = pg_exec(p->pg, "look up a run", "SELECT id, content_hash = $2 FROM runs WHERE run_id = $1", 2, v);
		if (!r)
			return -1;
		if (PQntuples(r) != 1) { /* cannot be: the conflict was on run_id */
			rl_error("push: run '%s' conflicts on the server but cannot be read there", v[0]);
			PQclear(r);
			return -1;
		}
		if (!strcmp(PQgetvalue(r, 0, 1), "t"))
			p->batch.present++;
		else if (p->done.differ + p->batch.differ++ == 0)
			snprintf(p->first_differ, sizeof(p->first_differ), "%s", v[0]);
	}
	char id[32];
	snprintf(id, sizeof(id), "%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	p->batch.fresh += fresh;
	p->batch.n++;
	const char *server_id[] = { id };
	return (fresh && (push_changes(p, local, id) ||
			  pg_run(p->pg, "store the run's metrics", metrics_fill_sql(DIALECT_PG, 1), 1, server_id))) ||
	       push_annotations(p, local, id);
}

/* One batch: the runs after local id *after, at most PUSH_BATCH, in one
 * transaction. 1 when there were none left, 0 when committed (*after moved
 * on), -1 on failure (rolled back; pg_conflict() tells a deadlock). */
static int push_batch(struct push *p, sqlite3_int64 *after)
{
	memset(&p->batch, 0, sizeof(p->batch));
	sqlite3_reset(p->runs);
	sqlite3_bind_int64(p->runs, 1, *after);
	sqlite3_int64 last = *after;
	int step, rc = pg_run(p->pg, "begin a batch of runs", "BEGIN", 0, NULL);
	while (!rc && (step = db_step(p->runs, "read the runs")) == SQLITE_ROW) {
		last = sqlite3_column_int64(p->runs, 0);
		rc = push_run(p, p->runs);
	}
	if (!rc && step != SQLITE_DONE)
		rc = -1;
	if (!rc && !p->batch.n) {
		PQclear(PQexec(p->pg->conn, "ROLLBACK"));
		return 1;
	}
	if (!rc)
		rc = pg_run(p->pg, "commit a batch of runs", "COMMIT", 0, NULL);
	if (rc) {
		PQclear(PQexec(p->pg->conn, "ROLLBACK")); /* no parameters, no result to read */
		return -1;
	}
	p->done.n += p->batch.n;
	p->done.fresh += p->batch.fresh;
	p->done.present += p->batch.present;
	p->done.differ += p->batch.differ;
	p->done.annots_new += p->batch.annots_new;
	*after = last;
	return 0;
}

/* Every run, batch by batch. A batch that deadlocks with another push
 * (two ledgers sending the same runs in another order; the server picks
 * one to fail) is rolled back and sent again, up to 5 times. */
static int push_all(struct push *p)
{
	p->runs = db_prepare(p->db, "SELECT id, " RUN_COLS " FROM runs WHERE id > ?1 ORDER BY id LIMIT "
				    PUSH_BATCH_SQL);
	p->changes = db_prepare(p->db, "SELECT var, old, new, how, span, infer_version FROM changes"
				       " WHERE run = ?1 ORDER BY var");
	p->annots = db_prepare(p->db, "SELECT kind, key, value, who, at FROM annotations WHERE run = ?1 ORDER BY id");
	int rc = p->runs && p->changes && p->annots ? 0 : -1, retries = 0;
	sqlite3_int64 after = -1; /* ids are positive; -1 takes them all */
	p->pg->retry_conflicts = 1;
	while (!rc) {
		rc = push_batch(p, &after);
		if (rc < 0 && pg_conflict(p->pg) && retries++ < 5)
			rc = 0;
	}
	p->pg->retry_conflicts = 0;
	if (rc < 0 && pg_conflict(p->pg))
		rl_error("push: a batch of runs deadlocked with another push 6 times");
	sqlite3_finalize(p->runs);
	sqlite3_finalize(p->changes);
	sqlite3_finalize(p->annots);
	return rc < 0 ? -1 : 0;
}

static void render(const struct ledger_ctx *ctx, const struct push *p)
{
	static const char *const cols[] = { "server", "runs", "new", "present", "differs", "annotations_new" };
	table t;
	table_init(&t, 6, cols);
	int r = table_add_row(&t);
	table_set_text(&t, r, 0, p->pg->name);
	table_set_int(&t, r, 1, p->done.n);
	table_set_int(&t, r, 2, p->done.fresh);
	table_set_int(&t, r, 3, p->done.present);
	table_set_int(&t, r, 4, p->done.differ);
	table_set_int(&t, r, 5, p->done.annots_new);
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
	int created;
	if (pg_connect(url, &p.pg))
		return EXIT_FAILURE_RT;
	if (pg_schema_ensure(p.pg, &created)) {
		pg_close(p.pg);
		return EXIT_FAILURE_RT;
	}
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
	pg_close(p.pg);
	return rc ? EXIT_FAILURE_RT : p.done.differ ? EXIT_FINDINGS : EXIT_OK;
}
