/* store.c — one run record into the ledger; see store.h.
 *
 * Speed matters (target >= 100,000 records/s): statements are prepared
 * once, each record is serialised once (twice when its run_id is derived),
 * dedupe is run_id's UNIQUE index answering INSERT … ON CONFLICT DO
 * NOTHING (equal content means equal run_id; a SELECT on the rare
 * conflict path tells "present" from a clash, db.c), parent configs
 * come from an in-memory cache before the database, and store_prepare does
 * all it can without the database (identity, canonical text, most of the
 * repeat key, the columns read from the record) so that a worker thread
 * can do it. */
#include "annot.h"
#include "carried.h"
#include "cfgdiff.h"
#include "codediff.h"
#include "db.h"
#include "hw.h"
#include "infer.h"
#include "metrics.h"
#include "rkey.h"
#include "runrec.h"
#include "sha256.h"
#include "store.h"
#include "strmap.h"
#include "util.h"

/* ---- parent-config cache --------------------------------------------- */

/* run_id -> config (NULL: the run is known and has no config). Two
 * generations bound the memory: when the young one fills up, the old one is
 * dropped and the young one ages. Parents are nearly always recent runs.
 * A config is kept as its canonical text, cut from the stored record's
 * (one copy in one block), and a child's changes are found by comparing
 * texts (cfgdiff.h): copying every stored run's jansson config and freeing
 * the copies as they aged was 15% of the storing thread at 10^6 records
 * (docs/ingest.md, "Fifth pass"). */
#define CACHE_GEN_MAX 16384
#define CACHE_SLOTS (2 * CACHE_GEN_MAX) /* power of two, load <= 1/2 */

struct cache_entry {
	char *run_id;
	char *config; /* JSON text, NULL when none */
	size_t config_len;
};

struct cache_gen {
	struct cache_entry *slot; /* CACHE_SLOTS entries */
	size_t n;
};

static struct cache_entry *gen_find(struct cache_gen *g, const char *run_id)
{
	size_t mask = CACHE_SLOTS - 1, i = (size_t)strmap_hash(run_id) & mask;
	while (g->slot[i].run_id && strcmp(g->slot[i].run_id, run_id))
		i = (i + 1) & mask;
	return &g->slot[i];
}

static void gen_clear(struct cache_gen *g)
{
	for (size_t i = 0; i < CACHE_SLOTS; i++) {
		free(g->slot[i].run_id);
		free(g->slot[i].config);
	}
	memset(g->slot, 0, CACHE_SLOTS * sizeof(*g->slot));
	g->n = 0;
}

struct cache {
	struct cache_gen gen[2]; /* [0] young, [1] old */
};

/* The young generation's entry for run_id, made room for. */
static struct cache_entry *cache_slot(struct cache *c, const char *run_id)
{
	struct cache_entry *e = gen_find(&c->gen[0], run_id);
	if (e->run_id)
		return e;
	if (c->gen[0].n == CACHE_GEN_MAX) {
		struct cache_gen old = c->gen[1];
		gen_clear(&old);
		c->gen[1] = c->gen[0];
		c->gen[0] = old;
		e = gen_find(&c->gen[0], run_id);
	}
	e->run_id = xstrdup(run_id);
	c->gen[0].n++;
	return e;
}

/* Keep a copy of the config's text (NULL: none) for run_id. */
static const struct cache_entry *cache_put(struct cache *c, const char *run_id, const char *config,
					   size_t len)
{
	struct cache_entry *e = cache_slot(c, run_id);
	free(e->config);
	e->config = config ? xstrndup(config, len) : NULL;
	e->config_len = len;
	return e;
}

/* The run's entry, or NULL when it is not cached. */
static const struct cache_entry *cache_get(struct cache *c, const char *run_id)
{
	for (int g = 0; g < 2; g++) {
		struct cache_entry *e = gen_find(&c->gen[g], run_id);
		if (e->run_id)
			return e;
	}
	return NULL;
}

/* The parents' repeat keys (rkey.h): the last runs stored by this store
 * are remembered, since a parent is nearly always a recent run; others are
 * read from the ledger. Cleared when full: a lookup then goes to the
 * database, which is right, only slower. */
#define RKEY_MEMO_MAX 4096

struct rkey_memo_entry {
	char key[65];
	char *hw_class, *commit, *diff;
};

struct rkey_memo {
	struct strmap ids; /* run_id -> index into v */
	struct rkey_memo_entry v[RKEY_MEMO_MAX];
	int n;
};

static void rkey_memo_clear(struct rkey_memo *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->v[i].hw_class);
		free(m->v[i].commit);
		free(m->v[i].diff);
	}
	m->n = 0;
	strmap_clear(&m->ids);
}

static void rkey_memo_put(struct rkey_memo *m, const char *run_id, const char *key, const char *hw,
			  const char *commit, const char *diff)
{
	if (!run_id)
		return;
	const struct strmap_slot *s = strmap_find(&m->ids, run_id);
	struct rkey_memo_entry *e;
	if (s) { /* a final record replaced its running one: its key now */
		e = &m->v[s->v.n];
		free(e->hw_class);
		free(e->commit);
		free(e->diff);
	} else {
		if (m->n == RKEY_MEMO_MAX)
			rkey_memo_clear(m);
		e = &m->v[m->n];
		strmap_get(&m->ids, run_id, NULL)->v.n = m->n++;
	}
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->hw_class = hw ? xstrdup(hw) : NULL;
	e->commit = commit ? xstrdup(commit) : NULL;
	e->diff = diff ? xstrdup(diff) : NULL;
}

static void rkey_memo_free(struct rkey_memo *m)
{
	rkey_memo_clear(m);
	strmap_release(&m->ids);
	free(m);
}

/* The parents' inferred states (infer.h): run_id -> the settings its
 * descriptions tell, for runs without configs. Filled as runs are stored
 * (a parent is nearly always a recent run) and from the ledger on a miss;
 * cleared when full, like the repeat keys. */
#define STATE_MEMO_MAX 4096

struct state_memo {
	struct strmap ids; /* run_id -> index into v */
	struct change_list v[STATE_MEMO_MAX];
	char gone[STATE_MEMO_MAX]; /* forgotten: the run_id's content clashed */
	int n;
};

static void state_memo_clear(struct state_memo *m)
{
	for (int i = 0; i < m->n; i++)
		change_list_release(&m->v[i]);
	m->n = 0;
	strmap_clear(&m->ids);
}

/* Remember a copy of state for run_id (replacing what was there). */
static void state_memo_put(struct state_memo *m, const char *run_id, const struct change_list *state)
{
	const struct strmap_slot *s = strmap_find(&m->ids, run_id);
	struct change_list *slot;
	if (s) {
		slot = &m->v[s->v.n];
		change_list_release(slot);
	} else {
		if (m->n == STATE_MEMO_MAX)
			state_memo_clear(m);
		slot = &m->v[m->n];
		strmap_get(&m->ids, run_id, NULL)->v.n = m->n++;
	}
	m->gone[slot - m->v] = 0;
	infer_state_advance(slot, state);
}

static void state_memo_forget(struct state_memo *m, const char *run_id)
{
	const struct strmap_slot *s = strmap_find(&m->ids, run_id);
	if (s)
		m->gone[s->v.n] = 1;
}

static const struct change_list *state_memo_get(const struct state_memo *m, const char *run_id)
{
	const struct strmap_slot *s = strmap_find(&m->ids, run_id);
	return s && !m->gone[s->v.n] ? &m->v[s->v.n] : NULL;
}

static void state_memo_free(struct state_memo *m)
{
	state_memo_clear(m);
	strmap_release(&m->ids);
	free(m);
}

/* ---- the store ------------------------------------------------------- */

