/* runrec.c — runrec/1 parsing, validation, identity and append; see runrec.h. */
#include <fcntl.h>
#include <unistd.h>
#include "curve.h"
#include "runrec.h"
#include "sha256.h"
#include "termtext.h"
#include "util.h"

const char *const runrec_statuses[] = { "ok", "crash", "oom", "nan", "timeout", "killed", "invalid",
					 "running", NULL };
const char *const runrec_decisions[] = { "keep", "discard", "baseline", NULL };
const char *const runrec_phases[] = { "startup", "data", "forward", "backward", "optimizer", "eval", NULL };

int runrec_in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/* Lines longer than this are named by their start and length in parse
 * errors: a column of 104857600 in a line of garbage tells nothing. */
#define LONG_LINE 1024
#define EXCERPT 24

/* The reason a JSON text did not parse, worded for a person. A short text
 * keeps jansson's column; a text that does not even start like JSON is
 * named by its first bytes; a long one by its start and length, and
 * whether it broke off inside a value (a truncated line). */
static void parse_error_words(const char *text, size_t len, const json_error_t *je, sb *err)
{
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	if (i < len && text[i] != '{' && text[i] != '[') {
		sb_adds(err, "not JSON (starts with '");
		term_excerpt(err, text + i, len - i, EXCERPT);
		sb_addf(err, "', %zu bytes)", len);
		return;
	}
	if (len <= LONG_LINE) {
		sb_addf(err, "invalid JSON at column %d: %s", je->column, je->text);
		return;
	}
	if (json_error_code(je) == json_error_premature_end_of_input)
		sb_addf(err, "invalid JSON: the text ends inside a value (%s)", je->text);
	else
		sb_addf(err, "invalid JSON at column %d: %s", je->column, je->text);
	sb_addf(err, " (%zu bytes, starts with '", len);
	term_excerpt(err, text + i, len - i, EXCERPT);
	sb_adds(err, "')");
}

json_t *runrec_parse(const char *text, size_t len, sb *err)
{
	json_error_t je;
	json_t *v = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!v) {
		parse_error_words(text, len, &je, err);
		return NULL;
	}
	if (!json_is_object(v)) {
		sb_adds(err, "expected a JSON object");
		json_decref(v);
		return NULL;
	}
	return v;
}

/* ---- numbers that underflow ------------------------------------------- */

/* A number can only underflow to 0 with a negative exponent of three or
 * more digits ("e-400") or, with a shorter one, a couple of hundred zeros
 * before its first digit: the cheap test before the scan. */
static int may_underflow(const char *text, size_t len)
{
	static const char zeros[200] = { [0 ... 199] = '0' };
	for (const char *p = text, *end = text + len; (p = memchr(p, '-', (size_t)(end - p))); p++)
		if (p > text && (p[-1] | 0x20) == 'e' && end - p > 3 && isdigit((unsigned char)p[1]) &&
		    isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]))
			return 1;
	return len >= sizeof(zeros) && memmem(text, len, zeros, sizeof(zeros)) != NULL;
}

/* The number tokens of a JSON text in order: their index when one reads
 * as 0 although a digit of it is not, else -1 from the end. *pos walks. */
static long next_underflow(const char *text, size_t len, size_t *pos, long *count,
			   const char **tok, size_t *tok_len)
{
	for (size_t i = *pos; i < len; i++) {
		char c = text[i];
		if (c == '"') { /* strings hold no number tokens */
			for (i++; i < len && text[i] != '"'; i++)
				i += text[i] == '\\';
			continue;
		}
		if (c != '-' && !isdigit((unsigned char)c))
			continue;
		size_t j = i;
		int nonzero = 0;
		while (j < len && (isdigit((unsigned char)text[j]) || text[j] == '-' || text[j] == '.')) {
			nonzero |= text[j] >= '1' && text[j] <= '9';
			j++;
		}
		while (j < len && text[j] && (isdigit((unsigned char)text[j]) || strchr("-+.eE", text[j])))
			j++;
		long k = (*count)++;
		*pos = j;
		if (!nonzero) {
			i = j - 1;
			continue;
		}
		char *num = xstrndup(text + i, j - i);
		errno = 0;
		double d = strtod(num, NULL);
		int under = errno == ERANGE && d == 0;
		free(num);
		if (under) {
			*tok = text + i;
			*tok_len = j - i;
			return k;
		}
		i = j - 1;
	}
	*pos = len;
	return -1;
}

