/* ingest_tsv.c — reader for autoresearch results.tsv, header-driven (libcsv).
 *
 * Canonical columns: commit, val_bpb, memory_gb, status, description; wider
 * variants add metric columns (mfu, tok_per_sec, num_steps, …) in any order.
 * Each row becomes one runrec/1 record:
 *   status keep|discard|crash (any case) -> status ok|ok|crash + decision;
 *   a crash or missing status whose description names a failure ("(OOM)",
 *   "HUNG", "timed out", "SKIPPED") -> that status (oom, timeout, invalid);
 *   the first row is the baseline; each row's parent is the last kept row
 *   (keep or baseline) before it, as in autoresearch; a first row that
 *   failed is no baseline (nothing was measured) but still the parent of
 *   the rows after it until one is kept: they changed its configuration;
 *   val_bpb only when the run is ok and the value > 0 (crash rows say
 *   0.000000, which is no measurement, and zeros in other metric columns
 *   of a failed row are dropped too); memory_gb -> metrics.peak_vram_mb.
 *   a row identical in every field to an earlier one after the same kept
 *   row gets "occurrence": n (2, 3, …): a record's identity is its content,
 *   and without it the second would pass for the first and be dropped.
 * Fields are tab-separated and never quoted (autoresearch writes them raw).
 * This file converts only; ingest_put() validates and stores. */
#include <csv.h>
#include "ingest.h"
#include "ingest_tsv.h"
#include "runrec.h"
#include "strmap.h"
#include "termtext.h"
#include "utf8.h"
#include "util.h"

enum col_role { COL_EXTRA, COL_COMMIT, COL_BPB, COL_MEMORY, COL_STATUS, COL_DESC,
		COL_GPU, COL_AGENT, COL_STARTED, COL_FINISHED,
		COL_DUPLICATE /* a second column for a field an earlier one gives: not read */ };

/* Where each role's value lands in the record (COL_EXTRA: metrics.NAME). */
static const char *const role_field[] = {
	[COL_COMMIT] = "code.commit", [COL_BPB] = "metrics.val_bpb",
	[COL_MEMORY] = "metrics.peak_vram_mb", [COL_STATUS] = "status",
	[COL_DESC] = "description", [COL_GPU] = "hardware.gpu_name", [COL_AGENT] = "agent",
	[COL_STARTED] = "started_at", [COL_FINISHED] = "finished_at",
};

/* Header names (lowercase) with a fixed meaning; other columns are metrics
 * when numeric. */
static const struct { const char *name; enum col_role role; } known_cols[] = {
	{ "commit", COL_COMMIT }, { "val_bpb", COL_BPB }, { "memory_gb", COL_MEMORY },
	/* the same in GB under the names wider variants use (autoresearch-unified
	 * writes peak_mem_gb): read as memory_gb, not stored as a GB metric */
	{ "peak_mem_gb", COL_MEMORY }, { "peak_memory_gb", COL_MEMORY }, { "mem_gb", COL_MEMORY },
	{ "peak_vram_gb", COL_MEMORY }, { "vram_gb", COL_MEMORY },
	{ "status", COL_STATUS }, { "description", COL_DESC }, { "gpu", COL_GPU },
	/* a kept column of True/False (parthwhy/autoresearch-lite) is the
	 * status, and notes the description */
	{ "kept", COL_STATUS }, { "notes", COL_DESC },
	{ "gpu_name", COL_GPU }, { "hardware", COL_GPU }, { "agent", COL_AGENT },
	{ "started_at", COL_STARTED }, { "timestamp", COL_STARTED },
	{ "finished_at", COL_FINISHED }, { "completed_at", COL_FINISHED },
};

/* Extra metric columns under the names runrec/1 uses. */
static const struct { const char *col, *metric; } metric_names[] = {
	{ "mfu", "mfu_percent" }, { "mfu_percent", "mfu_percent" },
	{ "tok_per_sec", "tokens_per_second" }, { "tokens_per_sec", "tokens_per_second" },
	{ "tok_sec", "tokens_per_second" }, { "tok_s", "tokens_per_second" },
	{ "tokens_per_second", "tokens_per_second" }, { "num_steps", "num_steps" },
	{ "steps", "num_steps" }, { "num_params_m", "num_params_M" },
	{ "params_m", "num_params_M" }, { "total_tokens_m", "total_tokens_M" },
	{ "training_seconds", "training_seconds" }, { "total_seconds", "total_seconds" },
	{ "peak_vram_mb", "peak_vram_mb" },
};