struct hw_memo {
	int valid;
	char *name;        /* gpu_name, or NULL */
	double mem_mb;     /* NaN when absent */
	char cls[128];
	const char *tier;
	sb key_tail;       /* the repeat key's last part: ,"<cls>"] */
};

#define HW_MEMO_N 8 /* GPUs remembered (the bench file mixes six) */

/* ---- the run row ------------------------------------------------------ */

/* RUN_COLUMNS (store.h): the INSERT and the UPDATE below are written from
 * that one list, and every value is bound by its column's name (:run_id,
 * …), never by a position. */
enum run_col {
#define RUN_COL_ENUM(c) COL_##c,
	RUN_COLUMNS(RUN_COL_ENUM)
#undef RUN_COL_ENUM
	RUN_NCOLS
};

static const char *const run_col_name[RUN_NCOLS] = {
#define RUN_COL_NAME(c) #c,
	RUN_COLUMNS(RUN_COL_NAME)
#undef RUN_COL_NAME
};

/* A statement writing a run row, and where each :column is in it. */
struct run_stmt {
	sqlite3_stmt *q;
	int at[RUN_NCOLS];
	int at_id; /* :id, the row an UPDATE replaces; 0 in the INSERT */
};

/* "c1, c2, …" or ":c1, :c2, …" */
static void add_columns(sb *sql, const char *prefix)
{
	for (int c = 0; c < RUN_NCOLS; c++)
		sb_addf(sql, "%s%s%s", c ? ", " : "", prefix, run_col_name[c]);
}

/* Prepare sql and find its parameters. A column it does not name would
 * be a bug in the builders below: said, and the statement left NULL, so
 * every step of it fails (db_step) and no file is stored. */
static struct run_stmt run_stmt_prepare(sqlite3 *db, const sb *sql)
{
	struct run_stmt s = { .q = db_prepare(db, sql->buf) };
	char name[64];
	for (int c = 0; c < RUN_NCOLS && s.q; c++) {
		snprintf(name, sizeof(name), ":%s", run_col_name[c]);
		s.at[c] = sqlite3_bind_parameter_index(s.q, name);
		if (!s.at[c]) {
			rl_error("%s:%d: the run statement has no parameter %s", __FILE__, __LINE__, name);
			sqlite3_finalize(s.q);
			s.q = NULL;
		}
	}
	s.at_id = s.q ? sqlite3_bind_parameter_index(s.q, ":id") : 0;
	return s;
}

/* HEAD (columns) MID (:columns) TAIL: the run statements are written
 * from the one column list. */
static struct run_stmt prepare_run_stmt(sqlite3 *db, const char *head, const char *mid,
					const char *tail)
{
	sb sql = SB_INIT;
	sb_adds(&sql, head);
	add_columns(&sql, "");
	sb_adds(&sql, mid);
	add_columns(&sql, ":");
	sb_adds(&sql, tail);
	struct run_stmt s = run_stmt_prepare(db, &sql);
	sb_release(&sql);
	return s;
}

/* INSERT … ON CONFLICT DO NOTHING: dedupe by run_id's UNIQUE index. */
static struct run_stmt prepare_insert_run(sqlite3 *db)
{
	return prepare_run_stmt(db, "INSERT INTO runs(", ") VALUES(", ") ON CONFLICT DO NOTHING");
}

/* The same columns, for the updates ingest allows: a run's final record
 * replaces its running record in place (same id: its place in ingest
 * order, campaign assignments and children stay), a crash the same row
 * with the status its words name, a results.tsv row the same row with its
 * status or figures edited; judge_clash decides which. */
static struct run_stmt prepare_update_run(sqlite3 *db)
{
	return prepare_run_stmt(db, "UPDATE runs SET (", ") = (",
				") WHERE id = :id AND (status IN ('running', 'crash')"
				" OR source_format = 'results.tsv')");
}

/* Bind text that outlives the statement's step (the record, buffers of
 * store_put): no copy, unlike db_bind_text. NULL binds NULL. */
static void bind_text_col(const struct run_stmt *s, enum run_col c, const char *v)
{
	if (v)
		sqlite3_bind_text(s->q, s->at[c], v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s->q, s->at[c]);
}

static void bind_double_col(const struct run_stmt *s, enum run_col c, double v)
{
	db_bind_double(s->q, s->at[c], v);
}

/* An integer, or NULL when !known. */
static void bind_int_col(const struct run_stmt *s, enum run_col c, int known, sqlite3_int64 v)
{
	if (known)
		sqlite3_bind_int64(s->q, s->at[c], v);
	else
		sqlite3_bind_null(s->q, s->at[c]);
}

struct store {
	sqlite3 *db;
	struct run_stmt ins_run;
	struct run_stmt upd_run; /* a final record replacing its running one */
	sqlite3_stmt *ins_change, *sel_by_id, *sel_config, *ins_quar, *sel_max_id;
	sqlite3_stmt *sel_parent_key, *sel_state_row, *sel_run_changes;
	sqlite3_stmt *del_changes;
	struct metrics_writer *metrics;      /* the metrics table's rows (metrics.h) */
	struct rkey_memo *rkeys;
	struct state_memo *states;
	struct cache cache;
	struct hw_memo hw[HW_MEMO_N];
	unsigned hw_next; /* the entry to replace next */
	char ingested_at[32];
	struct codediff *code;  /* ledger ingest --repo, or NULL (store_set_codediff) */
	sqlite3_stmt *sel_commit;
	/* store_refresh_present: a run already present is keyed (and its
	 * changes found) again, as rows after an edited row need */
	int refresh_present, changed_in_place;
	sqlite3_stmt *sel_key, *upd_key;
	/* A statement failed in this transaction (reported): later steps are
	 * skipped, so one message stands for the file, and store_commit
	 * refuses, so the caller rolls the file back whole. */
	int failed;
};

/* db_step, once per transaction: after a failure, DB_ERROR unstepped. */
static int store_step(struct store *st, sqlite3_stmt *q, const char *purpose)
{
	if (st->failed)
		return DB_ERROR;
	int rc = db_step(q, purpose);
	st->failed = rc == DB_ERROR;
	return rc;
}

int store_failed(const struct store *st)
{
	return st->failed;
}

const char store_quarantine_insert_sql[] =
	"INSERT INTO quarantine(source_file, line, reason, content, ingested_at)"
	" SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS(SELECT 1 FROM quarantine"
	" WHERE source_file IS ?1 AND line IS ?2 AND reason = ?3 AND content IS ?4)";

