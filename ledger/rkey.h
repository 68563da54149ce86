/* rkey.h — what makes two runs repeats: the repeat key ingest stores in
 * runs.repeat_key, and the phrases that mark a rerun. One definition for
 * the store (which computes the key), the audit (which groups by it and
 * tells reruns from hypotheses) and `ledger repeats` (docs/audit.md,
 * "Repeat group").
 *
 * A run's key names the configuration it measured:
 *  - a run without a (known) parent: its config, code and data on its
 *    hardware class (the hash of [config without seeds, commit, diff,
 *    data, class]), or its own run_id when it has no config;
 *  - a rerun of its parent (only the seed changed; or nothing changed, on
 *    the parent's code; or the description only says "rerun", "repeat",
 *    "same config", "baseline again", … and no exact change says
 *    otherwise; or it says "no logic change" and names no change the
 *    grammar reads): the parent's key, on the parent's hardware class;
 *  - a run that changed something: its parent's key plus its change set
 *    (seeds aside) and its class. Two runs that made the same change set
 *    against the same parent configuration are repeats whatever their
 *    commits (autoresearch commits every experiment);
 *  - a run with a config whose code changed and no change was recorded:
 *    the config key above (its commit tells it apart);
 *  - a run without a config whose description named no change the
 *    inference could read: its parent's key plus the description.
 * Pure functions: no database, no printing. */
#ifndef RL_RKEY_H
#define RL_RKEY_H
#include "infer.h"
#include "sb.h"

/* 1 when the description says the run measures its parent's
 * configuration again and nothing else: every word is rerun talk ("rerun",
 * "re-run", "repeat", "again", "same config", "baseline", "seed 2",
 * "different seed", "noise check", …), with at least one word that says
 * "again" in some way, optionally after a run label ("exp12", "[keep]",
 * "v3:"). Conservative: a word it does not know, or a reference to another
 * run ("repeat exp5"), makes it 0. Also 1 for a run named a measurement
 * again first ("verification run …", "rerun of …", "confirmation run …")
 * when the rest names no other run and the grammar reads no change in it
 * ("verification run power adapter 866 steps — baseline confirmed"). */
int rkey_rerun_text(const char *description);

/* 1 when the description says the training is unchanged: "no logic
 * change", "no code changes", "no functional change", … anywhere in it
 * (and no "#N" reference to another run). A run whose description says so
 * and in which the grammar reads no change at all repeats its parent
 * ("add checkpoint saving (top-5 by val_bpb); no logic change, re-run
 * confirms noise floor"): rkey_is_rerun. */
int rkey_unchanged_text(const char *description);

/* 1 when var is a seed ("seed", "*.seed"): a seed is not a change of
 * configuration. */
int rkey_is_seed(const char *var);

/* The description as part of a key: lowercase, asides in parentheses
 * dropped ("… 32 -> 64 (repeat, stopped)" is the same change as "… 32 ->
 * 64"), runs of spaces collapsed. Appended to key. */
void rkey_description(sb *key, const char *description);

/* The config as a key reads it: seeds left out and every number by its
 * value, so that configs json_same calls equal ({"model.depth": 8} and
 * {"model.depth": 8.0}; key order and 1e-3 against 0.001 are the canonical
 * text's already) are one configuration. A new object (the caller
 * decrefs), or NULL when cfg already reads so and its canonical text is
 * the key's as it is. */
json_t *rkey_config_by_value(const json_t *cfg);

/* What the key of one run is made of. Strings may be NULL. */
struct rkey_run {
	const char *run_id, *parent, *description, *hw_class;
	const char *commit, *diff;
	const char *config_key;            /* the config key (above) when the run has a config, else NULL */
	const struct change_list *changes; /* against the parent */
	int exact;                         /* the changes are a config diff (not inferred) */
};

/* What the ledger knows about the parent. */
struct rkey_parent {
	int found;                         /* the parent is stored */
	const char *key, *hw_class, *commit, *diff;
};

/* 1 when the run measures its parent's configuration again (rules above). */
int rkey_is_rerun(const struct rkey_run *r, const struct rkey_parent *p);

/* The run's repeat key, 64 hex digits, into key. */
void rkey_derive(const struct rkey_run *r, const struct rkey_parent *p, char key[65]);

#endif
