/* chart.c — data files, gnuplot script and the gnuplot subprocess; see
 * chart.h. Data files hold numbers and quoted labels only; the script is
 * built from fixed text and our own file names. */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "chart.h"
#include "output.h"
#include "table.h"
#include "util.h"

#define GNUPLOT_TIMED_OUT (-1)

/* gnuplot reads a quoted datafile field up to the next '"' and applies
 * backslash escapes inside it: quotes become apostrophes, backslashes are
 * doubled (so "\\" stays one backslash and no escape can form), control
 * characters become spaces so a label cannot end its line. Long labels
 * are cut. */
static void add_label(sb *out, const char *s, int max)
{
	int chars = 0;
	sb_addc(out, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c & 0xc0) != 0x80 && ++chars > max) {
			sb_adds(out, "...");
			break;
		}
		if (c == '\\')
			sb_addc(out, '\\');
		sb_addc(out, c == '"' ? '\'' : c < 0x20 || c == 0x7f ? ' ' : (char)c);
	}
	sb_addc(out, '"');
}

static int write_data(const struct chart_spec *c, const char *dir, const char *suffix, const sb *data)
{
	sb name = SB_INIT;
	sb_addf(&name, "%s-%s.dat", c->stem, suffix);
	int rc = out_write(dir, name.buf, data->buf, data->len);
	sb_release(&name);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Quantile q of sorted v[0..n), linear between neighbours. */
static double quantile(const double *v, int n, double q)
{
	double at = q * (n - 1);
	int i = (int)at;
	return i + 1 < n ? v[i] + (at - i) * (v[i + 1] - v[i]) : v[n - 1];
}

void chart_value_range(const double *values, int n, double *lo, double *hi)
{
	double *v = xcalloc((size_t)n + 1, sizeof(double));
	int m = 0;
	for (int i = 0; i < n; i++)
		if (isfinite(values[i]))
			v[m++] = values[i];
	*lo = *hi = NAN;
	if (m) {
		qsort(v, (size_t)m, sizeof(double), cmp_double);
		double flo = -INFINITY, fhi = INFINITY;
		if (m >= CHART_OUTLIER_MIN_N) {
			double q1 = quantile(v, m, 0.25), q3 = quantile(v, m, 0.75), iqr = q3 - q1;
			flo = q1 - CHART_OUTLIER_IQR * iqr;
			fhi = q3 + CHART_OUTLIER_IQR * iqr;
		}
		for (int i = 0; i < m; i++)
			if (v[i] >= flo && v[i] <= fhi) {
				*lo = isnan(*lo) ? v[i] : fmin(*lo, v[i]);
				*hi = isnan(*hi) ? v[i] : fmax(*hi, v[i]);
			}
	}
	free(v);
}

/* Per-group files of valid runs ("runs-G") and best-so-far steps ("best-G",
 * extended to the last x so the line reaches the right edge), one file of
 * runs without a valid value ("failed"), drawn along the top, and one of
 * values beyond the informative range ("outliers"), drawn at the edge
 * they are beyond. */
struct extent {
	double xmin, xmax;
	double lo, hi;         /* informative range of the values (chart_value_range) */
	double ybottom, ytop;  /* the axis: the range with room for the markers */
	double yfailed;        /* where crashes are drawn */
	int nvalid, nfailed, nout, nhigh; /* nhigh: outliers above the range */
};

static struct extent measure(const struct chart_spec *c)
{
	struct extent e = { INFINITY, -INFINITY, NAN, NAN, NAN, NAN, NAN, 0, 0, 0, 0 };
	double *v = xcalloc((size_t)c->nruns + 1, sizeof(double));
	for (int i = 0; i < c->nruns; i++) {
		const struct chart_run *r = &c->runs[i];
		e.xmin = fmin(e.xmin, r->x);
		e.xmax = fmax(e.xmax, r->x);
		v[i] = r->value;
		if (isnan(r->value))
			e.nfailed++;
		else
			e.nvalid++;
	}
	chart_value_range(v, c->nruns, &e.lo, &e.hi);
	free(v);
	if (!e.nvalid)
		return e;
	/* the best-so-far line is the chart's story: its values always fit */
	for (int i = 0; i < c->nsteps; i++)
		if (isfinite(c->steps[i].value)) {
			e.lo = isnan(e.lo) ? c->steps[i].value : fmin(e.lo, c->steps[i].value);
			e.hi = isnan(e.hi) ? c->steps[i].value : fmax(e.hi, c->steps[i].value);
		}
	for (int i = 0; i < c->nruns; i++) {
		e.nout += !isnan(c->runs[i].value) && (c->runs[i].value < e.lo || c->runs[i].value > e.hi);
		e.nhigh += !isnan(c->runs[i].value) && c->runs[i].value > e.hi;
	}
	/* a single value, or equal ones, still get an axis of some height */
	double span = fmax(e.hi - e.lo, fmax(0.002 * fabs(e.hi), 1e-3));
	double pad = 0.06 * span;
	e.ybottom = e.lo - pad - (e.hi - e.lo < span ? (span - (e.hi - e.lo)) / 2 : 0);
	e.ytop = e.hi + pad + (e.hi - e.lo < span ? (span - (e.hi - e.lo)) / 2 : 0);
	if (e.nfailed || e.nout) { /* a band along the top for the markers */
		e.yfailed = e.ytop + pad;
		e.ytop += 2 * pad;
	}
	return e;
}

const char *chart_group_colour(const char *name)
{
	/* red and orange are the markers' (crash, outlier); grey-black the underlay */
	static const struct { const char *name, *rgb; } known[] = {
		{ "B200", "#1f77b4" }, { "H100", "#2ca02c" }, { "H200", "#9467bd" }, { "A100", "#8c564b" },
		{ "A10G", "#e377c2" }, { "RTX 3090", "#17becf" }, { "RTX 4090", "#bcbd22" }, { "L4", "#7f7f7f" },
		{ "L40S", "#393b79" }, { "GB200", "#637939" }, { "MI300X", "#8c6d31" }, { "CPU", "#843c39" },
	};
	static const char *const palette[] = { "#3182bd", "#31a354", "#756bb1", "#636363", "#e6550d",
					       "#9c9ede", "#cedb9c", "#e7969c", "#6baed6", "#fd8d3c" };
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(known[i].name, name))
			return known[i].rgb;
	uint64_t h = 1469598103934665603ull; /* FNV-1a: the same on every machine */
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return palette[h % ARRAY_SIZE(palette)];
}

