/* data.h — token shards, the data manifest, and batches for training and
 * evaluation. Owns the shard format; `trainer prepare-data` (prepare.c)
 * writes it, the CPU and CUDA paths read it through this interface.
 *
 * Shard file (little-endian), header 64 bytes then the tokens:
 *   offset size meaning
 *   0      8    magic "RLSHARD\0"
 *   8      4    version, 1
 *   12     4    token width in bytes: 1 (bytes) or 2 (room for BPE later)
 *   16     4    vocab_size: 256 for byte tokens
 *   20     4    split: 0 train, 1 val
 *   24     8    count: number of tokens that follow
 *   32     32   reserved, zero
 *   64     count*width  tokens
 *
 * Manifest (manifest.json next to the shards), the data's identity:
 *   {"format":"rlshard/1","name":"sample","tokenizer":"bytes","vocab_size":256,
 *    "shards":[{"file":"train_000.bin","split":"train","tokens":N,"sha256":"…"},…],
 *    "sources":{"files":K,"bytes":M,"dropped_files":D}}
 * A run's data identity is (name, sha256 of the manifest file's bytes); the
 * manifest holds each shard's sha256, so it pins every token. */
#ifndef RL_TRAINER_DATA_H
#define RL_TRAINER_DATA_H
#include <stddef.h>
#include <stdint.h>
#include "rng.h"

#define SHARD_MAGIC "RLSHARD"   /* 8 bytes with its NUL */
#define SHARD_VERSION 1
#define SHARD_HEADER_BYTES 64
enum { SPLIT_TRAIN = 0, SPLIT_VAL = 1 };

struct shard_header {
	uint32_t version, token_width, vocab_size, split;
	uint64_t count;
};

/* Encode / decode the 64-byte header. decode: 0 = ok, -1 with a message. */
void shard_header_encode(const struct shard_header *h, unsigned char out[SHARD_HEADER_BYTES]);
int shard_header_decode(const unsigned char in[SHARD_HEADER_BYTES], struct shard_header *h,
			const char *path);

struct dataset {
	char name[128];
	char sha256[65];       /* of manifest.json */
	char manifest[4096];   /* its path */
	int vocab_size;
	uint16_t *train, *val; /* tokens of each split, shards concatenated */
	size_t ntrain, nval;
	char error[512];       /* why dataset_load failed (also on stderr) */
};

/* Load manifest + shards; path is manifest.json or its directory. Checks
 * each shard's sha256 and header. 0 = ok; -1 with a message (errno ENOMEM
 * when memory ran out). */
int dataset_load(struct dataset *ds, const char *path);
void dataset_release(struct dataset *ds);

/* B random windows of T+1 train tokens: inputs (B,T), targets shifted by 1. */
void data_train_batch(const struct dataset *ds, uint64_t *rng, int B, int T, int *inputs,
		      int *targets);
/* Number of whole (B,T) validation batches within eval_tokens and the split. */
long data_val_batches(const struct dataset *ds, int B, int T, long eval_tokens);
/* Validation batch i: consecutive non-overlapping windows from the start. */
void data_val_batch(const struct dataset *ds, long i, int B, int T, int *inputs, int *targets);

#endif
