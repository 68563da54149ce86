/* test_common.c — common/: string builder, SHA-256, time parsing, globs,
 * hardware table, run-record validation and identity, table rendering.
 * Test plan: known-answer vectors for SHA-256 (FIPS 180-4 examples), round
 * trips for time; a string map grown well past its first size against a
 * plain count array; UTF-8 validity against jansson's own on 200,000
 * random byte strings; one valid and several broken records (each error names
 * its field), identity invariance under key order/whitespace; numbers that
 * underflow found beside strings, escapes, arrays and nesting, and set null
 * (never the wrong one); parse_double_range's edges; excerpts cut whole;
 * list cells in json and text; messages as JSON lines, exact bytes;
 * json_same: numbers by value at any depth, every other difference kept. */
#include <unistd.h>
#include <jansson.h>
#include "hw.h"
#include "jsontext.h"
#include "runrec.h"
#include "sb.h"
#include "sha256.h"
#include "strmap.h"
#include "suggest.h"
#include "utf8.h"
#include "table.h"
#include "termtext.h"
#include "util.h"
#include "check.h"

static void test_sb(void)
{
	sb s = SB_INIT;
	CHECK("common-sb-1", s.buf && s.buf[0] == '\0');
	for (int i = 0; i < 1000; i++)
		sb_addf(&s, "%d,", i);
	CHECK("common-sb-2", s.len == strlen(s.buf) && str_starts_with(s.buf, "0,1,2,"));
	CHECK("common-sb-3", str_ends_with(s.buf, "999,"));
	sb_release(&s);
	CHECK("common-sb-4", s.len == 0 && s.buf[0] == '\0');
}