/* A group's runs: the valid values inside the informative range (those
 * outside are the outlier markers, drawn once, at the edge). */
static int write_group(const struct chart_spec *c, const char *dir, int g, const struct extent *e,
		       int *plotted)
{
	sb runs = SB_INIT, best = SB_INIT, suffix = SB_INIT;
	add_label(&runs, c->groups[g], 40);
	sb_addc(&runs, '\n');
	int n = 0, rc = 0;
	for (int i = 0; i < c->nruns; i++) {
		const struct chart_run *r = &c->runs[i];
		if (r->group != g || isnan(r->value) || r->value < e->lo || r->value > e->hi)
			continue;
		n++;
		sb_addf(&runs, "%.10g\t%.10g\t%d\t", r->x, r->value, r->kept);
		add_label(&runs, r->kept ? r->label : "", 40);
		sb_addc(&runs, '\t');
		add_label(&runs, r->tooltip ? r->tooltip : "", 160);
		sb_addc(&runs, '\n');
	}
	double last = NAN;
	for (int i = 0; i < c->nsteps; i++) {
		if (c->steps[i].group != g)
			continue;
		sb_addf(&best, "%.10g\t%.10g\n", c->steps[i].x, c->steps[i].value);
		last = c->steps[i].value;
	}
	if (!isnan(last))
		sb_addf(&best, "%.10g\t%.10g\n", e->xmax, last);
	*plotted = n > 0;
	if (n) {
		sb_addf(&suffix, "runs-%d", g);
		rc = write_data(c, dir, suffix.buf, &runs);
		sb_reset(&suffix);
		sb_addf(&suffix, "best-%d", g);
		if (!rc)
			rc = write_data(c, dir, suffix.buf, &best);
	}
	sb_release(&runs);
	sb_release(&best);
	sb_release(&suffix);
	return rc;
}

