/* ingest_arh.c — reader for autoresearch@home result JSON: one object per
 * file, or JSONL of them. Keys:
 *   agent_id -> agent          commit -> code.commit      description
 *   status keep|discard|crash (any case) -> status + decision
 *   val_bpb -> metrics.val_bpb (only for ok runs with a value > 0)
 *   memory_gb -> metrics.peak_vram_mb     vram_total_gb -> hardware.gpu_mem_mb
 *   vram_tier: recomputed from vram_total_gb by the ledger, not stored
 *   completed_at (ISO-8601 or epoch seconds) -> finished_at
 *   gpu_name / gpu -> hardware.gpu_name   any other number -> metrics.KEY
 * This file converts only; ingest_put() validates and stores. */
#include "ingest.h"
#include "runrec.h"
#include "util.h"

static int put_string(json_t *obj, const char *to, const char *key, json_t *v, sb *why)
{
	if (!json_is_string(v))
		return sb_addf(why, "%s: expected a string", key), 1;
	json_object_set(obj, to, v);
	return 1;
}

/* Sizes in GB; zeros (crash results) are no measurement. */
static int put_gb(json_t *rec, const char *key, json_t *v, const char *status, sb *why)
{
	double d = json_number_value(v);
	if (json_is_null(v)) /* not measured (or a number too small for a double, warned) */
		return 1;
	if (!json_is_number(v))
		return sb_addf(why, "%s: expected a number", key), 1;
	if (!strcmp(key, "val_bpb") && !strcmp(status, "ok") && d > 0)
		json_object_set_new(ingest_sub_object(rec, "metrics"), "val_bpb", ingest_number(d));
	else if (!strcmp(key, "memory_gb") && d > 0)
		json_object_set_new(ingest_sub_object(rec, "metrics"), "peak_vram_mb", ingest_number(d * 1024));
	else if (!strcmp(key, "vram_total_gb") && d > 0)
		json_object_set_new(ingest_sub_object(rec, "hardware"), "gpu_mem_mb", ingest_number(d * 1024));
	return 1;
}

/* Keys with a fixed meaning; 1 when key was one of them (handled, or the
 * reason it is wrong appended to why). */
static int put_known(json_t *rec, const char *key, json_t *v, const char *status, sb *why)
{
	if (!strcmp(key, "agent_id"))
		return put_string(rec, "agent", key, v, why);
	if (!strcmp(key, "description"))
		return put_string(rec, "description", key, v, why);
	if (!strcmp(key, "commit"))
		return put_string(ingest_sub_object(rec, "code"), "commit", key, v, why);
	if (!strcmp(key, "gpu_name") || !strcmp(key, "gpu"))
		return put_string(ingest_sub_object(rec, "hardware"), "gpu_name", key, v, why);
	if (!strcmp(key, "val_bpb") || !strcmp(key, "memory_gb") || !strcmp(key, "vram_total_gb"))
		return put_gb(rec, key, v, status, why);
	return !strcmp(key, "status") || !strcmp(key, "vram_tier");
}

static int put_time(json_t *rec, json_t *v, sb *why)
{
	double t;
	char iso[32];
	if (json_is_number(v)) {
		format_iso_utc(json_number_value(v), iso, sizeof(iso));
		if (!*iso) {
			sb_addf(why, "completed_at: %g is not a time in epoch seconds (years 1 to 9999)",
				json_number_value(v));
			return -1;
		}
		json_object_set_new(rec, "finished_at", json_string(iso));
	} else if (json_is_string(v) && !parse_iso_utc(json_string_value(v), &t)) {
		json_object_set(rec, "finished_at", v);
	} else {
		sb_adds(why, "completed_at: expected an ISO-8601 time or epoch seconds");
		return -1;
	}
	return 0;
}

/* The result object as a runrec/1 record; NULL with the reason in why. */
static json_t *convert(struct ingest_file *f, const json_t *in, sb *why)
{
	const char *status, *decision, *key;
	json_t *v;
	const char *word = json_string_value(json_object_get(in, "status"));
	const char *named = ingest_failure_word(json_string_value(json_object_get(in, "description")));
	if (!word && !named) {
		sb_adds(why, "status is missing (keep, discard or crash)");
		return NULL;
	}
	if (word && ingest_ar_status(word, &status, &decision)) {
		sb_addf(why, "status '%s' is not keep, discard or crash", word);
		return NULL;
	}
	int crash_named = named && word && !strcmp(status, "crash");
	if (named && (!word || !strcmp(status, "crash"))) { /* "(OOM)": see ingest_tsv.c */
		status = named;
		decision = NULL;
	}
	json_t *rec = runrec_new(status);
	if (decision)
		json_object_set_new(rec, "decision", json_string(decision));
	json_object_foreach((json_t *)in, key, v) {
		if (why->len) /* report the first problem */
			break;
		if (put_known(rec, key, v, status, why))
			continue;
		if (!strcmp(key, "completed_at"))
			put_time(rec, v, why);
		else if (json_is_number(v) || json_is_null(v)) /* null: not measured, visibly */
			json_object_set(ingest_sub_object(rec, "metrics"), key, v);
		else if (ingest_warn_once(f, key))
			rl_warn("ingest: %s: key '%s' is not a number; it is not stored", f->name, key);
	}
	if (why->len) {
		json_decref(rec);
		return NULL;
	}
	if (crash_named)
		ingest_keep_crash_identity(rec);
	return rec;
}

static void put_text(struct ingest_file *f, long no, const char *text, size_t n)
{
	sb why = SB_INIT;
	json_t *in = runrec_parse(text, n, &why);
	sb under = SB_INIT;
	if (in && runrec_null_underflows(in, text, n, &under))
		ingest_warn_underflow(f, no, under.buf);
	sb_release(&under);
	json_t *rec = in ? convert(f, in, &why) : NULL;
	if (rec)
		ingest_put(f, no, rec, text, n);
	else
		ingest_reject(f, in ? no : ingest_json_error_line(no, text, n), text, n, "%s", why.buf);
	json_decref(in);
	sb_release(&why);
}

int ingest_arh(struct ingest_file *f)
{
	return ingest_json_texts(f, put_text);
}
