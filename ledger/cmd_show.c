/* cmd_show.c — `ledger show RUN`: one run in full. Every field of the stored
 * record (config, metrics, failure…), then what the ledger added: hardware
 * class and tier, changed variables, repeat key, source file:line.
 * Reads only. Record text is escaped for the terminal (control characters
 * shown as \xNN) or by table.h for the other formats. */
#include "changed.h"
#include "annot.h"
#include "db.h"
#include "hw.h"
#include "jsontext.h"
#include "ledger.h"
#include "lookup.h"
#include "runrec.h"
#include "termtext.h"
#include "util.h"

const struct opt_cmd cmd_show_spec = {
	.name = "show",
	.args = "RUN",
	.summary = "show one run in full",
	.about = "Show one run: every field of its record, then the ledger's tags (hardware\n"
		 "class, VRAM tier, changed variables with old and new values, repeat key,\n"
		 "source file:line; a peak memory above the card's as peak_vram_above_card),\n"
		 "a training curve as one line (points, steps, last loss; json: every point),\n"
		 "then the annotations (notes, tags, a decision made after the fact beside\n"
		 "the recorded one, archived), each with who and when.\n"
		 "RUN is a run id, a unique prefix of one, #N, or a prefix of the run's\n"
		 "code commit (at least 4 characters) when no run id starts with it.\n"
		 "\n"
		 "Formats: table (default) prints 'field  value' lines and the failure log\n"
		 "tail as a block; tsv, csv and md print the same as two columns (field,\n"
		 "value); json prints the stored record with a \"ledger\" object of tags.\n",
	.groups = { NULL },
};

/* Record keys in reading order; keys not listed follow in stored order. */
static const char *const key_order[] = {
	"schema", "run_id", "parent", "campaign", "agent", "description", "status",
	"decision", "started_at", "finished_at", "hardware", "code", "data", "budget",
	"config", "metrics", "failure", NULL
};

/* The ledger's own columns, as (json key, runs column) pairs. */
static const char *const tag_cols[][2] = {
	{ "id", "id" }, { "hw_class", "hw_class" }, { "vram_tier", "vram_tier" },
	{ "val_bpb", "val_bpb" }, { "repeat_key", "repeat_key" },
	{ "content_hash", "content_hash" }, { "source_format", "source_format" },
	{ "source_file", "source_file" }, { "source_line", "source_line" },
	{ "ingested_at", "ingested_at" },
	/* only when it differs from the record's: a running run shown as lost */
	{ "status", "CASE WHEN " RUN_STATUS_SQL("") " <> status THEN " RUN_STATUS_SQL("") " END" },
};

struct field {
	char *name;
	char *value; /* NULL for JSON null */
};

struct fields {
	struct field *v;
	int n, cap;
};

static void field_add(struct fields *f, const char *name, const char *value)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->v = xrealloc(f->v, (size_t)f->cap * sizeof(*f->v));
	}
	f->v[f->n].name = xstrdup(name);
	f->v[f->n].value = value ? xstrdup(value) : NULL;
	f->n++;
}

static void fields_release(struct fields *f)
{
	for (int k = 0; k < f->n; k++) {
		free(f->v[k].name);
		free(f->v[k].value);
	}
	free(f->v);
}

/* Objects become dotted names ("config.model.depth"), one field a scalar. */
static void flatten(struct fields *f, const char *prefix, const json_t *v)
{
	if (json_is_object(v) && json_object_size(v)) {
		const char *k;
		json_t *m;
		json_object_foreach((json_t *)v, k, m) {
			sb name = SB_INIT;
			sb_addf(&name, "%s.%s", prefix, k);
			flatten(f, name.buf, m);
			sb_release(&name);
		}
		return;
	}
	sb text = SB_INIT;
	if (!json_is_null(v))
		json_text(v, &text);
	field_add(f, prefix, json_is_null(v) ? NULL : text.buf);
	sb_release(&text);
}

/* A curve (docs/run-record.md, "curve") is up to 512 points an array:
 * in the text formats one line, "N points, steps A-B, last train_loss X,
 * E evals, last val_bpb Y"; --format json prints it whole. */