static int write_failed(const struct chart_spec *c, const char *dir, double ytop)
{
	sb data = SB_INIT;
	for (int i = 0; i < c->nruns; i++)
		if (isnan(c->runs[i].value)) {
			sb_addf(&data, "%.10g\t%.10g\t", c->runs[i].x, ytop);
			add_label(&data, c->runs[i].tooltip ? c->runs[i].tooltip : "", 160);
			sb_addc(&data, '\n');
		}
	int rc = write_data(c, dir, "failed", &data);
	sb_release(&data);
	return rc;
}

/* Values beyond the range, at the edge they are beyond (column 3: 1 above,
 * 0 below), so a diverged run shows without squashing the rest. */
static int write_outliers(const struct chart_spec *c, const char *dir, const struct extent *e)
{
	sb data = SB_INIT;
	for (int i = 0; i < c->nruns; i++) {
		double v = c->runs[i].value;
		if (isnan(v) || (v >= e->lo && v <= e->hi))
			continue;
		sb_addf(&data, "%.10g\t%.10g\t%d\t", c->runs[i].x, v > e->hi ? e->ytop : e->ybottom, v > e->hi);
		add_label(&data, c->runs[i].tooltip ? c->runs[i].tooltip : "", 160);
		sb_addc(&data, '\n');
	}
	int rc = write_data(c, dir, "outliers", &data);
	sb_release(&data);
	return rc;
}

/* The one caller-given text that enters the script: a metric name and its
 * direction. Anything outside a plain character set, or a quote, falls back
 * to "value" rather than being escaped. */
static const char *safe_text(const char *s, const char *fallback)
{
	if (!s || !*s)
		return fallback;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(" _.:()-", *p))
			return fallback;
	return s;
}

static void script_head(sb *gp, const struct chart_spec *c, const struct extent *e)
{
	sb_adds(gp, "# generated by `report`; regenerate with the report command, or run\n"
		    "# `gnuplot THIS_FILE` in this directory after editing.\n");
	/* 900x540 with 15 px text: scaled to a 360 px phone screen the text is
	 * still 6 px, where 960x480 at 11 px gave 4; the key goes below the
	 * plot, where it takes no width from it */
	sb_adds(gp, "set terminal svg size 900,540 noenhanced font 'sans,15' background '#ffffff'\n");
	sb_addf(gp, "set output '%s.svg'\n", c->stem);
	/* the data files are tab-separated: an empty quoted label ("") must
	 * stay a column, which whitespace separation does not keep */
	sb_adds(gp, "set datafile separator '\\t'\n");
	sb_adds(gp, "set key below center horizontal noenhanced\nset grid ytics\n"
		    "set border 3\nset tics nomirror\n");
	if (*safe_text(c->title, ""))
		sb_addf(gp, "set title '%s'\n", safe_text(c->title, ""));
	sb_addf(gp, "set ylabel '%s'\n", safe_text(c->ylabel, "value"));
	/* the informative range: outliers are markers at its edges */
	sb_addf(gp, "set yrange [%.10g:%.10g]\n", e->ybottom, e->ytop);
	if (c->kind == CHART_TIMELINE) {
		sb_adds(gp, "set xdata time\nset timefmt '%s'\nset format x \"%m-%d\\n%H:%M\"\n"
			    "set xlabel 'finished (UTC)'\n");
		if (isfinite(c->mark_from) && isfinite(c->mark_to)) /* the reported day, shaded */
			sb_addf(gp, "set object 1 rect from first '%.0f', graph 0 to first '%.0f', graph 1 behind "
				    "fillcolor rgb '#e8eef8' fillstyle solid 1.0 noborder\n", c->mark_from, c->mark_to);
		if (e->xmax - e->xmin < 3600) /* one run, or one burst: an hour either side */
			sb_addf(gp, "set xrange ['%.0f':'%.0f']\n", floor(e->xmin) - 3600, ceil(e->xmax) + 3600);
	} else {
		sb_adds(gp, "set xlabel 'experiment'\nset offsets 0.5, 0.5, 0, 0\n");
		if (e->xmax - e->xmin < 1)
			sb_addf(gp, "set xrange [%.10g:%.10g]\n", e->xmin - 1, e->xmax + 1);
	}
}

