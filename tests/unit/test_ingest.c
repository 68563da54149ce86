/* test_ingest.c — the ingest helpers that need no database: format
 * detection (ledger/ingest_text.c), line iteration over unterminated
 * buffers, and autoresearch status words.
 * Test plan: one positive input per format, the near misses that must not
 * be taken for it (a TSV without val_bpb, prose, "FAILED" inside a line),
 * a byte-order mark and leading blank lines, CRLF lines and a last line
 * without newline, every status word in mixed case and an unknown one;
 * failure words as people write them, and the words that only contain
 * one ("room", "zoomed", "hungry", "timeouts"). */
#include "ingest.h"
#include "util.h"
#include "check.h"

static enum ingest_format det(const char *s)
{
	return ingest_detect(s, strlen(s));
}

static void test_detect(void)
{
	CHECK("ingest-detect-1", det("{\"schema\":\"runrec/1\",\"status\":\"ok\"}\n") == IN_RUNREC);
	CHECK("ingest-detect-2", det("\xef\xbb\xbf\n\n  {\n  \"schema\": \"runrec/1\"\n}") == IN_RUNREC);
	CHECK("ingest-detect-3", det("{\"agent_id\":\"a\",\"val_bpb\":0.99,\"status\":\"keep\"}") == IN_ARH);
	/* runrec/1 has val_bpb inside metrics, but names its schema */
	CHECK("ingest-detect-4", det("{\"metrics\":{\"val_bpb\":1},\"schema\":\"runrec/1\"}") == IN_RUNREC);
	CHECK("ingest-detect-5", det("commit\tval_bpb\tmemory_gb\tstatus\tdescription\n") == IN_TSV);
	CHECK("ingest-detect-6", det("Status\tVAL_BPB\n") == IN_TSV);
	CHECK("ingest-detect-7", det("commit\tloss\nabc\t1.0\n") == IN_UNKNOWN);
	CHECK("ingest-detect-8", det("warmup\n\rstep 00001 (0.1%) | loss: 9.0\rstep 00002") == IN_RUNLOG);
	CHECK("ingest-detect-9", det("x\n---\nval_bpb: 1.0\n") == IN_RUNLOG);
	CHECK("ingest-detect-10", det("Traceback (most recent call last):\n  File \"x\"\n") == IN_RUNLOG);
	CHECK("ingest-detect-11", det("loading\nFAIL\n") == IN_RUNLOG);
	CHECK("ingest-detect-12", det("the test FAILED twice\nsteps were taken\n") == IN_UNKNOWN);
	CHECK("ingest-detect-13", det("  \n\n") == IN_RUNREC); /* empty: nothing to store */
}

static void test_lines(void)
{
	const char text[] = "a\r\nbb\n\nccc";
	size_t pos = 0, n;
	const char *line;
	char got[64] = "";
	int count = 0;
	while (ingest_next_line(text, strlen(text), &pos, &line, &n)) {
		size_t used = strlen(got);
		snprintf(got + used, sizeof(got) - used, "[%.*s]", (int)n, line);
		count++;
	}
	CHECK("ingest-lines-1", count == 4);
	CHECK("ingest-lines-2", !strcmp(got, "[a][bb][][ccc]"));
}

static void test_status(void)
{
	const char *st, *dec;
	CHECK("ingest-status-1", !ingest_ar_status("KEEP", &st, &dec) && !strcmp(st, "ok") && !strcmp(dec, "keep"));
	CHECK("ingest-status-2", !ingest_ar_status("Discard", &st, &dec) && !strcmp(st, "ok") && !strcmp(dec, "discard"));
	CHECK("ingest-status-3", !ingest_ar_status("crash", &st, &dec) && !strcmp(st, "crash") && dec == NULL);
	CHECK("ingest-status-4", !ingest_ar_status("OOM", &st, &dec) && !strcmp(st, "oom") && dec == NULL);
	CHECK("ingest-status-5", ingest_ar_status("maybe", &st, &dec) == -1);
	CHECK("ingest-status-7", !ingest_ar_status("kept", &st, &dec) && !strcmp(dec, "keep"));
	CHECK("ingest-status-8", !ingest_ar_status("BEST", &st, &dec) && !strcmp(dec, "keep"));
	CHECK("ingest-status-9", !ingest_ar_status("reverted", &st, &dec) && !strcmp(st, "ok") &&
				 !strcmp(dec, "discard"));
	CHECK("ingest-status-6", ingest_ar_status("", &st, &dec) == -1);
	/* measured, the decision not taken; "missing" was never run */
	CHECK("ingest-status-10", !ingest_ar_status("Tentative", &st, &dec) && !strcmp(st, "ok") && dec == NULL);
	CHECK("ingest-status-11", !ingest_ar_status("repair", &st, &dec) && !strcmp(st, "ok") && dec == NULL);
	CHECK("ingest-status-12", ingest_ar_status("missing", &st, &dec) == -1);
}