/* The underflowing numbers of one text: their indexes among its number
 * tokens, in order, and their text. */
struct underflows {
	long *idx;
	const char **tok;
	size_t *tok_len;
	int n, next;
	long seen; /* numbers of the value walked so far */
	sb *fields;
};

static void report_underflow(struct underflows *u, const sb *path)
{
	sb_addf(u->fields, "%s'%s' ('", u->next ? ", " : "", path->buf);
	term_excerpt(u->fields, u->tok[u->next], u->tok_len[u->next], 40);
	sb_adds(u->fields, "')");
	u->next++;
}

/* Walk v in document order (jansson keeps members in the order they were
 * read), counting numbers; the ones listed become null. */
static void null_listed(json_t *v, struct underflows *u, sb *path)
{
	size_t mark = path->len, i;
	const char *key;
	json_t *m;
	int obj = json_is_object(v);
	void *iter = obj ? json_object_iter(v) : NULL;
	for (i = 0; u->next < u->n; i++) {
		if (obj) {
			if (!iter)
				break;
			key = json_object_iter_key(iter);
			m = json_object_iter_value(iter);
			sb_addf(path, "%s%s", mark ? "." : "", key);
		} else {
			if (!json_is_array(v) || i >= json_array_size(v))
				break;
			m = json_array_get(v, i);
			sb_addf(path, "[%zu]", i);
		}
		if (json_is_number(m)) {
			if (u->seen++ == u->idx[u->next]) {
				report_underflow(u, path);
				if (obj)
					json_object_iter_set_new(v, iter, json_null());
				else
					json_array_set_new(v, i, json_null());
			}
		} else {
			null_listed(m, u, path);
		}
		path->len = mark;
		path->buf[mark] = '\0';
		if (obj)
			iter = json_object_iter_next(v, iter);
	}
}

int runrec_null_underflows(json_t *v, const char *text, size_t len, sb *fields)
{
	if (!may_underflow(text, len))
		return 0;
	struct underflows u = { .fields = fields };
	size_t pos = 0, tok_len, cap = 0;
	long count = 0, k;
	const char *tok;
	while ((k = next_underflow(text, len, &pos, &count, &tok, &tok_len)) >= 0) {
		if (u.n == (int)cap) {
			cap = cap ? 2 * cap : 4;
			u.idx = xrealloc(u.idx, cap * sizeof(*u.idx));
			u.tok = xrealloc(u.tok, cap * sizeof(*u.tok));
			u.tok_len = xrealloc(u.tok_len, cap * sizeof(*u.tok_len));
		}
		u.idx[u.n] = k;
		u.tok[u.n] = tok;
		u.tok_len[u.n++] = tok_len;
	}
	sb path = SB_INIT;
	if (u.n && json_is_number(v)) { /* a bare number (not a record) */
		u.next = 1;
		sb_addf(fields, "'(value)'");
	} else if (u.n) {
		null_listed(v, &u, &path);
	}
	sb_release(&path);
	free(u.idx);
	free(u.tok);
	free(u.tok_len);
	return u.next;
}

int runrec_bpb_diverged(double val_bpb)
{
	return val_bpb > RUNREC_BPB_UNIFORM;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "object";
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "integer";
	case JSON_REAL: return "number";
	case JSON_TRUE: case JSON_FALSE: return "boolean";
	default: return "null";
	}
}

int field_problem(sb *err, const char *field, const char *fmt, ...)
{
	va_list ap;
	if (err->len)
		sb_addc(err, '\n');
	sb_addf(err, "field '%s': ", field);
	va_start(ap, fmt);
	sb_vaddf(err, fmt, ap);
	va_end(ap);
	return 1;
}

