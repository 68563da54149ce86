/* cmd_repeats.c — `ledger repeats`: groups of repeat measurements (same
 * repeat_key) with their mean and spread, the noise floor of a setup. The
 * grouping lives in repeats.c, shared with audit and report; this file
 * parses options and renders. */
#include "ledger.h"
#include "repeats.h"
#include "util.h"

enum { O_MIN_N = 1, O_METRIC };
static const struct opt repeats_opts[] = {
	{ .name = "--min-n", .id = O_MIN_N, .type = OPT_INT, .value = "N", .lo = 2, .hi = 1000000,
	  .help = "only groups with at least N valid runs (default 2)", .bad = "is not a count of 2 or more" },
	{ .name = "--metric", .id = O_METRIC, .type = OPT_STRING, .value = "NAME",
	  .help = "metric (default val_bpb; others are read from the\nrecord's metrics)" },
};
static const struct opt_group repeats_group = { NULL, NULL, repeats_opts, ARRAY_SIZE(repeats_opts) };

const struct opt_cmd cmd_repeats_spec = {
	.name = "repeats",
	.summary = "groups of repeat measurements with n, mean, sd",
	.about = "Groups of runs that measured the same thing: the same configuration on the\n"
		 "same hardware class, where a run's configuration is its parent's plus its\n"
		 "change set (seeds aside), and a seed-only change or a description that only\n"
		 "says rerun/repeat/same config repeats the parent (docs/audit.md). With n,\n"
		 "mean, sample sd (n-1), min, max and range of the\n"
		 "metric over their valid runs (status ok). 'failed' counts the runs of the\n"
		 "group without a valid measurement. Groups are listed by their first run.\n",
	.groups = { &repeats_group, &archived_opts, &run_filter_opts },
};

static int parse_args(int argc, char **argv, struct run_filter *filter, struct repeats_opts *o)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_repeats_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR || run_filter_take_opt(filter, &p) < 0)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("repeats: unexpected argument '%s'", p.val);
			rl_hint("repeats takes options only; run 'ledger repeats --help'");
			return -1;
		} else if (r == O_MIN_N) {
			o->min_n = (int)p.num;
		} else if (r == O_METRIC) {
			if (metric_name_check(p.val)) {
				rl_error("repeats: --metric '%s' is not a metric name", p.val);
				return -1;
			}
			o->metric = p.val;
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
