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
 * prepares lines ahead while this thread stores them in file order. It
 * earns its place (issue 11 item 8): a 2*10^5-record import took 1.4-3.0x
 * the wall time on one thread (RL_INGEST_PLAIN=1), same run, on the shared
 * 2-core machine; it gains only while the second core is free
 * (docs/ingest.md).
 *
 * The lines are prepared in chunks: the worker takes the next chunk that
 * nobody has taken, and so does this thread whenever the next line to
 * store is not ready yet. So when preparing is the larger half (a day's
 * ingest into a ledger of 10^5 runs: the worker ~0.75 s, storing ~0.5 s),
 * both threads prepare; when storing is (a large import), this thread only
 * stores. The worker stays at most WINDOW lines ahead so memory stays
 * bounded. Each thread frees what it prepared, once stored: freeing memory
 * another thread allocated contends for glibc's arena locks and cost a
 * third more CPU. */
/* -DPIPE_…=… in a test build: the fuzz build (fuzz/fuzz.mk) takes files
 * of 2 lines on, in chunks of 2 within a window of 6, so that a small
 * input goes through every hand-over */
#ifndef PIPE_MIN_LINES
#define PIPE_MIN_LINES 2048
#endif
#ifndef PIPE_WINDOW
#define PIPE_WINDOW 8192
#endif
#ifndef PIPE_CHUNK
#define PIPE_CHUNK 64 /* lines taken and handed over at once */
#endif
#define WINDOW PIPE_WINDOW
#define CHUNK PIPE_CHUNK

struct pipe {
	const struct ingest_file *f;
	struct ingest_item *items;
	size_t n, chunks;
	/* under mu: */
	size_t next;              /* the first chunk nobody has taken */
	size_t consumed;          /* lines stored */
	unsigned char *ready;     /* per chunk: prepared */
	unsigned char *by_main;   /* per chunk: prepared by this thread */
	size_t released;          /* lines freed by the worker (read after join) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void prepare_chunk(struct pipe *p, size_t c)
{
	size_t end = (c + 1) * CHUNK < p->n ? (c + 1) * CHUNK : p->n;
	for (size_t i = c * CHUNK; i < end; i++)
		prepare_line(p->f, &p->items[i]);
}

/* Frees the lines before done that the worker prepared (by_main was set
 * under mu before the worker read done). */
static size_t release_own(struct pipe *p, size_t from, size_t done)
{
	for (size_t i = from; i < done; i++)
		if (!p->by_main[i / CHUNK])
			ingest_item_release(&p->items[i]);
	return done > from ? done : from;
}

static void *worker(void *arg)
{
	struct pipe *p = arg;
	size_t released = 0;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->next < p->chunks && p->next * CHUNK >= p->consumed + WINDOW)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->next == p->chunks)
			break;
		size_t c = p->next++, done = p->consumed;
		pthread_mutex_unlock(&p->mu);
		released = release_own(p, released, done);
		prepare_chunk(p, c);
		pthread_mutex_lock(&p->mu);
		p->ready[c] = 1;
		pthread_cond_broadcast(&p->cv);
	}
	p->released = released;
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Wait until chunk c is prepared, preparing chunks nobody has taken
 * meanwhile; tell the worker what was consumed. */
static void wait_chunk(struct pipe *p, size_t c)
{
	pthread_mutex_lock(&p->mu);
	p->consumed = c * CHUNK;
	pthread_cond_broadcast(&p->cv);
	while (!p->ready[c]) {
		if (p->next < p->chunks && p->next * CHUNK < p->consumed + WINDOW) {
			size_t k = p->next++;
			p->by_main[k] = 1;
			pthread_mutex_unlock(&p->mu);
			prepare_chunk(p, k);
			pthread_mutex_lock(&p->mu);
			p->ready[k] = 1;
		} else {
			pthread_cond_wait(&p->cv, &p->mu);
		}
	}
	pthread_mutex_unlock(&p->mu);
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
	struct pipe p = { .f = f, .items = items, .n = n, .chunks = (n + CHUNK - 1) / CHUNK };
	pthread_t th;
	p.ready = xcalloc(p.chunks, 1);
	p.by_main = xcalloc(p.chunks, 1);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	json_decref(json_object()); /* jansson's hash seed is set up before two threads use it */
	if (pthread_create(&th, NULL, worker, &p)) {
		for (size_t i = 0; i < n; i++)
			put_text(f, items[i].line, items[i].raw, items[i].rawlen);
	} else {
		for (size_t i = 0; i < n; i++) {
			size_t c = i / CHUNK;
			if (i % CHUNK == 0)
				wait_chunk(&p, c);
			ingest_finish(f, &items[i]);
			if (p.by_main[c] && (i % CHUNK == CHUNK - 1 || i == n - 1))
				for (size_t j = c * CHUNK; j <= i; j++)
					ingest_item_release(&items[j]);
		}
		pthread_join(th, NULL);
		release_own(&p, p.released, n);
	}
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	free(p.ready);
	free(p.by_main);
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
