/* sha256.h — SHA-256 (FIPS 180-4), written from the specification.
 * Used for run-record identity, data-shard manifests and diff hashes.
 * Low-level: no allocation, no I/O. */
#ifndef RL_SHA256_H
#define RL_SHA256_H
#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
	uint32_t h[8];
	uint64_t nbytes;
	uint8_t block[64];
	size_t used;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
void sha256_final(sha256_ctx *c, uint8_t out[32]);
/* One-shot: hex digest (64 chars + NUL) of data. */
void sha256_hex(const void *data, size_t n, char hex[65]);
void sha256_to_hex(const uint8_t digest[32], char hex[65]);

#endif
