/* table.c — typed result tables and their five renderings; see table.h. */
#include <jansson.h>
#include "table.h"
#include "utf8.h"
#include "util.h"

int out_format_parse(const char *s, enum out_format *out)
{
	static const struct { const char *name; enum out_format f; } names[] = {
		{ "table", FMT_TABLE }, { "tsv", FMT_TSV }, { "csv", FMT_CSV },
		{ "json", FMT_JSON }, { "md", FMT_MD }, { "markdown", FMT_MD },
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i].name)) {
			*out = names[i].f;
			return 0;
		}
	}
	return -1;
}

void table_init(table *t, int ncols, const char *const *names)
{
	t->ncols = ncols;
	t->cols = xcalloc((size_t)ncols, sizeof(char *));
	for (int i = 0; i < ncols; i++)
		t->cols[i] = xstrdup(names[i]);
	t->nrows = t->cap = 0;
	t->out = NULL;
	t->fmt = FMT_TABLE;
	t->emitted = 0;
	t->cells = NULL;
}

static void cell_clear(cell *c)
{
	free(c->text);
	free(c->href);
	json_decref(c->json);
	memset(c, 0, sizeof(*c));
}

void table_release(table *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		cell_clear(&t->cells[i]);
	for (int i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cols);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

int table_add_row(table *t)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->cells = xrealloc(t->cells, (size_t)t->cap * (size_t)t->ncols * sizeof(cell));
	}
	memset(t->cells + (size_t)t->nrows * t->ncols, 0, (size_t)t->ncols * sizeof(cell));
	return t->nrows++;
}

static cell *at(table *t, int row, int col)
{
	return &t->cells[(size_t)row * t->ncols + col];
}

void table_set_text(table *t, int row, int col, const char *s)
{
	cell *c = at(t, row, col);
	cell_clear(c);
	c->text = s ? xstrdup(s) : NULL;
	c->type = s ? CELL_TEXT : CELL_NULL;
}

void table_set_link(table *t, int row, int col, const char *s, const char *href)
{
	table_set_text(t, row, col, s);
	if (s && href)
		at(t, row, col)->href = xstrdup(href);
}

void table_set_num(table *t, int row, int col, double v, int prec)
{
	cell *c = at(t, row, col);
	cell_clear(c);
	c->type = isnan(v) ? CELL_NULL : CELL_NUM;
	c->num = v;
	c->prec = prec;
}

void table_set_int(table *t, int row, int col, long long v)
{
	cell *c = at(t, row, col);
	cell_clear(c);
	c->type = CELL_INT;
	c->num = (double)v;
}

void table_set_json(table *t, int row, int col, struct json_t *v, const char *text)
{
	cell *c = at(t, row, col);
	cell_clear(c);
	if (!v)
		return;
	c->type = CELL_JSON;
	c->json = v;
	c->text = xstrdup(text ? text : "");
}

void table_set_split(table *t, int row, int col, const char *text, const char *sep)
{
	if (!text) {
		table_set_text(t, row, col, NULL);
		return;
	}
	json_t *list = json_array();
	size_t n = strlen(sep);
	for (const char *p = text; *p;) {
		const char *end = n ? strstr(p, sep) : NULL;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *item = xstrndup(p, len);
		json_array_append_new(list, json_string_lossy(item, NULL));
		free(item);
		p += len + (end ? n : 0);
	}
	table_set_json(t, row, col, list, text);
}

void table_set_list(table *t, int row, int col, const char *const *items, int n, const char *sep)
{
	json_t *list = json_array();
	sb text = SB_INIT;
	for (int i = 0; i < n; i++) {
		json_array_append_new(list, json_string_lossy(items[i], NULL));
		sb_addf(&text, "%s%s", i ? sep : "", items[i]);
	}
	table_set_json(t, row, col, list, text.buf);
	sb_release(&text);
}

void table_cell_text(const cell *c, sb *out)
{
	switch (c->type) {
	case CELL_TEXT: case CELL_JSON: sb_adds(out, c->text); break;
	case CELL_INT: sb_addf(out, "%lld", (long long)c->num); break;
	case CELL_NUM:
		if (c->prec >= 0)
			sb_addf(out, "%.*f", c->prec, c->num);
		else
			sb_addf(out, "%.10g", c->num);
		break;
	default: break;
	}
}

/* One-line text: control characters (tab, newline, …) become spaces so a
 * cell can never break the row structure of table, tsv or md output. */