#define MAX_COLS 64

struct tsv {
	struct ingest_file *f;
	int ncols;
	enum col_role role[MAX_COLS];
	unsigned char kept_col[MAX_COLS]; /* COL_STATUS named kept: True/False mean keep/discard */
	char *metric[MAX_COLS];     /* COL_EXTRA: metric name */
	/* the row being read */
	char *cell[MAX_COLS];
	int ncells, too_many;
	long rows;                  /* data rows seen, for baseline and times */
	long line;                  /* file line of the row being read */
	long untimed;               /* new runs without started_at or finished_at */
	int time_col;               /* the header names a time column */
	char *parent;               /* run_id of the last kept row */
	struct strmap seen;         /* rows since that row: fields -> times seen */
	int said_invalid;           /* the row being read: its description says invalid, or it
	                               was measured but not admitted (size_violation) */
	int inadmissible;           /* the row being read: status size_violation */
	struct tsv_ident *ident;    /* which stored run an edited row is */
	/* The first row, when it reads as an edit of a stored first row: it
	 * is that row only if the next row is stored below it (tsv_pending). */
	struct pending {
		json_t *rec;        /* NULL: none */
		char *stored;       /* the stored run's record */
		int named_failure;
		long no;
		const char *line;
		size_t n;
	} pending;
};

/* ---- libcsv callbacks ------------------------------------------------ */

static void on_field(void *s, size_t len, void *data)
{
	struct tsv *t = data;
	if (t->ncells == MAX_COLS) {
		t->too_many = 1;
		return;
	}
	t->cell[t->ncells++] = xstrndup(s ? s : "", s ? len : 0);
}

static void on_row(int c, void *data)
{
	(void)c;
	(void)data;
}

static int only_space(unsigned char c)
{
	return c == ' '; /* a tab is the delimiter, never padding */
}

static void clear_cells(struct tsv *t)
{
	for (int i = 0; i < t->ncells; i++)
		free(t->cell[i]);
	t->ncells = 0;
	t->too_many = 0;
}

/* Split one line into t->cell[]. */
static int split_line(struct csv_parser *p, struct tsv *t, const char *line, size_t n)
{
	clear_cells(t);
	if (csv_parse(p, line, n, on_field, on_row, t) != n)
		return -1;
	return csv_fini(p, on_field, on_row, t);
}

/* ---- header ---------------------------------------------------------- */

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static const char *metric_name(const char *col_lower, const char *col)
{
	for (size_t i = 0; i < ARRAY_SIZE(metric_names); i++)
		if (!strcmp(col_lower, metric_names[i].col))
			return metric_names[i].metric;
	return col;
}

/* The record field column i fills (not a COL_DUPLICATE), into buf. */
static const char *column_field(const struct tsv *t, int i, char *buf, size_t n)
{
	if (t->role[i] != COL_EXTRA)
		return role_field[t->role[i]];
	snprintf(buf, n, "metrics.%s", t->metric[i]);
	return buf;
}

/* Two columns for one field ("val_bpb" twice, or "gpu" and "gpu_name"):
 * before, the later cell silently overwrote the earlier. The first is
 * read, as in autoresearch's own layout the canonical columns come first
 * and a repeat is appended by a wider variant; the later one is not
 * stored, and the header says so. */
static void mark_duplicates(struct tsv *t, long no)
{
	char a[300], b[300];
	for (int i = 1; i < t->ncols; i++)
		for (int j = 0; j < i; j++) {
			if (t->role[j] == COL_DUPLICATE)
				continue;
			const char *field = column_field(t, j, b, sizeof(b));
			if (strcmp(column_field(t, i, a, sizeof(a)), field))
				continue;
			sb ni = SB_INIT, nj = SB_INIT;
			term_escape(&ni, t->cell[i], 0);
			term_escape(&nj, t->cell[j], 0);
			rl_warn("ingest: %s:%ld: columns %d '%s' and %d '%s' both give %s: column %d is read, "
				"column %d is not stored", t->f->name, no, j + 1, nj.buf, i + 1, ni.buf, field,
				j + 1, i + 1);
			sb_release(&ni);
			sb_release(&nj);
			t->role[i] = COL_DUPLICATE;
			break;
		}
}

