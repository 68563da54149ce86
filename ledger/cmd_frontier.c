/* cmd_frontier.c — `ledger frontier`: NOT YET IMPLEMENTED (placeholder so the command
 * table links; replace the whole file). */
#include "ledger.h"
#include "util.h"

int cmd_frontier(int argc, char **argv, struct ledger_ctx *ctx)
{
	(void)ctx;
	if (wants_help(argc, argv)) {
		printf("usage: ledger frontier (not implemented yet)\n");
		return EXIT_OK;
	}
	rl_error("frontier: not implemented yet");
	return EXIT_USAGE;
}
