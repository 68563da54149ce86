/* test_filter.c — ledger/filter.c's dates people type (parse_user_date):
 * every form against a fixed clock, the spans' edges (a month through its
 * last day, December into January, a leap February, a year), instants whose
 * span ends just after them, and what is refused. Expected epoch values are
 * written out (date -u -d … +%s), not computed by the code under test. */
#include <math.h>
#include "filter.h"
#include "util.h"
#include "check.h"

/* 2026-03-17T12:00:00Z */
#define NOW 1773748800.0

static int span(const char *s, double from, double to)
{
	double f = -1, t = -1;
	return !parse_user_date(s, NOW, &f, &t) && f == from && t == to;
}

static int instant(const char *s, double at)
{
	double f = -1, t = -1;
	return !parse_user_date(s, NOW, &f, &t) && f == at && t == nextafter(at, INFINITY);
}

static int refused(const char *s)
{
	double f, t;
	return parse_user_date(s, NOW, &f, &t) != 0;
}

int main(void)
{
	CHECK("date-today", span("today", 1773705600.0, 1773792000.0));
	CHECK("date-yesterday", span("yesterday", 1773619200.0, 1773705600.0));
	CHECK("date-day", span("2026-03-16", 1773619200.0, 1773705600.0));
	CHECK("date-month", span("2026-03", 1772323200.0, 1775001600.0));
	CHECK("date-december", span("2025-12", 1764547200.0, 1767225600.0));
	CHECK("date-leap-february", span("2028-02", 1832976000.0, 1835481600.0));
	CHECK("date-year", span("2026", 1767225600.0, 1798761600.0));
	CHECK("date-iso-time", instant("2026-03-16T04:00:00Z", 1773633600.0));
	CHECK("date-now", instant("now", NOW));
	CHECK("date-3d", instant("-3d", NOW - 3 * 86400));
	CHECK("date-12h", instant("-12h", NOW - 12 * 3600));
	CHECK("date-2w", instant("-2w", NOW - 14 * 86400));
	CHECK("date-30m", instant("-30m", NOW - 30 * 60));
	CHECK("date-0d", instant("-0d", NOW));
	CHECK("refuse-month-digit", refused("2026-3"));
	CHECK("refuse-month-13", refused("2026-13"));
	CHECK("refuse-month-0", refused("2026-00"));
	CHECK("refuse-unit", refused("-3y"));
	CHECK("refuse-no-number", refused("-d"));
	CHECK("refuse-no-minus", refused("3d"));
	CHECK("refuse-fraction", refused("-1.5d"));
	CHECK("refuse-huge", refused("-99999999d"));
	CHECK("refuse-trailing", refused("-3dd"));
	CHECK("refuse-word", refused("tomorrow"));
	CHECK("refuse-case", refused("Today"));
	CHECK("refuse-empty", refused(""));
	CHECK("refuse-year-3", refused("202"));
	return check_status();
}
