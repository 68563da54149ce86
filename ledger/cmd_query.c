/* cmd_query.c — `ledger query`: NOT YET IMPLEMENTED (placeholder so the command
 * table links; replace the whole file). */
#include "ledger.h"
#include "util.h"

int cmd_query(int argc, char **argv, struct ledger_ctx *ctx)
{
	(void)ctx;
	if (wants_help(argc, argv)) {
		printf("usage: ledger query (not implemented yet)\n");
		return EXIT_OK;
	}
	rl_error("query: not implemented yet");
	return EXIT_USAGE;
}