static void plot_markers(sb *gp, const struct chart_spec *c, const struct extent *e, const char *sep)
{
	/* a key entry only for markers that are there */
	if (e->nhigh)
		sb_addf(gp, "%s'%s-outliers.dat' using 1:($3 > 0 ? $2 : NaN):4 with labels hypertext point lc rgb '#ff7f0e' pt 9 ps 1.1 "
			    "title 'off the top (outlier, diverged)'", sep, c->stem);
	if (e->nhigh)
		sep = ", \\\n  ";
	if (e->nout > e->nhigh)
		sb_addf(gp, "%s'%s-outliers.dat' using 1:($3 > 0 ? NaN : $2):4 with labels hypertext point lc rgb '#ff7f0e' pt 11 ps 1.1 "
			    "title 'off the bottom (outlier)'", sep, c->stem);
	if (e->nout > e->nhigh)
		sep = ", \\\n  ";
	if (e->nfailed)
		sb_addf(gp, "%s'%s-failed.dat' using 1:2:3 with labels hypertext point lc rgb '#d62728' pt 2 ps 0.9 title 'crash / invalid (no value)'",
			sep, c->stem);
}

/* Points of every class first, then every class's step line drawn over a
 * dark underlay, so dense clouds of runs in the same colour never hide a
 * frontier; crashes last, along the top. */
static void plot_timeline(sb *gp, const struct chart_spec *c, const int *plotted, const struct extent *e)
{
	const char *sep = "plot ";
	for (int g = 0; g < c->ngroups; g++) {
		if (!plotted[g])
			continue;
		/* hypertext: each point's column 5 is its tooltip in the SVG */
		sb_addf(gp, "%s'%s-runs-%d.dat' using 1:2:5 with labels hypertext point pt 7 ps 0.7 "
			    "lc rgb '%s' title columnheader(1)",
			sep, c->stem, g, chart_group_colour(c->groups[g]));
		sep = ", \\\n  ";
	}
	for (int g = 0; g < c->ngroups; g++)
		if (plotted[g])
			sb_addf(gp, "%s'%s-best-%d.dat' using 1:2 with steps lc rgb '#202020' lw 4 notitle, \\\n"
				    "  '' using 1:2 with steps lc rgb '%s' lw 2 notitle",
				sep, c->stem, g, chart_group_colour(c->groups[g]));
	plot_markers(gp, c, e, sep);
	sb_addc(gp, '\n');
}

static void plot_progress(sb *gp, const struct chart_spec *c, const int *plotted, const struct extent *e)
{
	const char *sep = "plot ";
	for (int g = 0; g < c->ngroups; g++) {
		if (!plotted[g])
			continue;
		sb_addf(gp, "%s'%s-runs-%d.dat' skip 1 using 1:($3 > 0 ? NaN : $2):5 with labels hypertext point lc rgb '#b0b0b0' pt 7 ps 0.7 title 'discarded', \\\n"
			    "  '' skip 1 using 1:($3 > 0 ? $2 : NaN):5 with labels hypertext point lc rgb '#2ca02c' pt 7 ps 1.1 title 'kept', \\\n"
			    "  '' skip 1 using 1:($3 > 0 ? $2 : NaN):4 with labels left offset 0.6,0.6 rotate by 20 font ',8' textcolor rgb '#2c662c' notitle, \\\n"
			    "  '%s-best-%d.dat' using 1:2 with steps lc rgb '#2ca02c' lw 2 title 'running best'",
			sep, c->stem, g, c->stem, g);
		sep = ", \\\n  ";
	}
	plot_markers(gp, c, e, sep);
	sb_addc(gp, '\n');
}

