/* pyconst.h — what `ledger ingest --repo` reads in a Python source file
 * without running it: the top-level constants (`NAME = value` at column 0,
 * value a literal or simple expression) and the def/class that encloses a
 * line. codediff.c compares two versions with it. Pure text: no git, no
 * SQLite, no jansson, no I/O. The rules (what counts as a constant, how a
 * value is written) are in docs/ingest.md, "Changes from the code". */
#ifndef RL_PYCONST_H
#define RL_PYCONST_H
#include <stddef.h>
#include "sb.h"

struct py_line {
	size_t off, len;          /* in the text, without the newline */
	int indent;               /* columns of leading white space (a tab counts 8) */
	unsigned char blank;      /* only white space and perhaps a comment */
	unsigned char cont;       /* starts inside brackets or a string, or after a
				   * backslash: a continuation of the line before */
	unsigned char in_const;   /* part of a constant's assignment (below) */
};

/* One top-level constant. value is written as docs/ingest.md says (numbers
 * evaluated, a lone string unquoted, tuples "(a, b)"); text is the whole
 * assignment with its white space normalised, for the change's span. */
struct py_const {
	char *name, *value, *text;
	int first, last;          /* its lines, 1-based */
};

struct py_source {
	char *text;               /* a copy */
	size_t len;
	struct py_line *line;     /* line[1..nlines]; line[0] unused */
	int nlines;
	struct py_const *c;       /* the constants, in file order */
	int nc;
};

/* Read text. Never fails: what it cannot read is not a constant. */
void py_source_parse(struct py_source *s, const char *text, size_t len);
void py_source_release(struct py_source *s);
/* The constant called name, or NULL. */
const struct py_const *py_source_const(const struct py_source *s, const char *name);
/* The def/class names enclosing line n (1-based), dotted ("GPT.forward");
 * empty at the top level. A def or class line is inside itself. */
void py_scope(const struct py_source *s, int n, sb *out);

/* A value expression as a constant's value text: 0 and the text appended,
 * or -1 when it is no constant (a call, a lambda, a comprehension, an
 * assignment expression, several statements). */
int py_value_text(const char *expr, size_t n, sb *out);

#endif
