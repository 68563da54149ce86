/* cmd_quarantine.c — `ledger quarantine`: NOT YET IMPLEMENTED (placeholder so the command
 * table links; replace the whole file). */
#include "ledger.h"
#include "util.h"

int cmd_quarantine(int argc, char **argv, struct ledger_ctx *ctx)
{
	(void)ctx;
	if (wants_help(argc, argv)) {
		printf("usage: ledger quarantine (not implemented yet)\n");
		return EXIT_OK;
	}
	rl_error("quarantine: not implemented yet");
	return EXIT_USAGE;
}