struct store *store_new(sqlite3 *db)
{
	struct store *st = xcalloc(1, sizeof(*st));
	st->db = db;
	for (int i = 0; i < HW_MEMO_N; i++)
		sb_init(&st->hw[i].key_tail);
	/* A file is one transaction: with SQLite's default 2 MB page cache a
	 * large one spills dirty pages to the WAL and reads them back. At 10^5
	 * records 64 MB cuts that from 5.8 to 2.5 page writes and from 2.3 to
	 * 1.2 reads a record. At 10^6 the indexes of random keys (repeat_key,
	 * the frontier's, run_id, t_finished: ~160 of the ~230 MB of indexes)
	 * outgrow 64 MB, and their pages were spilled and read back: 256 MB
	 * wrote 4.48 GB instead of 5.40 and read 3.62 instead of 5.16, the
	 * storing thread's kernel time ~15% less (docs/ingest.md, sixth
	 * pass). A cap, not an allocation: SQLite takes pages as the
	 * transaction touches them. */
	db_exec(db, "PRAGMA cache_size = -262144");
	st->ins_run = prepare_insert_run(db);
	/* A plain INSERT: a change list names each variable once (infer.c,
	 * carried.c) and a run's changes are written once (supersede drops the
	 * old ones first). OR REPLACE wrote a statement journal of every page
	 * it touched to a temporary file, 4.5 pages a change: 45,000 writes of
	 * 16 KB for a day of 10^4 runs, ~10% of its time (docs/ingest.md). */
	st->ins_change = db_prepare(db, "INSERT INTO changes(run, var, old, new, how,"
					" span, infer_version) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	st->sel_by_id = db_prepare(db, "SELECT id, content_hash, record, source_format FROM runs"
				     " WHERE run_id = ?1");
	st->upd_run = prepare_update_run(db);
	st->del_changes = db_prepare(db, "DELETE FROM changes WHERE run = ?1");
	st->sel_config = db_prepare(db, "SELECT json_extract(record, '$.config') FROM runs"
					" WHERE run_id = ?1");
	/* Re-ingesting a file reports its bad lines again but stores each once. */
	st->ins_quar = db_prepare(db, store_quarantine_insert_sql);
	st->sel_max_id = db_prepare(db, "SELECT max(id) FROM runs");
	st->sel_parent_key = db_prepare(db, "SELECT repeat_key, hw_class, code_commit, diff_sha256"
					    " FROM runs WHERE run_id = ?1");
	st->sel_state_row = db_prepare(db, "SELECT id, parent, description, json_extract(record, '$.config')"
					   " FROM runs WHERE run_id = ?1");
	st->sel_run_changes = db_prepare(db, "SELECT var, old, new FROM changes WHERE run = ?1");
	st->metrics = metrics_writer_new(db);
	st->rkeys = xcalloc(1, sizeof(*st->rkeys));
	st->states = xcalloc(1, sizeof(*st->states));
	for (int g = 0; g < 2; g++)
		st->cache.gen[g].slot = xcalloc(CACHE_SLOTS, sizeof(struct cache_entry));
	return st;
}

void store_free(struct store *st)
{
	if (!st)
		return;
	sqlite3_finalize(st->ins_run.q);
	sqlite3_finalize(st->ins_change);
	sqlite3_finalize(st->sel_by_id);
	sqlite3_finalize(st->sel_config);
	sqlite3_finalize(st->ins_quar);
	sqlite3_finalize(st->sel_max_id);
	sqlite3_finalize(st->sel_commit);
	sqlite3_finalize(st->sel_parent_key);
	sqlite3_finalize(st->sel_state_row);
	sqlite3_finalize(st->sel_run_changes);
	sqlite3_finalize(st->upd_run.q);
	sqlite3_finalize(st->del_changes);
	sqlite3_finalize(st->sel_key);
	sqlite3_finalize(st->upd_key);
	metrics_writer_free(st->metrics);
	rkey_memo_free(st->rkeys);
	state_memo_free(st->states);
	for (int g = 0; g < 2; g++) {
		gen_clear(&st->cache.gen[g]);
		free(st->cache.gen[g].slot);
	}
	for (int i = 0; i < HW_MEMO_N; i++) {
		free(st->hw[i].name);
		sb_release(&st->hw[i].key_tail);
	}
	free(st);
}

/* Foreign keys are not checked inside a file's transaction: every row
 * the store writes into changes, metrics or annotations names the run it
 * has just inserted (last_insert_rowid) or found (sel_by_id), and it
 * deletes no run, so no check could fail; each check looked the run up
 * again and made a metrics row cost 4x its insert (10^5 bench records:
 * 1.48 s against 0.38 s for the metrics rows, SQLite alone). The pragma
 * is a no-op inside a transaction, hence before BEGIN and after its end;
 * tests/t-ledger-ingest.sh checks foreign_key_check after ingests. */
static void check_keys(struct store *st, int on)
{
	db_exec(st->db, on ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF");
}

int store_begin(struct store *st)
{
	utc_now_iso(st->ingested_at, sizeof(st->ingested_at));
	st->failed = 0;
	check_keys(st, 0);
	if (db_begin_write(st->db)) {
		check_keys(st, 1);
		return -1;
	}
	return 0;
}

int store_commit(struct store *st)
{
	if (st->failed) /* reported; the caller rolls back */
		return -1;
	if (db_commit(st->db))
		return -1; /* still in the transaction: the caller rolls back */
	check_keys(st, 1);
	return 0;
}

void store_rollback(struct store *st)
{
	db_rollback(st->db);
	check_keys(st, 1);
}

sqlite3_int64 store_last_id(struct store *st)
{
	sqlite3_stmt *q = st->sel_max_id;
	int rc = store_step(st, q, "read the last run's id");
	sqlite3_int64 id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_reset(q);
	return id;
}

/* The older runs of this file name are read once into a materialized
 * table (one scan of runs: no index on source_file, which ingest would pay
 * for on every row), then each new run is looked up in it. */
long store_lookalikes(struct store *st, const char *file, sqlite3_int64 since_id)
{
	sqlite3_stmt *q = db_prepare(st->db,
		"WITH old AS MATERIALIZED (SELECT source_line, code_commit, description, status,"
		" val_bpb, agent, campaign, gpu_name FROM runs WHERE id <= ?1 AND source_file = ?2)"
		"SELECT count(*) FROM runs n WHERE n.id > ?1 AND n.source_file = ?2 AND EXISTS ("
		" SELECT 1 FROM old o WHERE o.source_line = n.source_line AND o.code_commit IS n.code_commit"
		" AND o.description IS n.description AND o.status = n.status"
		" AND o.val_bpb IS n.val_bpb AND (o.agent IS NOT n.agent OR o.campaign IS NOT n.campaign"
		" OR o.gpu_name IS NOT n.gpu_name))");
	sqlite3_bind_int64(q, 1, since_id);
	db_bind_text(q, 2, file);
	int rc = store_step(st, q, "compare the file's runs with earlier ones");
	long n = rc == SQLITE_ROW ? (long)sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	return n;
}

char *store_run_record(struct store *st, const char *run_id)
{
	sqlite3_stmt *q = st->sel_by_id;
	db_bind_text(q, 1, run_id);
	char *record = NULL;
	if (store_step(st, q, "look up the stored run") == SQLITE_ROW)
		record = xstrdup((const char *)sqlite3_column_text(q, 2));
	sqlite3_reset(q);
	return record;
}

/* One scan (no index on source_format, which every ingest would pay
 * for), made once per results.tsv file and only when a row is not stored
 * as it reads now (tsv_ident.c). */
void store_each_tsv_run(struct store *st, sqlite3_int64 upto_id, store_tsv_run_fn *fn, void *arg)
{
	sqlite3_stmt *q = db_prepare(st->db, "SELECT run_id, parent, code_commit, description,"
					     " source_file, source_line"
					     " FROM runs WHERE id <= ?1 AND source_format = 'results.tsv'"
					     " ORDER BY id");
	if (!q) {
		st->failed = 1;
		return;
	}
	sqlite3_bind_int64(q, 1, upto_id);
	int rc;
	while ((rc = store_step(st, q, "read the runs ingested from results.tsv files")) == SQLITE_ROW) {
		struct store_tsv_run r = {
			(const char *)sqlite3_column_text(q, 0), (const char *)sqlite3_column_text(q, 1),
			(const char *)sqlite3_column_text(q, 2), (const char *)sqlite3_column_text(q, 3),
			(const char *)sqlite3_column_text(q, 4),
			sqlite3_column_type(q, 5) == SQLITE_NULL ? -1 : (long)sqlite3_column_int64(q, 5),
		};
		fn(arg, &r);
	}
	sqlite3_finalize(q);
}

/* ---- parents and changes --------------------------------------------- */

/* The parent's cache entry (its config's canonical text, NULL when it has
 * none), read from the ledger when it is not cached; NULL when the parent
 * is not stored. A config read from the ledger is printed canonically
 * again, as cfgdiff.c wants it (json_extract's text need not be). */
static const struct cache_entry *parent_entry(struct store *st, const char *parent)
{
	const struct cache_entry *e = cache_get(&st->cache, parent);
	if (e)
		return e;
	sqlite3_stmt *q = st->sel_config;
	db_bind_text(q, 1, parent);
	if (store_step(st, q, "read the parent's config") == SQLITE_ROW) {
		/* objects and arrays only, as json_loads takes them */
		json_t *cfg = sqlite3_column_type(q, 0) == SQLITE_TEXT
				      ? json_loads((const char *)sqlite3_column_text(q, 0), 0, NULL)
				      : NULL;
		char *text = cfg ? runrec_canonical(cfg) : NULL;
		e = cache_put(&st->cache, parent, text, text ? strlen(text) : 0);
		free(text);
		json_decref(cfg);
	}
	sqlite3_reset(q);
	return e;
}

void store_set_codediff(struct store *st, struct codediff *cd)
{
	st->code = cd;
	if (cd && !st->sel_commit)
		st->sel_commit = db_prepare(st->db, "SELECT code_commit FROM runs WHERE run_id = ?1");
}

/* The changes between the parent run's commit and this run's (codediff.h):
 * 0, or -1 when either run has no commit or the repository cannot give
 * the diff (codediff counts those for the file's warning). The parent is
 * stored already, from an earlier ingest or earlier in this file. */
static int code_changes(struct store *st, const json_t *rec, const char *parent,
			struct change_list *out)
{
	const char *commit = runrec_sub_str(rec, "code", "commit");
	if (!commit || !*commit)
		return -1;
	sqlite3_stmt *q = st->sel_commit;
	db_bind_text(q, 1, parent);
	int rc = store_step(st, q, "read the parent's commit");
	char *from = rc == SQLITE_ROW ? db_column_dup(q, 0) : NULL;
	sqlite3_reset(q);
	sb why = SB_INIT;
	int out_rc = from && *from ? codediff_changes(st->code, from, commit, out, &why) : -1;
	free(from);
	sb_release(&why);
	return out_rc;
}

/* ---- what the parent had ---------------------------------------------- */

/* A run's state from its configuration: each scalar as change text. */
static void config_state(const json_t *cfg, struct change_list *out)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)cfg, k, v) {
		sb text = SB_INIT;
		json_scalar_text(v, &text);
		change_list_add(out, k, NULL, text.buf);
		sb_release(&text);
	}
}

