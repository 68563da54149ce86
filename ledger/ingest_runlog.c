/* ingest_runlog.c — reader for an autoresearch run.log: one run per file.
 *
 *   '---' then "key: value" lines  -> status ok; metrics (val_bpb,
 *       training_seconds, total_seconds, peak_vram_mb, mfu_percent,
 *       total_tokens_M, num_steps, num_params_M, any other number);
 *       depth -> config model.depth
 *   no summary, a Python traceback or a line starting FAIL -> status crash,
 *       or oom when the exception says the GPU ran out of memory;
 *       failure.message (the exception line, or the FAIL line),
 *       failure.log_tail (last 20 lines), failure.phase guessed
 *   no summary, step lines only (killed mid-run) -> status killed
 * Step lines come as one '\r'-separated stream ("step 00953 (100.0%) | loss:
 * …"); the last step number becomes metrics.num_steps when the summary has
 * none, and the step lines become the record's "curve" (common/curve.h:
 * step as printed, loss, lrm, tok/sec; tokens unknown), down-sampled to at
 * most 512 points. The log tail keeps what a terminal would show: the last
 * '\r'-segment of each line. This file converts only; ingest_put() stores. */
#include <limits.h>
#include "curve.h"
#include "ingest.h"
#include "runrec.h"
#include "utf8.h"
#include "util.h"

#define TAIL_LINES 20

struct runlog {
	struct ingest_file *in; /* for warnings */
	long last_step;        /* -1: no step line seen */
	long block_line;       /* line of '---', 0 if none */
	long fail_line;        /* line of the traceback / FAIL, 0 if none */
	int in_block, traceback;
	sb fail_msg;           /* FAIL line, or the last line after a traceback */
	sb trace;              /* traceback text, to guess the phase */
	json_t *metrics, *config;
	long bad_line;         /* a summary value that is not a number */
	sb bad;
	struct curve curve;    /* the step lines, down-sampled */
};

/* ---- one '\r'- or '\n'-separated segment ------------------------------ */

static void trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s))
		(*s)++, (*n)--;
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* The value of "| key: value" in a step line as a number (thousands
 * separators and a unit such as "ms" or "%" dropped), NAN when absent. */
static double step_field(const char *s, size_t n, const char *key)
{
	size_t kn = strlen(key);
	for (const char *p = s; p + kn + 2 <= s + n; p++) {
		if (*p != '|')
			continue;
		const char *k = p + 1;
		while (k < s + n && *k == ' ')
			k++;
		if ((size_t)(s + n - k) <= kn || memcmp(k, key, kn) || k[kn] != ':')
			continue;
		char num[64];
		size_t j = 0;
		for (const char *v = k + kn + 1; v < s + n && *v != '|' && j + 1 < sizeof(num); v++)
			if (isdigit((unsigned char)*v) || strchr(".-+eE", *v))
				num[j++] = *v;
			else if (*v != ',' && *v != ' ')
				break; /* a unit: the number ends */
		num[j] = '\0';
		double d;
		return j && !parse_double(num, &d) && isfinite(d) ? d : NAN;
	}
	return NAN;
}

/* "step 00953 (100.0%) | …" -> 953. A step number past LONG_MAX is no
 * step a run took: the line is ignored with a warning (once a file), the
 * rest of the log read as usual. */
static void take_step(struct runlog *r, long no, const char *s, size_t n)
{
	if (n < 6 || memcmp(s, "step ", 5) || !isdigit((unsigned char)s[5]))
		return;
	long v = 0;
	size_t i;
	for (i = 5; i < n && isdigit((unsigned char)s[i]); i++) {
		int d = s[i] - '0';
		if (v > (LONG_MAX - d) / 10) {
			while (i < n && isdigit((unsigned char)s[i]))
				i++;
			if (ingest_warn_once(r->in, "step:overflow"))
				rl_warn("ingest: %s:%ld: step number %.*s%s is too large (the most is %ld); "
					"that step line is ignored", r->in->name, no,
					(int)(i - 5 > 40 ? 40 : i - 5), s + 5, i - 5 > 40 ? "..." : "",
					LONG_MAX);
			return;
		}
		v = v * 10 + d;
	}
	r->last_step = v;
	curve_add(&r->curve, &(struct curve_point){
		.step = (double)v, .tokens = NAN, .train_loss = step_field(s, n, "loss"),
		.lr_mult = step_field(s, n, "lrm"), .tok_per_s = step_field(s, n, "tok/sec") });
}

