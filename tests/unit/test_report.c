/* test_report.c — report/: the template engine (placeholders, sections,
 * standalone lines, errors with file:line), number formatting and day
 * parsing. Test plan: each syntax rule on a tiny template with the exact
 * expected output; every error kind once, checking the message's line. */
#include "chart.h"
#include "fmt.h"
#include "template.h"
#include "util.h"
#include "check.h"

/* Render text with vars; returns the output (static buffer) or "ERROR". */
static const char *render(const char *text, const struct tpl_vars *v)
{
	static sb out = SB_INIT, err = SB_INIT;
	sb_reset(&out);
	sb_reset(&err);
	return tpl_render(text, "t.md", v, &out, &err) ? "ERROR" : out.buf;
}

/* The message of a failing render contains want. */
static int render_error_has(const char *text, const struct tpl_vars *v, const char *want)
{
	sb out = SB_INIT, err = SB_INIT;
	int failed = tpl_render(text, "t.md", v, &out, &err) != 0;
	int has = strstr(err.buf, want) != NULL;
	if (!has)
		printf("#   message was: %s\n", err.buf);
	sb_release(&out);
	sb_release(&err);
	return failed && has;
}

static void test_template(void)
{
	struct tpl_vars v = TPL_VARS_INIT;
	tpl_set(&v, "date", "2026-03-16");
	tpl_set(&v, "table", "| a |\n| --- |\n| 1 |\n");
	tpl_set(&v, "empty", "");
	tpl_setf(&v, "n", "%d", 15);
	CHECK("report-tpl-1", !strcmp(render("# Day {{date}}\n", &v), "# Day 2026-03-16\n"));
	CHECK("report-tpl-2", !strcmp(render("{{ n }} runs", &v), "15 runs"));
	/* standalone section lines vanish; inline ones keep their text */
	CHECK("report-tpl-3", !strcmp(render("a\n{{#table}}\n{{table}}{{/table}}\nb\n", &v),
				      "a\n| a |\n| --- |\n| 1 |\n\nb\n"));
	CHECK("report-tpl-4", !strcmp(render("{{^empty}}\nNothing.\n{{/empty}}\n", &v), "Nothing.\n"));
	CHECK("report-tpl-5", !strcmp(render("{{#empty}}\nhidden {{date}}\n{{/empty}}\nx\n", &v), "x\n"));
	CHECK("report-tpl-6", !strcmp(render("x {{#n}}[{{n}}]{{/n}} y", &v), "x [15] y"));
	CHECK("report-tpl-7", !strcmp(render("  {{! a comment }}\nkept\n", &v), "kept\n"));
	CHECK("report-tpl-8", !strcmp(render("{{#n}}{{^empty}}in{{/empty}}{{/n}}", &v), "in"));
	/* values are inserted as given: the engine does not re-read them */
	tpl_set(&v, "tricky", "{{date}}");
	CHECK("report-tpl-9", !strcmp(render("{{tricky}}", &v), "{{date}}"));
	tpl_set(&v, "n", "16"); /* replacing keeps one entry */
	CHECK("report-tpl-10", !strcmp(tpl_get(&v, "n"), "16") && v.n == 5);
	CHECK("report-tpl-err-1", render_error_has("a\n\n{{nope}}\n", &v,
						   "t.md:3: unknown placeholder 'nope'"));
	CHECK("report-tpl-err-2", render_error_has("{{#date}}\nx\n", &v,
						   "t.md:1: section 'date' is never closed"));
	CHECK("report-tpl-err-3", render_error_has("x\n{{/date}}\n", &v,
						   "t.md:2: '{{/date}}' closes no open section"));
	CHECK("report-tpl-err-4", render_error_has("{{#date}}{{/n}}", &v, "closes no open section"));
	CHECK("report-tpl-err-5", render_error_has("{{bad name}}", &v, "bad placeholder name"));
	CHECK("report-tpl-err-6", render_error_has("x {{date", &v, "without a closing"));
	/* unknown names inside a hidden section are errors too: templates are
	 * checked whole, not only on the branches a given day takes */
	CHECK("report-tpl-err-7", render_error_has("{{#empty}}{{typo}}{{/empty}}", &v, "'typo'"));
	tpl_vars_release(&v);
}

static void test_fmt(void)
{
	sb s = SB_INIT;
	fmt_val(&s, 0.92644);
	sb_adds(&s, "|");
	fmt_val(&s, NAN);
	sb_adds(&s, "|");
	fmt_delta(&s, -0.021);
	sb_adds(&s, "|");
	fmt_delta(&s, 0.00001); /* moved, below the precision */
	sb_adds(&s, "|");
	fmt_delta(&s, 0);
	sb_adds(&s, "|");
	fmt_pct(&s, 1, 12);
	sb_adds(&s, "|");
	fmt_hm(&s, 1773636480); /* 2026-03-16T04:48:00Z */
	CHECK("report-fmt-1", !strcmp(s.buf, "0.9264|—|-0.0210|+0.0000|0.0000|8%|04:48"));
	sb_reset(&s);
	fmt_set_decimals(6);
	fmt_val(&s, 1.24573);
	fmt_set_decimals(4);
	CHECK("report-fmt-1.1", !strcmp(s.buf, "1.245730"));
	sb_reset(&s);
	fmt_text(&s, "<script>alert(1)</script> a|b", 0);
	CHECK("report-fmt-2", !strcmp(s.buf, "&lt;script&gt;alert(1)&lt;/script&gt; a\\|b"));
	sb_reset(&s);
	fmt_text(&s, "ééééé", 3);
	CHECK("report-fmt-3", !strcmp(s.buf, "ééé…"));
	double t;
	CHECK("report-day-1", parse_day("2026-03-16", &t) == 0 && t == 1773619200);
	CHECK("report-day-2", parse_day("2026-02-30", &t) == -1);
	CHECK("report-day-3", parse_day("2026-3-16", &t) == -1 && parse_day("2026-03-16T00", &t) == -1);
	sb_release(&s);
}

/* The charts' informative range: a diverged run does not stretch it, a
 * handful of values is never trimmed, NaN is ignored. */
static void test_chart_range(void)
{
	double lo, hi;
	const double session[] = { 1.10, 1.09, 1.095, 1.089, 1.091, NAN, 1.08, 1.082, 1.0795, 1.07, 3.4 };
	chart_value_range(session, 11, &lo, &hi);
	CHECK("chart-range-1", lo == 1.07 && hi == 1.10);
	const double few[] = { 1.0, 3.4, 1.01 };
	chart_value_range(few, 3, &lo, &hi);
	CHECK("chart-range-2", lo == 1.0 && hi == 3.4);
	const double one[] = { NAN, 0.95 };
	chart_value_range(one, 2, &lo, &hi);
	CHECK("chart-range-3", lo == 0.95 && hi == 0.95);
	chart_value_range(one, 1, &lo, &hi);
	CHECK("chart-range-4", isnan(lo) && isnan(hi));
	/* a steady descent is all information: nothing is cut */
	const double descent[] = { 1.30, 1.25, 1.21, 1.18, 1.16, 1.15, 1.148 };
	chart_value_range(descent, 7, &lo, &hi);
	CHECK("chart-range-5", lo == 1.148 && hi == 1.30);
}

int main(void)
{
	test_template();
	test_fmt();
	test_chart_range();
	return check_status();
}
