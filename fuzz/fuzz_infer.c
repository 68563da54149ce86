/* fuzz_infer.c — libFuzzer harness: the description grammar, through its
 * public function only (infer_changes, ledger/infer.h; the internals are
 * rewritten freely). The input is one description. A description comes
 * out of a JSON string, so it is valid UTF-8 without NUL: other inputs are
 * repaired first (invalid bytes to U+FFFD, as ingest does). Checks: the
 * count returned is 0 exactly when the list is empty, every change names a
 * variable, and every text it produces is valid UTF-8 (it is stored in
 * JSON and SQL, where jansson would drop an invalid string without a
 * word). Round 13: the same description is read again against a state
 * (its own stated settings, moved by infer_state_kept as a kept row moves
 * it) through infer_changes_in, with the same checks, and no change of
 * either reading names the bare LR's placeholder (describe.h
 * DESCRIBE_BARE_LR): it is a key of no variable. */
#include <string.h>
#include "fuzz_check.h"
#include "infer.h"
#include "utf8.h"

static void check_text(const char *what, const char *s)
{
	if (s)
		FUZZ_CHECK(utf8_valid(s, strlen(s)), "%s '%s' is not valid UTF-8", what, s);
}

static void check_list(const char *how, const struct change_list *cl)
{
	for (int i = 0; i < cl->n; i++) {
		FUZZ_CHECK(cl->v[i].var && *cl->v[i].var, "%s: change %d has no variable name", how, i);
		FUZZ_CHECK(cl->v[i].var[0] != '~', "%s: change %d names '%s'", how, i, cl->v[i].var);
		check_text("variable", cl->v[i].var);
		check_text("old value", cl->v[i].old_val);
		check_text("new value", cl->v[i].new_val);
		check_text("span", cl->v[i].span);
	}
}

/* The description read against a state made of what it states, advanced
 * as a kept row would advance it. */
static void read_in_state(const char *desc, const struct change_list *text_only)
{
	struct change_list state = CHANGE_LIST_INIT, cl = CHANGE_LIST_INIT;
	infer_stated(desc, &state);
	infer_state_kept(&state, desc, text_only);
	int n = infer_changes_in(desc, &state, &cl);
	FUZZ_CHECK(n >= 0 && (n > 0) == (cl.n > 0), "infer_changes_in returned %d for a list of %d",
		   n, cl.n);
	check_list("infer_changes_in", &cl);
	infer_drop_restated(&state, &cl);
	infer_fill_old(&state, &cl);
	check_list("against the state", &cl);
	change_list_release(&cl);
	change_list_release(&state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *raw = malloc(size + 1);
	memcpy(raw, data, size);
	raw[size] = '\0'; /* a NUL inside ends the description, as in C */
	char *desc = utf8_lossy_strdup(raw, NULL);
	struct change_list cl = CHANGE_LIST_INIT;
	int n = infer_changes(desc, &cl);
	/* n counts additions, and a later one may replace an earlier one for
	 * the same variable: n and the list's length agree only on "none" */
	FUZZ_CHECK(n >= 0 && (n > 0) == (cl.n > 0), "infer_changes returned %d for a list of %d",
		   n, cl.n);
	check_list("infer_changes", &cl);
	read_in_state(desc, &cl);
	change_list_sort(&cl);
	change_list_release(&cl);
	free(desc);
	free(raw);
	return 0;
}