static int read_header(struct tsv *t, long no)
{
	int seen_bpb = 0, seen_status = 0;
	if (t->too_many) {
		rl_error("ingest: %s:%ld: the header has more than %d columns", t->f->name, no, MAX_COLS);
		return -1;
	}
	t->ncols = t->ncells;
	for (int i = 0; i < t->ncells; i++) {
		char *low = xstrdup(t->cell[i]);
		lower(low);
		t->role[i] = COL_EXTRA;
		for (size_t k = 0; k < ARRAY_SIZE(known_cols); k++)
			if (!strcmp(low, known_cols[k].name))
				t->role[i] = known_cols[k].role;
		/* the name becomes a JSON key, which jansson wants in UTF-8 */
		int repaired;
		t->metric[i] = utf8_lossy_strdup(metric_name(low, t->cell[i]), &repaired);
		if (repaired)
			rl_warn("ingest: %s:%ld: the name of column %d is not valid UTF-8; it is read as '%s'",
				t->f->name, no, i + 1, t->metric[i]);
		t->kept_col[i] = !strcmp(low, "kept");
		t->time_col |= t->role[i] == COL_STARTED || t->role[i] == COL_FINISHED;
		seen_bpb |= t->role[i] == COL_BPB;
		seen_status |= t->role[i] == COL_STATUS;
		free(low);
	}
	if (seen_bpb && seen_status) {
		mark_duplicates(t, no);
		return 0;
	}
	rl_error("ingest: %s:%ld: the header has no %s column", t->f->name, no,
		 seen_bpb ? "status" : "val_bpb");
	rl_hint("results.tsv starts with a header like 'commit<TAB>val_bpb<TAB>memory_gb<TAB>status<TAB>description'");
	return -1;
}

/* ---- rows ------------------------------------------------------------ */

static int missing(const char *s)
{
	return !*s || !strcmp(s, "-") || str_ieq(s, "n/a") || str_ieq(s, "na") || str_ieq(s, "nan");
}

/* Cell i as a JSON string. Text that is not UTF-8 (a Latin-1 description)
 * is kept with U+FFFD for each bad byte, and said once per column: jansson
 * would refuse it and the field would silently go missing. */
static json_t *cell_text(struct tsv *t, int i)
{
	int repaired;
	json_t *v = json_string_lossy(t->cell[i], &repaired);
	if (repaired) {
		sb key = SB_INIT;
		sb_addf(&key, "utf8:%s", t->metric[i]);
		if (ingest_warn_once(t->f, key.buf))
			rl_warn("ingest: %s:%ld: column '%s' is not valid UTF-8; each invalid byte is stored as "
				"U+FFFD (said once per column)", t->f->name, t->line, t->metric[i]);
		sb_release(&key);
	}
	return v;
}

