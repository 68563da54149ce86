/* chart.h — charts through gnuplot as a subprocess (pngcairo and svg).
 * The caller hands over plain points; chart.c writes them to data files
 * under DIR/charts/, writes a script that only names those files, and runs
 * gnuplot on it. No run text is ever spliced into the script: group names
 * and labels travel in the data files (quotes and control characters
 * replaced) and the terminals are noenhanced, so nothing in them is markup.
 * A missing or failing gnuplot skips the chart, never the report. */
#ifndef RL_CHART_H
#define RL_CHART_H
#include "sb.h"

enum chart_kind {
	CHART_TIMELINE, /* x = time (epoch s); points and best-so-far steps per group */
	CHART_PROGRESS  /* x = experiment number; kept runs labelled, autoresearch style */
};

struct chart_run {
	double x;
	double value;      /* NAN: no valid measurement (crash, invalid): marked apart */
	int group;         /* index into groups */
	int kept;          /* CHART_PROGRESS: kept/baseline runs are labelled */
	const char *label; /* CHART_PROGRESS: the label of a kept run */
	const char *tooltip; /* plain text shown on hover in the SVG (run id, value, description); NULL: none */
};

struct chart_step {    /* one move of a group's best-so-far line */
	double x, value;
	int group;
};

struct chart_spec {
	enum chart_kind kind;
	const char *dir;          /* report directory; files go to dir/charts/ */
	const char *stem;         /* file-name-safe base name, e.g. "2026-03-16-frontier" */
	const char *alt;          /* alt text of the image (plain text) */
	const char *ylabel;       /* y axis: [A-Za-z0-9 _.()-] only, else "value" */
	const char *const *groups;/* group names (hardware classes) */
	int ngroups;
	const struct chart_run *runs;
	int nruns;
	const struct chart_step *steps;
	int nsteps;
	const char *title;        /* above the plot: [A-Za-z0-9 _.:()-] only, else none */
	double mark_from, mark_to;/* CHART_TIMELINE: the reported day, shaded (NAN: none) */
};

/* The colour of a hardware class: fixed for the classes of the hardware
 * table, a hash of the name into a palette for the rest, so a class has
 * the same colour in every chart of every day. "#rrggbb". */
const char *chart_group_colour(const char *name);

/* The informative range [lo, hi] of the finite values of v[0..n): all of
 * them, except, with CHART_OUTLIER_MIN_N values or more, those beyond
 * CHART_OUTLIER_IQR interquartile ranges outside the quartiles (a
 * diverged run at 3.2 among values near 1.0). Charts draw those as
 * markers at the edge instead of stretching the axis. NAN, NAN when
 * there is no finite value. */
#define CHART_OUTLIER_MIN_N 5
#define CHART_OUTLIER_IQR 3.0
void chart_value_range(const double *v, int n, double *lo, double *hi);

/* Draw the chart and append its markdown to md: the SVG image with links to
 * the PNG and the script, or one line saying why the chart was skipped.
 * Returns 0 when drawn, 1 when skipped (a warning is printed). */
int chart_draw(const struct chart_spec *c, sb *md);

#endif
