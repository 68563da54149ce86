/* test_data.c — trainer/data.c: loading a manifest and its shards, the
 * checks on them, and the batches cut from them.
 * Test plan: write a 2-byte-token train shard and a val shard by hand
 * (header from shard_header_encode, manifest with their sha256), load it,
 * and check exact tokens; batches: targets are inputs shifted by one, every
 * window lies inside the split, the same seed gives the same windows;
 * validation batches are consecutive and capped by eval_tokens; a wrong
 * sha256, a vocabulary mismatch and a missing manifest are refused. */
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "data.h"
#include "sb.h"
#include "sha256.h"
#include "util.h"
#include "check.h"

static char dir[] = "/tmp/rl-test-data-XXXXXX";

/* Write a shard of n tokens (width 2, value i*7 % vocab); return its sha256. */
static void write_shard(const char *name, int split, int n, int vocab, char hex[65])
{
	char path[256];
	unsigned char head[SHARD_HEADER_BYTES];
	struct shard_header h = { SHARD_VERSION, 2, (uint32_t)vocab, (uint32_t)split, (uint64_t)n };
	sb buf = SB_INIT;
	shard_header_encode(&h, head);
	sb_add(&buf, (char *)head, sizeof(head));
	for (int i = 0; i < n; i++) {
		int t = (i * 7) % vocab;
		sb_addc(&buf, (char)(t & 0xff));
		sb_addc(&buf, (char)(t >> 8));
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	fwrite(buf.buf, 1, buf.len, f);
	fclose(f);
	sha256_hex(buf.buf, buf.len, hex);
	sb_release(&buf);
}

static void write_manifest(int vocab, const char *train_sha, const char *val_sha)
{
	char path[256];
	json_t *m = json_pack("{s:s,s:s,s:i,s:[{s:s,s:s,s:s},{s:s,s:s,s:s}]}", "format", "rlshard/1",
			      "name", "hand", "vocab_size", vocab, "shards", "file", "train_000.bin",
			      "split", "train", "sha256", train_sha, "file", "val_000.bin", "split", "val",
			      "sha256", val_sha);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	json_dump_file(m, path, JSON_COMPACT);
	json_decref(m);
}

static void test_load_and_batches(void)
{
	char tr[65], va[65];
	struct dataset ds;
	write_shard("train_000.bin", SPLIT_TRAIN, 1000, 1000, tr);
	write_shard("val_000.bin", SPLIT_VAL, 300, 1000, va);
	write_manifest(1000, tr, va);
	CHECK("trainer-data-load-1", dataset_load(&ds, dir) == 0);
	CHECK("trainer-data-load-2", ds.ntrain == 1000 && ds.nval == 300 && ds.vocab_size == 1000 &&
	      !strcmp(ds.name, "hand"));
	CHECK("trainer-data-load-3", ds.train[999] == (999 * 7) % 1000 && ds.val[150] == (150 * 7) % 1000);

	int in[4 * 16], tg[4 * 16], in2[4 * 16], tg2[4 * 16], ok = 1;
	uint64_t s1 = 9, s2 = 9;
	data_train_batch(&ds, &s1, 4, 16, in, tg);
	data_train_batch(&ds, &s2, 4, 16, in2, tg2);
	for (int b = 0; b < 4; b++)
		for (int t = 0; t < 16; t++) {
			int i = b * 16 + t;
			ok &= tg[i] == (in[i] + 7) % 1000;       /* next token of the same stream */
			ok &= t == 0 || in[i] == tg[i - 1];
		}
	CHECK("trainer-data-batch-shift", ok);
	CHECK("trainer-data-batch-seed", !memcmp(in, in2, sizeof(in)) && !memcmp(tg, tg2, sizeof(tg)));

	CHECK("trainer-data-val-count", data_val_batches(&ds, 4, 16, 1000000) == 4); /* 299 / 64 */
	CHECK("trainer-data-val-cap", data_val_batches(&ds, 4, 16, 130) == 2);
	data_val_batch(&ds, 1, 4, 16, in, tg);
	CHECK("trainer-data-val-batch", in[0] == ds.val[64] && tg[63] == ds.val[128]);
	dataset_release(&ds);
}

static void test_refusals(void)
{
	char tr[65], va[65], path[256];
	struct dataset ds;
	write_shard("train_000.bin", SPLIT_TRAIN, 100, 256, tr);
	write_shard("val_000.bin", SPLIT_VAL, 50, 256, va);
	write_manifest(512, tr, va); /* manifest says 512, shards 256 */
	CHECK("trainer-data-refuse-vocab", dataset_load(&ds, dir) != 0 && strstr(ds.error, "does not match"));
	write_manifest(256, va, tr); /* hashes swapped */
	CHECK("trainer-data-refuse-sha", dataset_load(&ds, dir) != 0 && strstr(ds.error, "sha256"));
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK("trainer-data-refuse-missing", dataset_load(&ds, path) != 0 && strstr(ds.error, "cannot read"));
	write_manifest(256, tr, va);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	CHECK("trainer-data-accept-manifest-path", dataset_load(&ds, path) == 0 && ds.ntrain == 100);
	dataset_release(&ds);
}

int main(void)
{
	rl_progname = "test_data";
	if (!mkdtemp(dir))
		die("mkdtemp failed");
	test_load_and_batches();
	test_refusals();
	static const char *const files[] = { "train_000.bin", "val_000.bin", "manifest.json" };
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char path[256];
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
	return check_status();
}
