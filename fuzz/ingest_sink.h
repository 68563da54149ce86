/* ingest_sink.h — what the three ingest-reader harnesses share: one
 * in-memory SQLite ledger and a way to run a reader over a fuzz input.
 *
 * Why an in-memory ledger and not a stub sink: the readers call up into
 * the real ingest core (ingest_put / _prepare / _finish / _reject,
 * ledger/ingest_core.c), so what a reader builds is validated and stored
 * exactly as `ledger ingest` does it, and a stub would drift from it.
 * ":memory:" has no file, so there is no file-system race and no state
 * left between runs: every input is read inside its own transaction,
 * which is rolled back, with a store in the state of a fresh one (no
 * parent-config cache carried over), so each input starts from the same
 * empty ledger and a crash reproduces from its input alone. */
#ifndef RL_FUZZ_INGEST_SINK_H
#define RL_FUZZ_INGEST_SINK_H
#include <stddef.h>
#include <stdint.h>
#include "ingest.h"

/* Run reader over data as file "fuzz-input" of format fmt. Aborts when the
 * ledger itself fails (that is a finding, not bad input). Returns what the
 * reader returned; *outcomes is how many records it stored, found present
 * or quarantined: what a harness can hold against "nothing dropped
 * silently". */
int fuzz_ingest(enum ingest_format fmt, int (*reader)(struct ingest_file *f),
		const uint8_t *data, size_t size, long *outcomes);
/* The same, and when dump is not NULL every row the input left in the runs,
 * changes, metrics and quarantine tables (ingested_at aside) appended to it, read
 * before the rollback: to compare two ways of ingesting the same input. */
int fuzz_ingest_dump(enum ingest_format fmt, int (*reader)(struct ingest_file *f),
		     const uint8_t *data, size_t size, long *outcomes, sb *dump);

#endif