/* A string-or-null field; returns the number of problems. */
static int check_opt_string(const json_t *obj, const char *key, const char *path, sb *err)
{
	json_t *v = json_object_get(obj, key);
	if (v && !json_is_string(v) && !json_is_null(v))
		return field_problem(err, path, "expected a string or null, got %s", type_name(v));
	return 0;
}

static int check_enum(const json_t *obj, const char *key, const char *const *allowed,
		      int required, sb *err)
{
	json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v))
		return required ? field_problem(err, key, "is required") : 0;
	if (!json_is_string(v))
		return field_problem(err, key, "expected a string, got %s", type_name(v));
	if (!runrec_in_list(allowed, json_string_value(v))) {
		sb s = SB_INIT;
		for (const char *const *p = allowed; *p; p++)
			sb_addf(&s, "%s%s", p == allowed ? "" : "|", *p);
		field_problem(err, key, "'%s' is not one of %s", json_string_value(v), s.buf);
		sb_release(&s);
		return 1;
	}
	return 0;
}

static int check_time(const json_t *obj, const char *key, sb *err)
{
	json_t *v = json_object_get(obj, key);
	double t;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return field_problem(err, key, "expected an ISO-8601 UTC time string, got %s", type_name(v));
	if (parse_iso_utc(json_string_value(v), &t))
		return field_problem(err, key, "'%s' is not an ISO-8601 time like 2026-03-16T04:00:00Z",
			       json_string_value(v));
	return 0;
}

/* obj.key must be an object (or null/absent); every member must satisfy
 * the given type predicate. */
enum member_kind { M_SCALAR, M_NUMBER, M_STRING, M_ANY_SCALAR_OR_NUMBER };

static int check_members(const json_t *parent, const char *key, enum member_kind kind, sb *err)
{
	json_t *obj = json_object_get(parent, key);
	int n = 0;
	if (!obj || json_is_null(obj))
		return 0;
	if (!json_is_object(obj))
		return field_problem(err, key, "expected an object, got %s", type_name(obj));
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		const char *want;
		switch (kind) {
		case M_NUMBER:
			want = json_is_number(v) || json_is_null(v) ? NULL : "a number or null";
			break;
		case M_STRING:
			want = json_is_string(v) || json_is_null(v) ? NULL : "a string or null";
			break;
		default:
			want = !json_is_object(v) && !json_is_array(v) ? NULL :
			       "a scalar (string, number, boolean, null)";
		}
		if (want) { /* the path only for a problem: once a member was 4% of ingest's worker */
			char path[256];
			snprintf(path, sizeof(path), "%s.%s", key, k);
			n += field_problem(err, path, "expected %s, got %s", want, type_name(v));
		}
	}
	return n;
}

static int check_hardware(const json_t *rec, sb *err)
{
	json_t *hw = json_object_get(rec, "hardware");
	int n = 0;
	if (!hw || json_is_null(hw))
		return 0;
	if (!json_is_object(hw))
		return field_problem(err, "hardware", "expected an object, got %s", type_name(hw));
	static const char *const strs[] = { "gpu_name", "compute_capability", "driver", "cuda", "host", "cpu" };
	static const char *const nums[] = { "gpu_count", "gpu_mem_mb" };
	char path[64];
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		json_t *v = json_object_get(hw, strs[i]);
		if (!v || json_is_string(v) || json_is_null(v))
			continue; /* the path only for a problem (see check_members) */
		snprintf(path, sizeof(path), "hardware.%s", strs[i]);
		n += check_opt_string(hw, strs[i], path, err);
	}
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++) {
		json_t *v = json_object_get(hw, nums[i]);
		if (!v || json_is_number(v) || json_is_null(v))
			continue;
		snprintf(path, sizeof(path), "hardware.%s", nums[i]);
		n += field_problem(err, path, "expected a number, got %s", type_name(v));
	}
	return n;
}

