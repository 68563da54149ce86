/* fuzz_tsv.c — libFuzzer harness: the autoresearch results.tsv (ledger/ingest_tsv.c)
 * reader, through the real ingest driver into an in-memory ledger
 * (fuzz/ingest_sink.h says why). The input is the whole file. */
#include "ingest_sink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long outcomes; /* a header alone is a file of no rows: nothing to hold it to */
	fuzz_ingest(IN_TSV, ingest_tsv, data, size, &outcomes);
	return 0;
}
