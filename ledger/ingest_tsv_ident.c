/* ingest_tsv_ident.c — which stored run a results.tsv row is, when it is
 * not stored as it reads now (ingest_tsv.h).
 *
 * A row's run_id is its content's hash, and its content names its parent's
 * run_id, so an edit of one row's status or figures gave it a new id, and
 * when that row was a parent (a failed first row is one) every row after it
 * got a new id too: ingesting the edited file stored the whole session a
 * second time. Here a row that is not stored as it reads is looked up
 * among the runs ingested from results.tsv files before this one by what an
 * edit of its measurement leaves alone (parent, commit, description, and
 * every other field but status, decision, metrics, failure and occurrence);
 * found, it takes that run's id, the store replaces the run in place
 * (store.c, tsv_row_edited), and the rows after it find their parent
 * unchanged. The same parent, commit and description twice (a rerun of a
 * crashed commit) are two runs: the k-th such row of the file can only be
 * an edit of a run no earlier row of the file is, in id order.
 *
 * A wider edit is found by where the row stands: the same commit at the
 * same line of a file of the same name is the same experiment, whatever
 * its description says now (its words corrected) and whatever its parent
 * (a keep before it edited to a discard moves the parent of every row
 * after it). The rest of the record must be equal (store.h
 * store_same_row_edited). Without it, such an edit stored the experiment
 * twice: the old run beside a new one. */
#include "ingest.h"
#include "ingest_tsv.h"
#include "runrec.h"
#include "strmap.h"
#include "util.h"

struct tsv_entry {
	char *run_id;   /* its record is read only when a row has its key */
	long next;      /* the next entry of the same parent, commit and description, or -1 */
	long next_here; /* the next entry of the same file, line and commit, or -1 */
};

struct tsv_ident {
	struct ingest_file *f;
	sqlite3_int64 before;   /* the last run stored before this file */
	int loaded;
	struct strmap by_key;   /* parent, commit, description -> first entry */
	struct strmap by_place; /* file, line, commit -> first entry */
	struct tsv_entry *e;
	long n, cap;
	struct strmap claimed;  /* run_ids this file's rows are stored as */
};

struct tsv_ident *tsv_ident_new(struct ingest_file *f)
{
	struct tsv_ident *ti = xcalloc(1, sizeof(*ti));
	ti->f = f;
	ti->before = store_last_id(f->store);
	return ti;
}

void tsv_ident_free(struct tsv_ident *ti)
{
	if (!ti)
		return;
	for (long i = 0; i < ti->n; i++)
		free(ti->e[i].run_id);
	free(ti->e);
	strmap_release(&ti->by_key);
	strmap_release(&ti->by_place);
	strmap_release(&ti->claimed);
	free(ti);
}

/* \x1e marks an absent part, \x1f ends each: neither is in a cell */
static void key_part(sb *key, const char *part)
{
	sb_adds(key, part ? part : "\x1e");
	sb_addc(key, '\x1f');
}

static void row_key(sb *key, const char *parent, const char *commit, const char *description)
{
	key_part(key, parent);
	key_part(key, commit);
	key_part(key, description);
}

/* Where a row stands: its file's name as given, its line and its commit.
 * Another session's file of the same name holds other commits (each
 * experiment is its own commit) but for its first row, which tsv_pending
 * confirms by the row after it. */
static void place_key(sb *key, const char *file, long line, const char *commit)
{
	key_part(key, file);
	sb_addf(key, "%ld\x1f", line);
	key_part(key, commit);
}

/* Entry i joins the chain of key in map (next at offset link of each
 * entry), which stays in id order. */
static void chain(struct tsv_ident *ti, struct strmap *map, const char *key, long i, int here)
{
	int created;
	struct strmap_slot *s = strmap_get(map, key, &created);
	if (created) {
		s->v.n = i;
		return;
	}
	long j = s->v.n;
	for (;;) {
		long *next = here ? &ti->e[j].next_here : &ti->e[j].next;
		if (*next < 0) {
			*next = i;
			return;
		}
		j = *next;
	}
}

