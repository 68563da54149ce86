/* curvesvg.c — training curves as SVG; see curvesvg.h. */
#include <math.h>
#include "curvesvg.h"
#include "util.h"

/* 640x400 with 16 px text: still 8 px on a 320 px phone column */
enum { W = 640, H = 400, ML = 70, MR = 56, MT = 60, MB = 56 };

struct axis {
	double lo, hi;
};

static double column_at(const json_t *curve, const char *name, size_t i)
{
	json_t *v = json_array_get(json_object_get(curve, name), i);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Range of the finite values of a column; lo > hi when there are none. */
static struct axis column_range(const json_t *curve, const char *name)
{
	struct axis a = { HUGE_VAL, -HUGE_VAL };
	size_t n = json_array_size(json_object_get(curve, name));
	for (size_t i = 0; i < n; i++) {
		double v = column_at(curve, name, i);
		if (isfinite(v)) {
			a.lo = fmin(a.lo, v);
			a.hi = fmax(a.hi, v);
		}
	}
	return a;
}

/* A tick step of 1, 2 or 5 times a power of ten, about span / 5. */
static double tick_step(double span)
{
	double raw = span / 5, p = pow(10, floor(log10(raw)));
	return raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
}

/* Widen a to whole ticks (and a nonzero span). */
static void nice(struct axis *a)
{
	if (!(a->hi > a->lo)) {
		double pad = fabs(a->lo) * 0.05 + 0.5;
		a->lo -= pad;
		a->hi += pad;
	}
	double s = tick_step(a->hi - a->lo);
	a->lo = floor(a->lo / s) * s;
	a->hi = ceil(a->hi / s) * s;
}

static double px(const struct axis *x, double v)
{
	return ML + (v - x->lo) / (x->hi - x->lo) * (W - ML - MR);
}

static double py(const struct axis *y, double v)
{
	return H - MB - (v - y->lo) / (y->hi - y->lo) * (H - MT - MB);
}

static void xml_text(sb *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': sb_adds(out, "&lt;"); break;
		case '>': sb_adds(out, "&gt;"); break;
		case '&': sb_adds(out, "&amp;"); break;
		case '"': sb_adds(out, "&quot;"); break;
		case '\'': sb_adds(out, "&#39;"); break;
		default: sb_addc(out, (unsigned char)*s < 0x20 ? ' ' : *s);
		}
	}
}

/* Gridlines and labels of one axis: side 'x', 'l' (left) or 'r' (right). */
static void ticks(sb *out, const struct axis *a, const struct axis *x, const struct axis *y, char side)
{
	double s = tick_step(a->hi - a->lo);
	for (double v = a->lo; v <= a->hi + s / 2; v += s) {
		double t = fabs(v) < s / 1e6 ? 0 : v;
		if (side == 'x') {
			double X = px(x, t);
			sb_addf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
				"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.6g</text>\n",
				X, MT, X, H - MB, X, H - MB + 20, t);
		} else if (side == 'l') {
			double Y = py(y, t);
			sb_addf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
				"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.6g</text>\n",
				ML, Y, W - MR, Y, ML - 6, Y + 4, t);
		} else {
			double Y = H - MB - (t - a->lo) / (a->hi - a->lo) * (H - MT - MB);
			sb_addf(out, "<text x=\"%d\" y=\"%.1f\" class=\"lr\">%.6g</text>\n", W - MR + 6, Y + 4, t);
		}
	}
}

/* The path of column name against step; a null breaks the line. */
static int path(sb *out, const json_t *curve, const char *name, const struct axis *x,
		const struct axis *y, const char *cls, const char *tooltip)
{
	size_t n = json_array_size(json_object_get(curve, "step"));
	int pen = 0, drawn = 0;
	sb_addf(out, "<path class=\"%s\" d=\"", cls);
	for (size_t i = 0; i < n; i++) {
		double s = column_at(curve, "step", i), v = column_at(curve, name, i);
		if (!isfinite(s) || !isfinite(v)) {
			pen = 0;
			continue;
		}
		sb_addf(out, "%s%.1f %.1f", pen ? " L" : (drawn ? " M" : "M"), px(x, s), py(y, v));
		pen = 1;
		drawn++;
	}
	sb_addf(out, "\"><title>%s</title></path>\n", tooltip);
	return drawn;
}