/* One stored run on the way up the parent chain. */
struct chain_link {
	char *run_id;
	sqlite3_int64 id;
	char *description; /* for infer_state_kept */
};

/* The changes stored for run id, as a state's entries (var, old, new). */
static void stored_changes(struct store *st, sqlite3_int64 id, struct change_list *cl)
{
	sqlite3_stmt *q = st->sel_run_changes;
	sqlite3_bind_int64(q, 1, id);
	while (store_step(st, q, "read the changes of a run on the parent chain") == SQLITE_ROW)
		change_list_add(cl, (const char *)sqlite3_column_text(q, 0),
				(const char *)sqlite3_column_text(q, 1),
				(const char *)sqlite3_column_text(q, 2));
	sqlite3_reset(q);
}

/* A run that recorded no change and whose description is a baseline of
 * the default configuration ("Default M5 baseline" in the middle of a
 * file): its state starts afresh, as a root's (infer_state_kept). */
static int resets_state(struct store *st, sqlite3_int64 id, const char *description)
{
	if (!infer_state_resets(description))
		return 0;
	struct change_list cl = CHANGE_LIST_INIT;
	stored_changes(st, id, &cl);
	int none = cl.n == 0;
	change_list_release(&cl);
	return none;
}

/* The stored run run_id: its row id, parent (NULL: a root) and
 * description, or, where the walk ends at it, its state in base (a
 * config, a root's stated values, or those of a baseline that resets the
 * state). Returns 1 when the walk goes on to the parent, 0 when it ends
 * here, -1 when the run is not stored. */
static int state_row(struct store *st, const char *run_id, sqlite3_int64 *id, char **parent,
		     char **description, struct change_list *base)
{
	sqlite3_stmt *q = st->sel_state_row;
	db_bind_text(q, 1, run_id);
	int rc = store_step(st, q, "read a run on the parent chain"), up = -1;
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(q, 0);
		*parent = db_column_dup(q, 1);
		*description = db_column_dup(q, 2);
		json_t *cfg = sqlite3_column_type(q, 3) == SQLITE_TEXT
				      ? json_loads((const char *)sqlite3_column_text(q, 3), 0, NULL) : NULL;
		up = !json_is_object(cfg) && *parent && **parent;
		sqlite3_reset(q); /* resets_state steps another statement */
		int resets = up && resets_state(st, *id, *description);
		if (json_is_object(cfg)) {
			config_state(cfg, base);
		} else if (resets) { /* the state ingest kept for it in memory, rebuilt */
			static const struct change_list no_changes = CHANGE_LIST_INIT;
			infer_state_kept(base, *description, &no_changes);
			up = 0;
		} else if (!up) {
			infer_stated(*description, base);
		}
		json_decref(cfg);
	}
	sqlite3_reset(q);
	return up;
}

/* state := the state of stored run id (description) after its stored
 * changes (infer_state_kept). */
static void advance_stored(struct store *st, sqlite3_int64 id, const char *description,
			   struct change_list *state)
{
	struct change_list cl = CHANGE_LIST_INIT;
	stored_changes(st, id, &cl);
	infer_state_kept(state, description, &cl);
	change_list_release(&cl);
}

/* The longest stretch of the chain read in one walk; past it the state
 * starts from nothing known (which drops nothing: only less is found). */
#define STATE_WALK_MAX 10000

/* The inferred state of stored run run_id into out (empty when it is not
 * stored): up the parent chain to a remembered state, a config or a root,
 * then down again through each run's stored changes, each state
 * remembered on the way. */
static void run_state(struct store *st, const char *run_id, struct change_list *out)
{
	struct chain_link *chain = NULL;
	int n = 0, cap = 0;
	char *cur = xstrdup(run_id);
	for (;;) {
		const struct change_list *known = state_memo_get(st->states, cur);
		if (known) {
			infer_state_advance(out, known);
			free(cur);
			break;
		}
		sqlite3_int64 id = 0;
		char *parent = NULL, *description = NULL;
		int up = n < STATE_WALK_MAX ? state_row(st, cur, &id, &parent, &description, out) : -1;
		if (up == 0)
			state_memo_put(st->states, cur, out);
		if (up != 1) {
			free(parent);
			free(description);
			free(cur);
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			chain = xrealloc(chain, (size_t)cap * sizeof(*chain));
		}
		chain[n++] = (struct chain_link){ cur, id, description };
		cur = parent;
	}
	while (n-- > 0) {
		advance_stored(st, chain[n].id, chain[n].description, out);
		state_memo_put(st->states, chain[n].run_id, out);
		free(chain[n].run_id);
		free(chain[n].description);
	}
	free(chain);
}

void store_infer_changes(struct store *st, const json_t *rec, struct change_list *out)
{
	struct change_list parent_state = CHANGE_LIST_INIT;
	const char *parent = runrec_str(rec, "parent"), *run_id = runrec_str(rec, "run_id");
	if (parent && *parent)
		run_state(st, parent, &parent_state);
	infer_changes_in(runrec_str(rec, "description"), &parent_state, out);
	infer_drop_restated(&parent_state, out);
	/* after the drop: a value equal to the state's is no change at all */
	infer_fill_old(&parent_state, out);
	change_list_sort(out);
	if (run_id) { /* its children ask next */
		infer_state_kept(&parent_state, runrec_str(rec, "description"), out);
		state_memo_put(st->states, run_id, &parent_state);
	}
	change_list_release(&parent_state);
}

