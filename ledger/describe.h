/* describe.h — the changes a free-text run description states ("depth 8 to
 * 9", "exp3: 5% warmup + warmdown 0.5->0.3 (slightly worse)"): a tokenizer
 * and a grammar (the productions are at the top of describe.c, the rules
 * in docs/ingest.md). infer_changes (infer.h) calls it.
 *
 * Conservative by design: a wrong change does more harm than a missed one
 * (it becomes a false audit finding), so text the grammar cannot read as a
 * change yields nothing and stays in the record. Names come from the
 * variable registry (common/varreg.h); a knob it does not know becomes
 * "desc.<name>" only where the text says plainly that it changed ("X a ->
 * b", "raise X to v", "X=v", "remove X"). Values are normalised (2**19 ->
 * 524288, 16K tokens -> 16384, 5% -> 0.05); each change keeps the span of
 * text it came from. Pure string code: no I/O, no SQLite. */
#ifndef RL_DESCRIBE_H
#define RL_DESCRIBE_H
#include "infer.h"

/* The variable of a bare "LR" / "learning rate" with a value ("LR=2e-3",
 * "increase LR from 1e-3 to 3e-3"): which of a run's learning rates it is
 * the text does not say. Not a key (no key starts with '~');
 * infer_changes drops it, infer_changes_in names it from the parent's
 * state where that can tell. */
#define DESCRIBE_BARE_LR "~lr"

/* Add the changes description states to out (a later mention of a variable
 * replaces an earlier one); returns how many changes were added. */
int describe_changes(const char *description, struct change_list *out);

/* The values description states as settings (infer.h infer_stated): the
 * same reading, with "baseline", "rerun" … skipped as labels. */
int describe_stated(const char *description, struct change_list *out);

/* What a description says of its run when it names no change: 0 it
 * does not say that (a change, prose, a notes commit "log: …", an edit
 * that "FAILED TO APPLY"); 1 the run measured its parent's configuration
 * again ("baseline", "rerun", "verification run"); 2 it is a
 * baseline of the default configuration, not of the current best's
 * ("Default M5 baseline", "baseline on the original config"). */
int describe_no_change(const char *description);

/* 1 when var is a name the lexicon knows: a registry key, or a desc.*
 * name of the corpus's one-name-per-concept table (desc_names,
 * desc_values); 0 for a desc.* name coined from the text's own words. */
int describe_name_known(const char *var);

/* The i-th spelling of the lexicon's desc.* table (desc_names, then
 * desc_values) and the desc.* key it names (into key); -1 past the end.
 * infer-eval --loso reads it to tell which spellings one source alone
 * attests. */
int describe_lexicon_at(size_t i, const char **spelling, char *key, size_t n);

#endif
