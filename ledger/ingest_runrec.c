/* ingest_runrec.c — reader for runrec/1: JSONL, one record a line (blank
 * lines skipped), or one JSON object spread over several lines (a record
 * written pretty-printed). The same framing serves autoresearch@home JSON
 * (ingest_json_texts). Validation and storage happen in ingest_put(); this
 * file only finds the records and their line numbers. */
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
 * text is one object: a single pretty-printed record. Returns its line. */
static long single_object_line(const char *text, size_t len)
{
	size_t pos = 0, n;
	const char *line;
	long no = 0;
	while (ingest_next_line(text, len, &pos, &line, &n)) {
		no++;
		if (blank(line, n))
			continue;
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

int ingest_json_texts(struct ingest_file *f,
		      void (*each)(struct ingest_file *f, long line, const char *text, size_t n))
{
	size_t pos = 0, n;
	const char *line;
	long no = single_object_line(f->text, f->len);
	if (no) {
		each(f, no, f->text, f->len);
		return 0;
	}
	while (ingest_next_line(f->text, f->len, &pos, &line, &n)) {
		no++;
		if (!blank(line, n))
			each(f, no, line, n);
	}
	return 0;
}

static void put_text(struct ingest_file *f, long no, const char *text, size_t n)
{
	sb err = SB_INIT;
	json_t *rec = runrec_parse(text, n, &err);
	if (rec)
		ingest_put(f, no, rec, text, n);
	else
		ingest_reject(f, no, text, n, "%s", err.buf);
	sb_release(&err);
}

int ingest_runrec(struct ingest_file *f)
{
	return ingest_json_texts(f, put_text);
}