/* Exact changes of a record whose config (an object) has the canonical
 * text config[0..len). */
static int exact_changes(struct store *st, const char *parent, const char *config, size_t len,
			 struct change_list *out)
{
	const struct cache_entry *e = parent_entry(st, parent);
	if (!e || !e->config)
		return -1;
	return config_changes(e->config, e->config_len, config, len, out);
}

int store_exact_changes(struct store *st, const json_t *rec, struct change_list *out)
{
	const char *parent = runrec_str(rec, "parent");
	json_t *cfg = json_object_get(rec, "config");
	if (!parent || !*parent || !json_is_object(cfg))
		return -1;
	char *text = runrec_canonical(cfg);
	int rc = exact_changes(st, parent, text, strlen(text), out);
	free(text);
	return rc;
}

/* Exact when both configs exist; else, with a repository, from the
 * commits' diff; else inferred from the description. Returns how they
 * were found, or -1 when the run has no parent. */
static int find_changes(struct store *st, const json_t *rec, const struct store_prep *p,
			struct change_list *out)
{
	const char *parent = p->cols.parent;
	if (!parent || !*parent)
		return -1;
	/* the config's text is in the record's canonical text */
	if (json_is_object(json_object_get(rec, "config")) &&
	    exact_changes(st, parent, p->canon + p->config_off, p->config_len, out) == 0)
		return CHANGES_EXACT;
	if (st->code && code_changes(st, rec, parent, out) == 0)
		return CHANGES_CODE;
	store_infer_changes(st, rec, out);
	return CHANGES_INFERRED;
}

static void insert_changes(struct store *st, sqlite3_int64 run, const struct change_list *cl,
			   enum change_how how)
{
	sqlite3_stmt *q = st->ins_change;
	for (int i = 0; i < cl->n; i++) {
		sqlite3_bind_int64(q, 1, run);
		db_bind_text(q, 2, cl->v[i].var);
		db_bind_text(q, 3, cl->v[i].old_val);
		db_bind_text(q, 4, cl->v[i].new_val);
		sqlite3_bind_text(q, 5, change_how_name(how), -1, SQLITE_STATIC);
		db_bind_text(q, 6, cl->v[i].span);
		if (how == CHANGES_INFERRED)
			sqlite3_bind_int(q, 7, INFER_VERSION);
		else
			sqlite3_bind_null(q, 7);
		store_step(st, q, "store the run's changes");
		sqlite3_reset(q);
	}
}

/* ---- tags ------------------------------------------------------------ */

/* A string member as canonical JSON, or null when absent or not a string. */
static void add_str_part(sb *out, const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	sb_addc(out, ',');
	if (json_is_string(v))
		runrec_canonical_add(v, out);
	else
		sb_add(out, "null", 4);
}

/* Repeat key, first part: the same config (seeds aside), code, data and
 * hardware class measure the same thing. The key is the SHA-256 of the
 * canonical text of [config without seeds and with numbers by value
 * (rkey_config_by_value), code.commit, code.diff_sha256, data.sha256,
 * hardware class]; all but the class is known before the store
 * sees the record, so store_prepare hashes that much (on the worker thread
 * of a large file) and repeat_key adds the class. Same bytes as building
 * that array and printing it, without building it. */
static void repeat_prefix(const json_t *rec, const char *cfg_text, size_t cfg_len,
			  struct store_prep *p)
{
	json_t *cfg = json_object_get(rec, "config"), *by_value;
	sb text = SB_INIT;
	p->has_repeat_prefix = json_is_object(cfg);
	if (!p->has_repeat_prefix)
		return;
	sb_addc(&text, '[');
	by_value = rkey_config_by_value(cfg); /* seeds out, 8.0 as 8 */
	if (by_value) {
		runrec_canonical_add(by_value, &text);
		json_decref(by_value);
	} else { /* the config's text in the record's is this part */
		sb_add(&text, cfg_text, cfg_len);
	}
	json_t *code = json_object_get(rec, "code");
	add_str_part(&text, code, "commit");
	add_str_part(&text, code, "diff_sha256");
	add_str_part(&text, json_object_get(rec, "data"), "sha256");
	sha256_init(&p->repeat_prefix);
	sha256_update(&p->repeat_prefix, text.buf, text.len);
	sb_release(&text);
}

/* The parent's key, class and code; p->found = 0 when it is not stored.
 * Strings are valid until the next lookup or store. */
static void rkey_parent_lookup(struct store *st, const char *parent, struct rkey_parent *p, sb *buf)
{
	memset(p, 0, sizeof(*p));
	if (!parent || !*parent)
		return;
	const struct strmap_slot *s = strmap_find(&st->rkeys->ids, parent);
	if (s) {
		const struct rkey_memo_entry *e = &st->rkeys->v[s->v.n];
		*p = (struct rkey_parent){ 1, e->key, e->hw_class, e->commit, e->diff };
		return;
	}
	sqlite3_stmt *q = st->sel_parent_key;
	db_bind_text(q, 1, parent);
	int rc = store_step(st, q, "read the parent's repeat key");
	if (rc == SQLITE_ROW) {
		/* four NUL-terminated texts in buf; offsets, as buf may move */
		size_t at[4];
		int null[4];
		sb_reset(buf);
		for (int i = 0; i < 4; i++) {
			null[i] = sqlite3_column_type(q, i) == SQLITE_NULL;
			at[i] = buf->len;
			sb_adds(buf, null[i] ? "" : (const char *)sqlite3_column_text(q, i));
			sb_addc(buf, '\0');
		}
		p->found = 1;
		p->key = null[0] ? NULL : buf->buf + at[0];
		p->hw_class = null[1] ? NULL : buf->buf + at[1];
		p->commit = null[2] ? NULL : buf->buf + at[2];
		p->diff = null[3] ? NULL : buf->buf + at[3];
	}
	sqlite3_reset(q);
}

/* The full repeat key (rkey.h): the config key when the run has a config,
 * then the rules that build on the parent. */
static void repeat_key(struct store *st, const struct store_prep *p, const struct hw_memo *hw,
		       const struct change_list *cl, int how, char key[65])
{
	char config_key[65] = "";
	if (p->has_repeat_prefix) {
		sha256_ctx c = p->repeat_prefix;
		uint8_t digest[32];
		sha256_update(&c, hw->key_tail.buf, hw->key_tail.len);
		sha256_final(&c, digest);
		sha256_to_hex(digest, config_key);
	}
	struct rkey_run r = {
		.run_id = p->cols.run_id, .parent = p->cols.parent,
		.description = p->cols.description, .hw_class = hw->cls,
		.commit = p->cols.code_commit, .diff = p->cols.diff_sha256,
		.config_key = p->has_repeat_prefix ? config_key : NULL, .changes = cl,
		.exact = how == CHANGES_EXACT,
	};
	struct rkey_parent par;
	sb buf = SB_INIT;
	rkey_parent_lookup(st, r.parent, &par, &buf);
	rkey_derive(&r, &par, key);
	sb_release(&buf);
}

/* t_finished: finished_at, else started_at, as epoch seconds; NaN if none. */
static double finish_time(const json_t *rec)
{
	double t;
	if (!parse_iso_utc(runrec_str(rec, "finished_at"), &t))
		return t;
	if (!parse_iso_utc(runrec_str(rec, "started_at"), &t))
		return t;
	return NAN;
}

/* val_bpb is a measurement only when the run finished ok with a value > 0:
 * autoresearch writes 0.000000 on crash rows. */