static int check_code(const json_t *rec, sb *err)
{
	json_t *code = json_object_get(rec, "code");
	int n = 0;
	if (!code || json_is_null(code))
		return 0;
	if (!json_is_object(code))
		return field_problem(err, "code", "expected an object, got %s", type_name(code));
	n += check_opt_string(code, "commit", "code.commit", err);
	n += check_opt_string(code, "diff_sha256", "code.diff_sha256", err);
	json_t *d = json_object_get(code, "dirty");
	if (d && !json_is_boolean(d) && !json_is_null(d))
		n += field_problem(err, "code.dirty", "expected true or false, got %s", type_name(d));
	return n;
}

static int check_failure(const json_t *rec, sb *err)
{
	json_t *f = json_object_get(rec, "failure");
	int n = 0;
	if (!f || json_is_null(f))
		return 0;
	if (!json_is_object(f))
		return field_problem(err, "failure", "expected an object, got %s", type_name(f));
	json_t *ph = json_object_get(f, "phase");
	if (ph && !json_is_null(ph)) {
		if (!json_is_string(ph))
			n += field_problem(err, "failure.phase", "expected a string, got %s", type_name(ph));
		else if (!runrec_in_list(runrec_phases, json_string_value(ph)))
			n += field_problem(err, "failure.phase",
				     "'%s' is not one of startup|data|forward|backward|optimizer|eval",
				     json_string_value(ph));
	}
	n += check_opt_string(f, "message", "failure.message", err);
	n += check_opt_string(f, "log_tail", "failure.log_tail", err);
	return n;
}

static int check_metrics(const json_t *rec, sb *err)
{
	int n = check_members(rec, "metrics", M_NUMBER, err);
	double bpb = runrec_metric(rec, "val_bpb");
	if (!isnan(bpb) && (!isfinite(bpb) || bpb < 0))
		n += field_problem(err, "metrics.val_bpb", "%g is not a valid bits-per-byte value", bpb);
	return n;
}

int runrec_validate(const json_t *rec, sb *err)
{
	int n = 0;
	if (!json_is_object(rec))
		return field_problem(err, "(record)", "expected a JSON object"), -1;
	json_t *schema = json_object_get(rec, "schema");
	if (!json_is_string(schema))
		n += field_problem(err, "schema", "is required and must be \"%s\"", RUNREC_SCHEMA);
	else if (strcmp(json_string_value(schema), RUNREC_SCHEMA))
		n += field_problem(err, "schema", "'%s' is not supported (expected \"%s\")",
			     json_string_value(schema), RUNREC_SCHEMA);
	json_t *id = json_object_get(rec, "run_id");
	if (id && !(json_is_string(id) && json_string_length(id) > 0) && !json_is_null(id))
		n += field_problem(err, "run_id", "expected a non-empty string, got %s", type_name(id));
	static const char *const strs[] = { "parent", "campaign", "agent", "description" };
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		n += check_opt_string(rec, strs[i], strs[i], err);
	n += check_enum(rec, "status", runrec_statuses, 1, err);
	n += check_enum(rec, "decision", runrec_decisions, 0, err);
	n += check_time(rec, "started_at", err);
	n += check_time(rec, "finished_at", err);
	n += check_hardware(rec, err);
	n += check_code(rec, err);
	n += check_members(rec, "data", M_STRING, err);
	n += check_members(rec, "budget", M_NUMBER, err);
	n += check_members(rec, "config", M_SCALAR, err);
	n += check_metrics(rec, err);
	n += check_failure(rec, err);
	n += curve_validate(json_object_get(rec, "curve"), err);
	return n ? -1 : 0;
}

/* ---- canonical text ----------------------------------------------------
 *
 * The bytes json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS |
 * JSON_REAL_PRECISION(17)) gives, printed directly: jansson's printer costs
 * a key array and a sort per object, a callback per piece and a UTF-8
 * decode per character (~12 us of a ~1 KB record; this one ~4 us).
 * Identities depend on every byte: tests/unit/test_canonical.c compares the
 * two on many records (escapes, unicode, nesting, numbers of every shape). */

/* Strings: '"', '\\' and control characters escaped as jansson does
 * (short forms where JSON has them, else \u00XX in upper case); all else,
 * UTF-8 included, as it is. Jansson strings are valid UTF-8. */
