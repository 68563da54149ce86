/* fuzz_runlog.c — libFuzzer harness: the autoresearch run.log
 * (ledger/ingest_runlog.c) reader, through the real ingest driver into an
 * in-memory ledger (fuzz/ingest_sink.h says why). The input is the whole
 * file. A run.log is one run: every file ends as exactly one record stored
 * or one quarantined, never nothing. */
#include "fuzz_check.h"
#include "ingest_sink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long outcomes;
	int rc = fuzz_ingest(IN_RUNLOG, ingest_runlog, data, size, &outcomes);
	FUZZ_CHECK(rc != 0 || outcomes == 1, "a run.log gave %ld outcomes, not one", outcomes);
	return 0;
}
