/* cmd_show.c — `ledger show`: NOT YET IMPLEMENTED (placeholder so the command
 * table links; replace the whole file). */
#include "ledger.h"
#include "util.h"

int cmd_show(int argc, char **argv, struct ledger_ctx *ctx)
{
	(void)ctx;
	if (wants_help(argc, argv)) {
		printf("usage: ledger show (not implemented yet)\n");
		return EXIT_OK;
	}
	rl_error("show: not implemented yet");
	return EXIT_USAGE;
}
