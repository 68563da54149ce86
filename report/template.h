/* template.h — the report's small template engine: placeholders and
 * sections over a flat set of named values (docs/report.md, "Templates").
 *
 *   {{name}}               the value of name, inserted as it is
 *   {{#name}} … {{/name}}  the enclosed text when name's value is non-empty
 *   {{^name}} … {{/name}}  the enclosed text when name's value is empty
 *   {{! comment }}         nothing
 *
 * A section or comment tag alone on its line takes the line with it, so a
 * template reads like the markdown it produces. Names are [A-Za-z0-9_.-].
 * Values are markdown that the caller has already escaped: the engine never
 * escapes, never loops and never evaluates anything; it must not know about
 * the ledger and never prints. An unknown name or an unbalanced section is
 * an error that names the template file and line. */
#ifndef RL_TEMPLATE_H
#define RL_TEMPLATE_H
#include "sb.h"

struct tpl_var {
	char *name;
	char *value;
};

struct tpl_vars {
	struct tpl_var *v;
	int n, cap;
};
#define TPL_VARS_INIT { NULL, 0, 0 }

void tpl_vars_release(struct tpl_vars *vars);
/* Set (or replace) name to a copy of value; NULL means "". */
void tpl_set(struct tpl_vars *vars, const char *name, const char *value);
void tpl_setf(struct tpl_vars *vars, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The value of name, or NULL when it is not set. */
const char *tpl_get(const struct tpl_vars *vars, const char *name);

/* Render text (the template called origin in messages) into out.
 * Returns 0, or -1 with "ORIGIN:LINE: problem" appended to err for the
 * caller to print with its command's name. */
int tpl_render(const char *text, const char *origin, const struct tpl_vars *vars, sb *out, sb *err);

#endif
