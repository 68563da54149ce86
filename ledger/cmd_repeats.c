/* cmd_repeats.c — `ledger repeats`: groups of repeat measurements (same
 * repeat_key) with their mean and spread, the noise floor of a setup. The
 * grouping lives in repeats.c, shared with audit and report; this file
 * parses options and renders. */
#include "ledger.h"
#include "repeats.h"
#include "util.h"

static const char usage[] =
	"usage: ledger repeats [--min-n N] [--metric NAME] [FILTERS]\n"
	"\n"
	"Groups of runs that measured the same thing: the same configuration on the\n"
	"same hardware class, where a run's configuration is its parent's plus its\n"
	"change set (seeds aside), and a seed-only change or a description that only\n"
	"says rerun/repeat/same config repeats the parent (docs/audit.md). With n,\n"
	"mean, sample sd (n-1), min, max and range of the\n"
	"metric over their valid runs (status ok). 'failed' counts the runs of the\n"
	"group without a valid measurement. Groups are listed by their first run.\n"
	"\n"
	"  --min-n N         only groups with at least N valid runs (default 2)\n"
	"  --metric NAME     metric (default val_bpb; others are read from the\n"
	"                    record's metrics)\n"
	"\n";

static int parse_args(int argc, char **argv, struct run_filter *filter, struct repeats_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *v;
		int r;
		long n;
		if ((r = run_filter_option(filter, "repeats", argc, argv, &i)) != 0) {
			if (r < 0)
				return -1;
		} else if ((r = option_value("repeats", argc, argv, &i, "--min-n", &v)) != 0) {
			if (r < 0)
				return -1;
			if (parse_long(v, &n) || n < 2 || n > 1000000) {
				rl_error("repeats: --min-n '%s' is not a count of 2 or more", v);
				return -1;
			}
			o->min_n = (int)n;
		} else if ((r = option_value("repeats", argc, argv, &i, "--metric", &v)) != 0) {
			if (r < 0)
				return -1;
			if (metric_name_check(v)) {
				rl_error("repeats: --metric '%s' is not a metric name", v);
				return -1;
			}
			o->metric = v;
		} else {
			rl_error("repeats: unknown option or argument '%s'", argv[i]);
			rl_hint("run 'ledger repeats --help'");
			return -1;
		}
	}
	return 0;
}

static void render(const struct repeats *rep, int prec, struct ledger_ctx *ctx)
{
	static const char *const names[] = { "hardware", "n", "failed", "mean", "sd", "min",
					     "max", "range", "description", "runs" };
	table t;
	table_init(&t, (int)ARRAY_SIZE(names), names);
	for (int k = 0; k < rep->n; k++) {
		const struct repeat_group *g = &rep->groups[k];
		int r = table_add_row(&t);
		table_set_text(&t, r, 0, g->hw_class);
		table_set_int(&t, r, 1, g->n);
		table_set_int(&t, r, 2, g->n_failed);
		table_set_num(&t, r, 3, g->mean, prec);
		table_set_num(&t, r, 4, g->sd, prec);
		table_set_num(&t, r, 5, g->min, prec);
		table_set_num(&t, r, 6, g->max, prec);
		table_set_num(&t, r, 7, g->max - g->min, prec);
		table_set_text(&t, r, 8, g->description);
		table_set_list(&t, r, 9, (const char *const *)g->run_ids, g->n, ",");
	}
	table_render(&t, ctx->fmt, stdout);
	table_release(&t);
}

int cmd_repeats(int argc, char **argv, struct ledger_ctx *ctx)
{
	if (wants_help(argc, argv)) {
		printf("%s%s", usage, run_filter_usage);
		return EXIT_OK;
	}
	struct run_filter filter;
	struct repeats_opts o = { &filter, NULL, 2 };
	struct repeats rep = { 0 };
	int rc = EXIT_USAGE;
	run_filter_init(&filter);
	if (parse_args(argc, argv, &filter, &o) ||
	    (rc = run_filter_check(&filter, ctx->db, "repeats")) != EXIT_OK ||
	    (rc = run_metric_check(o.metric, ctx->db, "repeats")) != EXIT_OK)
		goto done;
	rc = EXIT_FAILURE_RT;
	if (repeats_compute(ctx->db, &o, &rep))
		goto done;
	render(&rep, metric_precision(o.metric), ctx);
	rc = EXIT_OK;
done:
	repeats_release(&rep);
	run_filter_release(&filter);
	return rc;
}