/* One cell into the record. Returns 0, or -1 with the reason in why. */
static int put_cell(struct tsv *t, json_t *rec, int i, const char *status, sb *why)
{
	const char *v = t->cell[i];
	double d;
	double tm;
	switch (t->role[i]) {
	case COL_STATUS:
	case COL_DUPLICATE:
		return 0;
	case COL_COMMIT:
		json_object_set_new(ingest_sub_object(rec, "code"), "commit", cell_text(t, i));
		return 0;
	case COL_DESC:
		json_object_set_new(rec, "description", cell_text(t, i));
		return 0;
	case COL_GPU:
		json_object_set_new(ingest_sub_object(rec, "hardware"), "gpu_name", cell_text(t, i));
		return 0;
	case COL_AGENT:
		json_object_set_new(rec, "agent", cell_text(t, i));
		return 0;
	case COL_STARTED:
	case COL_FINISHED:
		if (parse_iso_utc(v, &tm))
			return sb_addf(why, "%s '%s' is not an ISO-8601 time", t->metric[i], v), -1;
		json_object_set_new(rec, t->role[i] == COL_STARTED ? "started_at" : "finished_at",
				    json_string(v));
		return 0;
	default:
		break;
	}
	int range = parse_double_range(v, &d);
	if (range == PARSE_UNDERFLOW || range == PARSE_OVERFLOW) {
		if (t->role[i] == COL_BPB)
			return 0; /* no measurement: measured_status said so */
		sb shown = SB_INIT;
		term_escape(&shown, v, 0);
		rl_warn("ingest: %s:%ld: column '%s': '%s' is too %s for a double (it would read as %s); "
			"stored as null", t->f->name, t->line, t->metric[i], shown.buf,
			range == PARSE_UNDERFLOW ? "small" : "large", range == PARSE_UNDERFLOW ? "0" : "inf");
		sb_release(&shown);
		json_object_set_new(ingest_sub_object(rec, "metrics"),
				    t->role[i] == COL_MEMORY ? "peak_vram_mb" : t->metric[i], json_null());
		return 0;
	}
	if (range) {
		if (t->role[i] != COL_EXTRA)
			return sb_addf(why, "%s '%s' is not a number", t->metric[i], v), -1;
		if (ingest_warn_once(t->f, t->metric[i]))
			rl_warn("ingest: %s: column '%s' is not numeric ('%s'); it is not stored",
				t->f->name, t->metric[i], v);
		return 0;
	}
	if (t->role[i] == COL_BPB) {
		/* a crash row's 0.000000 is no measurement; a row said invalid
		 * keeps the value it gives (not a valid one: status invalid) */
		if ((!strcmp(status, "ok") || t->said_invalid) && d > 0)
			json_object_set_new(ingest_sub_object(rec, "metrics"), "val_bpb", ingest_number(d));
	} else if (t->role[i] == COL_MEMORY) {
		if (d > 0)
			json_object_set_new(ingest_sub_object(rec, "metrics"), "peak_vram_mb", ingest_number(d * 1024));
	} else if (d != 0 || !strcmp(status, "ok")) {
		/* crash rows fill their metric columns with zeros: not measured */
		long l;
		json_object_set_new(ingest_sub_object(rec, "metrics"), t->metric[i],
				    parse_long(v, &l) ? ingest_number(d) : json_integer(l));
	}
	return 0;
}

/* The status word of a measured row whose result broke the rules it had
 * to meet (parameter-golf: the artifact over the 16 MB cap): a discard,
 * measured, whose value may not stand. */
#define INADMISSIBLE_WORD "size_violation"

/* The row's status and decision. A crash, or a row with no status at all,
 * whose description names how it failed ("(OOM)", "HUNG at step 40") gets
 * the status that names (ingest_failure_word); keep and discard rows are
 * measurements and stay as they are. */
static const char *row_status(struct tsv *t, const char **decision, int *named_failure, sb *why)
{
	const char *status = NULL, *desc = NULL;
	*named_failure = 0;
	for (int i = 0; i < t->ncells; i++) {
		if (t->role[i] == COL_DESC)
			desc = t->cell[i];
		if (t->role[i] != COL_STATUS || missing(t->cell[i]))
			continue;
		if (str_ieq(t->cell[i], INADMISSIBLE_WORD)) { /* measured, then not admitted */
			status = "ok";
			*decision = "discard";
			t->inadmissible = 1;
			continue;
		}
		if (t->kept_col[i] && !ingest_kept_word(t->cell[i], &status, decision))
			continue;
		if (ingest_ar_status(t->cell[i], &status, decision)) {
			sb_addf(why, "status '%s' is not keep, discard or crash", t->cell[i]);
			return NULL;
		}
	}
	if (!status || !strcmp(status, "crash")) {
		const char *named = ingest_failure_word(desc);
		if (named) {
			*named_failure = status != NULL; /* a crash the words name; none had no status */
			status = named;
			*decision = NULL;
		}
	}
	if (!status)
		sb_adds(why, "status is empty");
	return status;
}

