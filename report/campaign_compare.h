/* campaign_compare.h — the compare view of a campaign report: its most
 * recent runs side by side (the view of `ledger compare`) and their
 * training curves overlaid in one SVG chart. */
#ifndef RL_CAMPAIGN_COMPARE_H
#define RL_CAMPAIGN_COMPARE_H
#include <sqlite3.h>
#include "sb.h"

/* The limit most recent members of campaign (time order): the compare
 * table as markdown appended to table (nothing when there are none), and,
 * when any of them recorded a curve, DIR/charts/campaign-SLUG-curves.svg
 * written and its image markdown appended to chart. 0, or -1 (reported:
 * the ledger, or the chart file). */
int campaign_compare(sqlite3 *db, const char *campaign, const char *dir, int limit, sb *table_md, sb *chart_md);

#endif