/* Where gnuplot is: $RUNLEDGER_GNUPLOT (a path or a name), else "gnuplot"
 * looked up in $PATH. NULL when it is not there. */
static char *find_gnuplot(void)
{
	const char *want = getenv("RUNLEDGER_GNUPLOT");
	if (!want || !*want)
		want = "gnuplot";
	if (strchr(want, '/'))
		return access(want, X_OK) == 0 ? xstrdup(want) : NULL;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	sb cand = SB_INIT;
	for (const char *p = path; ; ) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		sb_reset(&cand);
		sb_add(&cand, len ? p : ".", len ? len : 1);
		sb_addf(&cand, "/%s", want);
		if (access(cand.buf, X_OK) == 0)
			return sb_detach(&cand);
		if (!end)
			break;
		p = end + 1;
	}
	sb_release(&cand);
	return NULL;
}

/* How long gnuplot may take for one chart: $RUNLEDGER_GNUPLOT_TIMEOUT
 * seconds, default 60. A chart of a 10,000-run day takes well under a
 * second; a gnuplot that hangs (a broken font setup, a terminal waiting for
 * input) must not hang a report that an agent waits for. */
static double gnuplot_timeout_s(void)
{
	const char *env = getenv("RUNLEDGER_GNUPLOT_TIMEOUT");
	double s;
	if (env && *env && !parse_double(env, &s) && s > 0)
		return s;
	if (env && *env)
		rl_warn("RUNLEDGER_GNUPLOT_TIMEOUT '%s' is not a positive number of seconds; using 60", env);
	return 60;
}

/* Wait for pid up to limit_s seconds, polling (waitpid has no timeout);
 * kill it when the time is up. Returns what run_gnuplot returns. */
static int wait_or_kill(pid_t pid, double limit_s)
{
	const struct timespec tick = { 0, 2 * 1000 * 1000 };
	double start = mono_now();
	int st = 0;
	for (;;) {
		pid_t got = waitpid(pid, &st, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return 127;
		if (mono_now() - start >= limit_s) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			return GNUPLOT_TIMED_OUT;
		}
		nanosleep(&tick, NULL);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Run gnuplot SCRIPT in dir with its messages in LOG; returns the exit
 * status (127 when it could not be started, GNUPLOT_TIMED_OUT when it was
 * killed for taking longer than limit_s). */
static int run_gnuplot(const char *prog, const char *dir, const char *script, const char *log,
		       double limit_s)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (chdir(dir) == 0) {
			int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
			if (in >= 0 && out >= 0) {
				dup2(in, 0);
				dup2(out, 1);
				dup2(out, 2);
				execl(prog, "gnuplot", script, (char *)NULL);
			}
		}
		_exit(127);
	}
	return wait_or_kill(pid, limit_s);
}

/* gnuplot's SVG puts a hypertext label in a JavaScript handler
 * (onmousemove="gnuplot_svg.showHypertext(evt,'TEXT')") with an empty
 * <title>; an SVG shown as an <img> runs no script, so the text becomes
 * the <title> itself, which every browser shows on hover, and the handlers
 * go. TEXT is already escaped by gnuplot for XML (&amp;, &lt;). */
