/* realfmt.h — print a double as printf("%.17g") does, faster.
 *
 * The canonical text of a run record (common/runrec.c) prints every real
 * with 17 significant digits, and glibc's printf took ~1 us a number (its
 * arbitrary-precision path, the stream machinery). For the magnitudes run
 * records hold (about 1e-6 to 1e21) the digits are computed exactly in
 * 128-bit integers; anything else goes to snprintf. Same bytes either way
 * (tests/unit/test_bulk_realfmt.c compares them). Low-level: no jansson,
 * no allocation. */
#ifndef RL_REALFMT_H
#define RL_REALFMT_H
#include <stddef.h>

/* Writes the text and a NUL into buf (at least 32 bytes); returns its
 * length. */
int realfmt_g17(double v, char *buf, size_t size);

#endif
