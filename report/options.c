/* options.c — the options every report command shares (--out, --template,
 * --limit, --decimals, --no-charts, --archived) as groups of an option table
 * (common/opts.h); see struct report_opts in report.h. */
#include "annot.h"
#include "fmt.h"
#include "report.h"
#include "util.h"

static const struct opt out_opt[] = {
	{ .name = "--out", .id = REPORT_OPT_OUT, .type = OPT_STRING, .value = "DIR",
	  .flags = OPT_DIR | OPT_REQUIRED, .help = "output directory (created when missing)" },
};
const struct opt_group report_out_group = { NULL, NULL, out_opt, ARRAY_SIZE(out_opt) };

static const struct opt shared_opts[] = {
	{ .name = "--template", .id = REPORT_OPT_TEMPLATE, .type = OPT_STRING, .value = "FILE",
	  .flags = OPT_FILE, .help = "markdown template (default: the command's, templates/NAME.md)" },
	{ .name = "--limit", .id = REPORT_OPT_LIMIT, .type = OPT_INT, .value = "N", .lo = 0, .hi = 1000000000,
	  .help = "rows per long table (default 50; 0 = all)", .bad = "is not a row count",
	  .hint = "give a number of rows, or 0 for all" },
	{ .name = "--decimals", .id = REPORT_OPT_DECIMALS, .type = OPT_INT, .value = "N", .lo = 0, .hi = 12,
	  .help = "decimals of metric values (default 4)", .bad = "is not a number of decimals",
	  .hint = "give 0 to 12, e.g. --decimals 6" },
	{ .name = "--no-charts", .id = REPORT_OPT_NO_CHARTS, .help = "do not run gnuplot" },
	{ .name = "--archived", .id = REPORT_OPT_ARCHIVED,
	  .help = "take archived runs in (left out by default, as 'ledger archive' asks)" },
};
const struct opt_group report_shared_group = { "Report options", NULL, shared_opts, ARRAY_SIZE(shared_opts) };

int report_take(struct report_opts *o, const struct opt_parser *p)
{
	switch (p->opt ? p->opt->id : 0) {
	case REPORT_OPT_OUT: o->out_dir = p->val; return 1;
	case REPORT_OPT_TEMPLATE: o->template = p->val; return 1;
	case REPORT_OPT_LIMIT: o->limit = (int)p->num; return 1;
	case REPORT_OPT_DECIMALS: fmt_set_decimals((int)p->num); return 1;
	case REPORT_OPT_NO_CHARTS: o->charts = 0; return 1;
	case REPORT_OPT_ARCHIVED: o->archived = 1; return 1;
	}
	return 0;
}

/* The runs view main.c set up hides archived runs; --archived makes it
 * show every run again (ledger/annot.h). */
int report_apply_archived(const struct report_opts *o, sqlite3 *db)
{
	return o->archived ? annot_view(db, ANNOT_WITH_ARCHIVED) : 0;
}
