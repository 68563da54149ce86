/* test_sha256.c — common/sha256.c against FIPS 180-4's examples, and the
 * buffering of sha256_update: a text fed in pieces of any size hashes as
 * the whole text fed at once.
 *
 * Test plan:
 *   sha256-1.x  FIPS 180-4 examples ("abc", the 448-bit message, a million 'a')
 *   sha256-2.1  2,000 buffers of lengths 0..4,000, fed in random pieces of
 *               1..130 bytes (crossing block edges): the one-shot digest */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "sha256.h"

static uint64_t x = 88172645463325252ULL;

static uint64_t next(void)
{
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return x;
}

/* 1 when every buffer's digest in pieces equals its one-shot digest. */
static int pieces_agree(void)
{
	static uint8_t buf[4001];
	for (int i = 0; i < 2000; i++) {
		size_t len = (size_t)(i < 200 ? i : (i * 7919) % 4001), done = 0;
		for (size_t j = 0; j < len; j++)
			buf[j] = (uint8_t)next();
		sha256_ctx c;
		uint8_t d[32];
		char hex[65], whole[65];
		sha256_init(&c);
		while (done < len) {
			size_t n = 1 + (size_t)(next() % 130);
			if (n > len - done)
				n = len - done;
			sha256_update(&c, buf + done, n);
			done += n;
		}
		sha256_final(&c, d);
		sha256_to_hex(d, hex);
		sha256_hex(buf, len, whole);
		if (strcmp(hex, whole)) {
			fprintf(stderr, "length %zu: %s in pieces, %s at once\n", len, hex, whole);
			return 0;
		}
	}
	return 1;
}

int main(void)
{
	char hex[65];
	sha256_hex("abc", 3, hex);
	CHECK("sha256-1.1", !strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_hex(two, strlen(two), hex);
	CHECK("sha256-1.2", !strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
	char *million = malloc(1000000);
	memset(million, 'a', 1000000);
	sha256_hex(million, 1000000, hex);
	CHECK("sha256-1.3", !strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
	free(million);
	CHECK("sha256-2.1", pieces_agree());
	return check_status();
}
