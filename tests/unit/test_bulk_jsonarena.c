/* test_bulk_jsonarena.c — common/jsonarena.c, the per-record arenas of
 * jansson values on ingest's worker thread (part of the ingest throughput
 * work).
 * Test plan: values built in an arena read back whole (nested objects,
 * a string too large for a chunk, a record parsed by runrec_parse);
 * json_dumps of them with no arena current is plain malloc memory that
 * free() takes; a dropped arena's chunk is handed to the next arena; the
 * large string is freed by the drop (the sanitizer build's leak check
 * would name it otherwise); values built with no arena current are
 * ordinary (decref'd after uninstall, under the sanitizer). */
#include <stdlib.h>
#include <string.h>
#include "jsonarena.h"
#include "runrec.h"
#include "check.h"

static json_t *build(size_t big_len)
{
	json_t *o = json_object();
	json_t *cfg = json_object();
	char key[16];
	for (int i = 0; i < 40; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		json_object_set_new(cfg, key, json_real(i * 0.5));
	}
	json_object_set_new(o, "config", cfg);
	char *big = malloc(big_len + 1);
	memset(big, 'x', big_len);
	big[big_len] = '\0';
	json_object_set_new(o, "log_tail", json_string(big));
	free(big);
	return o;
}

int main(void)
{
	CHECK("jsonarena-1", json_arena_install() == 0);
	json_t *plain = json_pack("{s:i}", "a", 1); /* no arena current: malloc */

	struct json_arena a = JSON_ARENA_INIT;
	json_arena_begin(&a);
	json_t *v = build(10000);
	json_arena_end();
	CHECK("jsonarena-2", a.chunks != NULL && a.n_big == 1);
	CHECK("jsonarena-3", json_real_value(json_object_get(json_object_get(v, "config"), "k39")) == 19.5 &&
				     strlen(json_string_value(json_object_get(v, "log_tail"))) == 10000);
	char *text = json_dumps(json_object_get(v, "config"), JSON_COMPACT);
	CHECK("jsonarena-4", text && !strncmp(text, "{\"k0\":0.0,\"k1\":0.5,", 19));
	free(text); /* malloc memory: the sanitizer build would object otherwise */
	void *first_chunk = a.chunks;
	json_arena_drop(&a, v);
	CHECK("jsonarena-5", a.chunks == NULL && a.n_big == 0);

	struct json_arena b = JSON_ARENA_INIT;
	sb why = SB_INIT;
	static const char line[] =
		"{\"schema\":\"runrec/1\",\"status\":\"ok\",\"metrics\":{\"val_bpb\":1.25}}";
	json_arena_begin(&b);
	json_t *rec = runrec_parse(line, strlen(line), &why);
	json_arena_end();
	CHECK("jsonarena-6", b.chunks == first_chunk); /* the dropped chunk, reused */
	CHECK("jsonarena-7", rec && runrec_metric(rec, "val_bpb") == 1.25 && b.n_big == 0);
	json_arena_drop(&b, rec);
	sb_release(&why);

	json_arena_uninstall();
	CHECK("jsonarena-8", json_integer_value(json_object_get(plain, "a")) == 1);
	json_decref(plain);
	return check_status();
}
