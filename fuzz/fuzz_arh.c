/* fuzz_arh.c — libFuzzer harness: the autoresearch@home result JSON (ledger/ingest_arh.c)
 * reader, through the real ingest driver into an in-memory ledger
 * (fuzz/ingest_sink.h says why). The input is the whole file. */
#include "ingest_sink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_ingest(IN_ARH, ingest_arh, data, size);
	return 0;
}