static double valid_bpb(const json_t *rec)
{
	const char *status = runrec_str(rec, "status");
	double v = runrec_metric(rec, "val_bpb");
	/* above the uniform bound: a diverged run, no measurement (runrec.h) */
	return status && !strcmp(status, "ok") && isfinite(v) && v > 0 && !runrec_bpb_diverged(v) ? v : NAN;
}

static int hw_memo_is(const struct hw_memo *m, const char *name, double mem_mb)
{
	int same_name = m->valid && (name && m->name ? !strcmp(name, m->name) : name == m->name);
	return same_name && (isnan(mem_mb) ? isnan(m->mem_mb) : mem_mb == m->mem_mb);
}

/* Class and tier of a GPU, remembered for the last few GPUs seen: a file
 * holds one or a few, and hw_class() scans the whole table with
 * case-insensitive substring tests (with one GPU remembered, 2% of the
 * storing thread's time on the bench file's six). */
static const struct hw_memo *hw_tags(struct store *st, const char *name, double mem_mb)
{
	for (int i = 0; i < HW_MEMO_N; i++)
		if (hw_memo_is(&st->hw[i], name, mem_mb))
			return &st->hw[i];
	struct hw_memo *m = &st->hw[st->hw_next++ % HW_MEMO_N];
	free(m->name);
	m->name = name ? xstrdup(name) : NULL;
	m->mem_mb = mem_mb;
	hw_class(name, m->cls, sizeof(m->cls));
	m->tier = hw_vram_tier(hw_mem_gb(name, isnan(mem_mb) ? 0 : mem_mb));
	m->valid = 1;
	/* a class cut inside a UTF-8 sequence is no JSON string: the key has
	 * always been formed without it then */
	json_t *cls = json_string(m->cls);
	sb_reset(&m->key_tail);
	if (cls) {
		sb_addc(&m->key_tail, ',');
		runrec_canonical_add(cls, &m->key_tail);
	}
	sb_addc(&m->key_tail, ']');
	json_decref(cls);
	return m;
}

/* The columns of store_cols, on the thread that prepares the record. */
static void read_columns(const json_t *rec, struct store_cols *c)
{
	c->run_id = runrec_str(rec, "run_id");
	c->parent = runrec_str(rec, "parent");
	c->campaign = runrec_str(rec, "campaign");
	c->agent = runrec_str(rec, "agent");
	c->description = runrec_str(rec, "description");
	c->status = runrec_str(rec, "status");
	c->decision = runrec_str(rec, "decision");
	c->started_at = runrec_str(rec, "started_at");
	c->finished_at = runrec_str(rec, "finished_at");
	c->t_finished = finish_time(rec);
	json_t *hw = json_object_get(rec, "hardware");
	json_t *count = json_object_get(hw, "gpu_count");
	c->gpu_name = json_string_value(json_object_get(hw, "gpu_name"));
	c->gpu_mem_mb = runrec_num(hw, "gpu_mem_mb");
	c->has_gpu_count = json_is_number(count);
	c->gpu_count = c->has_gpu_count ? (sqlite3_int64)json_number_value(count) : 0;
	/* A CPU-only run (the trainer's CPU path) names no GPU but its CPU:
	 * tag it "CPU" so it has a frontier of its own instead of "unknown". */
	c->cpu_only = (!c->gpu_name || !*c->gpu_name) && json_is_string(json_object_get(hw, "cpu")) &&
		      !(c->has_gpu_count && json_number_value(count) > 0);
	json_t *code = json_object_get(rec, "code");
	json_t *dirty = json_object_get(code, "dirty");
	c->code_commit = json_string_value(json_object_get(code, "commit"));
	c->code_dirty = json_is_boolean(dirty) ? json_is_true(dirty) : -1;
	c->diff_sha256 = json_string_value(json_object_get(code, "diff_sha256"));
	c->data_name = runrec_sub_str(rec, "data", "name");
	c->data_sha256 = runrec_sub_str(rec, "data", "sha256");
	c->val_bpb = valid_bpb(rec);
}

/* The hardware columns; returns the class and tier (for the repeat key). */
static const struct hw_memo *bind_hardware(struct store *st, const struct run_stmt *s,
					   const struct store_cols *c)
{
	const struct hw_memo *hw = hw_tags(st, c->cpu_only ? "CPU" : c->gpu_name, c->gpu_mem_mb);
	bind_text_col(s, COL_gpu_name, c->gpu_name);
	bind_text_col(s, COL_hw_class, hw->cls);
	bind_text_col(s, COL_vram_tier, hw->tier);
	bind_int_col(s, COL_gpu_count, c->has_gpu_count, c->gpu_count);
	bind_double_col(s, COL_gpu_mem_mb, c->gpu_mem_mb);
	return hw;
}

/* Every column but the hardware ones and repeat_key. */
static void bind_record(struct store *st, const struct run_stmt *s, const struct store_prep *p,
			const struct store_src *src)
{
	const struct store_cols *c = &p->cols;
	bind_text_col(s, COL_run_id, c->run_id);
	bind_text_col(s, COL_content_hash, p->hash);
	bind_text_col(s, COL_parent, c->parent);
	bind_text_col(s, COL_campaign, c->campaign);
	bind_text_col(s, COL_agent, c->agent);
	bind_text_col(s, COL_description, c->description);
	bind_text_col(s, COL_status, c->status);
	bind_text_col(s, COL_decision, c->decision);
	bind_text_col(s, COL_started_at, c->started_at);
	bind_text_col(s, COL_finished_at, c->finished_at);
	bind_double_col(s, COL_t_finished, c->t_finished);
	bind_text_col(s, COL_code_commit, c->code_commit);
	bind_int_col(s, COL_code_dirty, c->code_dirty >= 0, c->code_dirty);
	bind_text_col(s, COL_diff_sha256, c->diff_sha256);
	bind_text_col(s, COL_data_name, c->data_name);
	bind_text_col(s, COL_data_sha256, c->data_sha256);
	bind_double_col(s, COL_val_bpb, c->val_bpb);
	bind_text_col(s, COL_source_format, src->format);
	bind_text_col(s, COL_source_file, src->file);
	bind_int_col(s, COL_source_line, 1, src->line);
	bind_text_col(s, COL_ingested_at, st->ingested_at);
	sqlite3_bind_text(s->q, s->at[COL_record], p->canon, (int)p->canon_len, SQLITE_STATIC);
}

/* Remember a stored run's config for its children: its text in the
 * record's canonical text. A copy, not a reference to the record's values:
 * on the two-thread path the worker built those, and freeing them here when
 * the cache aged took the worker's malloc lock (~9% of the samples at
 * 3*10^5 records). */
static void cache_config(struct store *st, const char *run_id, const struct store_prep *p)
{
	cache_put(&st->cache, run_id, p->config_len ? p->canon + p->config_off : NULL, p->config_len);
}

/* What a results.tsv row measured, or how it failed: the fields an edit of
 * the row's status and figures changes, and nothing else (store.h); with
 * wide, also what a wider edit of the session changes: the description and
 * the parent. */
static int edited_field(const char *key, int wide)
{
	static const char *const fields[] = { "run_id", "status", "decision", "metrics", "failure",
					      "occurrence", NULL };
	for (const char *const *f = fields; *f; f++)
		if (!strcmp(key, *f))
			return 1;
	return wide && (!strcmp(key, "description") || !strcmp(key, "parent"));
}

static int equal_but_edited(const json_t *a, const json_t *b, int wide)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)a, k, v) {
		json_t *w = json_object_get(b, k);
		if (!edited_field(k, wide) && (!w || !json_equal(v, w)))
			return 0;
	}
	json_object_foreach((json_t *)b, k, v)
		if (!edited_field(k, wide) && !json_object_get(a, k))
			return 0;
	return 1;
}