static void curve_field(struct fields *f, const json_t *curve)
{
	if (!json_is_object(curve)) {
		flatten(f, "curve", curve);
		return;
	}
	json_t *step = json_object_get(curve, "step"), *loss = json_object_get(curve, "train_loss");
	json_t *eval = json_object_get(curve, "eval");
	size_t n = json_array_size(step);
	sb s = SB_INIT;
	sb_addf(&s, "%zu point%s", n, n == 1 ? "" : "s");
	if (n) {
		sb_adds(&s, ", steps ");
		json_text(json_array_get(step, 0), &s);
		sb_adds(&s, "-");
		json_text(json_array_get(step, n - 1), &s);
	}
	/* the last known loss: a diverged run ends in nulls */
	for (size_t i = json_array_size(loss); i-- > 0;)
		if (json_is_number(json_array_get(loss, i))) {
			sb_adds(&s, ", last train_loss ");
			json_text(json_array_get(loss, i), &s);
			if (i + 1 < n) {
				sb_adds(&s, " (step ");
				json_text(json_array_get(step, i), &s);
				sb_adds(&s, ")");
			}
			break;
		}
	json_t *ev = json_object_get(eval, "val_bpb");
	size_t ne = json_array_size(ev);
	if (ne) {
		sb_addf(&s, ", %zu eval%s, last val_bpb ", ne, ne == 1 ? "" : "s");
		json_text(json_array_get(ev, ne - 1), &s);
	}
	sb_adds(&s, " (--format json: every point)");
	field_add(f, "curve", s.buf);
	sb_release(&s);
}

static void record_fields(struct fields *f, const json_t *rec)
{
	for (int k = 0; key_order[k]; k++) {
		json_t *v = json_object_get(rec, key_order[k]);
		if (v)
			flatten(f, key_order[k], v);
	}
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)rec, key, v) {
		int known = 0;
		for (int k = 0; key_order[k] && !known; k++)
			known = !strcmp(key, key_order[k]);
		if (!known && !strcmp(key, "curve"))
			curve_field(f, v);
		else if (!known)
			flatten(f, key, v);
	}
}

/* The "ledger" object: tag columns and the changes against the parent;
 * NULL when the ledger cannot be read (reported). */
static json_t *ledger_tags(sqlite3 *db, sqlite3_int64 id)
{
	json_t *tags = json_object();
	sb sql = SB_INIT;
	sb_adds(&sql, "SELECT ");
	for (size_t k = 0; k < ARRAY_SIZE(tag_cols); k++)
		sb_addf(&sql, "%s%s", k ? ", " : "", tag_cols[k][1]);
	sb_adds(&sql, " FROM runs WHERE id = ?");
	sqlite3_stmt *st = db_prepare(db, sql.buf);
	sqlite3_bind_int64(st, 1, id);
	int rc = db_step(st, "read the run's tags");
	if (rc == SQLITE_ROW) {
		for (size_t k = 0; k < ARRAY_SIZE(tag_cols); k++) {
			json_t *v;
			if (!strcmp(tag_cols[k][0], "status") &&
			    sqlite3_column_type(st, (int)k) == SQLITE_NULL)
				continue;
			switch (sqlite3_column_type(st, (int)k)) {
			case SQLITE_INTEGER: v = json_integer(sqlite3_column_int64(st, (int)k)); break;
			case SQLITE_FLOAT: v = json_real(sqlite3_column_double(st, (int)k)); break;
			case SQLITE_NULL: v = json_null(); break;
			default: v = json_string((const char *)sqlite3_column_text(st, (int)k));
			}
			json_object_set_new(tags, tag_cols[k][0], v ? v : json_null());
		}
	}
	sqlite3_finalize(st);
	sb_release(&sql);
	if (rc == DB_ERROR) {
		json_decref(tags);
		return NULL;
	}
	json_t *changed;
	st = db_prepare(db, CHANGED_SQL);
	rc = changed_read(st, id, &changed, NULL);
	sqlite3_finalize(st);
	if (rc) {
		json_decref(tags);
		return NULL;
	}
	json_object_set_new(tags, "changed", changed);
	return tags;
}

/* A peak memory above the card's (hw.h; ingest warned about it too): the GPU
 * name or the measurement is wrong, so the run's class and tier may be. */
static void memory_flag(json_t *tags, const json_t *rec)
{
	const json_t *hw = json_object_get(rec, "hardware");
	double peak = runrec_metric(rec, "peak_vram_mb");
	double card = hw_over_memory(json_string_value(json_object_get(hw, "gpu_name")),
				     runrec_num(hw, "gpu_mem_mb"), peak);
	if (card <= 0)
		return;
	json_t *flag = json_object();
	json_object_set(flag, "peak_vram_mb", json_object_get(json_object_get(rec, "metrics"), "peak_vram_mb"));
	json_object_set_new(flag, "card_mb", card == floor(card) ? json_integer((json_int_t)card) : json_real(card));
	json_object_set_new(tags, "peak_vram_above_card", flag);
}

/* A val_bpb above the uniform bound on an ok run (runrec.h; ingest warned
 * too): a diverged run, kept out of the val_bpb column and every frontier. */
static void bpb_flag(json_t *tags, const json_t *rec)
{
	const char *status = runrec_str(rec, "status");
	double bpb = runrec_metric(rec, "val_bpb");
	if (!status || strcmp(status, "ok") || !runrec_bpb_diverged(bpb))
		return;
	sb why = SB_INIT;
	sb_addf(&why, "%g is above %g bits per byte (a uniform guess over bytes): diverged, not a "
		"measurement", bpb, RUNREC_BPB_UNIFORM);
	json_object_set_new(tags, "val_bpb_diverged", json_string(why.buf));
	sb_release(&why);
}