static void test_format_names(void)
{
	enum ingest_format f;
	CHECK("ingest-fmt-1", !ingest_format_parse("results.tsv", &f) && f == IN_TSV);
	CHECK("ingest-fmt-2", !strcmp(ingest_format_name(IN_ARH), "arh.json"));
	CHECK("ingest-fmt-3", ingest_format_parse("yaml", &f) == -1);
}

static int names(const char *desc, const char *status)
{
	const char *got = ingest_failure_word(desc);
	return status ? got && !strcmp(got, status) : !got;
}

static void test_failure_words(void)
{
	CHECK("ingest-failword-1", names("depth 12 (OOM)", "oom"));
	CHECK("ingest-failword-2", names("dim 640: oom", "oom"));
	CHECK("ingest-failword-3", names("CUDA out of memory at step 3", "oom"));
	CHECK("ingest-failword-4", names("OOMed at batch 64", "oom"));
	CHECK("ingest-failword-5", names("HUNG at step 40", "timeout"));
	CHECK("ingest-failword-6", names("compile hangs", "timeout"));
	CHECK("ingest-failword-7", names("batch 64 timed out", "timeout"));
	CHECK("ingest-failword-8", names("TIMEOUT", "timeout"));
	CHECK("ingest-failword-9", names("SKIPPED: same as exp7", "invalid"));
	CHECK("ingest-failword-10", names("[skipped] depth 14", "invalid"));
	CHECK("ingest-failword-11", names("HUNG after OOM", "timeout")); /* the first in the text */
	CHECK("ingest-failword-12", names("room for a bigger model", NULL));
	CHECK("ingest-failword-13", names("zoomed attention window", NULL));
	CHECK("ingest-failword-14", names("hungry optimizer", NULL));
	CHECK("ingest-failword-15", names("timeouts raised", NULL));
	CHECK("ingest-failword-16", names("depth 8 to 9", NULL));
	CHECK("ingest-failword-17", names("", NULL) && names(NULL, NULL));
}

/* A measured row's description that says the measurement is invalid:
 * only in the commentary, ending it or a clause, not negated. */
static void test_says_invalid(void)
{
	static const char *const yes[] = {
		"FINAL_LR_FRAC=0.1 \xe2\x80\x94 battery throttle 546 steps invalid",
		"WARMDOWN_RATIO=0.7 - throttled, invalid", "depth 9 (invalid: thermal throttling)",
		"lr 0.05; invalid run, machine asleep", "batch 32 \xe2\x80\x94 Invalid.",
	};
	static const char *const no[] = {
		"fix invalid token handling", "handle NaN as invalid", "mask invalid positions \xe2\x80\x94 better",
		"depth 9 \xe2\x80\x94 not invalid after all", "depth 9 \xe2\x80\x94 invalidated cache fixed",
		"depth 9", "", NULL,
	};
	char id[40];
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		snprintf(id, sizeof(id), "ingest-says-invalid-yes-%zu", i + 1);
		CHECK(id, ingest_says_invalid(yes[i]));
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		snprintf(id, sizeof(id), "ingest-says-invalid-no-%zu", i + 1);
		CHECK(id, !ingest_says_invalid(no[i]));
	}
}

int main(void)
{
	test_detect();
	test_lines();
	test_status();
	test_format_names();
	test_failure_words();
	test_says_invalid();
	return check_status();
}
