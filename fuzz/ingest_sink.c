/* ingest_sink.c — see ingest_sink.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db.h"
#include "ingest_sink.h"
#include "store.h"

static sqlite3 *ledger_db(void)
{
	static sqlite3 *db;
	if (!db && db_open(":memory:", &db)) {
		fprintf(stderr, "fuzz: cannot open an in-memory ledger\n");
		abort();
	}
	return db;
}

/* Every row of table in the order of its key, one line a row, column by
 * column, but for ingested_at (the clock, which differs between two
 * ingests). */
static void dump_table(sqlite3 *db, const char *table, const char *key, sb *out)
{
	char sql[128];
	snprintf(sql, sizeof(sql), "SELECT * FROM %s ORDER BY %s", table, key);
	sqlite3_stmt *q = db_prepare(db, sql);
	if (!q)
		abort();
	int rc;
	while ((rc = db_step(q, "dump a table")) == SQLITE_ROW) {
		for (int c = 0; c < sqlite3_column_count(q); c++) {
			if (!strcmp(sqlite3_column_name(q, c), "ingested_at"))
				continue;
			const unsigned char *t = sqlite3_column_text(q, c);
			sb_addf(out, "%s%s", c ? "|" : "", t ? (const char *)t : "NULL");
		}
		sb_addc(out, '\n');
	}
	if (rc != SQLITE_DONE)
		abort();
	sqlite3_finalize(q);
	sb_addf(out, "-- %s\n", table);
}

int fuzz_ingest(enum ingest_format fmt, int (*reader)(struct ingest_file *f),
		const uint8_t *data, size_t size, long *outcomes)
{
	return fuzz_ingest_dump(fmt, reader, data, size, outcomes, NULL);
}

int fuzz_ingest_dump(enum ingest_format fmt, int (*reader)(struct ingest_file *f),
		     const uint8_t *data, size_t size, long *outcomes, sb *dump)
{
	/* what a user typically passes (docs/ingest.md); a time so results.tsv
	 * rows get started_at from --every */
	static const struct ingest_opts opts = { .agent = "fuzz",
						 .hardware = "NVIDIA H100 80GB HBM3",
						 .started_at = 1773619200.0, /* 2026-03-16 */
						 .every = 300 };
	/* The store's only state that outlives a rolled-back transaction is
	 * its parent-config cache (store.c), which is filled only by storing
	 * a run; freeing a store costs ~5 ms under ASan (two 32k-slot cache
	 * generations), so a store that stored nothing is kept for the next
	 * input: the same state as a fresh one. */
	static struct store *st;
	if (!st)
		st = store_new(ledger_db());
	/* data is libFuzzer's buffer of exactly size bytes, not NUL-terminated,
	 * like the mapped file ingest reads: a read past the end is caught */
	struct ingest_file f = { .path = "fuzz-input", .name = "fuzz-input",
				 .text = (const char *)data, .len = size, .format = fmt,
				 .opts = &opts, .store = st, .run_id = SB_INIT, .warned = SB_INIT };
	(void)ingest_detect(f.text, f.len); /* cheap, and it reads every input too */
	if (store_begin(st)) {
		fprintf(stderr, "fuzz: BEGIN failed on the in-memory ledger\n");
		abort();
	}
	int rc = reader(&f);
	*outcomes = f.n_new + f.n_present + f.n_quarantined;
	if (dump) {
		dump_table(ledger_db(), "runs", "id", dump);
		dump_table(ledger_db(), "changes", "run, var", dump); /* WITHOUT ROWID */
		dump_table(ledger_db(), "metrics", "run, name", dump); /* likewise */
		dump_table(ledger_db(), "quarantine", "id", dump);
	}
	store_rollback(st);
	if (f.n_new) {
		store_free(st);
		st = NULL;
	}
	sb_release(&f.run_id);
	sb_release(&f.warned);
	return rc;
}
