/* pyconst.c — top-level constants and enclosing scopes of a Python file;
 * see pyconst.h. Three layers: a line scanner that knows where brackets,
 * strings and backslashes make one logical line of several; a tokenizer
 * for one logical line; and the assignment and value rules on the tokens.
 * It reads source, it does not evaluate it: a value is text, except that a
 * pure number expression (2**19, 1e-3) is written as the number it is, so
 * that it compares with what descriptions say. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include "pyconst.h"
#include "strmap.h"
#include "util.h"

/* ---- tokens ---------------------------------------------------------- */

enum tok_type { T_NAME, T_NUMBER, T_STRING, T_OP };

struct tok {
	enum tok_type type;
	const char *s;
	size_t n;
};

struct toks {
	struct tok *v;
	int n, cap;
};

static void toks_add(struct toks *t, enum tok_type type, const char *s, size_t n)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->v = xrealloc(t->v, (size_t)t->cap * sizeof(*t->v));
	}
	t->v[t->n++] = (struct tok){ type, s, n };
}

static int ident_start(unsigned char c)
{
	return isalpha(c) || c == '_' || c >= 0x80;
}

static int ident_char(unsigned char c)
{
	return ident_start(c) || isdigit(c);
}

/* r, b, f, u, rb, br, fr, rf in any case: a string literal's prefix. */
static int string_prefix(const char *s, size_t n)
{
	if (n > 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("rRbBuUfF", s[i]) || !s[i])
			return 0;
	return 1;
}

/* End of the string literal whose opening quote is at p (prefix already
 * skipped); end of text for an unterminated one. */
static const char *string_end(const char *p, const char *end)
{
	char q = *p;
	int triple = end - p >= 3 && p[1] == q && p[2] == q;
	p += triple ? 3 : 1;
	while (p < end) {
		if (*p == '\\' && p + 1 < end) {
			p += 2;
		} else if (*p == q && (!triple || (end - p >= 3 && p[1] == q && p[2] == q))) {
			return p + (triple ? 3 : 1);
		} else if (*p == '\n' && !triple) {
			return p;
		} else {
			p++;
		}
	}
	return end;
}

static size_t number_len(const char *p, const char *end)
{
	const char *s = p;
	int hex = end - p > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	while (p < end) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c) || c == '_' || c == '.')
			p++;
		else if ((c == '+' || c == '-') && !hex && (p[-1] == 'e' || p[-1] == 'E'))
			p++;
		else
			break;
	}
	return (size_t)(p - s);
}

