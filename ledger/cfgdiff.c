/* cfgdiff.c — a run's exact changes from two configs' canonical texts;
 * see cfgdiff.h.
 *
 * Why texts: the storing thread keeps each stored run's config for its
 * children (store.c's parent-config cache). Keeping jansson copies cost 15%
 * of that thread at 10^6 records (copying every config, freeing the copies
 * as they aged, in a fragmented heap), and parsing the kept text back for
 * every child cost ~65,000 instructions a run. The canonical texts of two
 * configs mostly differ in a member or two, and equal text is equal value,
 * so only the members whose texts differ are parsed, and changes_exact
 * (infer.c) judges those as it judges whole configs ("8" and "8.0" are one
 * value). fuzz/fuzz_cfgdiff.c checks the result against changes_exact of
 * the whole configs. */
#include <string.h>
#include "cfgdiff.h"
#include "utf8.h"

/* More members than this: the whole configs are parsed instead. */
#define MEMBERS_MAX 256

struct member {
	const char *key, *val; /* the key with its quotes */
	size_t key_len, val_len;
};

/* The end of the JSON value that starts at s: past a string or a closed
 * object or array, else at the ',' or the enclosing '}' after a scalar. */
static const char *value_end(const char *s, const char *end)
{
	int depth = 0;
	for (const char *p = s; p < end; p++) {
		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p >= end)
				return end;
			if (!depth)
				return p + 1;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (depth == 0)
				return p;
			if (--depth == 0)
				return p + 1;
		} else if (*p == ',' && !depth) {
			return p;
		}
	}
	return end;
}

/* The members of an object's canonical text (no spaces), or -1 when t is
 * not one or has more than max members. */
static int split_members(const char *t, size_t n, struct member *m, int max)
{
	const char *p = t, *end = t + n;
	int k = 0;
	if (n < 2 || *p != '{' || end[-1] != '}')
		return -1;
	if (*++p == '}')
		return p + 1 == end ? 0 : -1;
	for (;;) {
		if (k == max || *p != '"')
			return -1;
		m[k].key = p;
		p = value_end(p, end);
		m[k].key_len = (size_t)(p - m[k].key);
		if (p >= end || *p != ':')
			return -1;
		m[k].val = ++p;
		p = value_end(p, end);
		m[k].val_len = (size_t)(p - m[k].val);
		if (p >= end || !m[k].val_len)
			return -1;
		k++;
		if (*p == '}')
			return p + 1 == end ? k : -1;
		if (*p++ != ',')
			return -1;
	}
}

/* The member of m[0..n) with key's text, looked for from `from` on (the
 * two texts list their keys in the same order), or -1. */
static int find_key(const struct member *m, int n, const struct member *key, int from)
{
	for (int i = 0; i < n; i++) {
		int j = (from + i) % n;
		if (m[j].key_len == key->key_len && !memcmp(m[j].key, key->key, key->key_len))
			return j;
	}
	return -1;
}

/* The key of member m as the string it stands for, when its text needs
 * no decoding: no escape, no control character, valid UTF-8 (a canonical
 * text's keys, all but never). Else 0, and json_loadb reads it: two of the
 * four parses of a changed member were of keys (docs/ingest.md, sixth
 * pass). */
static int plain_key(const struct member *m, const char **key, size_t *len)
{
	if (m->key_len < 2 || m->key[0] != '"' || m->key[m->key_len - 1] != '"')
		return 0;
	const char *k = m->key + 1;
	size_t n = m->key_len - 2;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)k[i] < 0x20 || k[i] == '\\' || k[i] == '"')
			return 0;
	if (!utf8_valid(k, n))
		return 0;
	*key = k;
	*len = n;
	return 1;
}

/* Parses member m into obj; 0, or -1 when its text does not parse. */
static int add_member(json_t *obj, const struct member *m)
{
	const char *k;
	size_t n;
	json_t *val = json_loadb(m->val, m->val_len, JSON_DECODE_ANY, NULL);
	if (!val)
		return -1;
	if (plain_key(m, &k, &n)) /* json_object_setn_new takes val, also on failure */
		return json_object_setn_new(obj, k, n, val) ? -1 : 0;
	json_t *key = json_loadb(m->key, m->key_len, JSON_DECODE_ANY, NULL);
	int ok = json_is_string(key) && !json_object_set_new(obj, json_string_value(key), val);
	if (!json_is_string(key))
		json_decref(val);
	json_decref(key);
	return ok ? 0 : -1;
}

/* The members whose texts differ, parsed into *pdiff and *cdiff; -1 when
 * either text is not an object's (or has too many members). */
static int differing_members(const char *ptext, size_t plen, const char *ctext, size_t clen,
			     json_t **pdiff, json_t **cdiff)
{
	struct member pm[MEMBERS_MAX], cm[MEMBERS_MAX];
	unsigned char matched[MEMBERS_MAX] = { 0 };
	int np = split_members(ptext, plen, pm, MEMBERS_MAX);
	int nc = np < 0 ? -1 : split_members(ctext, clen, cm, MEMBERS_MAX), from = 0, rc = 0;
	if (nc < 0)
		return -1;
	*pdiff = json_object();
	*cdiff = json_object();
	for (int i = 0; i < nc && !rc; i++) {
		int at = find_key(pm, np, &cm[i], from);
		if (at >= 0) {
			matched[at] = 1;
			from = at + 1;
			if (pm[at].val_len == cm[i].val_len && !memcmp(pm[at].val, cm[i].val, cm[i].val_len))
				continue; /* the same text is the same value */
			rc = add_member(*pdiff, &pm[at]);
		}
		if (!rc)
			rc = add_member(*cdiff, &cm[i]);
	}
	for (int i = 0; i < np && !rc; i++)
		if (!matched[i])
			rc = add_member(*pdiff, &pm[i]);
	return rc;
}

int config_changes(const char *ptext, size_t plen, const char *ctext, size_t clen,
		   struct change_list *out)
{
	json_t *pcfg = NULL, *cfg = NULL;
	if (differing_members(ptext, plen, ctext, clen, &pcfg, &cfg)) {
		/* not two objects' canonical texts: judge them whole */
		json_decref(pcfg);
		json_decref(cfg);
		pcfg = json_loadb(ptext, plen, 0, NULL);
		cfg = json_loadb(ctext, clen, 0, NULL);
	}
	int rc = json_is_object(pcfg) && json_is_object(cfg) ? 0 : -1;
	if (!rc)
		changes_exact(pcfg, cfg, out);
	json_decref(pcfg);
	json_decref(cfg);
	return rc;
}
