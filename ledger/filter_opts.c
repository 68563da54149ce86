/* filter_opts.c — the run filters as a group of an option table
 * (common/opts.h), for the commands that take them; filter.c parses the
 * values (run_filter_take), this file only names the options for parsing,
 * --help, the man page and the completion. */
#include "filter.h"
#include "util.h"

static const struct opt filter_opts[] = {
	{ .name = "--agent", .id = 800, .type = OPT_STRING, .value = "NAME[,…]", .flags = OPT_OWN | OPT_REPEAT,
	  .help = "runs by this agent" },
	{ .name = "--campaign", .id = 801, .type = OPT_STRING, .value = "NAME[,…]", .flags = OPT_OWN | OPT_REPEAT,
	  .help = "runs of this campaign" },
	{ .name = "--hardware", .id = 802, .type = OPT_STRING, .value = "HW[,…]", .flags = OPT_OWN | OPT_REPEAT,
	  .help = "hardware class (H100, RTX 3090; any case), else a\nsubstring of the GPU name" },
	{ .name = "--tier", .id = 803, .type = OPT_STRING, .value = "TIER[,…]", .flags = OPT_OWN | OPT_REPEAT,
	  .choices = "small|medium|large|xl", .help = "VRAM tier: small, medium, large, xl" },
	{ .name = "--status", .id = 804, .type = OPT_LIST, .value = "S[,S…]", .flags = OPT_OWN | OPT_REPEAT,
	  .help = "ok, crash, oom, nan, timeout, killed, invalid, running,\n"
		  "lost (running past its budget + grace: no final record)" },
	{ .name = "--since", .id = 805, .type = OPT_DATE, .value = "DATE", .flags = OPT_OWN | OPT_REPEAT,
	  .help = "finished at or after the start of DATE" },
	{ .name = "--until", .id = 806, .type = OPT_DATE, .value = "DATE", .flags = OPT_OWN | OPT_REPEAT,
	  .help = "finished before the end of DATE\n"
		  "DATE: 2026-03-16[THH:MM[:SS]Z], 2026-03 (a month),\n"
		  "today, yesterday, now, -3d, -12h, -2w, -30m (UTC)" },
	{ .name = "--changed", .id = 807, .type = OPT_STRING, .value = "VAR", .flags = OPT_OWN | OPT_REPEAT,
	  .help = "changed VAR against its parent (glob: 'impl.*');\nrepeatable, all must match" },
	{ .name = "--where", .id = 808, .type = OPT_STRING, .value = "'KEY OP V'", .flags = OPT_OWN | OPT_REPEAT,
	  .help = "KEY: a config variable (model.depth), a metric\n"
		  "(val_bpb, metrics.NAME) or a run field (agent);\n"
		  "OP: < <= > >= = != ~ !~ (~: glob match);\n"
		  "repeatable, all must hold" },
};

const struct opt_group run_filter_opts = { "Filters (all that are given must hold; NAME[,NAME…] and a repeated option\nselect any of the names)", "FILTERS",
	filter_opts, ARRAY_SIZE(filter_opts) };

int run_filter_take_opt(struct run_filter *f, const struct opt_parser *p)
{
	if (!p->opt || p->opt->id < RUN_FILTER_OPT_FIRST || p->opt->id > RUN_FILTER_OPT_LAST)
		return 0;
	const char *cmd = p->cmd && p->cmd->name ? p->cmd->name : "";
	return run_filter_take(f, cmd, p->opt->name, p->val) ? -1 : 1;
}
