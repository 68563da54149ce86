/* template.c — placeholder and section substitution; see template.h.
 * One recursive pass over the text, no intermediate tree: a section whose
 * condition is false is still walked (to find its end and check its names)
 * but emits nothing. */
#include "template.h"
#include "util.h"

void tpl_vars_release(struct tpl_vars *vars)
{
	for (int i = 0; i < vars->n; i++) {
		free(vars->v[i].name);
		free(vars->v[i].value);
	}
	free(vars->v);
	vars->v = NULL;
	vars->n = vars->cap = 0;
}

static struct tpl_var *find(const struct tpl_vars *vars, const char *name)
{
	for (int i = 0; i < vars->n; i++)
		if (!strcmp(vars->v[i].name, name))
			return &vars->v[i];
	return NULL;
}

void tpl_set(struct tpl_vars *vars, const char *name, const char *value)
{
	struct tpl_var *v = find(vars, name);
	if (!v) {
		if (vars->n == vars->cap) {
			vars->cap = vars->cap ? 2 * vars->cap : 32;
			vars->v = xrealloc(vars->v, (size_t)vars->cap * sizeof(*vars->v));
		}
		v = &vars->v[vars->n++];
		v->name = xstrdup(name);
	} else {
		free(v->value);
	}
	v->value = xstrdup(value ? value : "");
}

void tpl_setf(struct tpl_vars *vars, const char *name, const char *fmt, ...)
{
	sb s = SB_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&s, fmt, ap);
	va_end(ap);
	tpl_set(vars, name, s.buf);
	sb_release(&s);
}

const char *tpl_get(const struct tpl_vars *vars, const char *name)
{
	const struct tpl_var *v = find(vars, name);
	return v ? v->value : NULL;
}

struct tpl_state {
	const char *text, *origin;
	const struct tpl_vars *vars;
	sb *err;
};

static int line_of(const struct tpl_state *st, const char *p)
{
	int line = 1;
	for (const char *q = st->text; q < p; q++)
		line += *q == '\n';
	return line;
}

static int fail(const struct tpl_state *st, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(const struct tpl_state *st, const char *at, const char *fmt, ...)
{
	va_list ap;
	sb_addf(st->err, "%s:%d: ", st->origin, line_of(st, at));
	va_start(ap, fmt);
	sb_vaddf(st->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* A tag is standalone when only blanks share its line: then the whole line
 * (indentation and newline included) disappears with it. */
static const char *line_start(const struct tpl_state *st, const char *p)
{
	while (p > st->text && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	return p == st->text || p[-1] == '\n' ? p : NULL;
}

static const char *line_end(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (*p == '\n')
		return p + 1;
	return *p ? NULL : p;
}

/* Copy the tag's name (between the sigil and "}}", blanks trimmed). */
static int tag_name(const char *from, const char *to, char *name, size_t n)
{
	while (from < to && *from == ' ')
		from++;
	while (to > from && to[-1] == ' ')
		to--;
	size_t len = (size_t)(to - from);
	if (!len || len >= n)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)from[i]) && !strchr("_.-", from[i]))
			return -1;
	memcpy(name, from, len);
	name[len] = '\0';
	return 0;
}

/* Render from *pp up to the end of the text (section NULL) or up to the
 * {{/section}} that closes the section opened at opener. */
static int render_until(const struct tpl_state *st, const char **pp, const char *section,
			const char *opener, int emit, sb *out)
{
	const char *p = *pp;
	for (;;) {
		const char *open = strstr(p, "{{");
		if (!open) {
			if (section)
				return fail(st, opener, "section '%s' is never closed", section);
			if (emit)
				sb_adds(out, p);
			*pp = p + strlen(p);
			return 0;
		}
		const char *close = strstr(open + 2, "}}");
		if (!close)
			return fail(st, open, "'{{' without a closing '}}'");
		char kind = open[2] && strchr("#^/!", open[2]) ? open[2] : 0;
		const char *lit_end = open, *after = close + 2;
		const char *start = kind ? line_start(st, open) : NULL;
		const char *end = start ? line_end(close + 2) : NULL;
		if (end) { /* standalone: drop the indentation and the newline too */
			lit_end = start;
			after = end;
		}
		if (emit)
			sb_add(out, p, (size_t)(lit_end - p));
		p = after;
		if (kind == '!')
			continue;
		char name[64];
		if (tag_name(open + 2 + !!kind, close, name, sizeof(name)))
			return fail(st, open, "bad placeholder name '%.*s'",
				    (int)(close + 2 - open > 60 ? 60 : close + 2 - open), open);
		if (kind == '/') {
			if (!section || strcmp(name, section))
				return fail(st, open, "'{{/%s}}' closes no open section", name);
			*pp = p;
			return 0;
		}
		const char *value = tpl_get(st->vars, name);
		if (!value)
			return fail(st, open, "unknown placeholder '%s'", name);
		if (!kind) {
			if (emit)
				sb_adds(out, value);
			continue;
		}
		int show = kind == '#' ? *value != '\0' : *value == '\0';
		if (render_until(st, &p, name, open, emit && show, out))
			return -1;
	}
}

int tpl_render(const char *text, const char *origin, const struct tpl_vars *vars, sb *out, sb *err)
{
	struct tpl_state st = { text, origin, vars, err };
	const char *p = text;
	return render_until(&st, &p, NULL, text, 1, out);
}
