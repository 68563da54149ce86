/* campaign_compare.c — the campaign report's compare view: the campaign's
 * most recent runs side by side, the view of `ledger compare`
 * (ledger/compare.h), and their training curves (the record's "curve",
 * docs/run-record.md) overlaid in one chart. The chart is an SVG written
 * here, not by gnuplot: the same bytes on every machine, no subprocess,
 * every text from a record escaped. Reads the ledger; archived runs are
 * already left out by the report's view of it (ledger/annot.h). */
#include "campaign_compare.h"
#include "compare.h"
#include "db.h"
#include "output.h"
#include "runpage.h"
#include "util.h"

enum { W = 720, H = 400, ML = 64, MR = 24, MT = 40, MB = 44, LEGEND_ROW = 16 };

/* One colour per run, in column order (a palette readable on white, and
 * apart for the common kinds of colour blindness as far as ten allow). */
static const char *const palette[] = { "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
				       "#56b4e9", "#000000", "#882255", "#117733", "#999933" };

/* The campaign's members (record field or assignment), the `limit` most
 * recent in time order, as `ledger compare --campaign` takes them. */
static int select_members(sqlite3 *db, const char *campaign, int limit, struct compare_set *s)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT id FROM (SELECT r.id, r.t_finished FROM runs r WHERE r.id IN ("
		"SELECT id FROM runs WHERE campaign = ?1 UNION SELECT run FROM campaign_runs WHERE campaign = ?1)"
		" ORDER BY r.t_finished IS NULL DESC, r.t_finished DESC, r.id DESC LIMIT ?2)"
		" ORDER BY t_finished IS NULL, t_finished, id");
	db_bind_text(st, 1, campaign);
	sqlite3_bind_int(st, 2, limit);
	int rc;
	while ((rc = db_step(st, "read the campaign's runs")) == SQLITE_ROW)
		compare_add(s, sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The table as markdown (table.h escapes every cell). */
static void table_md(const struct compare_set *s, sb *md)
{
	table t;
	compare_table(s, 0, &t);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f) {
		table_render(&t, FMT_MD, f);
		fclose(f);
		sb_add(md, buf, len);
	}
	free(buf);
	table_release(&t);
}

/* ---- the curves chart ------------------------------------------------- */

static double at(const json_t *curve, const char *col, size_t i)
{
	const json_t *v = json_array_get(json_object_get(curve, col), i);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const json_t *curve_of(const struct compare_run *r)
{
	const json_t *c = json_object_get(r->rec, "curve");
	return json_is_object(c) && json_is_array(json_object_get(c, "step")) ? c : NULL;
}

struct range {
	double lo, hi;
};

static void range_add(struct range *r, double v)
{
	if (!isfinite(v))
		return;
	r->lo = fmin(r->lo, v);
	r->hi = fmax(r->hi, v);
}

static void range_pad(struct range *r)
{
	if (!(r->hi > r->lo)) {
		r->lo -= 0.5;
		r->hi += 0.5;
	}
}

static void xml_escape(sb *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '&')
			sb_adds(out, "&amp;");
		else if (c == '<')
			sb_adds(out, "&lt;");
		else if (c == '>')
			sb_adds(out, "&gt;");
		else if (c == '"')
			sb_adds(out, "&quot;");
		else if (c < 0x20 || c == 0x7f)
			sb_addc(out, ' '); /* not allowed in XML 1.0 text */
		else
			sb_addc(out, (char)c);
	}
}

/* One polyline per run with a curve; a null or non-finite loss breaks the
 * line (a new polyline starts after it). */
