/* prepare.c — `trainer prepare-data`: builds a byte-token corpus from
 * plain-text files (e.g. /usr/share/common-licenses, or the kernel's
 * Documentation tree from Debian's linux-source), cleans it, holds out a
 * fixed validation part and writes shards + manifest.json (format in
 * data.h). Deterministic: the same sources give the same bytes. Must not
 * touch the network or decompress anything (plain files only). */
#include <ftw.h>
#include <sys/stat.h>
#include <jansson.h>
#include "data.h"
#include "prepare.h"
#include "sb.h"
#include "sha256.h"
#include "util.h"

static const char usage[] =
	"usage: trainer prepare-data [--out DIR] [--name NAME] [--val-fraction F]\n"
	"                            [--max-bytes N] [--shard-bytes N] SOURCE…\n"
	"\n"
	"Build a byte-level corpus (vocabulary 256) from plain-text files. Each SOURCE is a\n"
	"file or a directory (walked recursively, symbolic links inside it skipped, files in\n"
	"byte order of their paths). Files with NUL bytes, invalid UTF-8 or more than 1%\n"
	"control characters are dropped; line endings become \\n; other control characters\n"
	"except tab are removed. The last --val-fraction of every document (cut at a line\n"
	"break) is held out for validation.\n"
	"\n"
	"  --out DIR           output directory (default data/sample)\n"
	"  --name NAME         data set name recorded in runs (default: DIR's last part)\n"
	"  --val-fraction F    held-out fraction of each document (default 0.1)\n"
	"  --max-bytes N       stop after N bytes of cleaned text (default: no limit)\n"
	"  --shard-bytes N     tokens per shard file (default 67108864)\n"
	"\n"
	"Writes DIR/train_NNN.bin, DIR/val_NNN.bin and DIR/manifest.json.\n";

struct prep {
	const char *out, *name;
	double val_fraction;
	long max_bytes, shard_bytes;
	char **files;
	size_t nfiles, cap;
	long kept, dropped, bytes_in;
	sb train, val;
};

static struct prep *walk_ctx; /* nftw has no user pointer */

static void add_file(struct prep *p, const char *path)
{
	if (p->nfiles == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->files = xrealloc(p->files, p->cap * sizeof(*p->files));
	}
	p->files[p->nfiles++] = xstrdup(path);
}

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (type == FTW_F && S_ISREG(st->st_mode))
		add_file(walk_ctx, path);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int collect(struct prep *p, char **sources, int n)
{
	struct stat st;
	for (int i = 0; i < n; i++) {
		if (stat(sources[i], &st)) {
			rl_error("prepare-data: '%s': %s", sources[i], strerror(errno));
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			size_t first = p->nfiles;
			walk_ctx = p;
			if (nftw(sources[i], walk_one, 16, FTW_PHYS)) {
				rl_error("prepare-data: cannot walk '%s': %s", sources[i], strerror(errno));
				return -1;
			}
			if (p->nfiles > first) /* an empty directory adds nothing (files may be NULL) */
				qsort(p->files + first, p->nfiles - first, sizeof(*p->files), cmp_str);
		} else {
			add_file(p, sources[i]);
		}
	}
	return 0;
}

/* Length of a valid UTF-8 sequence at s (1..4), 0 when invalid. */
static int utf8_len(const unsigned char *s, size_t n)
{
	int len = s[0] < 0x80 ? 1 : (s[0] >> 5) == 6 ? 2 : (s[0] >> 4) == 14 ? 3 : (s[0] >> 3) == 30 ? 4 : 0;
	if (!len || (size_t)len > n || (len == 2 && s[0] < 0xC2))
		return 0;
	for (int i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* 1 when the bytes look like text worth training on. */
static int is_text(const unsigned char *s, size_t n)
{
	size_t ctrl = 0;
	for (size_t i = 0; i < n;) {
		int len = utf8_len(s + i, n - i);
		if (!len || s[i] == 0)
			return 0;
		if (s[i] < 0x20 && s[i] != '\n' && s[i] != '\t' && s[i] != '\r' && s[i] != '\f')
			ctrl++;
		i += len;
	}
	return ctrl * 100 <= n;
}

/* Normalise line endings, drop control characters but tab and newline. */
static void clean(const unsigned char *s, size_t n, sb *out)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		if (c == '\r') {
			sb_addc(out, '\n');
			if (i + 1 < n && s[i + 1] == '\n')
				i++;
		} else if (c >= 0x20 || c == '\n' || c == '\t') {
			sb_addc(out, (char)c);
		}
	}
	if (out->len && out->buf[out->len - 1] != '\n')
		sb_addc(out, '\n');
}

/* Split one cleaned document: the tail after the first line break at or
 * beyond (1 - val_fraction) of it goes to validation. */
static void split_doc(struct prep *p, const sb *doc)
{
	size_t cut = (size_t)((1.0 - p->val_fraction) * doc->len);
	while (cut < doc->len && doc->buf[cut] != '\n')
		cut++;
	if (cut < doc->len)
		cut++;
	sb_add(&p->train, doc->buf, cut);
	sb_add(&p->val, doc->buf + cut, doc->len - cut);
}

static int read_sources(struct prep *p)
{
	sb doc = SB_INIT;
	for (size_t i = 0; i < p->nfiles; i++) {
		size_t len;
		char *text = read_file(p->files[i], &len);
		if (!text)
			return -1;
		p->bytes_in += (long)len;
		if (len == 0 || !is_text((unsigned char *)text, len)) {
			p->dropped++;
		} else {
			sb_reset(&doc);
			clean((unsigned char *)text, len, &doc);
			split_doc(p, &doc);
			p->kept++;
		}
		free(text);
		if (p->max_bytes > 0 && (long)(p->train.len + p->val.len) >= p->max_bytes)
			break;
	}
	sb_release(&doc);
	return 0;
}