static void add_flat(sb *out, const char *s)
{
	for (; *s; s++)
		sb_addc(out, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
}

void md_escape(sb *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '|': sb_adds(out, "\\|"); break;
		case '\\': sb_adds(out, "\\\\"); break;
		case '<': sb_adds(out, "&lt;"); break;
		case '>': sb_adds(out, "&gt;"); break;
		case '&': sb_adds(out, "&amp;"); break;
		case '*': case '_': case '`': case '[': case ']': case '#':
			sb_addc(out, '\\');
			sb_addc(out, *s);
			break;
		default:
			sb_addc(out, (unsigned char)*s < 0x20 ? ' ' : *s);
		}
	}
}

static void render_csv_field(sb *line, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		sb_adds(line, s);
		return;
	}
	sb_addc(line, '"');
	for (; *s; s++) {
		if (*s == '"')
			sb_addc(line, '"');
		sb_addc(line, *s);
	}
	sb_addc(line, '"');
}

static int is_numeric(const cell *c)
{
	return c->type == CELL_NUM || c->type == CELL_INT;
}

static json_t *row_json(const table *t, int r)
{
	json_t *o = json_object();
	for (int c = 0; c < t->ncols; c++) {
		const cell *x = &t->cells[(size_t)r * t->ncols + c];
		json_t *v;
		switch (x->type) {
		case CELL_TEXT: v = json_string(x->text); break;
		case CELL_INT: v = json_integer((json_int_t)x->num); break;
		case CELL_NUM: v = isfinite(x->num) ? json_real(x->num) : json_null(); break;
		case CELL_JSON: v = json_incref(x->json); break;
		default: v = json_null();
		}
		if (!v) /* invalid UTF-8 in text: keep the row, escape bytes */
			v = json_stringn_nocheck(x->text, strlen(x->text));
		json_object_set_new(o, t->cols[c], v);
	}
	return o;
}

void table_render_object(const table *t, enum out_format fmt, FILE *out)
{
	if (fmt != FMT_JSON || t->nrows < 1) {
		table_render(t, fmt, out);
		return;
	}
	json_t *o = row_json(t, 0);
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fprintf(out, "%s\n", s ? s : "{}");
	free(s);
	json_decref(o);
}

json_t *table_to_json(const table *t)
{
	json_t *rows = json_array();
	for (int r = 0; r < t->nrows; r++)
		json_array_append_new(rows, row_json(t, r));
	return rows;
}

/* JSON rows [from, to): an array printed as jansson would print it whole
 * with a two-space indent, one element at a time, so it can stream.
 * first_index is the element number of row `from` within the array. */
static void render_json_rows(const table *t, int from, int to, long long first_index, FILE *out)
{
	for (int r = from; r < to; r++) {
		json_t *o = row_json(t, r);
		char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		fputs(first_index + (r - from) ? ",\n  " : "[\n  ", out);
		for (const char *p = s ? s : "{}"; *p; p++) {
			fputc(*p, out);
			if (*p == '\n')
				fputs("  ", out);
		}
		free(s);
		json_decref(o);
	}
}

static void render_json_end(long long rows, FILE *out)
{
	fputs(rows ? "\n]\n" : "[]\n", out);
}

static size_t utf8_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void render_aligned(const table *t, FILE *out)
{
	size_t *w = xcalloc((size_t)t->ncols, sizeof(size_t));
	sb tmp = SB_INIT;
	for (int c = 0; c < t->ncols; c++)
		w[c] = utf8_width(t->cols[c]);
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			sb_reset(&tmp);
			table_cell_text(&t->cells[(size_t)r * t->ncols + c], &tmp);
			size_t cw = utf8_width(tmp.buf);
			if (cw > w[c])
				w[c] = cw > 60 ? 60 : cw;
		}
	}
	sb line = SB_INIT;
	for (int r = -1; r < t->nrows; r++) {
		sb_reset(&line);
		for (int c = 0; c < t->ncols; c++) {
			const cell *x = r < 0 ? NULL : &t->cells[(size_t)r * t->ncols + c];
			sb_reset(&tmp);
			if (x)
				table_cell_text(x, &tmp);
			else
				sb_adds(&tmp, t->cols[c]);
			sb flat = SB_INIT;
			add_flat(&flat, tmp.buf);
			size_t cw = utf8_width(flat.buf);
			if (cw > 60) { /* long text: cut at a character boundary */
				size_t keep = 0, seen = 0;
				while (flat.buf[keep] && seen < 57) {
					keep++;
					while ((flat.buf[keep] & 0xc0) == 0x80)
						keep++;
					seen++;
				}
				flat.len = keep;
				flat.buf[keep] = '\0';
				sb_adds(&flat, "...");
				cw = 60;
			}
			int right = x && is_numeric(x);
			if (c)
				sb_adds(&line, "  ");
			if (right)
				for (size_t i = cw; i < w[c]; i++)
					sb_addc(&line, ' ');
			sb_adds(&line, flat.buf);
			if (!right && c + 1 < t->ncols)
				for (size_t i = cw; i < w[c]; i++)
					sb_addc(&line, ' ');
			sb_release(&flat);
		}
		sb_rtrim(&line);
		fprintf(out, "%s\n", line.buf);
	}
	sb_release(&line);
	sb_release(&tmp);
	free(w);
}

