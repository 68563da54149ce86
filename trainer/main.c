/* main.c — `trainer`: NOT YET IMPLEMENTED (placeholder so the build links). */
#include "util.h"

int main(int argc, char **argv)
{
	rl_progname = "trainer";
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: trainer (not implemented yet)\n");
		return EXIT_OK;
	}
	rl_error("not implemented yet");
	return EXIT_USAGE;
}