static const char *const ops3[] = { "**=", "//=", ">>=", "<<=", "..." };
static const char *const ops2[] = { "**", "//", "<<", ">>", "<=", ">=", "==", "!=", ":=", "->",
				    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=" };

static size_t op_len(const char *p, const char *end)
{
	for (size_t i = 0; i < ARRAY_SIZE(ops3); i++)
		if (end - p >= 3 && !memcmp(p, ops3[i], 3))
			return 3;
	for (size_t i = 0; i < ARRAY_SIZE(ops2); i++)
		if (end - p >= 2 && !memcmp(p, ops2[i], 2))
			return 2;
	return 1;
}

/* Tokens of one logical line (comments, white space and backslash-newlines
 * dropped). */
static void tokenize(const char *p, size_t n, struct toks *out)
{
	const char *end = p + n;
	while (p < end) {
		unsigned char c = (unsigned char)*p;
		if (isspace(c) || (c == '\\' && p + 1 < end && (p[1] == '\n' || p[1] == '\r'))) {
			p++;
		} else if (c == '#') {
			while (p < end && *p != '\n')
				p++;
		} else if (ident_start(c)) {
			const char *s = p;
			while (p < end && ident_char((unsigned char)*p))
				p++;
			/* a string prefix: r"", b'', f"", rb"" … */
			if (p < end && (*p == '"' || *p == '\'') && string_prefix(s, (size_t)(p - s))) {
				p = string_end(p, end);
				toks_add(out, T_STRING, s, (size_t)(p - s));
			} else {
				toks_add(out, T_NAME, s, (size_t)(p - s));
			}
		} else if (isdigit(c) || (c == '.' && p + 1 < end && isdigit((unsigned char)p[1]))) {
			size_t l = number_len(p, end);
			toks_add(out, T_NUMBER, p, l);
			p += l;
		} else if (c == '"' || c == '\'') {
			const char *s = p;
			p = string_end(p, end);
			toks_add(out, T_STRING, s, (size_t)(p - s));
		} else {
			size_t l = op_len(p, end);
			toks_add(out, T_OP, p, l);
			p += l;
		}
	}
}

static int tok_is(const struct tok *t, enum tok_type type, const char *s)
{
	return t->type == type && t->n == strlen(s) && !memcmp(t->s, s, t->n);
}

static int is_op(const struct tok *t, const char *s)
{
	return tok_is(t, T_OP, s);
}

static int opens(const struct tok *t)
{
	return is_op(t, "(") || is_op(t, "[") || is_op(t, "{");
}

static int closes(const struct tok *t)
{
	return is_op(t, ")") || is_op(t, "]") || is_op(t, "}");
}

static const char *const keywords[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
	"continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
	"if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
	"return", "try", "while", "with", "yield",
};

static int is_keyword(const struct tok *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (tok_is(t, T_NAME, keywords[i]))
			return 1;
	return 0;
}

/* ---- numbers --------------------------------------------------------- */

struct num {
	int is_int;
	long long i;
	double d;
};

static double num_d(struct num a)
{
	return a.is_int ? (double)a.i : a.d;
}

/* A number token as Python reads it; -1 for what it is not (complex
 * 1j, a malformed literal, an int that does not fit 64 bits). */
static int number_value(const struct tok *t, struct num *out)
{
	char buf[64];
	size_t o = 0;
	for (size_t k = 0; k < t->n; k++)
		if (t->s[k] != '_') {
			if (o + 1 >= sizeof(buf))
				return -1;
			buf[o++] = t->s[k];
		}
	buf[o] = '\0';
	char *e;
	errno = 0;
	int base = 10;
	const char *digits = buf;
	if (buf[0] == '0' && buf[1] && strchr("xXoObB", buf[1])) {
		base = strchr("xX", buf[1]) ? 16 : strchr("oO", buf[1]) ? 8 : 2;
		digits = buf + 2;
	} else if (strpbrk(buf, ".eE")) {
		if (strpbrk(buf, "xXjJ"))
			return -1;
		out->is_int = 0;
		out->d = strtod(buf, &e);
		return *e || errno ? -1 : 0;
	} else if (buf[0] == '0' && strspn(buf, "0") != o) {
		return -1; /* 08: not Python */
	}
	out->is_int = 1;
	out->i = strtoll(digits, &e, base);
	return *e || e == digits || errno ? -1 : 0;
}

/* Recursive descent over tokens [*k, n): + - * / // % ** and parentheses,
 * with Python's int/float rules. -1 for anything else (a name, a string,
 * overflow, division by zero). */
static int eval_sum(const struct tok *t, int n, int *k, struct num *out);

static int eval_atom(const struct tok *t, int n, int *k, struct num *out)
{
	if (*k >= n)
		return -1;
	if (t[*k].type == T_NUMBER)
		return number_value(&t[(*k)++], out);
	if (!is_op(&t[*k], "("))
		return -1;
	++*k;
	if (eval_sum(t, n, k, out) || *k >= n || !is_op(&t[*k], ")"))
		return -1;
	++*k;
	return 0;
}

static int int_pow(long long b, long long e, long long *out)
{
	long long r = 1;
	for (long long i = 0; i < e; i++)
		if (__builtin_mul_overflow(r, b, &r))
			return -1;
	*out = r;
	return 0;
}

static int eval_unary(const struct tok *t, int n, int *k, struct num *out);

/* power := atom ['**' unary]  (right-associative, binds tighter than unary
 * minus on its left: -2**2 is -4) */
static int eval_power(const struct tok *t, int n, int *k, struct num *out)
{
	if (eval_atom(t, n, k, out))
		return -1;
	if (*k >= n || !is_op(&t[*k], "**"))
		return 0;
	++*k;
	struct num e;
	if (eval_unary(t, n, k, &e))
		return -1;
	if (out->is_int && e.is_int && e.i >= 0 && e.i <= 64)
		return int_pow(out->i, e.i, &out->i);
	if (out->is_int && e.is_int && e.i > 64)
		return -1;
	out->d = pow(num_d(*out), num_d(e));
	out->is_int = 0;
	return isfinite(out->d) ? 0 : -1;
}

static int eval_unary(const struct tok *t, int n, int *k, struct num *out)
{
	if (*k < n && (is_op(&t[*k], "-") || is_op(&t[*k], "+"))) {
		int neg = is_op(&t[*k], "-");
		++*k;
		if (eval_unary(t, n, k, out))
			return -1;
		if (neg) {
			if (out->is_int && __builtin_sub_overflow(0LL, out->i, &out->i))
				return -1;
			out->d = -out->d;
		}
		return 0;
	}
	return eval_power(t, n, k, out);
}

static int apply(struct num *a, const struct tok *op, struct num b)
{
	int ints = a->is_int && b.is_int;
	double x = num_d(*a), y = num_d(b);
	if (is_op(op, "/") || is_op(op, "//") || is_op(op, "%"))
		if (y == 0)
			return -1;
	if (is_op(op, "/")) {
		a->is_int = 0;
		a->d = x / y;
	} else if (ints && is_op(op, "+")) {
		return __builtin_add_overflow(a->i, b.i, &a->i) ? -1 : 0;
	} else if (ints && is_op(op, "-")) {
		return __builtin_sub_overflow(a->i, b.i, &a->i) ? -1 : 0;
	} else if (ints && is_op(op, "*")) {
		return __builtin_mul_overflow(a->i, b.i, &a->i) ? -1 : 0;
	} else if (ints) { /* floor division and modulo, Python's way */
		if (b.i == -1 && a->i == LLONG_MIN)
			return -1;
		long long q = a->i / b.i, r = a->i % b.i;
		if (r && ((r < 0) != (b.i < 0))) {
			q--;
			r += b.i;
		}
		a->i = is_op(op, "//") ? q : r;
	} else {
		a->is_int = 0;
		if (is_op(op, "+"))
			a->d = x + y;
		else if (is_op(op, "-"))
			a->d = x - y;
		else if (is_op(op, "*"))
			a->d = x * y;
		else if (is_op(op, "//"))
			a->d = floor(x / y);
		else
			a->d = x - floor(x / y) * y;
	}
	return a->is_int || isfinite(a->d) ? 0 : -1;
}

static int eval_product(const struct tok *t, int n, int *k, struct num *out)
{
	if (eval_unary(t, n, k, out))
		return -1;
	while (*k < n && (is_op(&t[*k], "*") || is_op(&t[*k], "/") || is_op(&t[*k], "//") ||
			  is_op(&t[*k], "%"))) {
		const struct tok *op = &t[(*k)++];
		struct num b;
		if (eval_unary(t, n, k, &b) || apply(out, op, b))
			return -1;
	}
	return 0;
}

static int eval_sum(const struct tok *t, int n, int *k, struct num *out)
{
	if (eval_product(t, n, k, out))
		return -1;
	while (*k < n && (is_op(&t[*k], "+") || is_op(&t[*k], "-"))) {
		const struct tok *op = &t[(*k)++];
		struct num b;
		if (eval_product(t, n, k, &b) || apply(out, op, b))
			return -1;
	}
	return 0;
}

/* Tokens [0, n) as one number written plainly (524288, 0.001): 0, or -1
 * when they are not a number expression. */
static int number_text(const struct tok *t, int n, sb *out)
{
	struct num v = { 0, 0, 0 };
	int k = 0;
	if (!n || eval_sum(t, n, &k, &v) || k != n)
		return -1;
	if (v.is_int) {
		sb_addf(out, "%lld", v.i);
		return 0;
	}
	char buf[40];
	for (int prec = 1; prec <= 17; prec++) { /* shortest text that reads back */
		snprintf(buf, sizeof(buf), "%.*g", prec, v.d);
		if (strtod(buf, NULL) == v.d)
			break;
	}
	sb_adds(out, buf);
	return 0;
}

/* ---- values ---------------------------------------------------------- */

/* Python's spacing, roughly: one space between tokens except inside
 * brackets, before , : . and after ., a unary sign, or a call/subscript
 * bracket. Only a canonical form: two spellings of one value compare
 * equal, the text stays readable. */
static void join_tokens(const struct tok *t, int n, sb *out)
{
	for (int k = 0; k < n; k++) {
		const struct tok *prev = k ? &t[k - 1] : NULL;
		int space = prev != NULL;
		if (prev && (opens(prev) || is_op(prev, ".")))
			space = 0;
		if (closes(&t[k]) || is_op(&t[k], ",") || is_op(&t[k], ":") || is_op(&t[k], "."))
			space = 0;
		if (prev && (is_op(&t[k], "(") || is_op(&t[k], "[")) &&
		    (prev->type == T_NAME || prev->type == T_STRING || closes(prev)) && !is_keyword(prev))
			space = 0;
		/* a sign after an operator, an opening bracket, a comma or the start */
		if (k >= 1 && (is_op(prev, "-") || is_op(prev, "+") || is_op(prev, "~"))) {
			const struct tok *pp = k >= 2 ? &t[k - 2] : NULL;
			if (!pp || (pp->type == T_OP && !closes(pp)) || is_keyword(pp))
				space = 0;
		}
		if (space)
			sb_addc(out, ' ');
		sb_add(out, t[k].s, t[k].n);
	}
}

/* A lone plain string's content, as written between its quotes. */
static int plain_string(const struct tok *t, sb *out)
{
	const char *s = t->s;
	size_t n = t->n;
	if (*s == 'u' || *s == 'U')
		s++, n--;
	if (!n || (*s != '"' && *s != '\''))
		return -1; /* b"", f"", r"": kept as written */
	size_t q = n >= 6 && s[1] == s[0] && s[2] == s[0] ? 3 : 1;
	if (n < 2 * q)
		return -1; /* unterminated */
	sb_add(out, s + q, n - 2 * q);
	return 0;
}

static void element_text(const struct tok *t, int n, sb *out)
{
	if (n == 1 && tok_is(t, T_NAME, "True"))
		sb_adds(out, "true");
	else if (n == 1 && tok_is(t, T_NAME, "False"))
		sb_adds(out, "false");
	else if (n == 1 && tok_is(t, T_NAME, "None"))
		sb_adds(out, "null");
	else if (number_text(t, n, out))
		join_tokens(t, n, out);
}

/* Tokens [0, n) split at commas of bracket depth 0: the element starts in
 * at[], at most max of them; returns the count (1 without commas) and sets
 * *trailing when the last comma ends the list. -1 for unbalanced. */
static int split_commas(const struct tok *t, int n, int *at, int max, int *trailing)
{
	int depth = 0, count = 1;
	at[0] = 0;
	*trailing = 0;
	for (int k = 0; k < n; k++) {
		if (opens(&t[k]))
			depth++;
		else if (closes(&t[k]) && --depth < 0)
			return -1;
		else if (depth == 0 && is_op(&t[k], ",")) {
			if (k == n - 1) {
				*trailing = 1;
				break;
			}
			if (count == max)
				return -1;
			at[count++] = k + 1;
		}
	}
	return depth ? -1 : count;
}

/* (a, b) from a tuple or list's elements; 0, or -1 when t is none. */
static int sequence_text(const struct tok *t, int n, const char *open, const char *close, sb *out)
{
	int at[64], trailing;
	int count = split_commas(t, n, at, (int)ARRAY_SIZE(at), &trailing);
	if (count < 0 || (count == 1 && !trailing && *open == '('))
		return -1;
	sb_adds(out, open);
	for (int e = 0; e < count; e++) {
		int stop = e + 1 < count ? at[e + 1] - 1 : n - trailing;
		if (e)
			sb_adds(out, ", ");
		element_text(t + at[e], stop - at[e], out);
	}
	if (count == 1 && trailing && *open == '(')
		sb_addc(out, ','); /* (1,) is a tuple, (1) is 1 */
	sb_adds(out, close);
	return 0;
}

/* The bracket that matches the opening one at t[0] is t[n-1]. */
static int wraps_all(const struct tok *t, int n)
{
	int depth = 0;
	for (int k = 0; k < n; k++) {
		if (opens(&t[k]))
			depth++;
		else if (closes(&t[k]))
			depth--;
		if (depth == 0)
			return k == n - 1;
	}
	return 0;
}

/* Not a constant: a call (a name, string or closing bracket followed by
 * "("), lambda, a comprehension, yield/await, :=, a further =, or ;. */
static int constant_tokens(const struct tok *t, int n)
{
	for (int k = 0; k < n; k++) {
		if (is_op(&t[k], "(") && k > 0 &&
		    (t[k - 1].type == T_NAME || t[k - 1].type == T_STRING || closes(&t[k - 1])) &&
		    !is_keyword(&t[k - 1]))
			return 0;
		if (tok_is(&t[k], T_NAME, "lambda") || tok_is(&t[k], T_NAME, "for") ||
		    tok_is(&t[k], T_NAME, "yield") || tok_is(&t[k], T_NAME, "await") ||
		    is_op(&t[k], ":=") || is_op(&t[k], "=") || is_op(&t[k], ";"))
			return 0;
	}
	return n > 0;
}

static int value_from_tokens(const struct tok *t, int n, sb *out)
{
	if (!constant_tokens(t, n))
		return -1;
	if (n == 1 && t->type == T_STRING && !plain_string(t, out))
		return 0;
	if (n >= 2 && is_op(&t[0], "(") && wraps_all(t, n) && !sequence_text(t + 1, n - 2, "(", ")", out))
		return 0;
	if (n >= 2 && is_op(&t[0], "[") && wraps_all(t, n) && !sequence_text(t + 1, n - 2, "[", "]", out))
		return 0;
	size_t mark = out->len;
	if (!sequence_text(t, n, "(", ")", out)) /* a bare tuple: 0.8, 0.95 */
		return 0;
	out->len = mark;
	out->buf[mark] = '\0';
	element_text(t, n, out);
	return 0;
}

int py_value_text(const char *expr, size_t n, sb *out)
{
	struct toks t = { NULL, 0, 0 };
	tokenize(expr, n, &t);
	int rc = value_from_tokens(t.v, t.n, out);
	free(t.v);
	return rc;
}

/* ---- lines ----------------------------------------------------------- */

static void add_line(struct py_source *s, int *cap, size_t off, int cont)
{
	if (s->nlines + 2 > *cap) {
		*cap = *cap ? 2 * *cap : 256;
		s->line = xrealloc(s->line, (size_t)*cap * sizeof(*s->line));
	}
	struct py_line *l = &s->line[++s->nlines];
	memset(l, 0, sizeof(*l));
	l->off = off;
	l->cont = (unsigned char)cont;
}

/* Indent and blankness of a line that starts a logical line. */
static void measure_line(const struct py_source *s, struct py_line *l)
{
	const char *p = s->text + l->off, *end = p + l->len;
	int col = 0;
	for (; p < end && (*p == ' ' || *p == '\t' || *p == '\f'); p++)
		col = *p == '\t' ? (col / 8 + 1) * 8 : col + 1;
	l->indent = col;
	l->blank = p == end || *p == '#' || *p == '\r';
}

/* One pass over the text: where lines start, and which continue the one
 * before (open brackets, an open triple-quoted string, a backslash). */
static void scan_lines(struct py_source *s)
{
	int cap = 0, depth = 0, bs = 0;
	char str = 0, triple = 0;
	const char *t = s->text;
	add_line(s, &cap, 0, 0);
	for (size_t i = 0; i < s->len; i++) {
		char c = t[i];
		if (c == '\n') {
			if (str && !triple && !bs)
				str = 0; /* unterminated: Python would refuse the file */
			s->line[s->nlines].len = i - s->line[s->nlines].off;
			add_line(s, &cap, i + 1, depth > 0 || str || bs);
			bs = 0;
			continue;
		}
		bs = 0;
		if (str) {
			if (c == '\\' && i + 1 < s->len) {
				if (t[i + 1] == '\n')
					bs = 1;
				else
					i++;
			} else if (c == str && (!triple || (i + 2 < s->len && t[i + 1] == c && t[i + 2] == c))) {
				i += triple ? 2 : 0;
				str = 0;
			}
		} else if (c == '#') {
			while (i + 1 < s->len && t[i + 1] != '\n')
				i++;
		} else if (c == '"' || c == '\'') {
			triple = i + 2 < s->len && t[i + 1] == c && t[i + 2] == c;
			str = c;
			i += triple ? 2 : 0;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
			depth--;
		} else if (c == '\\' && i + 1 < s->len && t[i + 1] == '\n') {
			bs = 1;
		}
	}
	s->line[s->nlines].len = s->len - s->line[s->nlines].off;
	/* a final newline leaves an empty last "line": not a line */
	if (s->nlines > 1 && s->line[s->nlines].len == 0 && s->len && t[s->len - 1] == '\n')
		s->nlines--;
	for (int k = 1; k <= s->nlines; k++)
		if (!s->line[k].cont)
			measure_line(s, &s->line[k]);
}

/* ---- assignments ----------------------------------------------------- */

/* Names bound at the top level, in order: slot value = index into b[]. */
struct binding {
	char *name;
	char *value;   /* NULL: bound to something that is no constant */
	char *text;
	int first, last, times;
};

struct bindings {
	struct binding *b;
	int n, cap;
	struct strmap by_name;
};

static struct binding *bind(struct bindings *bs, const char *name, size_t n)
{
	char *key = xstrndup(name, n);
	int created;
	struct strmap_slot *slot = strmap_get(&bs->by_name, key, &created);
	if (!created) {
		free(key);
		struct binding *b = &bs->b[slot->v.n];
		b->times++;
		return NULL; /* bound again: no single value */
	}
	slot->v.n = bs->n;
	if (bs->n == bs->cap) {
		bs->cap = bs->cap ? 2 * bs->cap : 32;
		bs->b = xrealloc(bs->b, (size_t)bs->cap * sizeof(*bs->b));
	}
	struct binding *b = &bs->b[bs->n++];
	memset(b, 0, sizeof(*b));
	b->name = key;
	b->times = 1;
	return b;
}

/* Index of the first "=" at bracket depth 0 from k, or -1. */
static int find_assign(const struct tok *t, int n, int k)
{
	int depth = 0;
	for (; k < n; k++) {
		if (opens(&t[k]))
			depth++;
		else if (closes(&t[k]))
			depth--;
		else if (depth == 0 && is_op(&t[k], "="))
			return k;
	}
	return -1;
}

static int augmented(const struct tok *t)
{
	return t->type == T_OP && t->n >= 2 && t->s[t->n - 1] == '=' && !is_op(t, "==") &&
	       !is_op(t, "<=") && !is_op(t, ">=") && !is_op(t, "!=");
}

/* The logical line [first, last] at column 0, as tokens: record what it
 * binds. NAME = v, NAME: T = v, NAME op= v, A, B = …; anything else
 * (calls, def, import, for …) binds nothing here. */
static void read_statement(struct bindings *bs, const struct tok *t, int n, int first, int last)
{
	if (n < 2 || t[0].type != T_NAME || is_keyword(&t[0]))
		return;
	int eq = -1;
	if (is_op(&t[1], "=")) {
		eq = 1;
	} else if (is_op(&t[1], ":")) {
		eq = find_assign(t, n, 2);
		if (eq < 0)
			return; /* an annotation alone binds nothing */
	} else if (augmented(&t[1])) {
		bind(bs, t[0].s, t[0].n);
		return;
	} else if (is_op(&t[1], ",")) {
		int to = find_assign(t, n, 1);
		for (int k = 0; k < to; k += 2)
			if (t[k].type == T_NAME)
				bind(bs, t[k].s, t[k].n);
		return;
	} else {
		return;
	}
	struct binding *b = bind(bs, t[0].s, t[0].n);
	if (!b)
		return;
	b->first = first;
	b->last = last;
	sb v = SB_INIT;
	if (value_from_tokens(t + eq + 1, n - eq - 1, &v) == 0) {
		b->value = sb_detach(&v);
		sb text = SB_INIT;
		join_tokens(t, n, &text);
		b->text = sb_detach(&text);
	}
	sb_release(&v);
}

static void keep_constants(struct py_source *s, struct bindings *bs)
{
	s->c = xcalloc((size_t)bs->n + 1, sizeof(*s->c));
	for (int i = 0; i < bs->n; i++) {
		struct binding *b = &bs->b[i];
		if (b->value && b->times == 1) {
			s->c[s->nc++] = (struct py_const){ b->name, b->value, b->text, b->first, b->last };
			for (int k = b->first; k <= b->last; k++)
				s->line[k].in_const = 1;
		} else {
			free(b->name);
			free(b->value);
			free(b->text);
		}
	}
}

void py_source_parse(struct py_source *s, const char *text, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->text = xmalloc(len + 1);
	memcpy(s->text, text, len);
	s->text[len] = '\0';
	s->len = len;
	scan_lines(s);
	struct bindings bs = { NULL, 0, 0, STRMAP_INIT };
	struct toks t = { NULL, 0, 0 };
	for (int k = 1; k <= s->nlines; k++) {
		if (s->line[k].cont || s->line[k].blank || s->line[k].indent)
			continue;
		int last = k;
		while (last < s->nlines && s->line[last + 1].cont)
			last++;
		size_t end = s->line[last].off + s->line[last].len;
		t.n = 0;
		tokenize(s->text + s->line[k].off, end - s->line[k].off, &t);
		read_statement(&bs, t.v, t.n, k, last);
		k = last;
	}
	free(t.v);
	keep_constants(s, &bs);
	free(bs.b);
	strmap_release(&bs.by_name);
}

void py_source_release(struct py_source *s)
{
	for (int i = 0; i < s->nc; i++) {
		free(s->c[i].name);
		free(s->c[i].value);
		free(s->c[i].text);
	}
	free(s->c);
	free(s->line);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

const struct py_const *py_source_const(const struct py_source *s, const char *name)
{
	for (int i = 0; i < s->nc; i++)
		if (!strcmp(s->c[i].name, name))
			return &s->c[i];
	return NULL;
}

/* ---- scopes ---------------------------------------------------------- */

/* The name a def/class line defines, appended; 0, or -1 for other lines. */
static int defined_name(const struct py_source *s, int k, sb *out)
{
	const struct py_line *l = &s->line[k];
	const char *p = s->text + l->off, *end = p + l->len;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p > 6 && !memcmp(p, "async ", 6))
		for (p += 6; p < end && *p == ' ';)
			p++;
	size_t kw = end - p > 4 && !memcmp(p, "def ", 4) ? 4 : end - p > 6 && !memcmp(p, "class ", 6) ? 6 : 0;
	if (!kw)
		return -1;
	for (p += kw; p < end && *p == ' ';)
		p++;
	const char *name = p;
	while (p < end && ident_char((unsigned char)*p))
		p++;
	if (p == name)
		return -1;
	sb_add(out, name, (size_t)(p - name));
	return 0;
}

static int starts_with_at(const struct py_source *s, int k)
{
	const struct py_line *l = &s->line[k];
	const char *p = s->text + l->off, *end = p + l->len;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p < end && *p == '@';
}

/* A decorator line belongs to the def or class it decorates: that line,
 * else n itself. */
static int decorated(const struct py_source *s, int n)
{
	int k = n;
	while (k <= s->nlines && !s->line[k].blank && !s->line[k].cont && starts_with_at(s, k)) {
		k++;
		while (k <= s->nlines && (s->line[k].cont || s->line[k].blank))
			k++;
	}
	sb name = SB_INIT;
	int def = k != n && k <= s->nlines && s->line[k].indent == s->line[n].indent &&
		  defined_name(s, k, &name) == 0;
	sb_release(&name);
	return def ? k : n;
}

void py_scope(const struct py_source *s, int n, sb *out)
{
	if (n < 1 || n > s->nlines)
		return;
	while (n > 1 && s->line[n].cont)
		n--;
	n = decorated(s, n);
	int cur = s->line[n].indent;
	if (s->line[n].blank) { /* a blank line belongs with the code after it */
		int j = n + 1;
		while (j <= s->nlines && (s->line[j].cont || s->line[j].blank))
			j++;
		cur = j <= s->nlines ? s->line[j].indent : 0;
	}
	/* walk up: each line less indented than the last one kept encloses it */
	size_t start[64], len[64];
	int depth = 0;
	sb names = SB_INIT;
	for (int k = n; k >= 1 && depth < 64; k--) {
		const struct py_line *l = &s->line[k];
		if (l->cont || l->blank || (k < n && l->indent >= cur))
			continue;
		size_t mark = names.len;
		if (defined_name(s, k, &names) == 0) {
			start[depth] = mark;
			len[depth++] = names.len - mark;
		}
		cur = l->indent;
		if (cur == 0)
			break;
	}
	for (int i = depth - 1; i >= 0; i--) {
		if (i != depth - 1)
			sb_addc(out, '.');
		sb_add(out, names.buf + start[i], len[i]);
	}
	sb_release(&names);
}