int store_same_row_remeasured(const json_t *rec, const json_t *stored)
{
	return json_is_object(rec) && json_is_object(stored) && equal_but_edited(rec, stored, 0);
}

int store_same_row_edited(const json_t *rec, const json_t *stored)
{
	/* "code" is compared whole by equal_but_edited: the same commit */
	return json_is_object(rec) && json_is_object(stored) &&
	       json_is_string(json_object_get(json_object_get(rec, "code"), "commit")) &&
	       equal_but_edited(rec, stored, 1);
}

/* Same run_id, other content, stored as run #id: the only replacement
 * allowed is a run's final record over its running record (runrec.h,
 * runrec_supersedes); the running record arriving after its final one is
 * already present (a runs.jsonl ingested again); all else is a clash. */
/* The stored record is a crash, rec the same row read now with the
 * status its description names (oom, timeout, invalid; ingest_tsv.c
 * keep_crash_identity): everything else equal, rec replaces it. */
static int names_the_failure(const json_t *rec, const json_t *stored)
{
	static const char *const named[] = { "oom", "timeout", "invalid", NULL };
	const char *was = runrec_str(stored, "status"), *now = runrec_str(rec, "status");
	int known = 0;
	for (const char *const *s = named; *s && now; s++)
		known |= !strcmp(now, *s);
	if (!was || strcmp(was, "crash") || !known || json_object_size(rec) != json_object_size(stored))
		return 0;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)stored, k, v) {
		json_t *nv = json_object_get(rec, k);
		if (strcmp(k, "status") && (!nv || !json_equal(v, nv)))
			return 0;
	}
	return 1;
}

/* A results.tsv row whose status or figures were edited since it was
 * stored: the reader gave it the stored row's run_id (ingest_tsv.c,
 * tsv_ident.c), and both were read from a results.tsv. Only there: a
 * record that names its own run_id keeps the rule that it never
 * overwrites other content. */
static int tsv_row_edited(const json_t *rec, const json_t *stored, const char *src_format,
			  const char *stored_format)
{
	return src_format && stored_format && !strcmp(src_format, "results.tsv") &&
	       !strcmp(stored_format, "results.tsv") &&
	       (store_same_row_remeasured(rec, stored) || store_same_row_edited(rec, stored));
}

static enum store_outcome judge_clash(const json_t *rec, const char *run_id, sqlite3_int64 id,
				      const char *stored_text, const char *src_format,
				      const char *stored_format, int *restatus, sb *why)
{
	json_t *stored = stored_text ? json_loads(stored_text, 0, NULL) : NULL;
	const char *was = runrec_str(stored, "status"), *now = runrec_str(rec, "status");
	enum store_outcome out = STORE_CONFLICT;
	if (stored && runrec_supersedes(rec, stored))
		out = STORE_SUPERSEDE;
	else if (stored && (*restatus = names_the_failure(rec, stored)))
		out = STORE_SUPERSEDE;
	else if (stored && (*restatus = tsv_row_edited(rec, stored, src_format, stored_format)))
		out = STORE_SUPERSEDE;
	else if (stored && runrec_supersedes(stored, rec))
		out = STORE_PRESENT;
	else {
		sb_addf(why, "run_id '%s' is already stored with different content (run #%lld)",
			run_id, (long long)id);
		/* said where the running record is involved; a clash of two
		 * final records needs no more than the line above */
		if (was && now && strcmp(was, "running") && !strcmp(now, "running"))
			sb_addf(why, ": its record is final (%s), and this running record is not its start",
				was);
		else if (was && now && !strcmp(was, "running") && strcmp(now, "running"))
			sb_adds(why, ": this final record does not keep what its running record says"
				" (only data, metrics, finished_at and failure may be filled in)");
	}
	json_decref(stored);
	return out;
}

/* The insert was ignored: same content (present), a final record for a
 * running one (*id set), or a run_id clash. */
static enum store_outcome explain_conflict(struct store *st, const json_t *rec, const char *run_id,
					   const char *hash, const char *src_format, sqlite3_int64 *id,
					   int *restatus, sb *why)
{
	sqlite3_stmt *q = st->sel_by_id;
	enum store_outcome out = STORE_PRESENT;
	db_bind_text(q, 1, run_id);
	int rc = store_step(st, q, "look up the stored run");
	if (rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(q, 1), hash)) {
		*id = sqlite3_column_int64(q, 0);
		out = judge_clash(rec, run_id, *id, (const char *)sqlite3_column_text(q, 2), src_format,
				  (const char *)sqlite3_column_text(q, 3), restatus, why);
	}
	sqlite3_reset(q);
	return out;
}

/* Run #id's stored changes dropped and cl stored instead. */
static void replace_changes(struct store *st, sqlite3_int64 id, const struct change_list *cl, int how,
			    const char *purpose)
{
	sqlite3_bind_int64(st->del_changes, 1, id);
	int rc = store_step(st, st->del_changes, purpose);
	sqlite3_reset(st->del_changes);
	if (rc != DB_ERROR)
		insert_changes(st, id, cl, (enum change_how)how);
}

/* Replace running run #id by its final record (or a stored crash by the
 * same row with the status its words name): the row in place, its
 * changes anew (the parent and config are the stored record's, so they
 * come out the same, but the row's are the new record's). */
static void supersede(struct store *st, sqlite3_int64 id, const struct store_prep *p,
		      const struct store_src *src, const char *key, const struct change_list *cl,
		      int how)
{
	const struct run_stmt *s = &st->upd_run;
	bind_record(st, s, p, src);
	bind_hardware(st, s, &p->cols);
	bind_text_col(s, COL_repeat_key, key);
	sqlite3_bind_int64(s->q, s->at_id, id);
	int rc = store_step(st, s->q, "replace the running record by its final one");
	sqlite3_reset(s->q);
	if (rc != DB_ERROR)
		replace_changes(st, id, cl, how, "drop the running record's changes");
}

void store_prepare(json_t *rec, struct store_prep *p)
{
	size_t cfg_off, cfg_len;
	p->carried = NULL; /* the caller sets it after (ingest_prepare) */
	/* "run_id": null is no run_id: drop it first, as runrec_ensure_id does,
	 * so the derived id is the same one runrec_ensure_id would give */
	if (json_is_null(json_object_get(rec, "run_id")))
		json_object_del(rec, "run_id");
	char *canon = runrec_canonical_member(rec, "config", &cfg_off, &cfg_len);
	p->canon_len = strlen(canon);
	sha256_hex(canon, p->canon_len, p->hash);
	json_t *id = json_object_get(rec, "run_id");
	if (!json_is_string(id) || json_string_length(id) == 0) {
		/* a derived run_id is added after the identity, so it is the
		 * hash's own prefix */
		char derived[24];
		free(canon);
		snprintf(derived, sizeof(derived), "r-%.16s", p->hash);
		json_object_set_new(rec, "run_id", json_string(derived));
		canon = runrec_canonical_member(rec, "config", &cfg_off, &cfg_len);
		p->canon_len = strlen(canon);
	}
	p->canon = canon;
	p->config_off = cfg_off;
	p->config_len = cfg_len;
	repeat_prefix(rec, canon + cfg_off, cfg_len, p);
	read_columns(rec, &p->cols);
}

void store_prep_release(struct store_prep *p)
{
	free(p->canon);
	p->canon = NULL;
	carried_free(p->carried);
	p->carried = NULL;
}

void store_repeat_key(struct store *st, json_t *rec, const struct change_list *cl, int how,
		      char key[65])
{
	struct store_prep p;
	store_prepare(rec, &p);
	repeat_key(st, &p, bind_hardware(st, &st->ins_run, &p.cols), cl, how, key);
	store_prep_release(&p);
}

