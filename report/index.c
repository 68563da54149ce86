/* index.c — `report index`: rebuild DIR/index.html from the reports that
 * are in DIR. daily and campaign do this after every report; this command
 * is for a directory whose files were copied or deleted by hand. */
#include "output.h"
#include "html.h"
#include "report.h"
#include "util.h"

const struct opt_cmd cmd_index_spec = {
	.name = "index",
	.summary = "rebuild DIR/index.html linking every report in DIR",
	.about = "Rebuild DIR/index.html: a link to every daily digest (DIR/YYYY-MM-DD.html,\n"
		 "newest first) and campaign report (DIR/campaign-NAME.html) in DIR.\n",
	.groups = { &report_out_group },
};

int cmd_index(int argc, char **argv, struct report_ctx *ctx)
{
	struct report_opts o = { 0 };
	struct opt_parser p;
	int r;
	opts_begin(&p, &report_prog, &cmd_index_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r == OPTS_ERROR)
			return EXIT_USAGE;
		if (r == OPTS_ARG) {
			rl_error("index: unexpected argument '%s'", p.val);
			rl_hint("see 'report index --help'");
			return EXIT_USAGE;
		}
		report_take(&o, &p);
	}
	if (!o.out_dir) {
		rl_error("index: --out DIR is required");
		return EXIT_USAGE;
	}
	sb origin = SB_INIT;
	char *css = template_read("style.css", NULL, &origin);
	int rc = css && !html_write_index(o.out_dir, css) ? EXIT_OK : EXIT_FAILURE_RT;
	free(css);
	sb_release(&origin);
	return rc;
}