/* A keep or discard row (status ok) is a measurement, and its val_bpb must
 * be one: a positive number. One that says "nan", "-1", "0", "1e-400" or
 * nothing was stored as a kept run with no value and no word. Now: a
 * value that is not finite gives status nan (as the trainer records a run
 * whose loss diverged), any other gives invalid (no valid measurement);
 * the decision stays as written, so the parent chain follows the file.
 * Text that is no number at all is left to put_cell, which refuses the
 * row. Returns the status; the reason goes to failure.message. */
static const char *measured_status(struct tsv *t, const char *status, const char *decision,
				   sb *failure)
{
	const char *v = NULL;
	double d = 0;
	for (int i = 0; i < t->ncells && !v; i++)
		if (t->role[i] == COL_BPB)
			v = t->cell[i];
	if (strcmp(status, "ok") || !v)
		return status;
	int range = missing(v) ? 0 : parse_double_range(v, &d);
	if (range == -1 || (!missing(v) && range != PARSE_UNDERFLOW && isfinite(d) && d > 0))
		return status;
	int nan = str_ieq(v, "nan") || range == PARSE_OVERFLOW || (!missing(v) && !isfinite(d));
	const char *now = nan ? "nan" : "invalid";
	sb shown = SB_INIT;
	term_escape(&shown, v, 0);
	sb_addf(failure, "results.tsv says %s with val_bpb '%s', which is no measurement",
		decision ? decision : status, shown.buf);
	rl_warn("ingest: %s:%ld: a %s row with val_bpb '%s' has no valid measurement: stored with status "
		"%s (decision %s)", t->f->name, t->line, decision ? decision : "ok", shown.buf, now,
		decision ? decision : "none");
	sb_release(&shown);
	return now;
}

/* A keep or discard row whose description says the measurement is invalid
 * ("FINAL_LR_FRAC=0.1 — battery throttle 546 steps invalid",
 * ingest_says_invalid): its author does not count it, and neither may the
 * audit: taken as measured, such a run was the "already measured" attempt
 * of a duplicate_attempt and widened the noise floor 14-fold on a real
 * session (tests/fixtures/real/hsgngr-macos-results.tsv). Status invalid,
 * the decision and the value as written (the value in the record only:
 * no valid measurement), and said. */
static const char *described_invalid(struct tsv *t, const char *status, const char *decision,
				     sb *failure)
{
	const char *desc = NULL;
	for (int i = 0; i < t->ncells && !desc; i++)
		if (t->role[i] == COL_DESC)
			desc = t->cell[i];
	if (strcmp(status, "ok") || failure->len || !ingest_says_invalid(desc))
		return status;
	sb shown = SB_INIT;
	term_escape(&shown, desc, 0);
	sb_addf(failure, "the description says the measurement is invalid: '%s'", shown.buf);
	rl_warn("ingest: %s:%ld: a %s row whose description says its measurement is invalid: stored with "
		"status invalid (decision %s)", t->f->name, t->line, decision ? decision : "ok",
		decision ? decision : "none");
	sb_release(&shown);
	return "invalid";
}

/* A size_violation row: measured (its val_bpb is a real result) but not
 * admissible, since its artifact broke the size limit. Stored as status
 * invalid, decision discard, the value in the record only, and a failure
 * message that starts "inadmissible: " (runrec.h's vocabulary has no
 * status for it; docs/run-record.md): the frontier and every comparison
 * leave it out, and the audit counts it as a measured discard, not as a
 * crash, and its change as answered (docs/audit.md). Before, the row was
 * refused and quarantined, and the session's record lost its best value. */
static const char *not_admitted(struct tsv *t, const char *status, sb *failure)
{
	if (!t->inadmissible || strcmp(status, "ok"))
		return status; /* a size_violation row without a value: no measurement */
	const char *v = NULL;
	for (int i = 0; i < t->ncells && !v; i++)
		if (t->role[i] == COL_BPB)
			v = t->cell[i];
	sb shown = SB_INIT;
	term_escape(&shown, v ? v : "", 0);
	sb_addf(failure, "inadmissible: measured val_bpb %s, but results.tsv says " INADMISSIBLE_WORD
		" (the artifact broke the size limit)", shown.buf);
	sb_release(&shown);
	return "invalid";
}