void runrec_canonical_string(const char *s, size_t n, sb *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t run = 0;
	sb_addc(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		sb_add(out, s + run, i - run);
		run = i + 1;
		char esc[7] = { '\\', 0 };
		size_t len = 2;
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			len = 6;
		}
		sb_add(out, esc, len);
	}
	sb_add(out, s + run, n - run);
	sb_addc(out, '"');
}

static void canon_integer(sb *out, json_int_t v)
{
	char buf[24], *p = buf + sizeof(buf);
	/* negate as unsigned: LLONG_MIN has no positive counterpart */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	sb_add(out, p, (size_t)(buf + sizeof(buf) - p));
}

/* "%.17g", then jansson's touches: ".0" when it would read back as an integer, no '+'
 * and no leading zeros in the exponent (1e+20 -> 1e20, 1e-05 -> 1e-5). */
static void canon_real(sb *out, double v)
{
	char buf[40];
	int n = snprintf(buf, sizeof(buf), "%.17g", v);
	char *e = memchr(buf, 'e', (size_t)n);
	if (!e) {
		sb_add(out, buf, (size_t)n);
		if (!memchr(buf, '.', (size_t)n))
			sb_add(out, ".0", 2);
		return;
	}
	char *digits = e + 1;
	if (*digits == '+' || *digits == '-')
		digits++;
	char *end = digits;
	while (*end == '0' && end[1])
		end++;
	sb_add(out, buf, (size_t)(e + 1 - buf));
	if (e[1] == '-')
		sb_addc(out, '-');
	sb_add(out, end, (size_t)(buf + n - end));
}

struct canon_key {
	const char *key;
	size_t len;
	const json_t *val;
};

/* Where the text of one member's value landed (runrec_canonical_member). */
struct canon_mark {
	const char *key;
	size_t off, len;
};

static void canon_value(sb *out, const json_t *v);

/* Members in strcmp order of their keys (JSON_SORT_KEYS); keys hold no NUL
 * (jansson's parser refuses them). Records have objects of ~10 members:
 * insertion sort on a stack array beats qsort and malloc. */
static void canon_object(sb *out, const json_t *obj, struct canon_mark *mark)
{
	struct canon_key small[32], *k = small;
	size_t n = json_object_size(obj), i = 0;
	const char *key;
	json_t *val;
	if (n > ARRAY_SIZE(small))
		k = xmalloc(n * sizeof(*k));
	json_object_foreach((json_t *)obj, key, val) {
		struct canon_key it = { key, strlen(key), val };
		size_t j = i++;
		for (; j > 0 && strcmp(k[j - 1].key, key) > 0; j--)
			k[j] = k[j - 1];
		k[j] = it;
	}
	sb_addc(out, '{');
	for (i = 0; i < n; i++) {
		if (i)
			sb_addc(out, ',');
		runrec_canonical_string(k[i].key, k[i].len, out);
		sb_addc(out, ':');
		size_t start = out->len;
		canon_value(out, k[i].val);
		if (mark && !strcmp(k[i].key, mark->key)) {
			mark->off = start;
			mark->len = out->len - start;
		}
	}
	sb_addc(out, '}');
	if (k != small)
		free(k);
}

static void canon_value(sb *out, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		canon_object(out, v, NULL);
		break;
	case JSON_ARRAY:
		sb_addc(out, '[');
		for (size_t i = 0; i < json_array_size(v); i++) {
			if (i)
				sb_addc(out, ',');
			canon_value(out, json_array_get(v, i));
		}
		sb_addc(out, ']');
		break;
	case JSON_STRING:
		runrec_canonical_string(json_string_value(v), json_string_length(v), out);
		break;
	case JSON_INTEGER:
		canon_integer(out, json_integer_value(v));
		break;
	case JSON_REAL:
		canon_real(out, json_real_value(v));
		break;
	case JSON_TRUE:
		sb_add(out, "true", 4);
		break;
	case JSON_FALSE:
		sb_add(out, "false", 5);
		break;
	default:
		sb_add(out, "null", 4);
	}
}

void runrec_canonical_add(const json_t *v, sb *out)
{
	canon_value(out, v);
}