/* "val_bpb:          0.997900" inside the summary block */
static void take_summary(struct runlog *r, long no, const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);
	if (!colon)
		return;
	char *raw_key = xstrndup(s, (size_t)(colon - s));
	char *key = utf8_lossy_strdup(raw_key, NULL); /* a JSON key must be UTF-8: repair, not drop */
	free(raw_key);
	const char *v = colon + 1;
	size_t vn = n - (size_t)(v - s);
	trim(&v, &vn);
	char *val = xstrndup(v, vn);
	double d;
	long l;
	if (parse_double(val, &d)) {
		if (!r->bad_line) {
			r->bad_line = no;
			sb_addf(&r->bad, "%s '%s' is not a number", key, val);
		}
	} else if (!strcmp(key, "depth")) {
		json_object_set_new(r->config, "model.depth",
				    parse_long(val, &l) ? ingest_number(d) : json_integer(l));
	} else {
		json_object_set_new(r->metrics, key, parse_long(val, &l) ? ingest_number(d) : json_integer(l));
	}
	free(key);
	free(val);
}

static void take_segment(struct runlog *r, long no, const char *s, size_t n)
{
	trim(&s, &n);
	if (!n)
		return;
	if (n == 3 && !memcmp(s, "---", 3)) {
		r->in_block = 1;
		r->block_line = no;
		return;
	}
	if (r->in_block) {
		take_summary(r, no, s, n);
		return;
	}
	take_step(r, no, s, n);
	if (n >= 34 && !memcmp(s, "Traceback (most recent call last)", 33)) {
		r->traceback = 1;
		r->fail_line = no;
		sb_reset(&r->trace);
	} else if (r->traceback) {
		sb_add(&r->trace, s, n);
		sb_addc(&r->trace, '\n');
		sb_reset(&r->fail_msg); /* the exception line is the last one */
		sb_add(&r->fail_msg, s, n);
	} else if (n >= 4 && !memcmp(s, "FAIL", 4)) {
		r->fail_line = no;
		sb_reset(&r->fail_msg);
		sb_add(&r->fail_msg, s, n);
	}
}

/* ---- the whole log ---------------------------------------------------- */

static void scan(struct runlog *r, const char *text, size_t len)
{
	size_t pos = 0, n;
	const char *line;
	long no = 0;
	while (ingest_next_line(text, len, &pos, &line, &n)) {
		no++;
		const char *seg = line;
		for (const char *p = line; p <= line + n; p++)
			if (p == line + n || *p == '\r') {
				take_segment(r, no, seg, (size_t)(p - seg));
				seg = p + 1;
			}
	}
}

/* The last TAIL_LINES lines as a terminal shows them. */
static char *log_tail(const char *text, size_t len)
{
	size_t end = len, start;
	int lines = 0;
	while (end && isspace((unsigned char)text[end - 1]))
		end--;
	for (start = end; start > 0; start--)
		if (text[start - 1] == '\n' && ++lines == TAIL_LINES)
			break;
	sb out = SB_INIT;
	size_t pos = start, n;
	const char *line;
	while (ingest_next_line(text, end, &pos, &line, &n)) {
		const char *cr = line + n;
		while (cr > line && cr[-1] != '\r')
			cr--;
		if (out.len)
			sb_addc(&out, '\n');
		sb_add(&out, cr, (size_t)(line + n - cr));
		sb_rtrim(&out);
	}
	return sb_detach(&out);
}

static int mentions(const sb *s, const char *word)
{
	return strstr(s->buf, word) != NULL;
}

/* Where a run failed, as far as the log shows: the frames and calls of the
 * traceback ("loss.backward()", "in evaluate_bpb"; an import line naming
 * evaluate_bpb does not count), else whether training had started. */
static const char *guess_phase(const struct runlog *r)
{
	if (mentions(&r->trace, "backward(") || mentions(&r->trace, ", in backward"))
		return "backward";
	if (mentions(&r->trace, "optimizer.step(") || mentions(&r->trace, ", in step"))
		return "optimizer";
	if (mentions(&r->trace, "evaluate_bpb(") || mentions(&r->trace, ", in evaluate"))
		return "eval";
	if (r->last_step >= 0 || mentions(&r->trace, ", in forward"))
		return "forward";
	return "startup";
}