static int svg_tooltips(const char *dir, const char *stem)
{
	static const char head[] = "<g onmousemove=\"gnuplot_svg.showHypertext(evt,'";
	static const char tail[] = "')\" onmouseout=\"gnuplot_svg.hideHypertext()\"><title> </title>";
	sb path = SB_INIT, out = SB_INIT, name = SB_INIT;
	sb_addf(&path, "%s/%s.svg", dir, stem);
	char *svg = read_file(path.buf, NULL);
	int rc = -1;
	if (svg) {
		const char *p = svg, *h;
		while ((h = strstr(p, head))) {
			const char *text = h + strlen(head), *t = strstr(text, tail);
			if (!t)
				break;
			sb_add(&out, p, (size_t)(h - p));
			sb_adds(&out, "<g><title>");
			sb_add(&out, text, (size_t)(t - text));
			sb_adds(&out, "</title>");
			p = t + strlen(tail);
		}
		sb_adds(&out, p);
		sb_addf(&name, "%s.svg", stem);
		rc = out_write(dir, name.buf, out.buf, out.len);
	}
	free(svg);
	sb_release(&path);
	sb_release(&out);
	sb_release(&name);
	return rc;
}

static int skipped(const struct chart_spec *c, sb *md, const char *why)
{
	rl_warn("chart '%s' skipped: %s", c->stem, why);
	sb_adds(md, "_Chart skipped: ");
	md_escape(md, why);
	sb_adds(md, "._");
	return 1;
}

int chart_draw(const struct chart_spec *c, sb *md)
{
	struct extent e = measure(c);
	if (!e.nvalid) { /* nothing went wrong: there is nothing to draw */
		sb_adds(md, "_No chart: no valid measurement to plot._");
		return 0;
	}
	char *prog = find_gnuplot();
	if (!prog)
		return skipped(c, md, "gnuplot not found (install gnuplot-nox, or set RUNLEDGER_GNUPLOT)");
	sb dir = SB_INIT, gp = SB_INIT, name = SB_INIT, log = SB_INIT;
	int *plotted = xcalloc((size_t)c->ngroups + 1, sizeof(int));
	int rc = 1;
	sb_addf(&dir, "%s/charts", c->dir);
	if (out_mkdirs(dir.buf))
		goto io_fail;
	for (int g = 0; g < c->ngroups; g++)
		if (write_group(c, dir.buf, g, &e, &plotted[g]))
			goto io_fail;
	if (e.nfailed && write_failed(c, dir.buf, e.yfailed))
		goto io_fail;
	if (e.nout && write_outliers(c, dir.buf, &e))
		goto io_fail;
	script_head(&gp, c, &e);
	(c->kind == CHART_TIMELINE ? plot_timeline : plot_progress)(&gp, c, plotted, &e);
	sb_addf(&gp, "set terminal pngcairo size 900,540 noenhanced font 'sans,13' background '#ffffff'\n"
		     "set output '%s.png'\nreplot\n", c->stem);
	sb_addf(&name, "%s.gp", c->stem);
	if (out_write(dir.buf, name.buf, gp.buf, gp.len))
		goto io_fail;
	sb_addf(&log, "%s.log", c->stem);
	double limit_s = gnuplot_timeout_s();
	int st = run_gnuplot(prog, dir.buf, name.buf, log.buf, limit_s);
	if (st) {
		sb why = SB_INIT;
		if (st == GNUPLOT_TIMED_OUT)
			sb_addf(&why, "gnuplot did not finish in %g s and was stopped "
				"(RUNLEDGER_GNUPLOT_TIMEOUT); its messages are in charts/%s", limit_s, log.buf);
		else
			sb_addf(&why, "gnuplot failed (exit %d); its messages are in charts/%s", st, log.buf);
		skipped(c, md, why.buf);
		sb_release(&why);
		goto done;
	}
	sb_reset(&log);
	sb_addf(&log, "%s/%s.log", dir.buf, c->stem);
	unlink(log.buf);
	if (svg_tooltips(dir.buf, c->stem))
		goto io_fail;
	sb_adds(md, "![");
	md_escape(md, c->alt);
	sb_addf(md, "](charts/%s.svg)\n\n[PNG](charts/%s.png) · [gnuplot script](charts/%s.gp)",
		c->stem, c->stem, c->stem);
	rc = 0;
	goto done;
io_fail:
	skipped(c, md, "its data files could not be written");
done:
	free(plotted);
	free(prog);
	sb_release(&dir);
	sb_release(&gp);
	sb_release(&name);
	sb_release(&log);
	return rc;
}
