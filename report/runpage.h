/* runpage.h — a page per run: DIR/runs/FILE.md, .html and FILE-curve.svg
 * (docs/report.md, "Run pages"). Reports link every run id they show with
 * runpage_cell / runpage_link, which also remembers the run; after the
 * report, runpage_write_all writes the pages of the runs remembered, then
 * of the runs those pages link to (parent, children, repeat group),
 * breadth first, up to RUNPAGE_MAX pages in all (the runs the report
 * itself named always get theirs). A page depends on the ledger and the
 * run only, never on which report wrote it, so reports of several days
 * into one directory agree on every page.
 *
 * One report per process: the remembered set is this module's state. */
#ifndef RL_RUNPAGE_H
#define RL_RUNPAGE_H
#include <sqlite3.h>
#include "sb.h"
#include "table.h"

#define RUNPAGE_MAX 2000

/* FILE for a run id: [A-Za-z0-9_-] and '.' (not first) kept, any other
 * byte as ~XX (hex), so distinct ids give distinct names and none is
 * hidden or climbs out of runs/; past 100 characters, the first 80 and
 * "~" + 16 hex digits of the id's sha256. */
void runpage_file(sb *out, const char *run_id);
/* Remember run_id and append the markdown link target of its page as
 * seen from a report in DIR ("runs/FILE.md"); html.c turns .md links
 * into .html ones in the HTML. */
void runpage_href(sb *out, const char *run_id);
/* Table cell: text (run_id when NULL) linked to run_id's page; the run is
 * remembered when md_table (fmt.c) shows the row (runpage_shown). */
void runpage_cell(table *t, int row, int col, const char *run_id, const char *text);
void runpage_shown(const char *href);
/* Append "[escaped run id](runs/FILE.md)" to md. */
void runpage_link(sb *md, const char *run_id);

/* Write the pages (see above) into dir/runs/. 0, or -1 with a message
 * (a read of the ledger or a write failed). Forgets the remembered runs. */
int runpage_write_all(sqlite3 *db, const char *dir);

#endif