/* Log text as a JSON string: a log may hold bytes that are not UTF-8 (a
 * progress bar, a binary dump); they become U+FFFD, said once per file. */
static json_t *log_text(struct ingest_file *f, const char *s)
{
	int repaired;
	json_t *v = json_string_lossy(s, &repaired);
	if (repaired && ingest_warn_once(f, "utf8:log"))
		rl_warn("ingest: %s: the log is not valid UTF-8; each invalid byte of the failure "
			"message and log tail is stored as U+FFFD", f->name);
	return v;
}

static json_t *failure(struct ingest_file *in, const struct runlog *r, const char *text, size_t len)
{
	json_t *f = json_object();
	char *tail = log_tail(text, len);
	sb msg = SB_INIT;
	if (r->fail_msg.len)
		sb_adds(&msg, r->fail_msg.buf);
	else
		sb_addf(&msg, "no summary: the log stops after step %ld", r->last_step);
	json_object_set_new(f, "phase", json_string(guess_phase(r)));
	json_object_set_new(f, "message", log_text(in, msg.buf));
	json_object_set_new(f, "log_tail", log_text(in, tail));
	free(tail);
	sb_release(&msg);
	return f;
}

/* Did the run die for want of GPU memory? The exception line is what
 * PyTorch, CUDA and cuBLAS say then; an agent must see oom, not crash, as
 * the cure differs (smaller batch, not a bug fix). */
static int out_of_memory(const char *exception)
{
	static const char *const says[] = {
		"OutOfMemoryError",          /* torch.OutOfMemoryError, torch.cuda.… */
		"CUDA out of memory",
		"CUDA error: out of memory",
		"CUBLAS_STATUS_ALLOC_FAILED",
		"HIP out of memory",
	};
	for (size_t i = 0; i < sizeof says / sizeof *says; i++)
		if (strstr(exception, says[i]))
			return 1;
	return 0;
}

/* Status, line and record from what the scan found; NULL when the file is
 * not a run log at all. */
static json_t *build(struct ingest_file *in, struct runlog *r, long *line)
{
	const char *status;
	if (r->block_line && json_object_size(r->metrics)) {
		status = "ok";
		*line = r->block_line;
	} else if (r->fail_line) {
		status = out_of_memory(r->fail_msg.buf) ? "oom" : "crash";
		*line = r->fail_line;
	} else if (r->last_step >= 0) {
		status = "killed";
		*line = 1;
	} else {
		return NULL;
	}
	json_t *rec = runrec_new(status);
	if (r->last_step >= 0 && !json_object_get(r->metrics, "num_steps"))
		json_object_set_new(r->metrics, "num_steps", json_integer(r->last_step));
	if (json_object_size(r->metrics))
		json_object_set(rec, "metrics", r->metrics);
	if (json_object_size(r->config))
		json_object_set(rec, "config", r->config);
	if (r->curve.offered) {
		/* the summary's val_bpb is the evaluation after the last step line */
		double bpb = runrec_num(r->metrics, "val_bpb");
		if (isfinite(bpb))
			curve_add_eval(&r->curve, (double)r->last_step, bpb);
		json_object_set_new(rec, "curve", curve_to_json(&r->curve));
	}
	if (strcmp(status, "ok"))
		json_object_set_new(rec, "failure", failure(in, r, in->text, in->len));
	return rec;
}

int ingest_runlog(struct ingest_file *f)
{
	struct runlog r = { .in = f, .last_step = -1, .fail_msg = SB_INIT, .trace = SB_INIT, .bad = SB_INIT };
	r.metrics = json_object();
	r.config = json_object();
	scan(&r, f->text, f->len);
	long line = 1;
	json_t *rec = r.bad_line ? NULL : build(f, &r, &line);
	if (r.bad_line)
		ingest_reject(f, r.bad_line, f->text, f->len, "%s", r.bad.buf);
	else if (!rec)
		ingest_reject(f, 1, f->text, f->len,
			      "no '---' summary, step lines, traceback or FAIL line: not a run log");
	else
		ingest_put(f, line, rec, f->text, f->len);
	json_decref(r.metrics);
	json_decref(r.config);
	sb_release(&r.fail_msg);
	sb_release(&r.trace);
	sb_release(&r.bad);
	return 0;
}
