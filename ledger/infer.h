/* infer.h — the variables a run changed against its parent: exactly, from two
 * configs, or inferred from a free-text description ("depth 8 to 9",
 * "grad checkpointing + device batch 32 -> 64").
 * Pure functions over strings and jansson values: no SQLite, no I/O. The
 * grammar and the alias table are documented in docs/ingest.md. */
#ifndef RL_INFER_H
#define RL_INFER_H
#include <jansson.h>
#include "sb.h"

/* One changed variable. Values are JSON scalars as text (strings without
 * quotes, numbers in their shortest round-trip form); NULL = unknown, or
 * absent on that side (a key added or removed). */
struct change {
	char *var;
	char *old_val;
	char *new_val;
	char *span; /* the text it came from (inferred, code), or NULL */
};

/* Where a run's changes came from, in order of trust (changes.how). */
enum change_how { CHANGES_EXACT, CHANGES_CODE, CHANGES_INFERRED };
const char *change_how_name(enum change_how how);

/* The version of the inference rules; stored with every inferred change so
 * `ledger reinfer` knows what an upgrade may recompute. Bump it whenever
 * infer_changes can give a different answer for some description. */
#define INFER_VERSION 15

struct change_list {
	struct change *v;
	int n, cap;
};

#define CHANGE_LIST_INIT { NULL, 0, 0 }

void change_list_release(struct change_list *cl);
/* Add a change, replacing an earlier one for the same variable. */
void change_list_add(struct change_list *cl, const char *var, const char *old_val,
		     const char *new_val);
/* The same, keeping the text the change came from (NULL = none). */
void change_list_add_span(struct change_list *cl, const char *var, const char *old_val,
			  const char *new_val, const char *span);
/* Sort by variable name (stable output for keys and tests). */
void change_list_sort(struct change_list *cl);

/* Exact diff of two flat configs: keys whose values differ, keys only in
 * cfg (old NULL) and keys only in parent (new NULL). */
void changes_exact(const json_t *parent_cfg, const json_t *cfg, struct change_list *out);

/* Changes recognised in a description; returns how many were added.
 * Unknown variable names become "desc.<slug>"; prose without a
 * recognisable change ("baseline") adds nothing. */
int infer_changes(const char *description, struct change_list *out);

/* The same, read against the parent's state (NULL: none known), which
 * may say which learning rate a bare "LR" is (docs/ingest.md, round 13):
 * ingest and the infer-eval replay use it. */
int infer_changes_in(const char *description, const struct change_list *parent_state,
		     struct change_list *out);

/* 1 when change c's desc.* name is written in its span as one identifier
 * ("SHORT_WINDOW", "x0-lambda", "PoPE": '_', '-', a digit or capitals past
 * the first letter), the way the corpus's labels name such a knob; 0 for
 * a name made of prose words ("model capacity"), and for every other
 * name. */
int infer_name_written(const struct change *c);

/* Drop from changes each desc.* knob whose name is neither the lexicon's
 * (describe_name_known) nor written as an identifier (infer_name_written):
 * coined from prose words, such a name was another knob's or no knob at
 * all in 5 of the 7 times it appeared on sources the rules had not seen
 * (docs/ingest.md, round 6). Returns how many were dropped. */
int infer_drop_coined(struct change_list *changes);

/* 1: infer_changes keeps coined names (infer-eval --keep-coined measures
 * what the filter drops); 0, the default, everywhere else. */
extern int infer_keep_coined;

/* The values a description states as a run's settings, not as changes:
 * what a baseline's "baseline: depth=4 dim=256" says its configuration
 * is (the words "baseline", "rerun" … that make infer_changes read
 * nothing are skipped). */
int infer_stated(const char *description, struct change_list *out);

/* ---- context: what the parent already had ----------------------------
 * A run without configs records what its description states against its
 * parent; a description often restates a value the parent already had
 * ("DEPTH=4, ASPECT_RATIO=96" after a kept run at depth 4). Such a
 * restatement changed nothing, and recording it would make a one-knob
 * run look confounded. A "state" is a change_list used as a map: var ->
 * new_val, the value known for that variable (NULL: known to have
 * changed to an unknown value, "halve batch"); old_val, the value before
 * the change that set it, where that change stated one. A
 * run's state is its parent's state advanced by the run's own changes;
 * a root's (no parent) is what its description states (infer_stated).
 * store.c builds it from stored changes, tests/infer/eval.c from a
 * file's rows in order: both through these two functions. */

/* state := state with changes applied (a later value replaces an earlier). */
void infer_state_advance(struct change_list *state, const struct change_list *changes);

/* state := the state of a kept run (the parent of the runs after it)
 * whose own changes are changes and whose description is description
 * (NULL: unknown). Usually infer_state_advance. A run that records no
 * change and whose description says it changed nothing adds what it
 * states ("rerun seed=1000": the seed); a baseline of the default
 * configuration in the middle of a file ("Default M5 baseline", after
 * kept changes) resets the state to what it states: the kept changes
 * before it no longer hold (describe.h describe_no_change). */
void infer_state_kept(struct change_list *state, const char *description,
		      const struct change_list *changes);

/* 1 when a run recording no change with this description starts its
 * state afresh (infer_state_kept's reset): its state is what it states,
 * as a root's. */
int infer_state_resets(const char *description);

/* Drop from changes each one whose new value equals the value parent_state
 * knows for its variable (numbers numerically, text case-insensitively).
 * A change that states its old value is kept (the text knows the parent
 * better than the inferred state does), unless both its sides are the
 * transition that set the state's value (a restated change: "WD 0.5->0.3"
 * after a kept "WD 0.5->0.3"). Old values are not filled in
 * here (infer_fill_old does, for ingest). Returns how many were
 * dropped. */
int infer_drop_restated(const struct change_list *parent_state, struct change_list *changes);

/* Fill the old value of each change that has none ('?') from what
 * parent_state knows for its variable (for model.aspect_ratio, also the
 * ratio the state's depth and width imply): "depth=8" after "baseline:
 * depth=4" is depth 4 -> 8. Left '?': an unknown state value, a new
 * value that is unknown, equal to the state's (a restatement,
 * infer_drop_restated's), or of another form ("2^15" against 32768,
 * "50K" against "11.5M", a tuple against a number). Ingest and reinfer
 * use it (store.c); text-only inference does not. Returns how many were
 * filled. */
int infer_fill_old(const struct change_list *parent_state, struct change_list *changes);

/* The config key for a human name ("embedding LR" -> "optim.embedding_lr"),
 * or NULL when the alias table does not know it. */
const char *infer_alias(const char *name);

/* A number as change text: the shortest text that reads back as v, in
 * plain decimals (300, 0.00001; an exponent only outside [1e-12, 1e15)). */
void infer_number_text(double v, char *buf, size_t n);

/* Append a JSON scalar as change text: strings raw, numbers as
 * infer_number_text writes them, true/false/null as words. */
void json_scalar_text(const json_t *v, sb *out);

#endif