/* Tags as fields: "ledger.hw_class", "ledger.changed.VAR = OLD -> NEW (how)",
 * and the text an inferred change came from: (inferred from "SPAN"). */
static void tag_fields(struct fields *f, const json_t *tags)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)tags, k, v) {
		/* annotations and what they decide: annotation_fields */
		if (strcmp(k, "changed") && strcmp(k, "annotations") && strcmp(k, "decided") &&
		    strcmp(k, "archived")) {
			sb name = SB_INIT;
			sb_addf(&name, "ledger.%s", k);
			flatten(f, name.buf, v);
			sb_release(&name);
		}
	}
	size_t i;
	json_array_foreach(json_object_get(tags, "changed"), i, v) {
		sb name = SB_INIT, val = SB_INIT;
		const char *old = json_string_value(json_object_get(v, "old"));
		const char *new = json_string_value(json_object_get(v, "new"));
		sb_addf(&name, "ledger.changed.%s", json_string_value(json_object_get(v, "var")));
		const char *span = json_string_value(json_object_get(v, "span"));
		sb_addf(&val, "%s -> %s (%s%s%s%s)", old ? old : "?", new ? new : "?",
			json_string_value(json_object_get(v, "how")), span ? " from \"" : "",
			span ? span : "", span ? "\"" : "");
		field_add(f, name.buf, val.buf);
		sb_release(&name);
		sb_release(&val);
	}
}

/* The annotations (annot.h): JSON gets them whole, in order, and the
 * effective state beside them: "decided" (only when a decision was made
 * after the fact; the record keeps its own) and "archived". 0 or -1. */
static int annotation_tags(sqlite3 *db, sqlite3_int64 id, json_t *tags)
{
	json_t *list = annot_list(db, id);
	if (!list)
		return -1;
	size_t i;
	json_t *a;
	const char *decided = NULL, *archive = NULL;
	json_array_foreach(list, i, a) {
		const char *kind = json_string_value(json_object_get(a, "kind"));
		const char *value = json_string_value(json_object_get(a, "value"));
		if (kind && !strcmp(kind, "decision"))
			decided = value;
		else if (kind && !strcmp(kind, "archive"))
			archive = value;
	}
	if (decided)
		json_object_set_new(tags, "decided", json_string(decided));
	if (archive)
		json_object_set_new(tags, "archived", json_boolean(!strcmp(archive, "archived")));
	if (json_array_size(list))
		json_object_set_new(tags, "annotations", list);
	else
		json_decref(list);
	return 0;
}

/* "VALUE (by WHO at AT)" */
static void annotation_value(sb *out, const json_t *a, const char *value)
{
	sb_addf(out, "%s (by %s at %s)", value, json_string_value(json_object_get(a, "who")),
		json_string_value(json_object_get(a, "at")));
}

/* ledger.note.N, ledger.tag.KEY (the latest value; removed tags not
 * shown), ledger.decision.recorded and .decided, ledger.archived. */
static void annotation_fields(struct fields *f, const json_t *tags, const json_t *rec)
{
	const json_t *list = json_object_get(tags, "annotations");
	const json_t *a, *last_decision = NULL, *last_archive = NULL;
	size_t i;
	int notes = 0;
	sb name = SB_INIT, val = SB_INIT;
	json_array_foreach(list, i, a) {
		const char *kind = json_string_value(json_object_get(a, "kind"));
		const char *value = json_string_value(json_object_get(a, "value"));
		const char *key = json_string_value(json_object_get(a, "key"));
		sb_reset(&name);
		sb_reset(&val);
		if (!strcmp(kind, "note")) {
			sb_addf(&name, "ledger.note.%d", ++notes);
			annotation_value(&val, a, value);
			field_add(f, name.buf, val.buf);
		} else if (!strcmp(kind, "tag")) {
			int later = 0; /* a later tag of the key replaces this one */
			for (size_t j = i + 1; j < json_array_size(list) && !later; j++) {
				const json_t *b = json_array_get(list, j);
				const char *bk = json_string_value(json_object_get(b, "key"));
				later = bk && !strcmp(json_string_value(json_object_get(b, "kind")), "tag") &&
					!strcmp(bk, key);
			}
			if (later || !*value)
				continue;
			sb_addf(&name, "ledger.tag.%s", key);
			annotation_value(&val, a, value);
			field_add(f, name.buf, val.buf);
		} else if (!strcmp(kind, "decision")) {
			last_decision = a;
		} else if (!strcmp(kind, "archive")) {
			last_archive = a;
		}
	}
	if (last_decision) {
		const char *recorded = json_string_value(json_object_get(rec, "decision"));
		field_add(f, "ledger.decision.recorded", recorded);
		sb_reset(&val);
		annotation_value(&val, last_decision, json_string_value(json_object_get(last_decision, "value")));
		field_add(f, "ledger.decision.decided", val.buf);
	}
	if (last_archive) {
		sb_reset(&val);
		annotation_value(&val, last_archive, json_string_value(json_object_get(last_archive, "value")));
		field_add(f, "ledger.archived", val.buf);
	}
	sb_release(&name);
	sb_release(&val);
}

