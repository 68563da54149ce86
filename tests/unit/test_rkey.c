/* test_rkey.c — ledger/rkey.c: the rerun phrase matcher and the repeat
 * key rules, without a database.
 * Test plan: phrases that say "again" and nothing else match, with labels
 * and seeds; any other word, a change, or a reference to another run does
 * not (the matcher is conservative). Keys: same change set against the
 * same parent key match whatever the commit; another parent or another
 * class does not; a seed-only change, the parent's config on the parent's
 * code, and a rerun description give the parent's key; an exact change
 * outweighs a "rerun" description; "no logic change" with no change read
 * is a rerun; a root without config keys on its id, as its children name
 * it before it is stored. Key texts: each key is the SHA-256 of the JSON
 * array written out here (escapes, null, a class that is not UTF-8 left
 * out), as stored ledgers have them. */
#include <math.h>
#include "rkey.h"
#include "sha256.h"
#include "util.h"
#include "check.h"

static void test_phrases(void)
{
	static const char *const yes[] = {
		"rerun", "Re-run", "baseline rerun", "rerun baseline (seed 2)", "repeat", "exp12 rerun",
		"exp 12: repeat", "[discard] baseline again", "v3: same config, different seed",
		"same config", "no change", "rerun with seed=1337", "noise check", "baseline (repeat)",
		"repeat of parent", "rerun best config again", "identical rerun",
		/* a run named a verification or a rerun, then only how it went */
		"verification run on battery 812 steps \xe2\x80\x94 baseline confirmed",
		"rerun of best on a cold machine, 1.2% slower", "confirmation run - result reproduced",
	};
	static const char *const no[] = {
		"baseline", "", "depth 8 to 9 (repeat)", "rerun with depth 9", "repeat exp5",
		"rerun #4", "same config but lr 0.05", "grad checkpointing + device batch 32 -> 64 (repeat, stopped)",
		"seed", "rerun 2", "add noise", "MATRIX_LR 0.04→0.05 again", "try the new thing",
		"repeat run12", "baseline with new seed and warmdown 0.6",
		"verification run with depth 9", "rerun of exp7 on battery", "verification run 3",
	};
	char id[32];
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		snprintf(id, sizeof(id), "rkey-phrase-yes-%zu", i + 1);
		if (!CHECK(id, rkey_rerun_text(yes[i])))
			printf("#   '%s'\n", yes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		snprintf(id, sizeof(id), "rkey-phrase-no-%zu", i + 1);
		if (!CHECK(id, !rkey_rerun_text(no[i])))
			printf("#   '%s'\n", no[i]);
	}
	CHECK("rkey-phrase-null", !rkey_rerun_text(NULL));
}

static struct change_list one(const char *var, const char *old, const char *new_)
{
	struct change_list cl = CHANGE_LIST_INIT;
	change_list_add(&cl, var, old, new_);
	return cl;
}

/* A run without config: parent, description, class, changes. */
static void key_of(const char *run_id, const char *parent, const char *desc, const char *hw,
		   const struct change_list *cl, int exact, const struct rkey_parent *p, char key[65])
{
	struct rkey_run r = { .run_id = run_id, .parent = parent, .description = desc, .hw_class = hw,
			      .changes = cl, .exact = exact };
	rkey_derive(&r, p, key);
}

