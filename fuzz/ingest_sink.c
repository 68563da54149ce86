/* ingest_sink.c — see ingest_sink.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

int fuzz_ingest(enum ingest_format fmt, int (*reader)(struct ingest_file *f),
		const uint8_t *data, size_t size, long *outcomes)
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
	store_rollback(st);
	if (f.n_new) {
		store_free(st);
		st = NULL;
	}
	sb_release(&f.run_id);
	sb_release(&f.warned);
	return rc;
}
