/* cmd_frontier.c — `ledger frontier`: the runs that moved the running best
 * per hardware class (or VRAM tier). The computation lives in frontier.c so
 * `report` draws the same frontier; this file parses options and renders. */
#include "frontier.h"
#include "ledger.h"
#include "util.h"

enum { O_BY = 1, O_METRIC, O_MAXIMIZE, O_ALL };
static const struct opt frontier_opts[] = {
	{ .name = "--by", .id = O_BY, .type = OPT_STRING, .value = "GROUP", .choices = "class|tier",
	  .flags = OPT_OWN, .help = "group by hardware class (default) or VRAM tier" },
	{ .name = "--metric", .id = O_METRIC, .type = OPT_STRING, .value = "NAME",
	  .help = "metric to follow (default val_bpb; others are read\nfrom the record's metrics)" },
	{ .name = "--maximize", .id = O_MAXIMIZE, .help = "higher is better (default: lower is better)" },
	{ .name = "--all", .id = O_ALL, .help = "discarded runs move the frontier too" },
};
static const struct opt_group frontier_group = { NULL, NULL, frontier_opts, ARRAY_SIZE(frontier_opts) };

const struct opt_cmd cmd_frontier_spec = {
	.name = "frontier",
	.summary = "running best per hardware class and the runs that moved it",
	.about = "The running best of a metric per hardware class, in time order, and the\n"
		 "runs that moved it, each with its gain over the previous best of its class.\n"
		 "Only valid measurements count (status ok, metric present), and runs with\n"
		 "decision 'discard' do not move it (kept, baseline and undecided runs do).\n"
		 "Runs are taken\n"
		 "by finished time, then ingest order; runs without a time come last, in\n"
		 "ingest order.\n",
	.groups = { &frontier_group, &archived_opts, &run_filter_opts },
};

struct frontier_args {
	struct run_filter filter;
	struct frontier_opts opts;
};

static int parse_by(const char *v, enum frontier_by *by)
{
	if (!strcmp(v, "class") || !strcmp(v, "hardware"))
		*by = FRONTIER_BY_CLASS;
	else if (!strcmp(v, "tier"))
		*by = FRONTIER_BY_TIER;
	else {
		rl_error("frontier: --by '%s' is not a grouping", v);
		rl_hint("use --by class or --by tier");
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct frontier_args *a)
{
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_frontier_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR || run_filter_take_opt(&a->filter, &p) < 0)
			return -1;
		if (r == OPTS_ARG) {
			rl_error("frontier: unexpected argument '%s'", p.val);
			rl_hint("frontier takes options only; run 'ledger frontier --help'");
			return -1;
		} else if (r == O_BY) {
			if (parse_by(p.val, &a->opts.by))
				return -1;
		} else if (r == O_METRIC) {
			if (metric_name_check(p.val)) {
				rl_error("frontier: --metric '%s' is not a metric name", p.val);
				return -1;
			}
			a->opts.metric = p.val;
		} else if (r == O_MAXIMIZE) {
			a->opts.maximize = 1;
		} else if (r == O_ALL) {
			a->opts.all = 1;
		}
	}
	return 0;
}

static void render(const struct frontier *f, const struct frontier_opts *o, struct ledger_ctx *ctx)
{
	const char *metric = o->metric ? o->metric : "val_bpb";
	int tier = o->by == FRONTIER_BY_TIER, prec = metric_precision(o->metric);
	/* --by tier adds the tier before the hardware class */
	const char *names[8];
	int nc = 0;
	names[nc++] = "run_id";
	if (tier)
		names[nc++] = "tier";
	names[nc++] = "hardware";
	names[nc++] = metric;
	names[nc++] = "delta";
	names[nc++] = "agent";
	names[nc++] = "description";
	names[nc++] = "finished_at";
	table t;
	table_init(&t, nc, names);
	for (int k = 0; k < f->n; k++) {
		const struct frontier_point *p = &f->pts[k];
		int r = table_add_row(&t), c = 0;
		table_set_text(&t, r, c++, p->row.run_id);
		if (tier)
			table_set_text(&t, r, c++, p->group);
		table_set_text(&t, r, c++, tier ? p->row.hw_class : p->group);
		table_set_num(&t, r, c++, p->value, prec);
		table_set_num(&t, r, c++, p->delta, prec);
		table_set_text(&t, r, c++, p->row.agent);
		table_set_text(&t, r, c++, p->row.description);
		table_set_text(&t, r, c++, p->row.finished_at);
	}
	table_render(&t, ctx->fmt, stdout);
	table_release(&t);
}

int cmd_frontier(int argc, char **argv, struct ledger_ctx *ctx)
{
	struct frontier_args a;
	memset(&a, 0, sizeof(a));
	run_filter_init(&a.filter);
	a.opts.filter = &a.filter;
	int rc = EXIT_USAGE;
	struct frontier f = { 0 };
	if (parse_args(argc, argv, &a) ||
	    (rc = run_filter_check(&a.filter, ctx->db, "frontier")) != EXIT_OK ||
	    (rc = run_metric_check(a.opts.metric, ctx->db, "frontier")) != EXIT_OK)
		goto done;
	rc = EXIT_FAILURE_RT;
	if (frontier_compute(ctx->db, &a.opts, &f))
		goto done;
	render(&f, &a.opts, ctx);
	rc = EXIT_OK;
done:
	frontier_release(&f);
	run_filter_release(&a.filter);
	return rc;
}