/* ---- what an exported record carries (carried.h) ---------------------- */

/* Where the run was first ingested from, and its repeat key, as the
 * ledger it was exported from had them. */
static void carried_bind(const struct run_stmt *s, const struct carried *c, char key[65])
{
	if (!c)
		return;
	if (c->repeat_key)
		snprintf(key, 65, "%s", c->repeat_key);
	if (!c->has_source)
		return;
	db_bind_text(s->q, s->at[COL_source_format], c->src_format);
	db_bind_text(s->q, s->at[COL_source_file], c->src_file);
	sqlite3_bind_int64(s->q, s->at[COL_source_line], c->src_line);
	db_bind_text(s->q, s->at[COL_ingested_at], c->src_ingested_at);
}

static void insert_carried_changes(struct store *st, sqlite3_int64 run, const struct carried *c)
{
	sqlite3_stmt *q = st->ins_change;
	for (int i = 0; i < c->nchanges; i++) {
		const struct carried_change *x = &c->changes[i];
		sqlite3_bind_int64(q, 1, run);
		db_bind_text(q, 2, x->var);
		db_bind_text(q, 3, x->old_val);
		db_bind_text(q, 4, x->new_val);
		db_bind_text(q, 5, x->how);
		db_bind_text(q, 6, x->span);
		if (x->infer_version >= 0)
			sqlite3_bind_int64(q, 7, x->infer_version);
		else
			sqlite3_bind_null(q, 7);
		store_step(st, q, "store the run's changes");
		sqlite3_reset(q);
	}
}

/* Annotations the ledger does not hold yet; also for a run already
 * present, so that ingesting another ledger's export merges them. */
static void import_annotations(struct store *st, const char *run_id, const struct carried *c)
{
	if (!c->nannots)
		return;
	sqlite3_stmt *q = st->sel_by_id;
	db_bind_text(q, 1, run_id);
	int rc = store_step(st, q, "look up the stored run");
	sqlite3_int64 id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_reset(q);
	if (id && annot_import(st->db, id, c->annots, c->nannots) < 0)
		st->failed = 1;
}

void store_refresh_present(struct store *st, int on)
{
	st->refresh_present = on;
	st->changed_in_place = 0;
}

/* A run present as it reads, below a run an edit changed in place: its
 * parent's key, and the parent's state its changes are read against, may
 * be other now. Its changes and key as found now replace the stored ones,
 * so that the ledger holds what a fresh ingest of the file would. */
static void refresh_present(struct store *st, const char *run_id, const char *key,
			    const struct change_list *cl, int how)
{
	if (!st->sel_key) {
		st->sel_key = db_prepare(st->db, "SELECT id, repeat_key FROM runs WHERE run_id = ?1");
		st->upd_key = db_prepare(st->db, "UPDATE runs SET repeat_key = ?1 WHERE id = ?2");
	}
	if (!st->sel_key || !st->upd_key) {
		st->failed = 1;
		return;
	}
	db_bind_text(st->sel_key, 1, run_id);
	int rc = store_step(st, st->sel_key, "read the present run's repeat key");
	sqlite3_int64 id = rc == SQLITE_ROW ? sqlite3_column_int64(st->sel_key, 0) : 0;
	const char *was = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st->sel_key, 1) : NULL;
	int same_key = was && !strcmp(was, key);
	sqlite3_reset(st->sel_key);
	if (!id)
		return;
	if (!same_key) {
		db_bind_text(st->upd_key, 1, key);
		sqlite3_bind_int64(st->upd_key, 2, id);
		store_step(st, st->upd_key, "store the present run's repeat key");
		sqlite3_reset(st->upd_key);
	}
	replace_changes(st, id, cl, how, "drop the present run's changes");
	state_memo_forget(st->states, run_id);
}

enum store_outcome store_put_prepared(struct store *st, json_t *rec, const struct store_prep *p,
				      const struct store_src *src, const char **run_id, sb *why)
{
	char key[65];
	struct change_list cl = CHANGE_LIST_INIT;
	/* an exported record's changes are stored as they were, never inferred again */
	int how = p->carried && p->carried->has_changes ? carried_change_list(p->carried, &cl)
							 : find_changes(st, rec, p, &cl);
	enum store_outcome out = STORE_NEW;
	const struct run_stmt *s = &st->ins_run;

	*run_id = p->cols.run_id;
	bind_record(st, s, p, src);
	const struct hw_memo *hw = bind_hardware(st, s, &p->cols);
	repeat_key(st, p, hw, &cl, how, key);
	carried_bind(s, p->carried, key);
	bind_text_col(s, COL_repeat_key, key);
	int rc = store_step(st, s->q, "store the run");
	sqlite3_reset(s->q);
	if (rc == DB_ERROR) { /* reported; store_commit refuses the file */
		change_list_release(&cl);
		return out;
	}
	sqlite3_int64 id = 0;
	int restatus = 0;
	if (sqlite3_changes(st->db) == 1) {
		id = sqlite3_last_insert_rowid(st->db);
		if (p->carried && p->carried->has_changes)
			insert_carried_changes(st, id, p->carried);
		else
			insert_changes(st, id, &cl, (enum change_how)how);
		rkey_memo_put(st->rkeys, *run_id, key, hw->cls, p->cols.code_commit, p->cols.diff_sha256);
	} else if ((out = explain_conflict(st, rec, *run_id, p->hash, src->format, &id, &restatus, why)) == STORE_SUPERSEDE) {
		supersede(st, id, p, src, key, &cl, how);
		rkey_memo_put(st->rkeys, *run_id, key, hw->cls, p->cols.code_commit, p->cols.diff_sha256);
		st->changed_in_place = 1;
	} else if (out == STORE_PRESENT && st->refresh_present && st->changed_in_place && !p->carried) {
		refresh_present(st, *run_id, key, &cl, how);
		rkey_memo_put(st->rkeys, *run_id, key, hw->cls, p->cols.code_commit, p->cols.diff_sha256);
	}
	if (id && (out == STORE_NEW || out == STORE_SUPERSEDE) && !st->failed)
		st->failed = metrics_write(st->metrics, id, rec, out == STORE_SUPERSEDE) == DB_ERROR;
	if (out == STORE_CONFLICT || out == STORE_SUPERSEDE) /* the stored run of that id changed */
		state_memo_forget(st->states, *run_id);
	if (out != STORE_CONFLICT)
		cache_config(st, *run_id, p);
	if (out != STORE_CONFLICT && p->carried)
		import_annotations(st, *run_id, p->carried);
	change_list_release(&cl);
	/* a stored crash given the status its words name, or a results.tsv row
	 * edited since, is the run already stored, changed in place: no running
	 * run that ended */
	return restatus && out == STORE_SUPERSEDE ? STORE_UPDATED : out;
}

enum store_outcome store_put(struct store *st, json_t *rec, const struct store_src *src,
			     const char **run_id, sb *why)
{
	struct store_prep p;
	store_prepare(rec, &p);
	enum store_outcome out = store_put_prepared(st, rec, &p, src, run_id, why);
	store_prep_release(&p);
	return out;
}

void store_quarantine(struct store *st, const struct store_src *src, const char *reason,
		      const char *content, size_t len)
{
	sqlite3_stmt *q = st->ins_quar;
	db_bind_text(q, 1, src->file);
	sqlite3_bind_int64(q, 2, src->line);
	db_bind_text(q, 3, reason);
	if (content)
		sqlite3_bind_text(q, 4, content, (int)len, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(q, 4);
	sqlite3_bind_text(q, 5, st->ingested_at, -1, SQLITE_STATIC);
	store_step(st, q, "store the quarantined line");
	sqlite3_reset(q);
}
