/* cfgdiff.h — a run's exact changes from its parent's config and its own,
 * given as canonical JSON texts (common/runrec.h), without parsing what
 * the two have in common (cfgdiff.c says why). */
#ifndef RL_CFGDIFF_H
#define RL_CFGDIFF_H
#include <stddef.h>
#include "infer.h"

/* What changes_exact(parent, config, out) gives for the configs these
 * texts hold: 0 and out filled, sorted; -1 when either is not an object. */
int config_changes(const char *parent, size_t parent_len, const char *config, size_t config_len,
		   struct change_list *out);

#endif
