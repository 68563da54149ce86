/* test_sha256.c — common/sha256.c against FIPS 180-4's examples, and the
 * buffering of sha256_update: a text fed in pieces of any size hashes as
 * the whole text fed at once.
 *
 * Test plan:
 *   sha256-1.x  FIPS 180-4 examples ("abc", the 448-bit message, a million 'a')
 *   sha256-3.x  'a' repeated 55, 56, 63, 64 and 119 times: the padding's
 *               edges (one block or two; digests from coreutils sha256sum)
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
	static const struct { size_t n; const char *hex; } edges[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
	};
	static const char *const ids[] = { "sha256-3.1", "sha256-3.2", "sha256-3.3", "sha256-3.4",
					   "sha256-3.5" };
	char as[128];
	memset(as, 'a', sizeof(as));
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		sha256_hex(as, edges[i].n, hex);
		CHECK(ids[i], !strcmp(hex, edges[i].hex));
	}
	return check_status();
}
