/* fmt.c — number, time and text formatting for reports; see fmt.h. */
#include <time.h>
#include "fmt.h"
#include "runpage.h"
#include "util.h"

static int decimals = 4;

void fmt_set_decimals(int n)
{
	decimals = n;
}

int fmt_decimals(void)
{
	return decimals;
}

void fmt_val(sb *out, double v)
{
	if (isnan(v))
		sb_adds(out, FMT_NONE);
	else
		sb_addf(out, "%.*f", decimals, v);
}

void fmt_delta(sb *out, double d)
{
	if (isnan(d))
		sb_adds(out, FMT_NONE);
	else if (d == 0)
		sb_addf(out, "%.*f", decimals, 0.0);
	else /* a change below the precision shows as -0.0000: it did move */
		sb_addf(out, "%+.*f", decimals, d);
}

void fmt_pct(sb *out, double num, double den)
{
	if (den == 0 || isnan(num) || isnan(den))
		sb_adds(out, FMT_NONE);
	else
		sb_addf(out, "%.0f%%", 100.0 * num / den);
}

static void fmt_time(sb *out, double t, const char *how)
{
	if (isnan(t)) {
		sb_adds(out, FMT_NONE);
		return;
	}
	time_t tt = (time_t)floor(t);
	struct tm tm;
	char buf[32];
	gmtime_r(&tt, &tm);
	strftime(buf, sizeof(buf), how, &tm);
	sb_adds(out, buf);
}

void fmt_hm(sb *out, double t) { fmt_time(out, t, "%H:%M"); }
void fmt_date(sb *out, double t) { fmt_time(out, t, "%Y-%m-%d"); }
void fmt_datetime(sb *out, double t) { fmt_time(out, t, "%Y-%m-%d %H:%M"); }

void fmt_text(sb *out, const char *s, int max)
{
	if (!s)
		return;
	sb cut = SB_INIT;
	int chars = 0;
	for (const char *p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && max && ++chars > max) {
			sb_adds(&cut, "…");
			break;
		}
		sb_addc(&cut, *p);
	}
	md_escape(out, cut.buf);
	sb_release(&cut);
}

void md_table(sb *out, table *t)
{
	/* a run linked from a row shown gets its page, while there is room
	 * (runpage.h); past that the run id shows without a link */
	for (int i = 0; i < t->nrows * t->ncols; i++)
		if (t->cells[i].href && !runpage_keep(t->cells[i].href)) {
			free(t->cells[i].href);
			t->cells[i].href = NULL;
		}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		die("cannot open a memory stream: %s", strerror(errno));
	table_render(t, FMT_MD, f);
	if (fclose(f))
		die("cannot render a table: %s", strerror(errno));
	sb_add(out, buf, len);
	free(buf);
	sb_rtrim(out);
}

void md_table_limited(sb *out, table *t, int limit)
{
	int all = t->nrows;
	if (limit > 0 && all > limit)
		t->nrows = limit; /* render the head only; cells stay owned by t */
	md_table(out, t);
	if (t->nrows < all)
		sb_addf(out, "\n\n%d more row%s not shown (raise --limit, or 0 for all).",
			all - t->nrows, all - t->nrows == 1 ? "" : "s");
	t->nrows = all;
}

int parse_day(const char *s, double *out)
{
	if (!s || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return -1;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return -1;
	if (parse_iso_utc(s, out))
		return -1;
	/* Reject 2026-02-30 and friends: the day must print back as given. */
	sb back = SB_INIT;
	fmt_date(&back, *out);
	int same = !strcmp(back.buf, s);
	sb_release(&back);
	return same ? 0 : -1;
}
