/* realfmt.c — printf("%.17g") without printf; see realfmt.h.
 *
 * A finite nonzero double is m * 2^e exactly (m < 2^53). Its 17
 * significant digits are D = round(|v| * 10^p) with p = 16 - k, k the
 * decimal exponent, D in [10^16, 10^17): with m * 10^p and 2^-e (or m * 2^e
 * and 10^-p) as the two sides of a fraction of 128-bit integers, quotient
 * and remainder are exact, and a remainder of exactly half rounds to even,
 * as glibc does in the default rounding mode. When a side would not fit 128
 * bits (tiny or huge magnitudes), zero, subnormals, infinities and NaN,
 * snprintf prints instead. Then %g's layout: fixed notation for exponents
 * -4..16, else d.ddde±XX; trailing zeros of the fraction dropped. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "realfmt.h"

typedef unsigned __int128 u128;

#define MAX_POW10 22 /* 10^22 * 2^53 < 2^127 */

static u128 pow10_u128(int p)
{
	static const uint64_t small[] = { 1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
					  1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
					  10000000000ULL, 100000000000ULL, 1000000000000ULL,
					  10000000000000ULL, 100000000000000ULL,
					  1000000000000000ULL, 10000000000000000ULL,
					  100000000000000000ULL, 1000000000000000000ULL,
					  10000000000000000000ULL };
	return p <= 19 ? small[p] : (u128)small[19] * small[p - 19];
}

static int bits128(u128 x)
{
	uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
	if (hi)
		return 128 - __builtin_clzll(hi);
	return lo ? 64 - __builtin_clzll(lo) : 0;
}

/* num / den for m * 2^e * 10^p; 0 when a side would overflow. */
static int fraction(uint64_t m, int e, int p, u128 *num, u128 *den)
{
	if (p > MAX_POW10 || p < -MAX_POW10)
		return 0;
	*num = p >= 0 ? (u128)m * pow10_u128(p) : m;
	*den = p >= 0 ? 1 : pow10_u128(-p);
	if (e >= 0) {
		if (bits128(*num) + e > 127)
			return 0;
		*num <<= e;
	} else {
		if (bits128(*den) - e > 127)
			return 0;
		*den <<= -e;
	}
	return 1;
}

/* The 17 significant digits of m * 2^e and its decimal exponent. */
static int digits17(uint64_t m, int e, uint64_t *digits, int *k)
{
	const u128 lo = pow10_u128(16), hi = pow10_u128(17);
	/* log10(2) * binary exponent: the decimal exponent or one below it */
	int kk = (int)((e + 52) * 0.30102999566398120 + (e + 52 < 0 ? -1 : 0));
	for (int tries = 0; tries < 4; tries++) {
		u128 num, den;
		if (!fraction(m, e, 16 - kk, &num, &den))
			return 0;
		/* den is a power of two unless p < 0 (|v| >= 1e17): shift then */
		u128 q, r;
		if ((den & (den - 1)) == 0) {
			int sh = bits128(den) - 1;
			q = num >> sh;
			r = num & (den - 1);
		} else {
			q = num / den;
			r = num % den;
		}
		if (q >= hi) {
			kk++;
			continue;
		}
		if (q < lo) {
			kk--;
			continue;
		}
		if (r > den - r || (r == den - r && (q & 1)))
			q++;
		if (q == hi) {
			q = lo;
			kk++;
		}
		*digits = (uint64_t)q;
		*k = kk;
		return 1;
	}
	return 0;
}

/* %g's layout of "d.dddd…" (17 digits in s) times 10^k. */
static int layout(int neg, const char s[17], int k, char *buf)
{
	int nd = 17, n = 0;
	while (nd > 1 && s[nd - 1] == '0')
		nd--; /* %g drops the fraction's trailing zeros */
	if (neg)
		buf[n++] = '-';
	if (k < -4 || k >= 17) {
		buf[n++] = s[0];
		if (nd > 1) {
			buf[n++] = '.';
			memcpy(buf + n, s + 1, (size_t)nd - 1);
			n += nd - 1;
		}
		int x = k < 0 ? -k : k;
		buf[n++] = 'e';
		buf[n++] = k < 0 ? '-' : '+';
		if (x >= 100)
			buf[n++] = (char)('0' + x / 100);
		buf[n++] = (char)('0' + x / 10 % 10);
		buf[n++] = (char)('0' + x % 10);
		buf[n] = '\0';
		return n;
	}
	if (k < 0) {
		buf[n++] = '0';
		buf[n++] = '.';
		for (int i = 0; i < -k - 1; i++)
			buf[n++] = '0';
		memcpy(buf + n, s, (size_t)nd);
		n += nd;
	} else {
		memcpy(buf + n, s, (size_t)k + 1);
		n += k + 1;
		if (nd > k + 1) {
			buf[n++] = '.';
			memcpy(buf + n, s + k + 1, (size_t)(nd - k - 1));
			n += nd - k - 1;
		}
	}
	buf[n] = '\0';
	return n;
}

int realfmt_g17(double v, char *buf, size_t size)
{
	uint64_t bits, digits;
	int k;
	memcpy(&bits, &v, sizeof(bits));
	int biased = (int)(bits >> 52 & 0x7ff);
	uint64_t m = (bits & ((1ULL << 52) - 1)) | 1ULL << 52;
	if (size < 32 || biased == 0 || biased == 0x7ff || !digits17(m, biased - 1075, &digits, &k))
		return snprintf(buf, size, "%.17g", v);
	char s[17];
	for (int i = 16; i >= 0; i--, digits /= 10)
		s[i] = (char)('0' + digits % 10);
	return layout((int)(bits >> 63), s, k, buf);
}