static void draw_run(sb *svg, const json_t *curve, const char *colour, struct range x, struct range y)
{
	size_t n = json_array_size(json_object_get(curve, "step"));
	int open = 0;
	for (size_t i = 0; i < n; i++) {
		double sx = at(curve, "step", i), ly = at(curve, "train_loss", i);
		if (!isfinite(sx) || !isfinite(ly)) {
			if (open)
				sb_adds(svg, "\"/>\n");
			open = 0;
			continue;
		}
		if (!open)
			sb_addf(svg, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
		sb_addf(svg, "%s%.1f,%.1f", open ? " " : "", ML + (sx - x.lo) / (x.hi - x.lo) * (W - ML - MR),
			MT + (y.hi - ly) / (y.hi - y.lo) * (H - MT - MB));
		open = 1;
	}
	if (open)
		sb_adds(svg, "\"/>\n");
}

static void axes(sb *svg, struct range x, struct range y)
{
	sb_addf(svg, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n", ML, MT,
		W - ML - MR, H - MT - MB);
	for (int k = 0; k <= 4; k++) {
		double fy = y.lo + (y.hi - y.lo) * k / 4, py = MT + (double)(H - MT - MB) * (4 - k) / 4;
		double fx = x.lo + (x.hi - x.lo) * k / 4, px = ML + (double)(W - ML - MR) * k / 4;
		sb_addf(svg, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%.3g</text>\n", ML - 4,
			py + 4, fy);
		sb_addf(svg, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%.6g</text>\n", px,
			H - MB + 14, fx);
	}
	sb_addf(svg, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">step</text>\n",
		ML + (W - ML - MR) / 2, H - 8);
	sb_addf(svg, "<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
		     "text-anchor=\"middle\">train loss</text>\n", MT + (H - MT - MB) / 2, MT + (H - MT - MB) / 2);
}

/* The legend below the plot, one row per run: its colour and id. */
static void legend(sb *svg, const struct compare_set *s, const int *drawn, int top)
{
	int row = 0;
	for (int c = 0; c < s->n; c++) {
		if (!drawn[c])
			continue;
		int y = top + row++ * LEGEND_ROW;
		sb_addf(svg, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>"
			     "<text x=\"%d\" y=\"%d\" font-size=\"12\">", ML, y - 4, ML + 24, y - 4,
			palette[c % ARRAY_SIZE(palette)], ML + 30, y);
		xml_escape(svg, s->v[c].run_id);
		sb_adds(svg, "</text>\n");
	}
}

/* The SVG of every run's train loss against step; 0 runs drawn: nothing
 * written. Returns how many runs have a curve. */
static int curves_svg(const struct compare_set *s, const char *title, sb *svg)
{
	struct range x = { HUGE_VAL, -HUGE_VAL }, y = { HUGE_VAL, -HUGE_VAL };
	int *drawn = xcalloc((size_t)s->n + 1, sizeof(int)), ndrawn = 0;
	for (int c = 0; c < s->n; c++) {
		const json_t *curve = curve_of(&s->v[c]);
		size_t n = curve ? json_array_size(json_object_get(curve, "step")) : 0;
		for (size_t i = 0; i < n; i++)
			if (isfinite(at(curve, "train_loss", i)) && isfinite(at(curve, "step", i))) {
				range_add(&x, at(curve, "step", i));
				range_add(&y, at(curve, "train_loss", i));
				drawn[c] = 1;
			}
		ndrawn += drawn[c];
	}
	if (ndrawn) {
		range_pad(&x);
		range_pad(&y);
		int height = H + ndrawn * LEGEND_ROW + 8;
		sb_addf(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
			     " font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
			W, height, W, height);
		sb_addf(svg, "<text x=\"%d\" y=\"22\" font-size=\"14\" font-weight=\"bold\">", ML);
		xml_escape(svg, title);
		sb_adds(svg, "</text>\n");
		axes(svg, x, y);
		for (int c = 0; c < s->n; c++)
			if (drawn[c])
				draw_run(svg, curve_of(&s->v[c]), palette[c % ARRAY_SIZE(palette)], x, y);
		legend(svg, s, drawn, H + 4);
		sb_adds(svg, "</svg>\n");
	}
	free(drawn);
	return ndrawn;
}

int campaign_compare(sqlite3 *db, const char *campaign, const char *dir, int limit, sb *table_out, sb *chart)
{
	struct compare_set s = { 0 };
	if (select_members(db, campaign, limit, &s) || compare_load(db, &s)) {
		compare_release(&s);
		return -1;
	}
	if (s.n) {
		table_md(&s, table_out);
		/* the columns' run ids are header text, which a table cannot
		 * link: their pages follow the table */
		sb_adds(table_out, "\nRun pages: "); /* the table ends in a newline */
		for (int c = 0; c < s.n; c++) {
			sb_adds(table_out, c ? " · " : "");
			runpage_link(table_out, s.v[c].run_id);
		}
		sb_adds(table_out, ".");
	}
	sb title = SB_INIT, svg = SB_INIT, stem = SB_INIT, chartdir = SB_INIT;
	sb_addf(&title, "Training loss, the %d most recent runs of %s", s.n, campaign);
	int rc = 0, drawn = s.n ? curves_svg(&s, title.buf, &svg) : 0;
	if (drawn) {
		sb_adds(&stem, "campaign-");
		out_slug(&stem, campaign);
		sb_adds(&stem, "-curves.svg");
		sb_addf(&chartdir, "%s/charts", dir);
		rc = out_mkdirs(chartdir.buf) || out_write(chartdir.buf, stem.buf, svg.buf, svg.len) ? -1 : 0;
		sb_addf(chart, "![Training loss against step of %d runs, one colour each, overlaid](charts/%s)",
			drawn, stem.buf);
	}
	sb_release(&title);
	sb_release(&svg);
	sb_release(&stem);
	sb_release(&chartdir);
	compare_release(&s);
	return rc;
}