static void test_sha256(void)
{
	char hex[65];
	sha256_hex("abc", 3, hex);
	CHECK("common-sha-1", !strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	sha256_hex("", 0, hex);
	CHECK("common-sha-2", !strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_hex(two, strlen(two), hex);
	CHECK("common-sha-3", !strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
	/* incremental updates across block boundaries give the same digest */
	sha256_ctx c;
	uint8_t d[32];
	char hex2[65];
	sha256_init(&c);
	for (size_t i = 0; i < strlen(two); i += 7)
		sha256_update(&c, two + i, strlen(two) - i < 7 ? strlen(two) - i : 7);
	sha256_final(&c, d);
	sha256_to_hex(d, hex2);
	CHECK("common-sha-4", !strcmp(hex, hex2));
}

static void test_time(void)
{
	double t;
	char buf[32];
	CHECK("common-time-1", parse_iso_utc("2026-03-16T04:00:00Z", &t) == 0 && t == 1773633600.0);
	format_iso_utc(t, buf, sizeof(buf));
	CHECK("common-time-2", !strcmp(buf, "2026-03-16T04:00:00Z"));
	CHECK("common-time-3", parse_iso_utc("2026-03-16", &t) == 0 && t == 1773619200.0);
	CHECK("common-time-4", parse_iso_utc("2026-03-16T06:00:00+02:00", &t) == 0 && t == 1773633600.0);
	CHECK("common-time-5", parse_iso_utc("yesterday", &t) != 0);
	CHECK("common-time-6", parse_iso_utc("2026-13-01", &t) != 0);
	/* fuzz_arh: completed_at 5.5e77 was cast to time_t (undefined) */
	format_iso_utc(5.55556e77, buf, sizeof(buf));
	CHECK("common-time-7", !strcmp(buf, ""));
	format_iso_utc(NAN, buf, sizeof(buf));
	CHECK("common-time-8", !strcmp(buf, ""));
	format_iso_utc(253402300799.0, buf, sizeof(buf));
	CHECK("common-time-9", !strcmp(buf, "9999-12-31T23:59:59Z"));
}

static void test_glob(void)
{
	CHECK("common-glob-1", glob_match("impl.*", "impl.attention"));
	CHECK("common-glob-2", !glob_match("impl.*", "model.depth"));
	CHECK("common-glob-3", glob_match("*lr", "optim.matrix_lr"));
	CHECK("common-glob-4", glob_match("model.dept?", "model.depth"));
}

static void test_hw(void)
{
	char buf[64];
	CHECK("common-hw-1", !strcmp(hw_class("NVIDIA H100 80GB HBM3", buf, sizeof(buf)), "H100"));
	CHECK("common-hw-2", !strcmp(hw_class("NVIDIA GeForce RTX 3090", buf, sizeof(buf)), "RTX 3090"));
	CHECK("common-hw-3", !strcmp(hw_class("NVIDIA A100-SXM4-40GB", buf, sizeof(buf)), "A100"));
	CHECK("common-hw-4", !strcmp(hw_class("NVIDIA A10G", buf, sizeof(buf)), "A10G"));
	CHECK("common-hw-5", !strcmp(hw_class("Quadro RTX 5000", buf, sizeof(buf)), "Quadro RTX 5000"));
	CHECK("common-hw-6", !strcmp(hw_class("AMD Instinct MI300X", buf, sizeof(buf)), "MI300X"));
	CHECK("common-hw-7", !strcmp(hw_class("Apple M4 Max", buf, sizeof(buf)), "Apple M4 Max"));
	CHECK("common-hw-8", !strcmp(hw_class("  Mystery GPU 9000 ", buf, sizeof(buf)), "Mystery GPU 9000"));
	CHECK("common-hw-9", !strcmp(hw_class(NULL, buf, sizeof(buf)), "unknown"));
	CHECK("common-hw-10", !strcmp(hw_class("NVIDIA H200", buf, sizeof(buf)), "H200"));
	CHECK("common-hw-11", !strcmp(hw_class("NVIDIA B200", buf, sizeof(buf)), "B200"));
	CHECK("common-hw-12", !strcmp(hw_class("NVIDIA GeForce RTX 4090", buf, sizeof(buf)), "RTX 4090"));
	CHECK("common-hw-13", !strcmp(hw_vram_tier(hw_mem_gb("NVIDIA A100-SXM4-40GB", 0)), "large"));
	CHECK("common-hw-14", !strcmp(hw_vram_tier(hw_mem_gb("NVIDIA H100 80GB HBM3", 0)), "xl"));
	CHECK("common-hw-15", !strcmp(hw_vram_tier(hw_mem_gb("x", 24576)), "medium"));
	CHECK("common-hw-16", !strcmp(hw_vram_tier(16), "small") && hw_vram_tier(0) == NULL);
	hw_info hi;
	CHECK("common-hw-17", hw_lookup("Mystery GPU", &hi) == -1 && hi.peak_bf16_tflops == 0);
	CHECK("common-hw-18", hw_lookup("NVIDIA H100 PCIe", &hi) == 0 && hi.peak_bf16_tflops < 900);
}

static json_t *parse(const char *text)
{
	sb err = SB_INIT;
	json_t *r = runrec_parse(text, strlen(text), &err);
	sb_release(&err);
	return r;
}

static int validate_msg(const char *text, const char *want_substring)
{
	sb err = SB_INIT;
	json_t *r = runrec_parse(text, strlen(text), &err);
	int ok = r && runrec_validate(r, &err) != 0 && strstr(err.buf, want_substring);
	if (!ok)
		printf("#   got: %s\n", err.buf);
	json_decref(r);
	sb_release(&err);
	return ok;
}

static void test_runrec(void)
{
	const char *good = "{\"schema\":\"runrec/1\",\"run_id\":\"a1\",\"status\":\"ok\","
			   "\"started_at\":\"2026-03-16T04:00:00Z\",\"hardware\":{\"gpu_name\":\"NVIDIA H200\",\"gpu_count\":1},"
			   "\"config\":{\"model.depth\":8,\"impl.recompute\":false},\"metrics\":{\"val_bpb\":1.2457}}";
	json_t *r = parse(good);
	sb err = SB_INIT;
	CHECK("common-runrec-1", r && runrec_validate(r, &err) == 0);
	CHECK("common-runrec-2", validate_msg("{\"schema\":\"runrec/2\",\"status\":\"ok\"}", "field 'schema'"));
	CHECK("common-runrec-3", validate_msg("{\"schema\":\"runrec/1\",\"status\":\"fine\"}", "field 'status': 'fine' is not one of"));
	CHECK("common-runrec-4", validate_msg("{\"schema\":\"runrec/1\",\"status\":\"ok\",\"metrics\":{\"val_bpb\":\"abc\"}}", "field 'metrics.val_bpb': expected a number"));
	CHECK("common-runrec-5", validate_msg("{\"schema\":\"runrec/1\",\"status\":\"ok\",\"config\":{\"a\":[1]}}", "field 'config.a'"));
	CHECK("common-runrec-6", validate_msg("{\"schema\":\"runrec/1\"}", "field 'status': is required"));
	CHECK("common-runrec-7", validate_msg("{\"schema\":\"runrec/1\",\"status\":\"ok\",\"started_at\":\"noon\"}", "field 'started_at'"));
	CHECK("common-runrec-8", validate_msg("{\"schema\":\"runrec/1\",\"status\":\"crash\",\"failure\":{\"phase\":\"lunch\"}}", "field 'failure.phase'"));
	CHECK("common-runrec-9", validate_msg("{\"schema\":\"runrec/1\",\"status\":\"ok\",\"hardware\":{\"gpu_mem_mb\":\"lots\"}}", "field 'hardware.gpu_mem_mb'"));
	/* identity ignores key order and whitespace */
	json_t *r2 = parse("{ \"metrics\" : {\"val_bpb\":1.2457}, \"config\":{\"impl.recompute\":false,\"model.depth\":8},"
			   "\"hardware\":{\"gpu_count\":1,\"gpu_name\":\"NVIDIA H200\"},\"started_at\":\"2026-03-16T04:00:00Z\","
			   "\"status\":\"ok\",\"run_id\":\"a1\",\"schema\":\"runrec/1\"}");
	char h1[65], h2[65];
	runrec_identity(r, h1);
	runrec_identity(r2, h2);
	CHECK("common-runrec-10", !strcmp(h1, h2));
	json_object_set_new(r2, "description", json_string("other"));
	runrec_identity(r2, h2);
	CHECK("common-runrec-11", strcmp(h1, h2) != 0);
	json_object_del(r2, "run_id");
	runrec_ensure_id(r2);
	CHECK("common-runrec-12", str_starts_with(runrec_str(r2, "run_id"), "r-") && strlen(runrec_str(r2, "run_id")) == 18);
	CHECK("common-runrec-13", runrec_metric(r, "val_bpb") == 1.2457 && isnan(runrec_metric(r, "mfu")));
	CHECK("common-runrec-14", parse("[1,2]") == NULL && parse("{\"a\":1,\"a\":2}") == NULL);
	/* append writes one line per record */
	char path[] = "/tmp/rl-test-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	CHECK("common-runrec-15", runrec_append(path, r) == 0 && runrec_append(path, r2) == 0);
	size_t len;
	char *text = read_file(path, &len);
	int lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	CHECK("common-runrec-16", lines == 2);
	free(text);
	unlink(path);
	json_decref(r);
	json_decref(r2);
	sb_release(&err);
}

/* runrec_supersedes: a final record may replace its running record only
 * by filling in what was null; nothing else replaces anything. */
static void test_supersedes(void)
{
	const char *start = "{\"schema\":\"runrec/1\",\"run_id\":\"t-1\",\"status\":\"running\","
			    "\"started_at\":\"2026-03-16T04:00:00Z\",\"finished_at\":null,\"metrics\":null,"
			    "\"budget\":{\"seconds\":300.0},\"config\":{\"model.depth\":8}}";
	const char *final = "{\"schema\":\"runrec/1\",\"run_id\":\"t-1\",\"status\":\"killed\","
			    "\"started_at\":\"2026-03-16T04:00:00Z\",\"finished_at\":\"2026-03-16T04:01:00Z\","
			    "\"metrics\":{\"num_steps\":3},\"budget\":{\"seconds\":300.0},"
			    "\"config\":{\"model.depth\":8},\"failure\":{\"phase\":\"forward\"}}";
	json_t *s = parse(start), *f = parse(final);
	sb err = SB_INIT;
	CHECK("common-supersede-1", s && f && runrec_validate(s, &err) == 0 && runrec_validate(f, &err) == 0);
	sb_release(&err);
	CHECK("common-supersede-2", runrec_supersedes(f, s) == 1);
	CHECK("common-supersede-3", runrec_supersedes(s, f) == 0); /* never the other way */
	CHECK("common-supersede-4", runrec_supersedes(f, f) == 0); /* a final record is final */
	CHECK("common-supersede-5", runrec_supersedes(s, s) == 0); /* running over running */
	json_t *f2 = json_deep_copy(f);
	json_object_set_new(json_object_get(f2, "config"), "model.depth", json_integer(9));
	CHECK("common-supersede-6", runrec_supersedes(f2, s) == 0); /* changed what start said */
	json_object_set_new(f2, "config", json_pack("{s:i}", "model.depth", 8));
	json_object_set_new(f2, "run_id", json_string("t-2"));
	CHECK("common-supersede-7", runrec_supersedes(f2, s) == 0); /* another run */
	json_object_set_new(f2, "run_id", json_string("t-1"));
	json_object_del(f2, "budget");
	CHECK("common-supersede-8", runrec_supersedes(f2, s) == 0); /* dropped what start said */
	json_decref(s);
	json_decref(f);
	json_decref(f2);
}

static void test_table(void)
{
	static const char *const cols[] = { "run_id", "val_bpb", "description" };
	table t;
	table_init(&t, 3, cols);
	int r = table_add_row(&t);
	table_set_text(&t, r, 0, "a1");
	table_set_num(&t, r, 1, 1.2457, 6);
	table_set_text(&t, r, 2, "depth 8 | 9, \"quoted\"\n<script>");
	r = table_add_row(&t);
	table_set_text(&t, r, 0, "a2");
	char path[] = "/tmp/rl-table-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w+");
	table_render(&t, FMT_CSV, f);
	table_render(&t, FMT_MD, f);
	table_render(&t, FMT_JSON, f);
	fclose(f);
	char *text = read_file(path, NULL);
	CHECK("common-table-1", strstr(text, "a1,1.245700,\"depth 8 | 9, \"\"quoted\"\"\n<script>\"\r\n") != NULL);
	CHECK("common-table-2", strstr(text, "| a1 | 1.245700 | depth 8 \\| 9, \"quoted\" &lt;script&gt; |") != NULL);
	CHECK("common-table-3", strstr(text, "\"val_bpb\": 1.2457,") != NULL && strstr(text, "\"val_bpb\": null") != NULL);
	free(text);
	unlink(path);
	table_release(&t);
}

/* Streaming gives the same bytes as one render, whatever the flush points. */
static char *render_to_string(table *t, enum out_format fmt, int stream_every)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (stream_every < 0) {
		table_render(t, fmt, f);
	} else {
		/* rebuild the rows one by one, flushing every stream_every rows */
		table s;
		table_init(&s, t->ncols, (const char *const *)t->cols);
		table_stream_begin(&s, fmt, f);
		for (int r = 0; r < t->nrows; r++) {
			int row = table_add_row(&s);
			for (int c = 0; c < t->ncols; c++) {
				const cell *x = &t->cells[(size_t)r * t->ncols + c];
				if (x->type == CELL_TEXT)
					table_set_text(&s, row, c, x->text);
				else if (x->type == CELL_NUM)
					table_set_num(&s, row, c, x->num, x->prec);
				else if (x->type == CELL_INT)
					table_set_int(&s, row, c, (long long)x->num);
			}
			if (stream_every && s.nrows >= stream_every)
				table_stream_flush(&s);
		}
		table_stream_end(&s);
		table_release(&s);
	}
	fclose(f);
	return buf;
}

static void test_table_stream(void)
{
	static const char *const cols[] = { "id", "v", "text" };
	static const enum out_format fmts[] = { FMT_TABLE, FMT_TSV, FMT_CSV, FMT_JSON, FMT_MD };
	for (int rows = 0; rows <= 7; rows += 7) {
		table t;
		table_init(&t, 3, cols);
		for (int i = 0; i < rows; i++) {
			int r = table_add_row(&t);
			table_set_int(&t, r, 0, i);
			table_set_num(&t, r, 1, i == 3 ? NAN : 1.0 / (i + 1), 4);
			table_set_text(&t, r, 2, i % 2 ? "a, \"b\"\n|c" : NULL);
		}
		for (size_t f = 0; f < ARRAY_SIZE(fmts); f++) {
			char *whole = render_to_string(&t, fmts[f], -1);
			for (int every = 0; every <= 3; every++) {
				char *streamed = render_to_string(&t, fmts[f], every);
				char id[48];
				snprintf(id, sizeof(id), "common-table-stream-%d.%zu.%d", rows, f, every);
				if (!CHECK(id, !strcmp(whole, streamed)))
					printf("#   whole:\n%s#   streamed:\n%s", whole, streamed);
				free(streamed);
			}
			free(whole);
		}
		table_release(&t);
	}
}

/* List cells: the JSON array in json, the joined text elsewhere; an empty
 * list is [] in json and an empty cell in text, a NULL text a null. */
static void test_table_lists(void)
{
	static const char *const cols[] = { "runs", "choices", "none", "written" };
	static const char *const ids[] = { "q20-01", "q\"2" };
	table t;
	table_init(&t, 4, cols);
	int r = table_add_row(&t);
	table_set_list(&t, r, 0, ids, 2, ",");
	table_set_split(&t, r, 1, "relu|gelu", "|");
	table_set_split(&t, r, 2, "", ",");
	table_set_json(&t, r, 3, json_false(), "no");
	r = table_add_row(&t);
	table_set_list(&t, r, 0, ids, 0, ",");
	table_set_split(&t, r, 1, NULL, "|");
	char *json = render_to_string(&t, FMT_JSON, -1);
	char *tsv = render_to_string(&t, FMT_TSV, -1);
	json_t *v = json_loads(json, 0, NULL);
	char *compact = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
	CHECK("common-table-list-1", compact && !strcmp(compact,
		"[{\"runs\":[\"q20-01\",\"q\\\"2\"],\"choices\":[\"relu\",\"gelu\"],\"none\":[],\"written\":false},"
		"{\"runs\":[],\"choices\":null,\"none\":null,\"written\":null}]"));
	CHECK("common-table-list-2", !strcmp(tsv, "runs\tchoices\tnone\twritten\nq20-01,q\"2\trelu|gelu\t\tno\n\t\t\t\n"));
	free(compact);
	json_decref(v);
	free(json);
	free(tsv);
	table_release(&t);
}

/* Messages as JSON: each a line of its own on stderr, hint, candidates and
 * detail on the message before, errors held until rl_finish and written
 * with its status, a warning as soon as the next message starts; quotes,
 * control characters and invalid UTF-8 escaped. */
static void test_messages_json(void)
{
	char path[] = "/tmp/rl-msg-XXXXXX";
	int fd = mkstemp(path);
	fflush(stderr);
	int saved = dup(2);
	dup2(fd, 2);
	rl_messages_json(1);
	rl_error("no run '%s'", "a\"b\t\xff");
	rl_hint("give %s", "more");
	rl_candidate("r-1", "  #1  r-1");
	rl_candidate("r-2", "  #2  r-2");
	rl_detail("  \xe2\x80\xa6 and 3 more");
	rl_warn("late");
	rl_note("waiting");
	int status = rl_finish(2);
	rl_messages_json(0);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	char *text = read_file(path, NULL);
	CHECK("common-msg-json-1", status == 2);
	if (!CHECK("common-msg-json-2", text && !strcmp(text,
		"{\"warning\": \"late\", \"hint\": null, \"program\": \"runledger\"}\n"
		"{\"note\": \"waiting\", \"hint\": null, \"program\": \"runledger\"}\n"
		"{\"error\": \"no run 'a\\\"b\\t\\ufffd'\", \"hint\": \"give more\", \"exit\": 2, "
		"\"program\": \"runledger\", \"candidates\": [\"r-1\",\"r-2\"], "
		"\"detail\": [\"  \xe2\x80\xa6 and 3 more\"]}\n")))
		printf("#   got:\n%s", text ? text : "(nothing)\n");
	free(text);
	unlink(path);
}

/* 5,000 keys, each seen i % 7 + 1 times in an interleaved order: every
 * count right after many grows, new keys report created, clear forgets. */
static void test_strmap(void)
{
	struct strmap m = STRMAP_INIT;
	enum { N = 5000 };
	static int want[N];
	char key[32];
	int wrong = 0, created_ok = 1;
	for (int round = 0; round < 7; round++)
		for (int i = 0; i < N; i++) {
			if (i % 7 < round)
				continue;
			snprintf(key, sizeof(key), "key-%d", i);
			int created;
			struct strmap_slot *s = strmap_get(&m, key, &created);
			if (created != (want[i] == 0))
				created_ok = 0;
			s->v.n++;
			want[i]++;
		}
	for (int i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "key-%d", i);
		if (strmap_get(&m, key, NULL)->v.n != want[i] || want[i] != i % 7 + 1)
			wrong++;
	}
	CHECK("strmap-1", wrong == 0);
	CHECK("strmap-2", created_ok);
	CHECK("strmap-3", m.used == N && m.cap >= 2 * N);
	CHECK("strmap-3.1", strmap_find(&m, "key-4999") && strmap_find(&m, "key-4999")->v.n == 4999 % 7 + 1);
	CHECK("strmap-3.2", strmap_find(&m, "key-5000") == NULL && m.used == N);
	strmap_clear(&m);
	int created;
	CHECK("strmap-4", m.used == 0 && strmap_get(&m, "key-1", &created)->v.n == 0 && created);
	strmap_release(&m);
	CHECK("strmap-5", m.slots == NULL && m.cap == 0);
}