/* How many times this row's fields have now been seen since the last kept
 * row (1 the first time). Only those rows can share the row's parent: the
 * parent moves on at each kept row and never comes back, so put_row empties
 * the map then, and it holds one stretch of discards and crashes at most. */
static long count_row(struct tsv *t)
{
	sb key = SB_INIT;
	for (int i = 0; i < t->ncells; i++) {
		sb_adds(&key, t->cell[i]);
		sb_addc(&key, '\t');
	}
	long n = ++strmap_get(&t->seen, key.buf, NULL)->v.n;
	sb_release(&key);
	return n;
}

/* Build the record for the current row; NULL with the reason in why.
 * *named_failure: a crash whose description names the failure, whose
 * run_id settle_identity sets once the parent is known. */
static json_t *row_record(struct tsv *t, int *named_failure, sb *why)
{
	const char *decision = NULL, *status;
	*named_failure = 0;
	t->inadmissible = 0;
	if (t->too_many || t->ncells != t->ncols) {
		sb_addf(why, "%d fields, the header has %d", t->ncells, t->ncols);
		return NULL;
	}
	if (!(status = row_status(t, &decision, named_failure, why)))
		return NULL;
	sb failure = SB_INIT;
	status = measured_status(t, status, decision, &failure);
	const char *measured = status;
	status = described_invalid(t, status, decision, &failure);
	status = not_admitted(t, status, &failure);
	t->said_invalid = status != measured;
	json_t *rec = runrec_new(status);
	if (failure.len) {
		json_object_set_new(ingest_sub_object(rec, "failure"), "message",
				    json_string_lossy(failure.buf, NULL));
		if (!strcmp(status, "nan")) /* not finite: the key stays, as null (ingest_number) */
			json_object_set_new(ingest_sub_object(rec, "metrics"), "val_bpb", json_null());
	}
	sb_release(&failure);
	if (t->rows == 0 && !strcmp(status, "ok"))
		decision = "baseline";
	if (decision)
		json_object_set_new(rec, "decision", json_string(decision));
	if (t->parent)
		json_object_set_new(rec, "parent", json_string(t->parent));
	for (int i = 0; i < t->ncells; i++)
		if (!missing(t->cell[i]) && put_cell(t, rec, i, status, why)) {
			json_decref(rec);
			return NULL;
		}
	long n = count_row(t);
	if (n > 1)
		json_object_set_new(rec, "occurrence", json_integer(n));
	const struct ingest_opts *o = t->f->opts;
	if (!isnan(o->started_at) && !json_object_get(rec, "started_at")) {
		char iso[32];
		format_iso_utc(o->started_at + (double)t->rows * o->every, iso, sizeof(iso));
		json_object_set_new(rec, "started_at", json_string(iso));
	}
	return rec;
}

/* A crash the words name keeps the run id of the row as written
 * (ingest_keep_crash_identity), which names the parent: formed again
 * whenever the parent is set. */
static void settle_identity(json_t *rec, int named_failure)
{
	if (!named_failure)
		return;
	json_object_del(rec, "run_id");
	ingest_keep_crash_identity(rec);
}

/* What an edit changed, for the note: "status crash", "status ok
 * (discard) with val_bpb 0.99". */
static void describe_measurement(sb *out, const json_t *rec)
{
	const char *decision = runrec_str(rec, "decision");
	json_t *bpb = json_object_get(json_object_get(rec, "metrics"), "val_bpb");
	sb_addf(out, "status %s", runrec_str(rec, "status") ? runrec_str(rec, "status") : "?");
	if (decision)
		sb_addf(out, " (%s)", decision);
	if (json_is_number(bpb))
		sb_addf(out, " with val_bpb %.6g", json_number_value(bpb));
}

/* "; its description was 'A', now 'B'" for a field that differs. */
static void note_field(sb *out, const char *what, const char *was, const char *now)
{
	if (!strcmp(was ? was : "", now ? now : ""))
		return;
	sb_addf(out, "; its %s was ", what);
	if (was) {
		sb_addc(out, '\'');
		term_escape(out, was, 0);
		sb_addc(out, '\'');
	} else {
		sb_adds(out, "none");
	}
	sb_adds(out, ", now ");
	if (now) {
		sb_addc(out, '\'');
		term_escape(out, now, 0);
		sb_addc(out, '\'');
	} else {
		sb_adds(out, "none");
	}
}

