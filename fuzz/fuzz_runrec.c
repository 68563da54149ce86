/* fuzz_runrec.c — libFuzzer harness: the runrec/1 reader (common/runrec.c).
 * The input is one JSON text as a JSONL line or a whole file holds it.
 * Beyond "no crash" it checks what the ledger relies on:
 *   - a rejected text comes with a reason, a parsed record is validated and
 *     an invalid one says why;
 *   - the canonical text is the bytes jansson's own printer gives
 *     (JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17)), which the
 *     identity hash is defined by (runrec.c keeps a faster printer);
 *   - it parses back to an equal value with the same canonical text;
 *   - runrec_canonical_member points at the member's canonical text;
 *   - filling a missing run_id keeps a valid record valid. */
#include <string.h>
#include "fuzz_check.h"
#include "runrec.h"

static void check_canonical(const json_t *rec)
{
	char *canon = runrec_canonical(rec);
	char *ref = json_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	FUZZ_CHECK(ref && !strcmp(canon, ref), "canonical text differs from jansson's:\n%s\n%s",
		   canon, ref ? ref : "(json_dumps failed)");
	json_error_t je;
	json_t *back = json_loads(canon, JSON_REJECT_DUPLICATES, &je);
	FUZZ_CHECK(back, "canonical text does not parse back: %s: %s", je.text, canon);
	FUZZ_CHECK(json_equal(rec, back), "canonical text parses to another value: %s", canon);
	char *again = runrec_canonical(back);
	FUZZ_CHECK(!strcmp(canon, again), "canonical text is not a fixed point:\n%s\n%s", canon,
		   again);
	size_t off, len;
	char *whole = runrec_canonical_member(rec, "config", &off, &len);
	FUZZ_CHECK(!strcmp(whole, canon), "runrec_canonical_member text differs");
	json_t *cfg = json_object_get(rec, "config");
	if (cfg) {
		char *c = runrec_canonical(cfg);
		FUZZ_CHECK(strlen(c) == len && off + len <= strlen(whole) &&
				   !memcmp(whole + off, c, len),
			   "the config member is not at [%zu, +%zu) of the canonical text", off, len);
		free(c);
	} else {
		FUZZ_CHECK(len == 0, "an absent config member has length %zu", len);
	}
	free(whole);
	free(again);
	json_decref(back);
	free(ref);
	free(canon);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sb err = SB_INIT;
	json_t *rec = runrec_parse((const char *)data, size, &err);
	if (!rec) {
		FUZZ_CHECK(err.len > 0, "a text was refused without a reason");
		sb_release(&err);
		return 0;
	}
	int valid = runrec_validate(rec, &err) == 0;
	FUZZ_CHECK(valid == (err.len == 0), "validate returned %s with message '%s'",
		   valid ? "valid" : "invalid", err.buf ? err.buf : "");
	check_canonical(rec);
	char hex[65];
	runrec_identity(rec, hex);
	FUZZ_CHECK(strlen(hex) == 64, "identity '%s' is not 64 hex digits", hex);
	if (valid) {
		json_t *copy = json_deep_copy(rec);
		runrec_ensure_id(copy);
		sb again = SB_INIT;
		FUZZ_CHECK(runrec_validate(copy, &again) == 0,
			   "a valid record is invalid after runrec_ensure_id: %s", again.buf);
		sb_release(&again);
		json_decref(copy);
	}
	json_decref(rec);
	sb_release(&err);
	return 0;
}