static void test_keys(void)
{
	char root[65], a[65], b[65], c[65], k[65];
	struct rkey_parent none = { 0 };
	struct change_list empty = CHANGE_LIST_INIT, depth = one("model.depth", "8", "9");
	struct change_list seed = one("train.seed", "1", "2"), lr = one("optim.matrix_lr", "0.04", "0.05");

	/* a root without config keys on its own id; a child ingested before
	 * its parent names the same key for it */
	key_of("base", NULL, "baseline", "H100", &empty, 0, &none, root);
	key_of("x", "base", "rerun", "H100", &empty, 0, &none, k);
	CHECK("rkey-root-1", strlen(root) == 64 && !strcmp(root, k));

	struct rkey_parent p = { 1, root, "H100", "c0", NULL };
	key_of("a", "base", "depth 8 to 9", "H100", &depth, 0, &p, a);
	key_of("b", "base", "exp7 depth 8 to 9", "H100", &depth, 0, &p, b);
	CHECK("rkey-same-change-1", !strcmp(a, b) && strcmp(a, root));
	key_of("c", "base", "lr", "H100", &lr, 0, &p, c);
	CHECK("rkey-other-change", strcmp(a, c));
	key_of("d", "base", "depth 8 to 9", "A100", &depth, 0, &p, k);
	CHECK("rkey-other-class", strcmp(a, k));
	struct rkey_parent q = { 1, c, "H100", "c2", NULL };
	key_of("e", "c", "depth 8 to 9", "H100", &depth, 0, &q, k);
	CHECK("rkey-other-parent", strcmp(a, k));

	/* reruns take the parent's key */
	key_of("s", "base", "seed 2", "H100", &seed, 1, &p, k);
	CHECK("rkey-rerun-seed", !strcmp(k, root));
	key_of("t", "base", "baseline again", "H100", &empty, 0, &p, k);
	CHECK("rkey-rerun-text", !strcmp(k, root));
	key_of("t2", "base", "baseline again", "A100", &empty, 0, &p, k);
	CHECK("rkey-rerun-other-class", strcmp(k, root));
	/* a description that says rerun does not outweigh an exact change */
	key_of("u", "base", "rerun", "H100", &depth, 1, &p, k);
	CHECK("rkey-rerun-exact-change", !strcmp(k, a));

	/* runs with configs: the same change on other commits repeats; the
	 * parent's config on the parent's code repeats the parent; no change
	 * on other code keeps the config key (its commit) */
	struct rkey_run r1 = { "r1", "base", "depth 9", "H100", "c1", NULL, "cfgkey1", &depth, 1 };
	struct rkey_run r2 = { "r2", "base", "depth 9", "H100", "c2", NULL, "cfgkey2", &depth, 1 };
	rkey_derive(&r1, &p, b);
	rkey_derive(&r2, &p, c);
	CHECK("rkey-config-commits", !strcmp(b, c) && !strcmp(b, a));
	struct rkey_run r3 = { "r3", "base", "try", "H100", "c0", NULL, "cfgkey3", &empty, 1 };
	rkey_derive(&r3, &p, k);
	CHECK("rkey-config-same-code", !strcmp(k, root) && rkey_is_rerun(&r3, &p));
	struct rkey_run r4 = { "r4", "base", "new kernel", "H100", "c4", NULL,
			       "0123456789012345678901234567890123456789012345678901234567890123", &empty, 1 };
	rkey_derive(&r4, &p, k);
	CHECK("rkey-config-code-changed", !strcmp(k, r4.config_key) && !rkey_is_rerun(&r4, &p));
	/* a config run whose parent is not stored keeps its config key */
	rkey_derive(&r4, &none, k);
	CHECK("rkey-config-no-parent", !strcmp(k, r4.config_key));

	/* no config, nothing inferred: the description against the parent */
	key_of("v", "base", "compile mode (x)", "H100", &empty, 0, &p, b);
	key_of("w", "base", "Compile  mode", "H100", &empty, 0, &p, c);
	CHECK("rkey-description", !strcmp(b, c) && strcmp(b, root));
	/* "no logic change" and nothing the grammar reads: the parent again
	 * (line 31 of tests/fixtures/real/isque03-mlx-results.tsv); with a
	 * change read, or an exact one, it is that change */
	const char *unchanged = "add checkpoint saving (top-5 by val_bpb, per program.md); no logic change, "
				"re-run confirms noise floor";
	key_of("n1", "base", unchanged, "H100", &empty, 0, &p, k);
	CHECK("rkey-no-logic-change", !strcmp(k, root));
	key_of("n2", "base", "no code changes, just logging", "H100", &empty, 0, &p, k);
	CHECK("rkey-no-code-changes", !strcmp(k, root));
	key_of("n3", "base", "depth 8 to 9, no logic change elsewhere", "H100", &depth, 0, &p, k);
	CHECK("rkey-no-logic-change-but-a-change", !strcmp(k, a));
	key_of("n4", "base", unchanged, "H100", &empty, 1, &p, k);
	CHECK("rkey-no-logic-change-exact", strcmp(k, root));
	CHECK("rkey-unchanged-text", rkey_unchanged_text("no functional change") &&
	      !rkey_unchanged_text("logic change") && !rkey_unchanged_text("no change of lr") &&
	      !rkey_unchanged_text("no logic change, as #4") && !rkey_unchanged_text(NULL));
	CHECK("rkey-is-seed", rkey_is_seed("seed") && rkey_is_seed("train.seed") && !rkey_is_seed("seeds"));
	change_list_release(&depth);
	change_list_release(&seed);
	change_list_release(&lr);
}

