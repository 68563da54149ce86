/* ingest_text.c — what the ingest readers share about input text: format
 * names, format detection from the first bytes, line iteration over a buffer that is not
 * NUL-terminated (files are mapped), and autoresearch status words.
 * No SQLite and no record storage here. */
/* memmem needs _GNU_SOURCE, which the Makefile defines. */
#include <math.h>
#include <strings.h>
#include "ingest.h"
#include "runrec.h"
#include "util.h"

static const struct {
	enum ingest_format fmt;
	const char *name;
} format_names[] = {
	{ IN_RUNREC, "runrec" },
	{ IN_TSV, "results.tsv" },
	{ IN_RUNLOG, "run.log" },
	{ IN_ARH, "arh.json" },
};

const char *ingest_format_name(enum ingest_format f)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_names); i++)
		if (format_names[i].fmt == f)
			return format_names[i].name;
	return "unknown";
}

int ingest_format_parse(const char *s, enum ingest_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_names); i++)
		if (str_ieq(s, format_names[i].name)) {
			*out = format_names[i].fmt;
			return 0;
		}
	return -1;
}

int ingest_next_line(const char *text, size_t len, size_t *pos, const char **line,
		     size_t *line_len)
{
	if (*pos >= len)
		return 0;
	const char *start = text + *pos;
	const char *nl = memchr(start, '\n', len - *pos);
	size_t n = nl ? (size_t)(nl - start) : len - *pos;
	*pos += n + (nl ? 1 : 0);
	if (n && start[n - 1] == '\r')
		n--;
	*line = start;
	*line_len = n;
	return 1;
}

int ingest_ar_status(const char *word, const char **status, const char **decision)
{
	static const struct { const char *word, *status, *decision; } map[] = {
		{ "keep", "ok", "keep" },
		{ "discard", "ok", "discard" },
		{ "baseline", "ok", "baseline" },
		{ "crash", "crash", NULL },
		/* the other words public results.tsv files use for the same */
		{ "kept", "ok", "keep" },
		{ "best", "ok", "keep" },
		{ "reverted", "ok", "discard" },
		{ "discarded", "ok", "discard" },
		/* measured, the decision not taken (yet): a valid measurement
		 * that is neither kept nor discarded (an MoE session's
		 * "tentative" and "repair" rows; "missing", planned and never
		 * run, has no measurement and stays refused) */
		{ "tentative", "ok", NULL },
		{ "repair", "ok", NULL },
	};
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (str_ieq(word, map[i].word)) {
			*status = map[i].status;
			*decision = map[i].decision;
			return 0;
		}
	/* runrec/1's own words (ok, oom, timeout, …) in any case */
	for (const char *const *s = runrec_statuses; *s; s++)
		if (str_ieq(word, *s)) {
			*status = *s;
			*decision = NULL;
			return 0;
		}
	return -1;
}

int ingest_kept_word(const char *word, const char **status, const char **decision)
{
	int yes = str_ieq(word, "true") || str_ieq(word, "yes");
	if (!yes && !str_ieq(word, "false") && !str_ieq(word, "no"))
		return -1;
	*status = "ok";
	*decision = yes ? "keep" : "discard";
	return 0;
}

void ingest_keep_crash_identity(json_t *rec)
{
	if (json_object_get(rec, "run_id"))
		return;
	json_t *as_written = json_deep_copy(rec);
	json_object_set_new(as_written, "status", json_string("crash"));
	runrec_ensure_id(as_written);
	json_object_set(rec, "run_id", json_object_get(as_written, "run_id"));
	json_decref(as_written);
}

/* Words a description uses for how a run failed, and the runrec/1 status
 * each names. HUNG is a run that stopped making progress until the harness
 * ended it at its time limit, which is what `timeout` records; SKIPPED is a
 * run that never ran to a measurement without failing, which is
 * `invalid` (no valid measurement, for no fault of the code). */
static const struct { const char *words, *status; } failure_words[] = {
	{ "oom", "oom" }, { "oomed", "oom" }, { "out of memory", "oom" },
	{ "timeout", "timeout" }, { "timed out", "timeout" },
	{ "hung", "timeout" }, { "hang", "timeout" }, { "hangs", "timeout" },
	{ "skipped", "invalid" },
};

/* words at p, in any case, with no letter or digit either side */
static int words_at(const char *text, const char *p, const char *words)
{
	size_t n = strlen(words);
	if (p > text && isalnum((unsigned char)p[-1]))
		return 0;
	return strncasecmp(p, words, n) == 0 && !isalnum((unsigned char)p[n]);
}

