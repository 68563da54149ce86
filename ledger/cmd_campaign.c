/* cmd_campaign.c — `ledger campaign`: NOT YET IMPLEMENTED (placeholder so the command
 * table links; replace the whole file). */
#include "ledger.h"
#include "util.h"

int cmd_campaign(int argc, char **argv, struct ledger_ctx *ctx)
{
	(void)ctx;
	if (wants_help(argc, argv)) {
		printf("usage: ledger campaign (not implemented yet)\n");
		return EXIT_OK;
	}
	rl_error("campaign: not implemented yet");
	return EXIT_USAGE;
}