/* Byte strings that stress the edges: ASCII, continuation bytes, the
 * lead bytes around each boundary (0xc0/c1/c2, 0xe0, 0xed, 0xf0, 0xf4/f5). */
static void random_bytes(uint64_t *state, char *buf, size_t n)
{
	static const unsigned char pick[] = { 'a', 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1,
		0xc2, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff };
	for (size_t i = 0; i < n; i++) {
		*state = *state * 6364136223846793005ull + 1442695040888963407ull;
		buf[i] = (char)pick[(*state >> 33) % sizeof(pick)];
	}
	buf[n] = 0;
}

static void test_utf8(void)
{
	static const struct { const char *s; int valid; } v[] = {
		{ "plain", 1 }, { "\xc3\xa9t\xc3\xa9", 1 }, { "\xe2\x82\xac", 1 },
		{ "\xf0\x9f\x98\x80", 1 }, { "\xf4\x8f\xbf\xbf", 1 }, { "\xed\x9f\xbf", 1 },
		{ "\xff", 0 }, { "\x80", 0 }, { "\xc0\xaf", 0 }, { "\xe0\x80\xaf", 0 },
		{ "\xed\xa0\x80", 0 }, { "\xf4\x90\x80\x80", 0 }, { "\xe2\x82", 0 },
		{ "\xc3", 0 }, { "a\xf5\x80\x80\x80", 0 },
	};
	int wrong = 0;
	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++)
		if (utf8_valid(v[i].s, strlen(v[i].s)) != v[i].valid) {
			printf("#   utf8_valid wrong on vector %zu\n", i);
			wrong++;
		}
	CHECK("utf8-1", wrong == 0);

	/* jansson is the judge: a string we call valid is one it accepts */
	uint64_t state = 42;
	char buf[16];
	int disagree = 0, lossy_bad = 0;
	for (int i = 0; i < 200000; i++) {
		size_t n = 1 + i % 8;
		random_bytes(&state, buf, n);
		json_t *j = json_stringn(buf, n);
		if (utf8_valid(buf, n) != (j != NULL))
			disagree++;
		int repaired;
		json_t *l = json_string_lossy(buf, &repaired);
		if (!l || repaired != (j == NULL) || (j && !json_equal(j, l)))
			lossy_bad++;
		json_decref(j);
		json_decref(l);
	}
	CHECK("utf8-2", disagree == 0);
	CHECK("utf8-3", lossy_bad == 0);

	int repaired;
	json_t *l = json_string_lossy("a\xff" "b\xc3\xa9\xe2\x82", &repaired);
	CHECK("utf8-4", repaired && !strcmp(json_string_value(l), "a\xef\xbf\xbd" "b\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd"));
	json_decref(l);
	CHECK("utf8-5", json_string_lossy(NULL, &repaired) == NULL && !repaired);
	char *d = utf8_lossy_strdup("m\xe9" "fu", &repaired);
	CHECK("utf8-6", repaired && !strcmp(d, "m\xef\xbf\xbd" "fu"));
	free(d);
	d = utf8_lossy_strdup("caf\xc3\xa9", &repaired);
	CHECK("utf8-7", !repaired && !strcmp(d, "caf\xc3\xa9"));
	free(d);
}

