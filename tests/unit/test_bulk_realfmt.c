/* test_bulk_realfmt.c — common/realfmt.c, the "%.17g" printer behind the
 * canonical text (and so every run's identity), part of the ingest
 * throughput work.
 * Test plan: the same bytes as snprintf("%.17g") for hand-picked values
 * (zero, signs, powers of ten at the switch to exponent notation, the
 * largest and smallest doubles, exact halfway cases that round to even,
 * values that round up to the next power of ten), for every m * 2^e and
 * m * 10^e over a grid, and for 300,000 random values: bit patterns,
 * decimals read with strtod as records carry them, dyadic fractions. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "realfmt.h"
#include "check.h"

static uint64_t state = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	state ^= state << 13; /* xorshift64 */
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static long compared, differed;

static void compare(double v)
{
	char got[64], want[64];
	int n = realfmt_g17(v, got, sizeof(got));
	snprintf(want, sizeof(want), "%.17g", v);
	compared++;
	if (strcmp(got, want) || n != (int)strlen(want)) {
		if (differed < 5)
			printf("#   %a: got '%s', printf '%s'\n", v, got, want);
		differed++;
	}
}

static void test_hand_picked(void)
{
	static const double v[] = {
		0.0, 1.0, 0.1, 0.04, 1.2457, 300.1, 0.5, 1.5, 2.5, 2.0 / 3,
		1e-4, 1e-5, 9.99999e-5, 1e15, 1e16, 1e17, 9.9999999999999998e16,
		12345678901234567.0, 123456789012345678.0, 1e21, 1e22, 1e23,
		5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
		2.98023223876953125e-08, /* 2^-25: 18 digits ending in 5, a tie */
		0.99999999999999999, 9.99999999999999999, 299792458.0, 1e-6, 1e-7,
	};
	long before = differed;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		compare(v[i]);
		compare(-v[i]);
	}
	compare(-0.0);
	CHECK("realfmt-1", differed == before);
	char buf[64];
	CHECK("realfmt-2", realfmt_g17(0.04, buf, sizeof(buf)) == 20 &&
				   !strcmp(buf, "0.040000000000000001"));
	CHECK("realfmt-3", realfmt_g17(1e-5, buf, sizeof(buf)) &&
				   !strcmp(buf, "1.0000000000000001e-05"));
	CHECK("realfmt-4", realfmt_g17(1e17, buf, sizeof(buf)) && !strcmp(buf, "1e+17"));
	CHECK("realfmt-5", realfmt_g17(-2.5, buf, sizeof(buf)) && !strcmp(buf, "-2.5"));
}

static void test_grid(void)
{
	long before = differed;
	for (int e = -90; e <= 90; e++)
		for (int m = 1; m <= 1500; m++) {
			compare(ldexp(m, e));
			compare(m * pow(10, e / 3));
		}
	CHECK("realfmt-6", differed == before);
}

static void test_random(void)
{
	long before = differed;
	for (int i = 0; i < 100000; i++) {
		uint64_t bits = next();
		double d;
		memcpy(&d, &bits, sizeof(d));
		compare(d); /* NaN and infinities too: the snprintf fallback */
		char text[48];
		snprintf(text, sizeof(text), "%llu.%llue%d", (unsigned long long)(next() % 100000),
			 (unsigned long long)(next() % 100000), (int)(next() % 40) - 20);
		compare(strtod(text, NULL));
		compare(ldexp((double)(next() >> 11), (int)(next() % 200) - 150));
	}
	CHECK("realfmt-7", differed == before);
	CHECK("realfmt-8", compared > 800000);
}

int main(void)
{
	test_hand_picked();
	test_grid();
	test_random();
	return check_status();
}