/* The row was stored before with other figures, another status, other
 * words or another parent: said, with what it supersedes, since the
 * stored run changes in place (it keeps its id, and the rows after it
 * stay theirs). Nothing is said when only the form of the id differs (a
 * ledger an older build wrote). */
static void note_edit(struct tsv *t, long no, const json_t *rec, const char *stored_text)
{
	json_t *stored = json_loads(stored_text, 0, NULL);
	sb was = SB_INIT, now = SB_INIT, more = SB_INIT;
	describe_measurement(&was, stored);
	describe_measurement(&now, rec);
	note_field(&more, "description", runrec_str(stored, "description"), runrec_str(rec, "description"));
	note_field(&more, "parent", runrec_str(stored, "parent"), runrec_str(rec, "parent"));
	if (strcmp(was.buf, now.buf)) {
		sb_reset(&more);
		sb_adds(&more, " with ");
		sb_adds(&more, was.buf);
		sb_adds(&more, "; it now says ");
		term_escape(&more, now.buf, 0);
		note_field(&more, "description", runrec_str(stored, "description"),
			   runrec_str(rec, "description"));
		note_field(&more, "parent", runrec_str(stored, "parent"), runrec_str(rec, "parent"));
	}
	if (more.len)
		rl_note("ingest: %s:%ld: this row was stored as run %s%s: the run is updated in place and "
			"keeps its id", t->f->name, no, runrec_str(stored, "run_id"), more.buf);
	sb_release(&was);
	sb_release(&now);
	sb_release(&more);
	json_decref(stored);
}

/* Store rec, row no (ingest_put takes it), and move the parent on.
 * stored: the record of the run it is stored as before, or NULL; pending:
 * the first row, held back (tsv_pending moves the parent). Returns the
 * run_id it is stored as (ingest_put's), or NULL. */
static const char *store_row(struct tsv *t, long no, json_t *rec, const char *line, size_t n,
			     const char *stored, int pending)
{
	const char *decision = runrec_str(rec, "decision");
	int kept = decision && (!strcmp(decision, "keep") || !strcmp(decision, "baseline"));
	/* row_record applied --started-at, so a row without a time now has none */
	int untimed = !json_object_get(rec, "started_at") && !json_object_get(rec, "finished_at");
	if (stored)
		note_edit(t, no, rec, stored);
	long before = t->f->n_new;
	const char *run_id = ingest_put(t->f, no, rec, line, n);
	tsv_ident_claim(t->ident, run_id);
	t->untimed += untimed && t->f->n_new > before; /* rows already stored were said before */
	if (pending)
		return run_id;
	t->rows++;
	if (run_id && (kept || (t->rows == 1 && !t->parent))) {
		free(t->parent);
		t->parent = xstrdup(run_id);
		strmap_clear(&t->seen);
	}
	return run_id;
}

/* rec's parent is now parent (NULL: none), its crash identity formed anew. */
static void set_parent(json_t *rec, const char *parent, int named_failure)
{
	if (parent)
		json_object_set_new(rec, "parent", json_string(parent));
	else
		json_object_del(rec, "parent");
	settle_identity(rec, named_failure);
}

/* The first row read as an edit of a stored first row. That is only so
 * when the next row (rec, built with the stored run as its parent) is
 * stored below it as well: results.tsv files of other sessions may start
 * with the same commit and description (autoresearch's baseline is
 * master's commit), and a first row is matched by nothing else. So the
 * first row is stored now, as that run or as a new one, and rec's parent
 * is what it was stored as. rec NULL: the file ended first (a new run). */