static void add_entry(void *arg, const struct store_tsv_run *r)
{
	struct tsv_ident *ti = arg;
	if (!r->run_id)
		return;
	if (ti->n == ti->cap) {
		ti->cap = ti->cap ? 2 * ti->cap : 64;
		ti->e = xrealloc(ti->e, (size_t)ti->cap * sizeof(*ti->e));
	}
	struct tsv_entry *e = &ti->e[ti->n];
	e->run_id = xstrdup(r->run_id);
	e->next = e->next_here = -1;
	sb key = SB_INIT;
	row_key(&key, r->parent, r->commit, r->description);
	chain(ti, &ti->by_key, key.buf, ti->n, 0);
	if (r->commit && r->file && r->line > 0) {
		sb_reset(&key);
		place_key(&key, r->file, r->line, r->commit);
		chain(ti, &ti->by_place, key.buf, ti->n, 1);
	}
	ti->n++;
	sb_release(&key);
}

/* rec as the store will take it: the command line's options filled in,
 * its run_id derived unless the reader set one. New reference. */
static json_t *as_stored(const struct tsv_ident *ti, const json_t *rec)
{
	json_t *c = json_deep_copy(rec);
	ingest_fill_options(c, ti->f->opts);
	runrec_ensure_id(c);
	return c;
}

void tsv_ident_claim(struct tsv_ident *ti, const char *run_id)
{
	if (run_id)
		strmap_get(&ti->claimed, run_id, NULL);
}

/* The first unclaimed entry of key's chain in map whose stored record
 * same() calls an edit of c; its run_id set in rec, its record into
 * *stored_record. */
static enum tsv_match find_edit(struct tsv_ident *ti, const struct strmap *map, const char *key,
				int here, json_t *c, json_t *rec, char **stored_record,
				int (*same)(const json_t *, const json_t *))
{
	const struct strmap_slot *s = strmap_find(map, key);
	for (long i = s ? s->v.n : -1; i >= 0; i = here ? ti->e[i].next_here : ti->e[i].next) {
		struct tsv_entry *e = &ti->e[i];
		if (strmap_find(&ti->claimed, e->run_id))
			continue;
		char *text = store_run_record(ti->f->store, e->run_id);
		json_t *stored = text ? json_loads(text, 0, NULL) : NULL;
		int found = same(c, stored);
		json_decref(stored);
		if (found) {
			json_object_set_new(rec, "run_id", json_string(e->run_id));
			*stored_record = text;
			return TSV_EDITED;
		}
		free(text);
	}
	return TSV_NEW;
}

enum tsv_match tsv_ident_match(struct tsv_ident *ti, json_t *rec, long line, char **stored_record)
{
	*stored_record = NULL;
	json_t *c = as_stored(ti, rec);
	const char *id = runrec_str(c, "run_id");
	const char *commit = json_string_value(json_object_get(json_object_get(c, "code"), "commit"));
	enum tsv_match m = TSV_NEW;
	if (strmap_find(&ti->claimed, id))
		return json_decref(c), TSV_STORED;
	/* stored under the id the row has now; its record may still differ,
	 * when an edit was stored in place and the file reads as before */
	if ((*stored_record = store_run_record(ti->f->store, id))) {
		m = TSV_STORED;
		goto out;
	}
	if (!ti->loaded) {
		store_each_tsv_run(ti->f->store, ti->before, add_entry, ti);
		ti->loaded = 1;
	}
	sb key = SB_INIT;
	row_key(&key, runrec_str(c, "parent"), commit, runrec_str(c, "description"));
	m = find_edit(ti, &ti->by_key, key.buf, 0, c, rec, stored_record, store_same_row_remeasured);
	if (m == TSV_NEW && commit) {
		/* its words or the decision of a row before it edited: the same
		 * commit at the same place is the same experiment */
		sb_reset(&key);
		place_key(&key, ti->f->name, line, commit);
		m = find_edit(ti, &ti->by_place, key.buf, 1, c, rec, stored_record,
			      store_same_row_edited);
	}
	sb_release(&key);
out:
	json_decref(c);
	return m;
}