/* Write tokens as shards of at most shard_bytes; add them to the manifest. */
static int write_split(struct prep *p, const sb *text, int split, json_t *shards)
{
	const char *sname = split == SPLIT_VAL ? "val" : "train";
	size_t off = 0;
	int k = 0;
	do {
		size_t n = text->len - off < (size_t)p->shard_bytes ? text->len - off : (size_t)p->shard_bytes;
		struct shard_header h = { SHARD_VERSION, 1, 256, (uint32_t)split, n };
		unsigned char head[SHARD_HEADER_BYTES];
		char file[64], path[4096 + 64], hex[65];
		sha256_ctx c;
		uint8_t dig[32];
		shard_header_encode(&h, head);
		snprintf(file, sizeof(file), "%s_%03d.bin", sname, k++);
		snprintf(path, sizeof(path), "%s/%s", p->out, file);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(head, 1, sizeof(head), f) != sizeof(head) ||
		    fwrite(text->buf + off, 1, n, f) != n || fclose(f)) {
			rl_error("prepare-data: cannot write '%s': %s", path, strerror(errno));
			return -1;
		}
		sha256_init(&c);
		sha256_update(&c, head, sizeof(head));
		sha256_update(&c, text->buf + off, n);
		sha256_final(&c, dig);
		sha256_to_hex(dig, hex);
		json_array_append_new(shards, json_pack("{s:s,s:s,s:I,s:s}", "file", file, "split",
							sname, "tokens", (json_int_t)n, "sha256", hex));
		off += n;
	} while (off < text->len);
	return 0;
}

static int write_manifest(struct prep *p, json_t *shards)
{
	char path[4096 + 32];
	json_t *m = json_pack("{s:s,s:s,s:s,s:i,s:O,s:{s:I,s:I,s:I,s:I,s:I}}", "format", "rlshard/1",
			      "name", p->name, "tokenizer", "bytes", "vocab_size", 256, "shards", shards,
			      "sources", "files", (json_int_t)p->kept, "dropped_files",
			      (json_int_t)p->dropped, "bytes_read", (json_int_t)p->bytes_in,
			      "train_bytes", (json_int_t)p->train.len, "val_bytes",
			      (json_int_t)p->val.len);
	snprintf(path, sizeof(path), "%s/manifest.json", p->out);
	int rc = json_dump_file(m, path, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(m);
	if (rc)
		rl_error("prepare-data: cannot write '%s'", path);
	return rc ? -1 : 0;
}

static int parse_args(struct prep *p, int argc, char **argv, int *first_source)
{
	int i;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		double d;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			exit(EXIT_OK);
		}
		if (!v) {
			rl_error("prepare-data: %s needs a value", a);
			return -1;
		}
		i++;
		if (!strcmp(a, "--out"))
			p->out = v;
		else if (!strcmp(a, "--name"))
			p->name = v;
		else if (!strcmp(a, "--val-fraction") && !parse_double(v, &d) && d > 0 && d < 1)
			p->val_fraction = d;
		else if (!strcmp(a, "--max-bytes") && !parse_long(v, &p->max_bytes) && p->max_bytes > 0)
			;
		else if (!strcmp(a, "--shard-bytes") && !parse_long(v, &p->shard_bytes) && p->shard_bytes > 0)
			;
		else {
			rl_error("prepare-data: bad option or value: %s %s", a, v);
			return -1;
		}
	}
	*first_source = i;
	if (i >= argc) {
		rl_error("prepare-data: no SOURCE given");
		return -1;
	}
	return 0;
}

int cmd_prepare_data(int argc, char **argv)
{
	struct prep p = { "data/sample", NULL, 0.1, 0, 64L << 20, NULL, 0, 0, 0, 0, 0, SB_INIT, SB_INIT };
	int first, rc = EXIT_FAILURE_RT;
	json_t *shards = json_array();
	if (parse_args(&p, argc, argv, &first)) {
		fputs(usage, stderr);
		json_decref(shards);
		return EXIT_USAGE;
	}
	if (!p.name) {
		const char *slash = strrchr(p.out, '/');
		p.name = slash && slash[1] ? slash + 1 : p.out;
	}
	if (mkdir(p.out, 0755) && errno != EEXIST) {
		rl_error("prepare-data: cannot create '%s': %s", p.out, strerror(errno));
		goto out;
	}
	if (collect(&p, argv + first, argc - first)) {
		rc = EXIT_USAGE; /* a SOURCE that is not there is unusable input */
		goto out;
	}
	if (read_sources(&p))
		goto out;
	if (p.train.len < 2 || p.val.len < 2) {
		rl_error("prepare-data: only %zu train and %zu validation bytes of text found", p.train.len,
			 p.val.len);
		rl_hint("give more text sources, e.g. /usr/share/common-licenses");
		rc = EXIT_USAGE;
		goto out;
	}
	if (write_split(&p, &p.train, SPLIT_TRAIN, shards) || write_split(&p, &p.val, SPLIT_VAL, shards) ||
	    write_manifest(&p, shards))
		goto out;
	fprintf(stderr, "trainer: prepare-data: %s: %ld files kept, %ld dropped, %zu train + %zu val bytes\n",
		p.out, p.kept, p.dropped, p.train.len, p.val.len);
	rc = EXIT_OK;
out:
	json_decref(shards);
	for (size_t i = 0; i < p.nfiles; i++)
		free(p.files[i]);
	free(p.files);
	sb_release(&p.train);
	sb_release(&p.val);
	return rc;
}