/* One line of tsv, csv or md from the column texts, written to out; md
 * makes the texts with an href (NULL: none) links. */
static void render_line(enum out_format fmt, const char *const *texts, const char *const *hrefs, int n,
			FILE *out)
{
	sb line = SB_INIT;
	if (fmt == FMT_MD)
		sb_adds(&line, "|");
	for (int c = 0; c < n; c++) {
		if (fmt == FMT_TSV) {
			if (c)
				sb_addc(&line, '\t');
			add_flat(&line, texts[c]);
		} else if (fmt == FMT_CSV) {
			if (c)
				sb_addc(&line, ',');
			render_csv_field(&line, texts[c]);
		} else if (hrefs && hrefs[c]) {
			sb_adds(&line, " [");
			md_escape(&line, texts[c]);
			sb_addf(&line, "](%s) |", hrefs[c]);
		} else {
			sb_addc(&line, ' ');
			md_escape(&line, texts[c]);
			sb_adds(&line, " |");
		}
	}
	fprintf(out, "%s%s", line.buf, fmt == FMT_CSV ? "\r\n" : "\n");
	sb_release(&line);
}

/* The header of tsv, csv and md. md aligns a column right when the first
 * row holds a number there, so it needs that row (or none at all). */
static void render_header(const table *t, enum out_format fmt, FILE *out)
{
	render_line(fmt, (const char *const *)t->cols, NULL, t->ncols, out);
	if (fmt == FMT_MD) {
		fputc('|', out);
		for (int c = 0; c < t->ncols; c++)
			fputs(t->nrows && is_numeric(&t->cells[c]) ? " ---: |" : " --- |", out);
		fputc('\n', out);
	}
}

/* Rows [from, to) of tsv, csv or md. */
static void render_text_rows(const table *t, enum out_format fmt, int from, int to, FILE *out)
{
	sb *cells = xcalloc((size_t)t->ncols, sizeof(sb));
	const char **texts = xcalloc((size_t)t->ncols, sizeof(char *));
	const char **hrefs = xcalloc((size_t)t->ncols, sizeof(char *));
	for (int c = 0; c < t->ncols; c++)
		sb_init(&cells[c]);
	for (int r = from; r < to; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const cell *x = &t->cells[(size_t)r * t->ncols + c];
			sb_reset(&cells[c]);
			table_cell_text(x, &cells[c]);
			texts[c] = cells[c].buf;
			hrefs[c] = x->href;
		}
		render_line(fmt, texts, hrefs, t->ncols, out);
	}
	for (int c = 0; c < t->ncols; c++)
		sb_release(&cells[c]);
	free(cells);
	free(texts);
	free(hrefs);
}

void table_render(const table *t, enum out_format fmt, FILE *out)
{
	switch (fmt) {
	case FMT_TABLE:
		render_aligned(t, out);
		break;
	case FMT_JSON:
		render_json_rows(t, 0, t->nrows, 0, out);
		render_json_end(t->nrows, out);
		break;
	default:
		render_header(t, fmt, out);
		render_text_rows(t, fmt, 0, t->nrows, out);
	}
}

void table_stream_begin(table *t, enum out_format fmt, FILE *out)
{
	t->out = out;
	t->fmt = fmt;
	t->emitted = 0;
}

/* Drop the rows held, keeping the column names and the allocation. */
static void drop_rows(table *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		cell_clear(&t->cells[i]);
	t->nrows = 0;
}

void table_stream_flush(table *t)
{
	if (t->fmt == FMT_TABLE || !t->nrows)
		return;
	if (t->fmt == FMT_JSON) {
		render_json_rows(t, 0, t->nrows, t->emitted, t->out);
	} else {
		if (!t->emitted)
			render_header(t, t->fmt, t->out);
		render_text_rows(t, t->fmt, 0, t->nrows, t->out);
	}
	t->emitted += t->nrows;
	drop_rows(t);
}

void table_stream_end(table *t)
{
	if (t->fmt == FMT_TABLE) {
		render_aligned(t, t->out);
		return;
	}
	if (t->fmt == FMT_JSON) {
		table_stream_flush(t);
		render_json_end(t->emitted, t->out);
		return;
	}
	if (!t->emitted && !t->nrows)
		render_header(t, t->fmt, t->out);
	table_stream_flush(t);
}
