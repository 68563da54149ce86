/* runpage.h — a page per run: DIR/runs/FILE.md, .html and FILE-curve.svg
 * (docs/report.md, "Run pages"). Reports link the run ids they show with
 * runpage_cell / runpage_link, which also remembers the run; after the
 * report, runpage_write_all writes the pages of the runs remembered, then
 * of the runs those pages link to (parent, children, repeat group),
 * breadth first, up to runpage_max() pages in all. A report's table links a
 * run only while its page is among those (a --limit 0 digest of 10,000
 * runs links the first runpage_max(); the rest show as text). A page depends
 * on the ledger and the run only, never on which report wrote it, so
 * reports of several days into one directory agree on every page; it
 * always links its neighbours, whose pages a report far from them may
 * not have written yet.
 *
 * One report per process: the remembered set is this module's state. */
#ifndef RL_RUNPAGE_H
#define RL_RUNPAGE_H
#include <sqlite3.h>
#include "sb.h"
#include "table.h"

/* Pages one report writes at most, unless $RUNLEDGER_RUN_PAGES says
 * otherwise (0: none, and no run links). Each page is two or three files:
 * on the shared 2-core machine creating a file costs ~0.1-1.4 ms, so 250
 * pages keep a 10,800-run digest within its budget (docs/bench.md). */
#define RUNPAGE_MAX 250
long runpage_max(void);

/* FILE for a run id: [A-Za-z0-9_-] and '.' (not first) kept, any other
 * byte as ~XX (hex), so distinct ids give distinct names and none is
 * hidden or climbs out of runs/; past 100 characters, the first 80 and
 * "~" + 16 hex digits of the id's sha256. */
void runpage_file(sb *out, const char *run_id);
/* Remember run_id and append the markdown link target of its page as
 * seen from a report in DIR ("runs/FILE.md"); html.c turns .md links
 * into .html ones in the HTML. */
void runpage_href(sb *out, const char *run_id);
/* Table cell: text (run_id when NULL) linked to run_id's page. The run is
 * remembered when md_table (fmt.c) shows the row: runpage_keep(href) is 1
 * when the page will be written (remembered now if there is room), 0 when
 * not (md_table then shows the text without the link); 1 for a link that
 * runpage_cell did not make. */
void runpage_cell(table *t, int row, int col, const char *run_id, const char *text);
int runpage_keep(const char *href);
/* Append "[escaped run id](runs/FILE.md)" to md (the escaped id alone
 * when the report has no room for another page). */
void runpage_link(sb *md, const char *run_id);

/* Write the pages (see above) into dir/runs/. 0, or -1 with a message
 * (a read of the ledger or a write failed). Forgets the remembered runs. */
int runpage_write_all(sqlite3 *db, const char *dir);

#endif
