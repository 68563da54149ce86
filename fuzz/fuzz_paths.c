/* fuzz_paths.c — libFuzzer harness: ingest's speed path against the plain
 * path, differentially (issue 11 item 8: what stays is fuzzed against the
 * plain path). The input is a runrec/1 JSONL file, ingested twice through
 * the real ingest core into the in-memory ledger (fuzz/ingest_sink.h):
 *   - as `ledger ingest` takes it: on the worker thread of
 *     ledger/ingest_runrec.c, which this build takes from 2 lines on
 *     (fuzz/fuzz.mk sets PIPE_MIN_LINES), not 2,048;
 *   - plain (ingest_plain_set, as RL_INGEST_PLAIN=1): one thread.
 * Aborts unless both leave the same rows in runs, changes, metrics and
 * quarantine (ingested_at aside), the same outcome counts and the same
 * return. */
#include <string.h>
#include "fuzz_check.h"
#include "ingest_sink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sb fast = SB_INIT, plain = SB_INIT;
	long n_fast, n_plain;
	ingest_plain_set(0);
	int rc_fast = fuzz_ingest_dump(IN_RUNREC, ingest_runrec, data, size, &n_fast, &fast);
	ingest_plain_set(1);
	int rc_plain = fuzz_ingest_dump(IN_RUNREC, ingest_runrec, data, size, &n_plain, &plain);
	FUZZ_CHECK(rc_fast == rc_plain, "the reader returned %d on the worker, %d plain", rc_fast,
		   rc_plain);
	FUZZ_CHECK(n_fast == n_plain, "%ld records stored or quarantined on the worker, %ld plain",
		   n_fast, n_plain);
	FUZZ_CHECK(fast.len == plain.len && !memcmp(fast.buf, plain.buf, fast.len),
		   "the ledger differs:\n--- worker\n%.1500s\n--- plain\n%.1500s", fast.buf,
		   plain.buf);
	sb_release(&fast);
	sb_release(&plain);
	return 0;
}
