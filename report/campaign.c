/* campaign.c — placeholder */
#include "report.h"
#include "util.h"
int cmd_campaign(int argc, char **argv, struct report_ctx *ctx) { (void)argc; (void)argv; (void)ctx; return 2; }