/* Grown as it goes, not by 1 KB up front: small values are printed with
 * it (the repeat key's ~100-byte arrays did so for every record until the
 * sixth pass, docs/ingest.md), and glibc serves a request of 1 KB or more
 * only after merging every small chunk freed since (malloc_consolidate):
 * at 10^6 records that was the storing thread's second-largest malloc
 * cost (docs/ingest.md, fourth pass). */
char *runrec_canonical(const json_t *rec)
{
	sb s = SB_INIT;
	canon_value(&s, rec);
	return sb_detach(&s);
}

char *runrec_canonical_member(const json_t *rec, const char *key, size_t *off, size_t *len)
{
	struct canon_mark mark = { key, 0, 0 };
	sb s = SB_INIT;
	sb_grow(&s, 1024);
	if (json_is_object(rec))
		canon_object(&s, rec, &mark);
	else
		canon_value(&s, rec);
	*off = mark.off;
	*len = mark.len;
	return sb_detach(&s);
}

void runrec_identity(const json_t *rec, char hex[65])
{
	char *text = runrec_canonical(rec);
	sha256_hex(text, strlen(text), hex);
	free(text);
}

void runrec_ensure_id(json_t *rec)
{
	json_t *id = json_object_get(rec, "run_id");
	if (json_is_string(id) && json_string_length(id) > 0)
		return;
	json_object_del(rec, "run_id");
	char hex[65], buf[24];
	runrec_identity(rec, hex);
	snprintf(buf, sizeof(buf), "r-%.16s", hex);
	json_object_set_new(rec, "run_id", json_string(buf));
}

const char *runrec_str(const json_t *rec, const char *key)
{
	return json_string_value(json_object_get(rec, key));
}

double runrec_num(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *runrec_sub_str(const json_t *rec, const char *obj, const char *key)
{
	return json_string_value(json_object_get(json_object_get(rec, obj), key));
}

double runrec_metric(const json_t *rec, const char *name)
{
	return runrec_num(json_object_get(rec, "metrics"), name);
}

static int same_canonical(const json_t *a, const json_t *b)
{
	sb ta = SB_INIT, tb = SB_INIT;
	runrec_canonical_add(a, &ta);
	runrec_canonical_add(b, &tb);
	int same = ta.len == tb.len && !memcmp(ta.buf, tb.buf, ta.len);
	sb_release(&ta);
	sb_release(&tb);
	return same;
}

int runrec_supersedes(const json_t *final, const json_t *start)
{
	const char *fs = runrec_str(final, "status"), *ss = runrec_str(start, "status");
	const char *fid = runrec_str(final, "run_id"), *sid = runrec_str(start, "run_id");
	if (!fs || !ss || strcmp(ss, "running") || !strcmp(fs, "running"))
		return 0;
	if (!fid || !sid || strcmp(fid, sid))
		return 0;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)start, k, v) {
		json_t *fv = json_object_get(final, k);
		if (!strcmp(k, "status") || json_is_null(v))
			continue;
		if (!fv || !same_canonical(v, fv))
			return 0;
	}
	return 1;
}

json_t *runrec_new(const char *status)
{
	json_t *r = json_object();
	json_object_set_new(r, "schema", json_string(RUNREC_SCHEMA));
	json_object_set_new(r, "status", json_string(status));
	return r;
}

int runrec_append(const char *path, const json_t *rec)
{
	char *text = json_dumps(rec, JSON_COMPACT | JSON_REAL_PRECISION(17));
	if (!text) {
		rl_error("cannot encode run record for '%s'", path);
		return -1;
	}
	size_t len = strlen(text);
	text = xrealloc(text, len + 2);
	text[len++] = '\n';
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	int rc = -1;
	if (fd < 0) {
		rl_error("cannot open record file '%s': %s", path, strerror(errno));
		goto out;
	}
	ssize_t w = write(fd, text, len);
	if (w != (ssize_t)len) {
		rl_error("cannot write record to '%s': %s", path, w < 0 ? strerror(errno) : "short write");
		goto out;
	}
	fsync(fd);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(text);
	return rc;
}