/* runrec_null_underflows on text: the fields it names, and the canonical
 * text of what is left. */
static int underflow_case(const char *text, const char *want_fields, const char *want_canon)
{
	json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
	sb fields = SB_INIT;
	runrec_null_underflows(v, text, strlen(text), &fields);
	char *canon = v ? runrec_canonical(v) : NULL;
	int good = v && !strcmp(fields.buf, want_fields) && !strcmp(canon, want_canon);
	if (!good)
		fprintf(stderr, "# %s -> [%s] %s\n", text, fields.buf, canon ? canon : "(no value)");
	free(canon);
	json_decref(v);
	sb_release(&fields);
	return good;
}

static void test_underflow(void)
{
	CHECK("common-underflow-1", underflow_case("{\"a\":1e-400,\"b\":1e-5}", "'a' ('1e-400')",
						   "{\"a\":null,\"b\":1.0000000000000001e-5}"));
	/* a string that holds the text, an escaped quote before it, an array, a nest */
	CHECK("common-underflow-2",
	      underflow_case("{\"s\":\"x\\\" 1e-400\",\"n\":[0,2e-999,3],\"o\":{\"k.x\":-7e-330,\"z\":0.0}}",
			     "'n[1]' ('2e-999'), 'o.k.x' ('-7e-330')",
			     "{\"n\":[0,null,3],\"o\":{\"k.x\":null,\"z\":0.0},\"s\":\"x\\\" 1e-400\"}"));
	CHECK("common-underflow-3", underflow_case("{\"a\":0e-999,\"b\":4e-320}", "",
						   "{\"a\":0.0,\"b\":3.999955468730732e-320}"));
	char zeros[420] = "{\"a\":0.";
	memset(zeros + 7, '0', 400);
	memcpy(zeros + 407, "1}", 3);
	CHECK("common-underflow-4", underflow_case(zeros, "'a' ('0.00000000000000000000000000000000000000\u2026')",
						   "{\"a\":null}"));
	double d;
	CHECK("common-range-1", parse_double_range("1e-400", &d) == PARSE_UNDERFLOW && d == 0);
	CHECK("common-range-2", parse_double_range("-1e999", &d) == PARSE_OVERFLOW && isinf(d));
	CHECK("common-range-3", parse_double_range("4e-320", &d) == 0 && d > 0);
	CHECK("common-range-4", parse_double_range("0e-999", &d) == 0 && d == 0);
	CHECK("common-range-5", parse_double_range("abc", &d) == -1 && parse_double_range("", &d) == -1);
	sb e = SB_INIT;
	term_excerpt(&e, "ab\xc3\xa9\x01\xff", 6, 3); /* the é does not fit whole */
	CHECK("common-excerpt-1", !strcmp(e.buf, "ab\u2026"));
	sb_reset(&e);
	term_excerpt(&e, "ab\xc3\xa9\x01\xff", 6, 10);
	CHECK("common-excerpt-2", !strcmp(e.buf, "ab\xc3\xa9\\x01\\xff"));
	sb_release(&e);
}