/* Steps whose loss was not finite (null in the record: a run ending as
 * nan) as red crosses along the top, so a line that stops says why. */
static void lost_losses(sb *out, const json_t *curve, const struct axis *x)
{
	size_t n = json_array_size(json_object_get(curve, "step"));
	for (size_t i = 0; i < n; i++) {
		double s = column_at(curve, "step", i);
		if (!isfinite(s) || json_is_number(json_array_get(json_object_get(curve, "train_loss"), i)))
			continue;
		double X = px(x, s);
		sb_addf(out, "<g class=\"lost\"><title>step %.10g: loss not finite</title>"
			"<path d=\"M%.1f %d l8 8 m0 -8 l-8 8\"/></g>\n", s, X - 4, MT + 4);
	}
}

static void evals(sb *out, const json_t *curve, const struct axis *x)
{
	json_t *ev = json_object_get(curve, "eval");
	size_t n = json_array_size(json_object_get(ev, "step"));
	for (size_t i = 0; i < n; i++) {
		double s = column_at(ev, "step", i), v = column_at(ev, "val_bpb", i);
		if (!isfinite(s) || s < x->lo || s > x->hi)
			continue;
		double X = px(x, s);
		sb_addf(out, "<g class=\"eval\"><title>step %.10g: val_bpb %.6f</title>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><circle cx=\"%.1f\" cy=\"%d\" r=\"4\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\">val_bpb %.4f</text></g>\n",
			s, v, X, MT, X, H - MB, X, MT + 4, X - 6, MT + 18, v);
	}
}

int curve_svg(sb *out, const json_t *curve, const char *title)
{
	struct axis x = column_range(curve, "step"), y = column_range(curve, "train_loss");
	struct axis lr = column_range(curve, "lr_mult");
	if (!(y.hi >= y.lo) || !(x.hi >= x.lo))
		return 0;
	nice(&x);
	nice(&y);
	lr.lo = fmin(0, lr.lo);
	lr.hi = lr.hi >= lr.lo ? fmax(1, lr.hi) : 1;
	nice(&lr);
	sb_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"16\">\n<title>", W, H, W, H);
	xml_text(out, title);
	sb_adds(out, "</title>\n<style>.grid{stroke:#e4e4e4}.loss{fill:none;stroke:#1f77b4;stroke-width:1.6}"
		     ".lrline{fill:none;stroke:#888;stroke-width:1.2;stroke-dasharray:5 3}.lr{fill:#666}"
		     ".eval line{stroke:#d95f02;stroke-dasharray:2 2}.eval circle{fill:#d95f02}"
		     ".eval text{fill:#d95f02}.frame{fill:none;stroke:#999}.lost path{stroke:#c00;stroke-width:2}</style>\n"
		     "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
	sb_addf(out, "<text x=\"%d\" y=\"22\" font-size=\"18\" font-weight=\"bold\">", 8);
	xml_text(out, title);
	sb_adds(out, "</text>\n");
	/* the legend above the plot, so it never covers a line */
	sb_addf(out, "<g><line class=\"loss\" x1=\"%d\" y1=\"40\" x2=\"%d\" y2=\"40\"/>"
		"<text x=\"%d\" y=\"45\">train loss (nats, left)</text>"
		"<line class=\"lrline\" x1=\"%d\" y1=\"40\" x2=\"%d\" y2=\"40\"/>"
		"<text x=\"%d\" y=\"45\">LR multiplier (right)</text></g>\n",
		8, 32, 38, 250, 274, 280);
	ticks(out, &x, &x, &y, 'x');
	ticks(out, &y, &x, &y, 'l');
	ticks(out, &lr, &x, &y, 'r');
	sb_addf(out, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	sb_addf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">step</text>\n", (ML + W - MR) / 2, H - 8);
	path(out, curve, "lr_mult", &x, &lr, "lrline", "LR multiplier");
	int n = path(out, curve, "train_loss", &x, &y, "loss", "train loss (nats)");
	evals(out, curve, &x);
	lost_losses(out, curve, &x);
	sb_adds(out, "</svg>\n");
	return n;
}
