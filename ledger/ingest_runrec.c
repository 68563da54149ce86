/* ingest_runrec.c — reader for runrec/1: JSONL, one record a line (blank
 * lines skipped), or one JSON object spread over several lines (a record
 * written pretty-printed). The same framing serves autoresearch@home JSON
 * (ingest_json_texts). Validation and storage happen in ingest_core.c and
 * store.c; this file finds the records and their line numbers, and for large
 * JSONL files prepares them on a second thread (below). */
#include <pthread.h>
#include "ingest.h"
#include "runrec.h"
#include "util.h"

static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* A file whose first non-blank line is not JSON on its own but whose whole
 * text is one object, or whose first line is a lone "{": a single
 * pretty-printed record (broken or not). Returns its first line and sets
 * *start to that line's offset, else 0. */
static long single_object_line(const char *text, size_t len, size_t *start)
{
	size_t pos = 0, n;
	const char *line;
	long no = 0;
	for (;;) {
		*start = pos;
		if (!ingest_next_line(text, len, &pos, &line, &n))
			break;
		no++;
		if (blank(line, n))
			continue;
		while (n && isspace((unsigned char)line[n - 1]))
			n--;
		while (n && isspace((unsigned char)*line))
			line++, n--;
		if (n == 1 && *line == '{')
			return no;
		json_t *v = json_loadb(line, n, 0, NULL);
		if (v) {
			json_decref(v);
			return 0;
		}
		v = json_loadb(text, len, 0, NULL);
		int one = json_is_object(v);
		json_decref(v);
		return one ? no : 0;
	}
	return 0;
}

long ingest_json_error_line(long first, const char *text, size_t n)
{
	json_error_t je;
	if (!memchr(text, '\n', n))
		return first;
	json_t *v = json_loadb(text, n, JSON_REJECT_DUPLICATES, &je);
	json_decref(v);
	return v || je.line < 1 ? first : first + je.line - 1;
}

int ingest_json_texts(struct ingest_file *f,
		      void (*each)(struct ingest_file *f, long line, const char *text, size_t n))
{
	size_t pos = 0, n, start;
	const char *line;
	long no = single_object_line(f->text, f->len, &start);
	if (no) {
		each(f, no, f->text + start, f->len - start);
		return 0;
	}
	while (ingest_next_line(f->text, f->len, &pos, &line, &n)) {
		no++;
		if (!blank(line, n))
			each(f, no, line, n);
	}
	return 0;
}

/* Parse and prepare one line (any thread). */
static void prepare_line(const struct ingest_file *f, struct ingest_item *it)
{
	it->rec = runrec_parse(it->raw, it->rawlen, &it->why);
	if (it->rec) {
		ingest_null_underflows(it, it->rec);
		ingest_prepare(f, it);
	}
}

static void put_text(struct ingest_file *f, long no, const char *text, size_t n)
{
	struct ingest_item it = { .line = no, .raw = text, .rawlen = n, .why = SB_INIT,
				  .underflow = SB_INIT };
	prepare_line(f, &it);
	if (!it.rec && !it.prep.canon && it.why.len)
		it.line = ingest_json_error_line(no, text, n);
	ingest_finish(f, &it);
	ingest_item_release(&it);
}

/* ---- the two-thread path for large JSONL files ------------------------ */

/* Parsing, validating and printing the canonical text take about half of
 * the time of a record, storing it the other half; so a worker thread
 * prepares lines ahead while this thread stores them in file order. The
 * worker touches only its items (jansson values are not shared), and stays
 * at most WINDOW lines ahead so memory stays bounded. It earns its place
 * (issue 11 item 8): a 2*10^5-record import took 1.4-3.0x the wall time on
 * one thread (RL_INGEST_PLAIN=1), same run, on the shared 2-core machine;
 * it gains only while the second core is free (docs/ingest.md). */
#ifndef PIPE_MIN_LINES /* -DPIPE_MIN_LINES=… in a test build to compare paths */
#define PIPE_MIN_LINES 2048
#endif
#define WINDOW 8192
#define PUBLISH 64 /* lines per hand-over */

struct pipe {
	const struct ingest_file *f;
	struct ingest_item *items;
	size_t n;
	size_t prepared, consumed; /* under mu */
	size_t released;           /* items freed by the worker */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/* The worker also frees the items the main thread is done with: freeing
 * memory another thread allocated contends for glibc's arena locks and
 * cost a third more CPU. */
static void *worker(void *arg)
{
	struct pipe *p = arg;
	size_t released = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (i % PUBLISH == 0) {
			pthread_mutex_lock(&p->mu);
			p->prepared = i;
			pthread_cond_broadcast(&p->cv);
			while (i >= p->consumed + WINDOW)
				pthread_cond_wait(&p->cv, &p->mu);
			size_t done = p->consumed;
			pthread_mutex_unlock(&p->mu);
			for (; released < done; released++)
				ingest_item_release(&p->items[released]);
		}
		prepare_line(p->f, &p->items[i]);
	}
	p->released = released; /* read by the main thread after join */
	pthread_mutex_lock(&p->mu);
	p->prepared = p->n;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Wait until item i is prepared; tell the worker what was consumed. */
static size_t wait_prepared(struct pipe *p, size_t i)
{
	pthread_mutex_lock(&p->mu);
	p->consumed = i;
	pthread_cond_broadcast(&p->cv);
	while (p->prepared <= i)
		pthread_cond_wait(&p->cv, &p->mu);
	size_t ready = p->prepared;
	pthread_mutex_unlock(&p->mu);
	return ready;
}

static size_t split_lines(const struct ingest_file *f, struct ingest_item **out)
{
	size_t pos = 0, n, count = 0, cap = 0;
	const char *line;
	long no = 0;
	struct ingest_item *v = NULL;
	while (ingest_next_line(f->text, f->len, &pos, &line, &n)) {
		no++;
		if (blank(line, n))
			continue;
		if (count == cap) {
			cap = cap ? 2 * cap : 4096;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[count++] = (struct ingest_item){ .line = no, .raw = line, .rawlen = n, .why = SB_INIT,
						   .underflow = SB_INIT };
	}
	*out = v;
	return count;
}

static int ingest_piped(struct ingest_file *f, struct ingest_item *items, size_t n)
{
	struct pipe p = { .f = f, .items = items, .n = n };
	pthread_t th;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	json_decref(json_object()); /* jansson's hash seed is set up before two threads use it */
	if (pthread_create(&th, NULL, worker, &p)) {
		for (size_t i = 0; i < n; i++)
			put_text(f, items[i].line, items[i].raw, items[i].rawlen);
	} else {
		size_t ready = 0;
		for (size_t i = 0; i < n; i++) {
			if (i >= ready)
				ready = wait_prepared(&p, i);
			ingest_finish(f, &items[i]);
		}
		pthread_join(th, NULL);
		for (size_t i = p.released; i < n; i++)
			ingest_item_release(&items[i]);
	}
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	return 0;
}

int ingest_runrec(struct ingest_file *f)
{
	struct ingest_item *items;
	size_t start;
	if (single_object_line(f->text, f->len, &start))
		return ingest_json_texts(f, put_text);
	size_t n = split_lines(f, &items);
	if (n < PIPE_MIN_LINES || ingest_plain()) {
		for (size_t i = 0; i < n; i++)
			put_text(f, items[i].line, items[i].raw, items[i].rawlen);
	} else {
		ingest_piped(f, items, n);
	}
	free(items);
	return 0;
}