/* "did you mean": the typos of the issue, a tie that must not guess, a
 * word too far from everything, and distances against a brute-force
 * recursive definition on random short strings. */
static int osa_slow(const char *a, const char *b)
{
	if (!*a)
		return (int)strlen(b);
	if (!*b)
		return (int)strlen(a);
	int best = osa_slow(a + 1, b) + 1;
	int ins = osa_slow(a, b + 1) + 1;
	int sub = osa_slow(a + 1, b + 1) + (tolower((unsigned char)*a) != tolower((unsigned char)*b));
	best = ins < best ? ins : best;
	best = sub < best ? sub : best;
	if (a[1] && b[1] && tolower((unsigned char)a[0]) == tolower((unsigned char)b[1]) &&
	    tolower((unsigned char)a[1]) == tolower((unsigned char)b[0])) {
		int tr = osa_slow(a + 2, b + 2) + 1;
		best = tr < best ? tr : best;
	}
	return best;
}

static void test_suggest(void)
{
	static const char *const cmds[] = { "init", "ingest", "query", "show", "diff", "frontier" };
	static const char *const opts[] = { "--format", "--db", "--from", "--help" };
	static const char *const keys[] = { "model.depth", "model.dim", "optim.matrix_lr", NULL };
	CHECK("suggest-1", suggest_distance("qeury", "query") == 1);
	CHECK("suggest-2", !strcmp(suggest_closest("qeury", cmds, 6), "query"));
	CHECK("suggest-3", !strcmp(suggest_closest("--fromat", opts, 4), "--format"));
	CHECK("suggest-4", !strcmp(suggest_closest("model.dpeth", keys, 4), "model.depth"));
	CHECK("suggest-5", suggest_closest("frobnicate", cmds, 6) == NULL);
	CHECK("suggest-6", suggest_closest("QUERY", cmds, 6) == NULL); /* exact, case aside */
	static const char *const tied[] = { "cat", "car" };
	CHECK("suggest-7", suggest_closest("ca", tied, 2) == NULL);
	char a[8], b[8];
	int mismatches = 0;
	unsigned seed = 12345;
	for (int t = 0; t < 3000; t++) {
		int la = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 7;
		int lb = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 7;
		for (int i = 0; i < la; i++)
			a[i] = "abcAB"[((seed = seed * 1103515245u + 12345u) >> 16) % 5];
		for (int i = 0; i < lb; i++)
			b[i] = "abcAB"[((seed = seed * 1103515245u + 12345u) >> 16) % 5];
		a[la] = b[lb] = '\0';
		mismatches += suggest_distance(a, b) != osa_slow(a, b);
	}
	CHECK("suggest-8", mismatches == 0);
}