static void tsv_pending(struct tsv *t, json_t *rec, int named_failure)
{
	struct pending *p = &t->pending;
	int confirmed = 0;
	if (rec) {
		json_t *probe = json_deep_copy(rec);
		char *ignored = NULL;
		settle_identity(probe, named_failure);
		confirmed = tsv_ident_match(t->ident, probe, t->line, &ignored) != TSV_NEW;
		free(ignored);
		json_decref(probe);
	}
	if (confirmed) {
		store_row(t, p->no, p->rec, p->line, p->n, p->stored, 1);
	} else {
		json_object_del(p->rec, "run_id");
		settle_identity(p->rec, p->named_failure);
		const char *run_id = store_row(t, p->no, p->rec, p->line, p->n, NULL, 1);
		free(t->parent);
		t->parent = run_id ? xstrdup(run_id) : NULL;
		if (rec)
			set_parent(rec, t->parent, named_failure);
	}
	free(p->stored);
	*p = (struct pending){ 0 };
}

static void put_row(struct tsv *t, long no, const char *line, size_t n)
{
	sb why = SB_INIT;
	t->line = no;
	int named_failure;
	json_t *rec = row_record(t, &named_failure, &why);
	if (!rec) {
		ingest_reject(t->f, no, line, n, "%s", why.buf);
		sb_release(&why);
		return;
	}
	sb_release(&why);
	if (t->pending.rec)
		tsv_pending(t, rec, named_failure);
	settle_identity(rec, named_failure);
	char *stored = NULL;
	enum tsv_match m = tsv_ident_match(t->ident, rec, no, &stored);
	if (m == TSV_EDITED && !json_object_get(rec, "parent")) {
		/* the first row: the next one tells (tsv_pending) */
		t->pending = (struct pending){ rec, stored, named_failure, no, line, n };
		t->rows++;
		free(t->parent);
		t->parent = xstrdup(runrec_str(rec, "run_id"));
		strmap_clear(&t->seen);
		return;
	}
	store_row(t, no, rec, line, n, stored, 0);
	free(stored);
}

/* Rows without a time have no t_finished: no day holds them (report daily),
 * --since/--until never select them, and the frontier puts them after every
 * dated run. Said once per file, at its end, with the way to give times. */
static void warn_untimed(const struct tsv *t)
{
	if (!t->untimed)
		return;
	int one = t->untimed == 1;
	rl_warn("ingest: %s: %ld new run%s no time (%s, and no --started-at): no day, --since or --until "
		"will find %s, and the frontier puts %s after every dated run", t->f->name, t->untimed,
		one ? " has" : "s have",
		t->time_col ? "an empty started_at/finished_at" : "no started_at or finished_at column",
		one ? "it" : "them", one ? "it" : "them");
	rl_hint("give the first row's start with --started-at (e.g. --started-at 2026-03-16T04:00:00Z; rows "
		"then start --every 300 s apart); rows with times are new content, so ingest into a ledger "
		"that does not hold this file without them");
}

int ingest_tsv(struct ingest_file *f)
{
	struct tsv t = { .f = f, .ident = tsv_ident_new(f) };
	struct csv_parser p;
	size_t pos = 0, n;
	const char *line;
	long no = 0;
	int rc = 0;
	if (csv_init(&p, CSV_APPEND_NULL)) {
		rl_error("ingest: %s: cannot start the TSV parser", f->name);
		return -1;
	}
	store_refresh_present(f->store, 1);
	csv_set_delim(&p, '\t');
	csv_set_quote(&p, '\0');
	csv_set_space_func(&p, only_space);
	while (rc == 0 && ingest_next_line(f->text, f->len, &pos, &line, &n)) {
		no++;
		if (n == 0 || split_line(&p, &t, line, n)) {
			if (n)
				ingest_reject(f, no, line, n, "cannot split into tab-separated fields");
			continue;
		}
		if (!t.ncols)
			rc = read_header(&t, no);
		else
			put_row(&t, no, line, n);
	}
	if (rc == 0 && t.pending.rec)
		tsv_pending(&t, NULL, 0);
	if (rc == 0)
		warn_untimed(&t);
	store_refresh_present(f->store, 0);
	json_decref(t.pending.rec);
	free(t.pending.stored);
	tsv_ident_free(t.ident);
	clear_cells(&t);
	for (int i = 0; i < t.ncols; i++)
		free(t.metric[i]);
	free(t.parent);
	strmap_release(&t.seen);
	csv_free(&p);
	return rc;
}
