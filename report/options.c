/* options.c — the options every report command shares (--out, --template,
 * --limit, --decimals, --no-charts); see struct report_opts in report.h. */
#include "fmt.h"
#include "report.h"
#include "util.h"

/* "--name VALUE" or "--name=VALUE"; returns the value or NULL. */
static const char *opt_value(const char *name, int argc, char **argv, int *i, int *bad)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		*bad = 1;
		return NULL;
	}
	return argv[++*i];
}

int report_option(struct report_opts *o, const char *cmd, int argc, char **argv, int *i)
{
	int bad = 0;
	const char *v;
	if (!strcmp(argv[*i], "--no-charts")) {
		o->charts = 0;
		return 1;
	}
	if ((v = opt_value("--out", argc, argv, i, &bad))) {
		o->out_dir = v;
		return 1;
	}
	if (!bad && (v = opt_value("--template", argc, argv, i, &bad))) {
		o->template = v;
		return 1;
	}
	if (!bad && (v = opt_value("--limit", argc, argv, i, &bad))) {
		long n;
		if (parse_long(v, &n) || n < 0 || n > 1000000000) {
			rl_error("%s: --limit '%s' is not a row count", cmd, v);
			rl_hint("give a number of rows, or 0 for all");
			return -1;
		}
		o->limit = (int)n;
		return 1;
	}
	if (!bad && (v = opt_value("--decimals", argc, argv, i, &bad))) {
		long n;
		if (parse_long(v, &n) || n < 0 || n > 12) {
			rl_error("%s: --decimals '%s' is not a number of decimals", cmd, v);
			rl_hint("give 0 to 12, e.g. --decimals 6");
			return -1;
		}
		fmt_set_decimals((int)n);
		return 1;
	}
	if (bad) {
		rl_error("%s: option '%s' needs a value", cmd, argv[*i]);
		return -1;
	}
	return 0;
}
