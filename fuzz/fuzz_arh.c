/* fuzz_arh.c — libFuzzer harness: the autoresearch@home result JSON
 * (ledger/ingest_arh.c) reader, through the real ingest driver into an
 * in-memory ledger (fuzz/ingest_sink.h says why). The input is the whole
 * file. A file with anything but whitespace in it that the reader took
 * ends as at least one record stored or quarantined, never nothing. */
#include <ctype.h>
#include "fuzz_check.h"
#include "ingest_sink.h"

/* Blank as the JSON framing counts it (ingest_runrec.c skips lines of
 * isspace() only, \v and \f included). */
static int blank(const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace(s[i]))
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long outcomes;
	int rc = fuzz_ingest(IN_ARH, ingest_arh, data, size, &outcomes);
	FUZZ_CHECK(rc != 0 || blank(data, size) || outcomes >= 1,
		   "a non-blank arh.json of %zu bytes was read with nothing stored or quarantined", size);
	return 0;
}
