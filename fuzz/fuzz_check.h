/* fuzz_check.h — what every harness uses to stop on a broken property:
 * say what differed and abort(), which libFuzzer reports as a crash and
 * saves the input for. The message goes to stderr and, as a sanitizer
 * "SUMMARY:" line, to the report descriptor libFuzzer keeps when
 * -close_fd_mask has sent stderr to /dev/null (make fuzz runs so). */
#ifndef RL_FUZZ_CHECK_H
#define RL_FUZZ_CHECK_H
#include <sanitizer/common_interface_defs.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond, ...)                                                       \
	do {                                                                        \
		if (!(cond)) {                                                      \
			static char fuzz_msg_[4096];                                \
			int fuzz_n_ = snprintf(fuzz_msg_, sizeof fuzz_msg_,         \
					       "fuzz: %s:%d: property failed: %s: ",\
					       __FILE__, __LINE__, #cond);          \
			snprintf(fuzz_msg_ + fuzz_n_, sizeof fuzz_msg_ - (size_t)fuzz_n_, \
				 __VA_ARGS__);                                      \
			fprintf(stderr, "%s\n", fuzz_msg_);                         \
			__sanitizer_report_error_summary(fuzz_msg_);                \
			abort();                                                    \
		}                                                                   \
	} while (0)

#endif
