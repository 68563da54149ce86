/* fuzz_cfgdiff.c — libFuzzer harness: a run's exact changes from two
 * configs' canonical texts (ledger/cfgdiff.c, what the storing thread
 * uses) against changes_exact of the two parsed configs (ledger/infer.c,
 * the plain path), differentially. The input is two JSON texts, the
 * parent's config and the run's, split at the first newline; each is
 * parsed by jansson and printed canonically (common/runrec.c), as the
 * store keeps and sees them. Aborts unless both give the same answer and
 * the same changes, field for field. */
#include <jansson.h>
#include <string.h>
#include "cfgdiff.h"
#include "fuzz_check.h"
#include "runrec.h"

static void same_lists(const struct change_list *a, const struct change_list *b)
{
	FUZZ_CHECK(a->n == b->n, "%d changes from the texts, %d from the values", a->n, b->n);
	for (int i = 0; i < a->n; i++) {
		const struct change *x = &a->v[i], *y = &b->v[i];
		FUZZ_CHECK(!strcmp(x->var, y->var), "change %d: var %s from the texts, %s from the values",
			   i, x->var, y->var);
#define SAME_FIELD(f)                                                                             \
	FUZZ_CHECK((!x->f && !y->f) || (x->f && y->f && !strcmp(x->f, y->f)),                     \
		   "change %d (%s): " #f " %s from the texts, %s from the values", i, x->var,       \
		   x->f ? x->f : "NULL", y->f ? y->f : "NULL")
		SAME_FIELD(old_val);
		SAME_FIELD(new_val);
		SAME_FIELD(span);
#undef SAME_FIELD
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *nl = memchr(text, '\n', size);
	if (!nl)
		return 0;
	json_t *parent = json_loadb(text, (size_t)(nl - text), 0, NULL);
	json_t *cfg = json_loadb(nl + 1, size - (size_t)(nl + 1 - text), 0, NULL);
	if (parent && cfg) {
		struct change_list by_text = CHANGE_LIST_INIT, by_value = CHANGE_LIST_INIT;
		char *ptext = runrec_canonical(parent), *ctext = runrec_canonical(cfg);
		int rc_text = config_changes(ptext, strlen(ptext), ctext, strlen(ctext), &by_text);
		int rc_value = json_is_object(parent) && json_is_object(cfg) ? 0 : -1;
		if (!rc_value)
			changes_exact(parent, cfg, &by_value);
		FUZZ_CHECK(rc_text == rc_value, "config_changes returned %d, the values %d", rc_text,
			   rc_value);
		same_lists(&by_text, &by_value);
		change_list_release(&by_text);
		change_list_release(&by_value);
		free(ptext);
		free(ctext);
	}
	json_decref(parent);
	json_decref(cfg);
	return 0;
}
