/* codediff.h — exact changes from the code (`ledger ingest --repo DIR`):
 * what changed between two commits of a git repository, as changed
 * variables. The training script's top-level constants are compared whole
 * (both versions parsed, ledger/pyconst.h) and named through the variable
 * registry (DEPTH -> model.depth, else code.NAME); every other changed hunk
 * is one change named by file and enclosing def/class
 * (code.train.py:GPT.forward). Commits are found by hash or prefix in the
 * object database, so commits that `git reset` left behind are found too.
 * Pure: a repository and two commits in, a change list out; no SQLite, no
 * printing. The rules are in docs/ingest.md, "Changes from the code". */
#ifndef RL_CODEDIFF_H
#define RL_CODEDIFF_H
#include "infer.h"
#include "sb.h"

struct codediff;

/* Open the repository at dir (its work tree, .git or a bare repository;
 * no search upwards). script is the training script's path in the tree
 * ("train.py"). NULL with the reason in err when dir is no repository. */
struct codediff *codediff_open(const char *dir, const char *script, sb *err);
void codediff_free(struct codediff *cd);

/* The changes from commit from (the parent run's) to commit to, each a
 * full hash or a prefix of at least 4 hex digits: 0 with them appended to
 * out (sorted by variable; none when the code is the same), or -1 when
 * either cannot be read (not a hash, not in the object database, an
 * ambiguous prefix), with the reason in why and out untouched. Each -1 is
 * also counted for codediff_misses. Parsed scripts are cached by commit. */
int codediff_changes(struct codediff *cd, const char *from, const char *to,
		     struct change_list *out, sb *why);

/* How many codediff_changes calls failed since the last call, and the
 * first one's reason (appended to example); the count starts again. */
long codediff_misses(struct codediff *cd, sb *example);

#endif