static void print_text(const struct fields *f)
{
	size_t w = 0;
	const char *tail = NULL;
	for (int k = 0; k < f->n; k++)
		if (strlen(f->v[k].name) > w)
			w = strlen(f->v[k].name);
	sb line = SB_INIT;
	for (int k = 0; k < f->n; k++) {
		if (!strcmp(f->v[k].name, "failure.log_tail") && f->v[k].value) {
			tail = f->v[k].value; /* long and multi-line: printed last */
			continue;
		}
		sb_reset(&line);
		term_escape(&line, f->v[k].name, 0);
		while (line.len < w)
			sb_addc(&line, ' ');
		sb_adds(&line, "  ");
		term_escape(&line, f->v[k].value ? f->v[k].value : "null", 0);
		printf("%s\n", line.buf);
	}
	if (tail) {
		sb_reset(&line);
		term_escape(&line, tail, 1);
		sb_rtrim(&line);
		printf("\nfailure.log_tail:\n%s\n", line.buf);
	}
	sb_release(&line);
}

static void print_fields(const struct fields *f, enum out_format fmt)
{
	if (fmt == FMT_TABLE) {
		print_text(f);
		return;
	}
	static const char *const names[] = { "field", "value" };
	table t;
	table_init(&t, 2, names);
	for (int k = 0; k < f->n; k++) {
		int r = table_add_row(&t);
		table_set_text(&t, r, 0, f->v[k].name);
		table_set_text(&t, r, 1, f->v[k].value);
	}
	table_render(&t, fmt, stdout);
	table_release(&t);
}

static json_t *load_record(sqlite3 *db, sqlite3_int64 id)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT record FROM runs WHERE id = ?");
	sqlite3_bind_int64(st, 1, id);
	json_t *rec = NULL;
	if (db_step(st, "read the run's record") == SQLITE_ROW) {
		json_error_t je;
		rec = json_loads((const char *)sqlite3_column_text(st, 0), 0, &je);
		if (!rec)
			rl_error("show: stored record of #%lld is not JSON: %s", (long long)id, je.text);
	}
	sqlite3_finalize(st);
	return rec;
}

static int show(sqlite3 *db, sqlite3_int64 id, enum out_format fmt)
{
	json_t *rec = load_record(db, id);
	if (!rec)
		return EXIT_FAILURE_RT;
	json_t *tags = ledger_tags(db, id);
	if (!tags) {
		json_decref(rec);
		return EXIT_FAILURE_RT;
	}
	memory_flag(tags, rec);
	bpb_flag(tags, rec);
	if (annotation_tags(db, id, tags)) {
		json_decref(tags);
		json_decref(rec);
		return EXIT_FAILURE_RT;
	}
	if (fmt == FMT_JSON) {
		json_object_set(rec, "ledger", tags);
		char *s = json_dumps(rec, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		printf("%s\n", s ? s : "null");
		free(s);
	} else {
		struct fields f = { 0 };
		record_fields(&f, rec);
		tag_fields(&f, tags);
		annotation_fields(&f, tags, rec);
		print_fields(&f, fmt);
		fields_release(&f);
	}
	json_decref(tags);
	json_decref(rec);
	return EXIT_OK;
}

int cmd_show(int argc, char **argv, struct ledger_ctx *ctx)
{
	const char *run = NULL, *extra = NULL;
	struct opt_parser p;
	int r;
	opts_begin(&p, &ledger_prog, &cmd_show_spec, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		if (r != OPTS_ARG)
			return EXIT_USAGE; /* no options of its own: unknown, said */
		if (!run)
			run = p.val;
		else if (!extra)
			extra = p.val; /* the first one too many */
	}
	if (!run || extra) {
		if (!run)
			rl_error("show: which run?");
		else
			rl_error("show: unexpected argument '%s'", extra);
		rl_hint("usage: ledger show RUN (a run id, a unique prefix, or #N)");
		return EXIT_USAGE;
	}
	sqlite3_int64 id;
	int rc = run_lookup(ctx->db, run, &id, 0);
	if (rc)
		return rc == LOOKUP_DB_ERROR ? EXIT_FAILURE_RT : EXIT_USAGE;
	return show(ctx->db, id, ctx->fmt);
}
