/* sha256.c — SHA-256 from FIPS 180-4 section 6.2; see sha256.h. */
#include <stdlib.h>
#include <string.h>
#include "sha256.h"

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress(uint32_t h[8], const uint8_t p[64])
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t S1 = ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = hh + S1 + ch + K[i] + w[i];
		uint32_t S0 = ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = S0 + maj;
		hh = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

/* ---- SHA extensions (x86-64) -------------------------------------------
 * The same compression on the CPU's SHA-256 instructions, ~6x faster than
 * the loop above; every record's identity and repeat key goes through here.
 * The state is kept as the instructions want it, {A,B,E,F} and {C,D,G,H};
 * each SHA256RNDS2 does two rounds, so four message words take two calls.
 * Chosen at run time; the plain version stays the reference (the tests
 * check the digests on whichever path the machine takes). */
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI 1

/* CPUID directly: clang 14 does not know __builtin_cpu_supports("sha"). */
static int cpu_has_sha_ni(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3))
		return 0;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}

__attribute__((target("sha,sse4.1,ssse3")))
static void compress_ni(uint32_t h[8], const uint8_t p[64])
{
	/* words are big-endian: reverse the bytes of each 32-bit lane */
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
	__m128i abef0 = abef, cdgh0 = cdgh, w[16];

	for (int g = 0; g < 4; g++)
		w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), bswap);
	/* W[t..t+3] from W[t-16..t-1]: msg1 adds sigma0, the alignr gives
	 * W[t-7..t-4], msg2 adds sigma1 */
	for (int g = 4; g < 16; g++)
		w[g] = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w[g - 4], w[g - 3]),
							  _mm_alignr_epi8(w[g - 1], w[g - 2], 4)),
					    w[g - 1]);
	for (int g = 0; g < 16; g++) {
		__m128i wk = _mm_add_epi32(w[g], _mm_loadu_si128((const __m128i *)&K[4 * g]));
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);                        /* rounds 4g, 4g+1 */
		abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E)); /* 4g+2, 4g+3 */
	}
	abef = _mm_add_epi32(abef, abef0);
	cdgh = _mm_add_epi32(cdgh, cdgh0);

	__m128i feba = _mm_shuffle_epi32(abef, 0x1B);
	__m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}
#endif

/* RL_SHA256_PLAIN=1 in the environment forces the plain loop (to compare). */
static void compress_any(uint32_t h[8], const uint8_t p[64])
{
#ifdef HAVE_SHA_NI
	static int use_ni = -1; /* every thread computes the same value */
	int ni = __atomic_load_n(&use_ni, __ATOMIC_RELAXED);
	if (ni < 0) {
		const char *plain = getenv("RL_SHA256_PLAIN");
		ni = cpu_has_sha_ni() && !(plain && *plain == '1');
		__atomic_store_n(&use_ni, ni, __ATOMIC_RELAXED);
	}
	if (ni) {
		compress_ni(h, p);
		return;
	}
#endif
	compress(h, p);
}

void sha256_init(sha256_ctx *c)
{
	static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(c->h, iv, sizeof(iv));
	c->nbytes = 0;
	c->used = 0;
}

void sha256_update(sha256_ctx *c, const void *data, size_t n)
{
	const uint8_t *p = data;
	c->nbytes += n;
	if (c->used) {
		size_t take = 64 - c->used < n ? 64 - c->used : n;
		memcpy(c->block + c->used, p, take);
		c->used += take;
		p += take;
		n -= take;
		if (c->used < 64)
			return;
		compress_any(c->h, c->block);
		c->used = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		compress_any(c->h, p);
	memcpy(c->block, p, n);
	c->used = n;
}

void sha256_final(sha256_ctx *c, uint8_t out[32])
{
	uint64_t bits = c->nbytes * 8;
	uint8_t pad = 0x80, zero = 0, len[8];
	sha256_update(c, &pad, 1);
	while (c->used != 56)
		sha256_update(c, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_update(c, len, 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(c->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)c->h[i];
	}
}

void sha256_to_hex(const uint8_t d[32], char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < 32; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[64] = '\0';
}

void sha256_hex(const void *data, size_t n, char hex[65])
{
	sha256_ctx c;
	uint8_t d[32];
	sha256_init(&c);
	sha256_update(&c, data, n);
	sha256_final(&c, d);
	sha256_to_hex(d, hex);
}
