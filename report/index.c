/* index.c — `report index`: rebuild DIR/index.html from the reports that
 * are in DIR. daily and campaign do this after every report; this command
 * is for a directory whose files were copied or deleted by hand. */
#include "output.h"
#include "html.h"
#include "report.h"
#include "util.h"

static const char usage[] =
	"usage: report index --out DIR\n"
	"\n"
	"Rebuild DIR/index.html: a link to every daily digest (DIR/YYYY-MM-DD.html,\n"
	"newest first) and campaign report (DIR/campaign-NAME.html) in DIR.\n";

int cmd_index(int argc, char **argv, struct report_ctx *ctx)
{
	struct report_opts o = { 0 };
	if (wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		int r = report_option(&o, "index", argc, argv, &i);
		if (r < 0)
			return EXIT_USAGE;
		if (!r || o.template || o.limit) {
			rl_error("index: unexpected argument '%s'", argv[i]);
			fputs(usage, stderr);
			return EXIT_USAGE;
		}
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
