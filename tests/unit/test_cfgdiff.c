/* test_cfgdiff.c — ledger/cfgdiff.c: a run's exact changes from two
 * configs' canonical texts are what changes_exact (infer.c) finds in the
 * parsed configs.
 *
 * Test plan:
 *   cfgdiff-1.x  hand-picked pairs: a changed, an added and a removed
 *                member; 8 and 8.0 (one value); members nested with
 *                brackets, commas and escaped quotes inside strings; empty
 *                configs; escaped keys; reals printed with exponents:
 *                the same changes, field for field, as changes_exact
 *   cfgdiff-2.1  a parent that is not an object: -1, no changes
 *   cfgdiff-3.1  5,000 random pairs of configs (members dropped, changed,
 *                added, of every JSON type): the same changes every time */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cfgdiff.h"
#include "runrec.h"
#include "check.h"

/* 1 when config_changes of the canonical texts and changes_exact of the
 * values agree on the answer and on every field of every change. */
static int agree(json_t *parent, json_t *cfg)
{
	struct change_list a = CHANGE_LIST_INIT, b = CHANGE_LIST_INIT;
	char *pt = runrec_canonical(parent), *ct = runrec_canonical(cfg);
	int rc = config_changes(pt, strlen(pt), ct, strlen(ct), &a), want = -1, same;
	if (json_is_object(parent) && json_is_object(cfg)) {
		changes_exact(parent, cfg, &b);
		want = 0;
	}
	same = rc == want && a.n == b.n;
	for (int i = 0; same && i < a.n; i++) {
		const struct change *x = &a.v[i], *y = &b.v[i];
		same = !strcmp(x->var, y->var) &&
		       (x->old_val ? y->old_val && !strcmp(x->old_val, y->old_val) : !y->old_val) &&
		       (x->new_val ? y->new_val && !strcmp(x->new_val, y->new_val) : !y->new_val);
	}
	if (!same)
		fprintf(stderr, "differ: %s -> %s (%d/%d changes, rc %d)\n", pt, ct, a.n, b.n, rc);
	free(pt);
	free(ct);
	change_list_release(&a);
	change_list_release(&b);
	return same;
}

static int agree_text(const char *parent, const char *cfg)
{
	json_t *p = json_loads(parent, JSON_DECODE_ANY, NULL), *c = json_loads(cfg, 0, NULL);
	int ok = p && c && agree(p, c);
	json_decref(p);
	json_decref(c);
	return ok;
}

static int changes_of(const char *parent, const char *cfg)
{
	struct change_list cl = CHANGE_LIST_INIT;
	int rc = config_changes(parent, strlen(parent), cfg, strlen(cfg), &cl), n = cl.n;
	change_list_release(&cl);
	return rc ? -1 : n;
}

static uint64_t x = 88172645463325252ULL;

static uint64_t next(void)
{
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return x;
}

static json_t *random_value(int depth)
{
	static const char *words[] = { "gelu", "a,b", "q\"x", "}", "", "\u00e9" };
	switch (next() % (depth ? 7 : 5)) {
	case 0: return json_integer((json_int_t)(next() % 5));
	case 1: return json_real((double)(next() % 5) / (next() % 2 ? 1.0 : 4.0));
	case 2: return json_string(words[next() % 6]);
	case 3: return next() % 2 ? json_true() : json_null();
	case 4: return json_real(1e20 * (double)(next() % 3));
	case 5: {
		json_t *a = json_array();
		for (int i = (int)(next() % 3); i > 0; i--)
			json_array_append_new(a, random_value(depth - 1));
		return a;
	}
	default: {
		json_t *o = json_object();
		for (int i = (int)(next() % 3); i > 0; i--)
			json_object_set_new(o, words[next() % 6], random_value(depth - 1));
		return o;
	}
	}
}

static int random_pairs_agree(void)
{
	static const char *keys[] = { "lr", "depth", "act", "wd", "k,1", "k\"2", "z", "a{" };
	for (int i = 0; i < 5000; i++) {
		json_t *p = json_object(), *c;
		for (int k = 0; k < 8; k++)
			if (next() % 3)
				json_object_set_new(p, keys[k], random_value(2));
		c = json_deep_copy(p);
		for (int k = 0; k < 8; k++) {
			int what = (int)(next() % 6);
			if (what == 0)
				json_object_del(c, keys[k]);
			else if (what == 1)
				json_object_set_new(c, keys[k], random_value(2));
		}
		int ok = agree(p, c);
		json_decref(p);
		json_decref(c);
		if (!ok)
			return 0;
	}
	return 1;
}

int main(void)
{
	CHECK("cfgdiff-1.1", agree_text("{\"lr\":0.01,\"depth\":8,\"act\":\"gelu\"}",
					"{\"lr\":0.02,\"depth\":8,\"act\":\"gelu\",\"wd\":0.1}"));
	CHECK("cfgdiff-1.2", changes_of("{\"lr\":0.01,\"wd\":0.1}", "{\"lr\":0.02}") == 2);
	CHECK("cfgdiff-1.3", agree_text("{\"depth\":8}", "{\"depth\":8.0}"));
	CHECK("cfgdiff-1.4", changes_of("{\"depth\":8}", "{\"depth\":8.0}") == 0);
	CHECK("cfgdiff-1.5", agree_text("{\"a\":{\"b\":[1,2,{\"c\":\"}\"}]},\"s\":\"x\\\"y,z\",\"n\":null}",
					"{\"s\":\"x\\\"y,z\",\"a\":{\"b\":[1,2,{\"c\":\"]\"}]},\"t\":true}"));
	CHECK("cfgdiff-1.6", agree_text("{}", "{\"x\":1}") && agree_text("{\"x\":1}", "{}") &&
				     agree_text("{}", "{}"));
	CHECK("cfgdiff-1.7", agree_text("{\"k\\u00e9\":1e20,\"z\":-0.0}", "{\"z\":0,\"k\\u00e9\":1e+20}"));
	CHECK("cfgdiff-2.1", agree_text("[1,2]", "{\"x\":1}") && changes_of("[1,2]", "{\"x\":1}") == -1);
	CHECK("cfgdiff-3.1", random_pairs_agree());
	return check_status();
}
