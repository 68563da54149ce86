/* data.c — shard headers, manifest loading and batches (data.h). Reads
 * only; `trainer prepare-data` (prepare.c) writes. Every shard is checked
 * against the sha256 the manifest gives before a token is used. */
#include <errno.h>
#include <jansson.h>
#include "data.h"
#include "sha256.h"
#include "util.h"

/* rl_error that also keeps the message for the run record. */
static void data_error(struct dataset *ds, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void data_error(struct dataset *ds, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ds->error, sizeof(ds->error), fmt, ap);
	va_end(ap);
	rl_error("%s", ds->error);
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

void shard_header_encode(const struct shard_header *h, unsigned char out[SHARD_HEADER_BYTES])
{
	memset(out, 0, SHARD_HEADER_BYTES);
	memcpy(out, SHARD_MAGIC, sizeof(SHARD_MAGIC));
	put32(out + 8, h->version);
	put32(out + 12, h->token_width);
	put32(out + 16, h->vocab_size);
	put32(out + 20, h->split);
	put64(out + 24, h->count);
}

int shard_header_decode(const unsigned char in[SHARD_HEADER_BYTES], struct shard_header *h,
			const char *path)
{
	if (memcmp(in, SHARD_MAGIC, sizeof(SHARD_MAGIC))) {
		rl_error("%s: not a token shard (bad magic)", path);
		return -1;
	}
	h->version = get32(in + 8);
	h->token_width = get32(in + 12);
	h->vocab_size = get32(in + 16);
	h->split = get32(in + 20);
	h->count = get64(in + 24);
	if (h->version != SHARD_VERSION) {
		rl_error("%s: shard version %u is not supported (expected %d)", path, h->version,
			 SHARD_VERSION);
		return -1;
	}
	if (h->token_width != 1 && h->token_width != 2) {
		rl_error("%s: token width %u is not 1 or 2", path, h->token_width);
		return -1;
	}
	return 0;
}

/* Path of the manifest: path itself if it is a file, else path/manifest.json. */
static void manifest_path(const char *path, char *out, size_t n)
{
	if (str_ends_with(path, ".json"))
		snprintf(out, n, "%s", path);
	else
		snprintf(out, n, "%s/manifest.json", path);
}

/* Append one shard's tokens (checked) to *toks. */
static int load_shard(struct dataset *ds, const char *dir, json_t *sh, uint16_t **toks, size_t *ntok)
{
	const char *file = json_string_value(json_object_get(sh, "file"));
	const char *want = json_string_value(json_object_get(sh, "sha256"));
	char path[4096 + 256], hex[65];
	struct shard_header h;
	size_t len;
	if (!file || !want || strchr(file, '/')) {
		data_error(ds, "%s: a shard lacks 'file' or 'sha256' (or 'file' has a '/')", ds->manifest);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	unsigned char *buf = (unsigned char *)read_file(path, &len);
	if (!buf) {
		snprintf(ds->error, sizeof(ds->error), "cannot read shard '%.400s'", path);
		return -1;
	}
	int rc = -1;
	sha256_hex(buf, len, hex);
	if (strcmp(hex, want)) {
		data_error(ds, "%s: sha256 %.12s… does not match the manifest's %.12s…", path, hex, want);
		goto out;
	}
	if (len < SHARD_HEADER_BYTES || shard_header_decode(buf, &h, path)) {
		snprintf(ds->error, sizeof(ds->error), "%.400s: not a valid token shard", path);
		goto out;
	}
	if ((int)h.vocab_size != ds->vocab_size || len != SHARD_HEADER_BYTES + h.count * h.token_width) {
		data_error(ds, "%s: header (vocab %u, %llu tokens) does not match the file or manifest",
			 path, h.vocab_size, (unsigned long long)h.count);
		goto out;
	}
	uint16_t *grown = realloc(*toks, (*ntok + h.count + 1) * sizeof(uint16_t));
	if (!grown) {
		errno = ENOMEM;
		data_error(ds, "%s: out of memory for %llu tokens", path, (unsigned long long)h.count);
		goto out;
	}
	*toks = grown;
	const unsigned char *p = buf + SHARD_HEADER_BYTES;
	for (uint64_t i = 0; i < h.count; i++)
		grown[*ntok + i] = h.token_width == 1 ? p[i] : (uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
	*ntok += h.count;
	rc = 0;
out:
	free(buf);
	return rc;
}

int dataset_load(struct dataset *ds, const char *path)
{
	json_error_t je;
	size_t len;
	memset(ds, 0, sizeof(*ds));
	manifest_path(path, ds->manifest, sizeof(ds->manifest));
	char *text = read_file(ds->manifest, &len);
	if (!text) {
		snprintf(ds->error, sizeof(ds->error), "cannot read '%.400s': %s", ds->manifest, strerror(errno));
		rl_hint("prepare data first: trainer prepare-data --out %s SOURCE…", path);
		return -1;
	}
	sha256_hex(text, len, ds->sha256);
	json_t *man = json_loadb(text, len, 0, &je);
	free(text);
	if (!man) {
		data_error(ds, "%s:%d: invalid JSON: %s", ds->manifest, je.line, je.text);
		return -1;
	}
	int rc = -1;
	const char *name = json_string_value(json_object_get(man, "name"));
	json_t *shards = json_object_get(man, "shards");
	ds->vocab_size = (int)json_integer_value(json_object_get(man, "vocab_size"));
	if (!name || !json_is_array(shards) || ds->vocab_size < 2) {
		data_error(ds, "%s: manifest lacks 'name', 'vocab_size' or 'shards'", ds->manifest);
		goto out;
	}
	snprintf(ds->name, sizeof(ds->name), "%s", name);
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", ds->manifest);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	size_t i;
	json_t *sh;
	json_array_foreach(shards, i, sh) {
		const char *split = json_string_value(json_object_get(sh, "split"));
		int val = split && !strcmp(split, "val");
		if (load_shard(ds, dir, sh, val ? &ds->val : &ds->train,
			       val ? &ds->nval : &ds->ntrain))
			goto out;
	}
	rc = 0;
out:
	json_decref(man);
	if (rc) {
		char keep[sizeof(ds->error)];
		memcpy(keep, ds->error, sizeof(keep));
		dataset_release(ds);
		memcpy(ds->error, keep, sizeof(keep));
	}
	return rc;
}

void dataset_release(struct dataset *ds)
{
	free(ds->train);
	free(ds->val);
	ds->train = ds->val = NULL;
	ds->ntrain = ds->nval = 0;
}

void data_train_batch(const struct dataset *ds, uint64_t *rng, int B, int T, int *inputs,
		      int *targets)
{
	size_t span = ds->ntrain - (size_t)T; /* windows of T+1 tokens */
	for (int b = 0; b < B; b++) {
		size_t start = (size_t)(rng_next(rng) % span);
		for (int t = 0; t < T; t++) {
			inputs[b * T + t] = ds->train[start + t];
			targets[b * T + t] = ds->train[start + t + 1];
		}
	}
}

long data_val_batches(const struct dataset *ds, int B, int T, long eval_tokens)
{
	size_t per = (size_t)B * T, avail = ds->nval > 0 ? ds->nval - 1 : 0;
	size_t want = (size_t)eval_tokens < avail ? (size_t)eval_tokens : avail;
	return (long)(want / per);
}

void data_val_batch(const struct dataset *ds, long i, int B, int T, int *inputs, int *targets)
{
	size_t base = (size_t)i * B * T;
	for (int j = 0; j < B * T; j++) {
		inputs[j] = ds->val[base + j];
		targets[j] = ds->val[base + j + 1];
	}
}
