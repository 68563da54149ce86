/* fmt.h — how numbers, times and run text look in a report, in one place so
 * every section agrees: metric values with fmt_decimals() decimals (4 unless
 * --decimals), deltas signed, times UTC, missing values as "—". Everything
 * appended here is markdown-safe: text from run records goes through
 * md_escape (common/table.h). */
#ifndef RL_FMT_H
#define RL_FMT_H
#include "sb.h"
#include "table.h"

#define FMT_NONE "—"

/* Decimals of metric values and their changes (--decimals; default 4). One
 * setting per process: a report is rendered at one precision. */
void fmt_set_decimals(int n);
int fmt_decimals(void);
void fmt_val(sb *out, double v);            /* 0.9264, or — for NaN */
void fmt_delta(sb *out, double d);          /* +0.0012 / -0.0210 / 0.0000, or — */
void fmt_pct(sb *out, double num, double den); /* 8%; — when den is 0 */
void fmt_hm(sb *out, double t);             /* 04:48 (UTC), or — */
void fmt_date(sb *out, double t);           /* 2026-03-16 (UTC) */
void fmt_datetime(sb *out, double t);       /* 2026-03-16 04:48 */
/* Text from a run record, escaped, cut to max characters (0 = no cut). */
void fmt_text(sb *out, const char *s, int max);

/* Append t as a GitHub-flavoured markdown table, without a final newline
 * (the template's line supplies it). Cells linked to a run's page
 * (runpage_cell) stay links while the report writes that page (runpage.h);
 * others lose the link. */
void md_table(sb *out, table *t);
/* Same, keeping at most limit rows (0 = all) and saying how many were left
 * out in one line below the table. */
void md_table_limited(sb *out, table *t, int limit);

/* Parse "YYYY-MM-DD" to the epoch seconds of its UTC midnight; 0 = ok. */
int parse_day(const char *s, double *out);

#endif