/* 1 when key is the SHA-256 of text with "ROOT" replaced by root. */
static int key_is(const char *key, const char *text, const char *root)
{
	char want[65], buf[512];
	const char *at = strstr(text, "ROOT");
	if (at)
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - text), text, root, at + 4);
	else
		snprintf(buf, sizeof(buf), "%s", text);
	sha256_hex(buf, strlen(buf), want);
	return !strcmp(key, want);
}

/* The texts the keys hash, byte for byte: a ledger's stored keys are
 * these, so printing them another way must not change one. */
static void test_key_texts(void)
{
	char root[65], k[65];
	struct rkey_parent none = { 0 };
	struct change_list empty = CHANGE_LIST_INIT, depth = one("model.depth", "8", "9");
	struct change_list unknown = one("optim.lr", NULL, NULL);
	key_of("base", NULL, "baseline", "H100", &empty, 0, &none, root);
	CHECK("rkey-text-own", key_is(root, "[\"run\",\"base\"]", root));
	struct rkey_parent p = { 1, root, "H100", "c0", NULL };
	key_of("a", "base", "depth 8 to 9", "H100", &depth, 0, &p, k);
	CHECK("rkey-text-changes", key_is(k, "[\"changes\",\"ROOT\",\"H100\",\"model.depth\",\"9\"]", root));
	key_of("b", "base", "Raise  the LR (a lot)\t", "RTX \"3090\"\\", &unknown, 0, &p, k);
	CHECK("rkey-text-unknown-value",
	      key_is(k, "[\"changes\",\"ROOT\",\"RTX \\\"3090\\\"\\\\\",\"optim.lr\",null,\"raise the lr\"]", root));
	key_of("c", "base", "Compile  mode (x)", "A100", &empty, 0, &p, k);
	CHECK("rkey-text-description", key_is(k, "[\"description\",\"ROOT\",\"A100\",\"compile mode\"]", root));
	key_of("d", "base", "baseline again", "A100", &empty, 0, &p, k);
	CHECK("rkey-text-rerun", key_is(k, "[\"rerun\",\"ROOT\",\"A100\"]", root));
	/* a class cut inside a character is no JSON string: left out */
	key_of("e", "base", "baseline again", "H\xe2\x80", &empty, 0, &p, k);
	CHECK("rkey-text-class-not-utf8", key_is(k, "[\"rerun\",\"ROOT\"]", root));
	key_of("f", "base", "depth 8 to 9", NULL, &depth, 0, &p, k);
	CHECK("rkey-text-no-class", key_is(k, "[\"changes\",\"ROOT\",\"\",\"model.depth\",\"9\"]", root));
	change_list_release(&depth);
	change_list_release(&unknown);
}

int main(void)
{
	test_phrases();
	test_keys();
	test_key_texts();
	return check_status();
}
