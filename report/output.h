/* output.h — where a report's files go: the output directory, atomic
 * writes, the template search path and publishing a finished markdown
 * report as .md + .html with the directory's index refreshed.
 * Knows nothing about the ledger; must not decide what a report says. */
#ifndef RL_OUTPUT_H
#define RL_OUTPUT_H
#include "sb.h"

/* mkdir -p. 0 = ok, -1 with a message. */
int out_mkdirs(const char *dir);

/* Write data to dir/name through a temporary file and rename(), so a
 * reader never sees half a report. 0 = ok, -1 with a message. */
int out_write(const char *dir, const char *name, const char *data, size_t len);

/* A file-name-safe form of name: [A-Za-z0-9._-] kept, anything else '-'. */
void out_slug(sb *out, const char *name);

/* Read a template: override when given (--template FILE), else NAME from
 * the first of $RUNLEDGER_TEMPLATES, <program dir>/../templates,
 * <program dir>/../share/runledger/templates that has it. Sets origin to
 * the path for messages. Returns the text (caller frees) or NULL with a
 * message and a hint. */
char *template_read(const char *name, const char *override, sb *origin);

/* Write dir/base.md and dir/base.html (title in <title>), then rebuild
 * dir/index.html. 0 = ok, -1 with a message. */
int report_publish(const char *dir, const char *base, const char *title, const char *md);

/* What a command says it wrote, on stdout: the two paths a line each, or
 * with `report --format json` one object {"markdown", "html", "index"}
 * (report_written_as_json, set once by main). */
void report_written_as_json(int on);
void report_list_written(const char *dir, const char *base);

#endif