static int same_text(const char *a, const char *b)
{
	json_t *ja = json_loads(a, JSON_DECODE_ANY, NULL), *jb = json_loads(b, JSON_DECODE_ANY, NULL);
	int r = json_same(ja, jb);
	json_decref(ja);
	json_decref(jb);
	return r;
}

static void test_json_same(void)
{
	CHECK("json-same-1", same_text("8", "8.0"));
	CHECK("json-same-2", same_text("[8, 0.9]", "[8.0, 0.9]"));
	CHECK("json-same-3", same_text("{\"a\": {\"b\": [1]}}", "{\"a\": {\"b\": [1.0]}}"));
	CHECK("json-same-4", !same_text("0.001", "0.0010000000000000002"));
	CHECK("json-same-5", !same_text("8", "\"8\""));
	CHECK("json-same-6", !same_text("[8, 0.9]", "[8, 0.9, 1]"));
	CHECK("json-same-7", !same_text("{\"a\": 1}", "{\"a\": 1, \"b\": 1}"));
	CHECK("json-same-8", !same_text("{\"a\": 1, \"c\": 1}", "{\"a\": 1, \"b\": 1}"));
	CHECK("json-same-9", !same_text("1", "true") && !same_text("0", "null"));
	CHECK("json-same-10", json_same(NULL, NULL) && !same_text("null", "[]"));
}

/* Shortest text that reads back, whole numbers in digits: 80.0 was
 * printed "8e+01", 92160.0 "9.216e+04". */
static void test_double_text(void)
{
	static const struct { double x; const char *text; } cases[] = {
		{ 80.0, "80" }, { 92160.0, "92160" }, { 300.0, "300" }, { 0.04, "0.04" },
		{ 1e-05, "1e-05" }, { 2.5, "2.5" }, { 1e20, "1e+20" }, { -1500.0, "-1500" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sb s = SB_INIT;
		double_text(cases[i].x, &s);
		char id[32];
		snprintf(id, sizeof(id), "double-text-%zu", i + 1);
		if (!CHECK(id, !strcmp(s.buf, cases[i].text)))
			printf("#   %s, expected %s\n", s.buf, cases[i].text);
		sb_release(&s);
	}
}

int main(void)
{
	test_double_text();
	test_json_same();
	test_suggest();
	test_underflow();
	test_sb();
	test_sha256();
	test_time();
	test_glob();
	test_hw();
	test_runrec();
	test_supersedes();
	test_table();
	test_table_stream();
	test_table_lists();
	test_messages_json();
	test_strmap();
	test_utf8();
	return check_status();
}