const char *ingest_failure_word(const char *description)
{
	if (!description)
		return NULL;
	for (const char *p = description; *p; p++)
		for (size_t i = 0; i < ARRAY_SIZE(failure_words); i++)
			if (words_at(description, p, failure_words[i].words))
				return failure_words[i].status;
	return NULL;
}

/* Where a description's commentary starts: after " — ", " – ", " -- ",
 * " - " or "; ", or at the first "(": what follows is how the run went,
 * not what it changed. NULL when there is none. */
static const char *commentary(const char *d)
{
	static const char *const seps[] = { " \xe2\x80\x94 ", " \xe2\x80\x93 ", " -- ", " - ", "; ", "(" };
	const char *first = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(seps); i++) {
		const char *p = strstr(d, seps[i]);
		if (p && (!first || p < first))
			first = p;
	}
	return first;
}

int ingest_says_invalid(const char *description)
{
	const char *c = description ? commentary(description) : NULL;
	for (const char *p = c; p && *p; p++) {
		if (!words_at(description, p, "invalid"))
			continue;
		const char *after = p + 7;
		int ends = !*after || strchr(",.;:)!", *after) || !strncasecmp(after, " run", 4) ||
			   !strncasecmp(after, " measurement", 12) || !strncasecmp(after, " result", 7);
		int negated = (p - description >= 4 && !strncasecmp(p - 4, "not ", 4)) ||
			      (p - description >= 3 && !strncasecmp(p - 3, "no ", 3));
		if (ends && !negated)
			return 1;
	}
	return 0;
}

/* ---- detection ------------------------------------------------------- */

static int has(const char *text, size_t len, const char *needle)
{
	return memmem(text, len, needle, strlen(needle)) != NULL;
}

/* runrec/1 names its schema; an autoresearch@home result has agent_id or a
 * top-level val_bpb and no schema key. Looks at the first 64 KiB. */
static enum ingest_format json_kind(const char *text, size_t len)
{
	size_t n = len < 65536 ? len : 65536;
	if (has(text, n, "\"schema\""))
		return IN_RUNREC;
	if (has(text, n, "\"agent_id\"") || has(text, n, "\"val_bpb\""))
		return IN_ARH;
	return IN_RUNREC;
}

/* A header line with a tab and a val_bpb column. */
static int tsv_header(const char *line, size_t n)
{
	if (!memchr(line, '\t', n))
		return 0;
	for (size_t i = 0; i + 7 <= n; i++)
		if (!strncasecmp(line + i, "val_bpb", 7))
			return 1;
	return 0;
}

/* Step lines ("step 00953 (100.0%) | …", after '\n' or '\r'), a '---' summary
 * line, a Python traceback, or a line starting with FAIL. */
static int log_like(const char *text, size_t len)
{
	if (has(text, len, "Traceback (most recent call last)"))
		return 1;
	for (size_t i = 0; i < len; i++) {
		if (i && text[i - 1] != '\n' && text[i - 1] != '\r')
			continue;
		const char *p = text + i;
		size_t left = len - i;
		if (left > 5 && !memcmp(p, "step ", 5) && isdigit((unsigned char)p[5]))
			return 1;
		if (left >= 3 && !memcmp(p, "---", 3) && (left == 3 || p[3] == '\n' || p[3] == '\r'))
			return 1;
		if (left >= 4 && !memcmp(p, "FAIL", 4))
			return 1;
	}
	return 0;
}

enum ingest_format ingest_detect(const char *text, size_t len)
{
	size_t i = 0, pos, n;
	const char *line;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) /* UTF-8 byte order mark */
		i = 3;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i == len)
		return IN_RUNREC; /* empty: nothing to store, nothing to reject */
	if (text[i] == '{')
		return json_kind(text + i, len - i);
	pos = i;
	if (ingest_next_line(text, len, &pos, &line, &n) && tsv_header(line, n))
		return IN_TSV;
	if (log_like(text, len))
		return IN_RUNLOG;
	return IN_UNKNOWN;
}

json_t *ingest_sub_object(json_t *rec, const char *key)
{
	json_t *o = json_object_get(rec, key);
	if (!o) {
		o = json_object();
		json_object_set_new(rec, key, o);
	}
	return o;
}

json_t *ingest_number(double d)
{
	return isfinite(d) ? json_real(d) : json_null();
}
