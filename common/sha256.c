/* sha256.c — SHA-256 from FIPS 180-4 section 6.2; see sha256.h. */
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

#define CH(e, f, g) (((e) & (f)) ^ (~(e) & (g)))
#define MAJ(a, b, c) (((a) & (b)) ^ ((a) & (c)) ^ ((b) & (c)))
#define SIGMA0(a) (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22))
#define SIGMA1(e) (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25))

/* Round i of 6.2.2 step 3 with the working variables renamed instead of
 * shifted: the round's new a lands in h and its new e in d, and the next
 * round names them so (eight rounds bring the names back). The same
 * arithmetic as the eight assignments of the text, without their moves:
 * 3.4k instructions a block instead of 4.0k (docs/ingest.md, sixth pass). */
#define ROUND(a, b, c, d, e, f, g, h, i)                                     \
	do {                                                                 \
		uint32_t t1 = (h) + SIGMA1(e) + CH(e, f, g) + K[i] + w[i];  \
		(d) += t1;                                                   \
		(h) = t1 + SIGMA0(a) + MAJ(a, b, c);                         \
	} while (0)

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
	for (int i = 0; i < 64; i += 8) {
		ROUND(a, b, c, d, e, f, g, hh, i);
		ROUND(hh, a, b, c, d, e, f, g, i + 1);
		ROUND(g, hh, a, b, c, d, e, f, i + 2);
		ROUND(f, g, hh, a, b, c, d, e, i + 3);
		ROUND(e, f, g, hh, a, b, c, d, i + 4);
		ROUND(d, e, f, g, hh, a, b, c, i + 5);
		ROUND(c, d, e, f, g, hh, a, b, i + 6);
		ROUND(b, c, d, e, f, g, hh, a, i + 7);
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
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
		compress(c->h, c->block);
		c->used = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		compress(c->h, p);
	memcpy(c->block, p, n);
	c->used = n;
}

void sha256_final(sha256_ctx *c, uint8_t out[32])
{
	/* 5.1.1: a 1 bit, zeros up to 56 bytes into a block (a block more
	 * when fewer than 9 bytes are left), the length in bits; written into
	 * the block, not fed byte by byte */
	uint64_t bits = c->nbytes * 8;
	c->block[c->used++] = 0x80; /* used < 64: update compresses a full block */
	if (c->used > 56) {
		memset(c->block + c->used, 0, 64 - c->used);
		compress(c->h, c->block);
		c->used = 0;
	}
	memset(c->block + c->used, 0, 56 - c->used);
	for (int i = 0; i < 8; i++)
		c->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	compress(c->h, c->block);
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
