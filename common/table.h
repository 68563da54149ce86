/* table.h — one result table, rendered as table|tsv|csv|json|md.
 * Every listing command (ledger query/frontier/repeats/audit, report's
 * tables) builds a table and renders it here, so the formats agree.
 * Cells are typed (text, number, null) so JSON keeps numbers as numbers.
 * Escaping: csv quotes per RFC 4180; tsv replaces tab/newline with a space;
 * md escapes '|', '\\' and HTML-significant characters, and newlines become
 * spaces; json uses jansson. Low-level: no SQLite. */
#ifndef RL_TABLE_H
#define RL_TABLE_H
#include <stdio.h>
#include "sb.h"

enum out_format { FMT_TABLE, FMT_TSV, FMT_CSV, FMT_JSON, FMT_MD };

/* Parse "table", "tsv", … ; returns 0 or -1. */
int out_format_parse(const char *s, enum out_format *out);

/* CELL_JSON: a list or object (a run's changes, a campaign's search
 * space): the JSON value in json output, its text in the other formats. */
enum cell_type { CELL_NULL, CELL_TEXT, CELL_NUM, CELL_INT, CELL_JSON };

struct json_t;

typedef struct cell {
	enum cell_type type;
	char *text;     /* CELL_TEXT, CELL_JSON: owned copy */
	struct json_t *json; /* CELL_JSON: owned reference */
	double num;     /* CELL_NUM / CELL_INT */
	int prec;       /* CELL_NUM: digits after the point in text formats; -1 = %g */
	char *href;     /* CELL_TEXT: md renders [text](href); other formats the text; owned */
} cell;

typedef struct table {
	int ncols;
	char **cols;    /* column names (json keys) */
	int nrows, cap;
	cell *cells;    /* nrows * ncols, row-major */
	/* streaming state (table_stream_*): where rows go, and how many went */
	FILE *out;
	enum out_format fmt;
	long long emitted;
} table;

void table_init(table *t, int ncols, const char *const *names);
void table_release(table *t);
/* Start a new row (all cells null); returns its index. */
int table_add_row(table *t);
void table_set_text(table *t, int row, int col, const char *s); /* NULL -> null */
/* Text that md renders as a link to href (a URL the caller made safe:
 * no spaces, parentheses or control characters); other formats show s. */
void table_set_link(table *t, int row, int col, const char *s, const char *href);
void table_set_num(table *t, int row, int col, double v, int prec); /* NaN -> null */
void table_set_int(table *t, int row, int col, long long v);
/* A JSON value (the cell takes the reference; NULL -> null) shown as text
 * in table, tsv, csv and md. */
void table_set_json(table *t, int row, int col, struct json_t *v, const char *text);
/* A list of strings: a JSON array, or the items joined by sep as text. An
 * empty list is [] in json and empty elsewhere. */
void table_set_list(table *t, int row, int col, const char *const *items, int n, const char *sep);
/* text, a list joined by sep ("relu|gelu", "a,b"): the items as a JSON
 * array ("" gives []), text as it is elsewhere; NULL -> null. */
void table_set_split(table *t, int row, int col, const char *text, const char *sep);
/* Render the cell as text the way the table/tsv formats show it. */
void table_cell_text(const cell *c, sb *out);

void table_render(const table *t, enum out_format fmt, FILE *out);
/* A command that answers one thing (init, reinfer): as json the first row
 * as one object rather than an array of one; the other formats as
 * table_render. */
void table_render_object(const table *t, enum out_format fmt, FILE *out);
/* The rows as json output has them: an array of objects (new reference),
 * for a document that holds a table inside it. */
struct json_t *table_to_json(const table *t);

/* Streaming, for listings too long to hold: table_stream_begin, then
 * table_stream_flush whenever convenient (it writes the rows held so far
 * and drops them), then table_stream_end. The bytes are the same as one
 * table_render of all the rows. FMT_TABLE needs every row for its column
 * widths, so there flush keeps the rows and end renders them. */
void table_stream_begin(table *t, enum out_format fmt, FILE *out);
void table_stream_flush(table *t);
void table_stream_end(table *t);
/* Append markdown-escaped text (for report templates too). */
void md_escape(sb *out, const char *s);

#endif
