/* cmd_audit.c — `ledger audit`: NOT YET IMPLEMENTED (placeholder so the command
 * table links; replace the whole file). */
#include "ledger.h"
#include "util.h"

int cmd_audit(int argc, char **argv, struct ledger_ctx *ctx)
{
	(void)ctx;
	if (wants_help(argc, argv)) {
		printf("usage: ledger audit (not implemented yet)\n");
		return EXIT_OK;
	}
	rl_error("audit: not implemented yet");
	return EXIT_USAGE;
}
