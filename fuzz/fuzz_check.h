/* fuzz_check.h — what every harness uses to stop on a broken property:
 * print what differed and abort(), which libFuzzer reports as a crash and
 * saves the input for (crash-<sha1> in the working directory). */
#ifndef RL_FUZZ_CHECK_H
#define RL_FUZZ_CHECK_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond, ...)                                                       \
	do {                                                                        \
		if (!(cond)) {                                                      \
			fprintf(stderr, "fuzz: %s:%d: property failed: %s\n", __FILE__,  \
				__LINE__, #cond);                                   \
			fprintf(stderr, "fuzz: " __VA_ARGS__);                      \
			fputc('\n', stderr);                                        \
			abort();                                                    \
		}                                                                   \
	} while (0)

#endif
