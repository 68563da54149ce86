/* varreg.h — the one variable registry: every variable a run can change,
 * its kind, its type, the names people and tools give it, and which device
 * paths of our trainer implement it. The trainer's config table, change
 * inference (descriptions, git diffs), the audit, the bench generator and
 * the tests read it; tests/unit/test_varreg.c fails when they disagree.
 *
 * Keys are dotted (model.depth). Variables autoresearch's train.py has and
 * our trainer does not (model.window_pattern, optim.adam_betas…) are here
 * too, with devices NULL: the ledger must name them, the trainer refuses
 * them. Pure data and lookups: no I/O, no SQLite, no jansson. */
#ifndef RL_VARREG_H
#define RL_VARREG_H
#include <stddef.h>

/* math changes the mathematics (model, optimiser, schedule, batch); impl
 * must not (kernels, recomputation, graphs); data is what is read;
 * budget is the time or steps a run may use. */
enum var_kind { VAR_MATH, VAR_IMPL, VAR_DATA, VAR_BUDGET };
enum var_type { VAR_INT, VAR_NUMBER, VAR_BOOL, VAR_CHOICE, VAR_STRING, VAR_TUPLE };

struct var_def {
	const char *key;
	enum var_kind kind;
	enum var_type type;
	const char *choices; /* VAR_CHOICE: "a|b|c", the values known here */
	/* Trainer device paths that implement it: NULL = not a variable of our
	 * trainer; "cpu|cuda" = every value on both; per value,
	 * "naive=cpu|cuda;flash=cuda" (the first matching value wins; "*"
	 * matches any, so "0=cpu|cuda;*=cpu"). */
	const char *devices;
	/* autoresearch's name for it: the train.py / prepare.py constant
	 * (MATRIX_LR, TIME_BUDGET), NULL when it has none. An alias too. */
	const char *constant;
	const char *help; /* one line: what it is, its unit */
};

/* A name people write for a variable ("matrix LR", "MATRIX_LR", "flash
 * attention"); implied is the value a name carries on its own, or NULL. */
struct var_alias {
	const char *name; /* normalised: see varreg_normalise */
	const char *key;
	const char *implied;
};

size_t varreg_count(void);
const struct var_def *varreg_at(size_t i);
const struct var_def *varreg_find(const char *key);

size_t varreg_alias_count(void);
const struct var_alias *varreg_alias_at(size_t i);
/* The alias for a name as written (case, '_', '-' and spaces alike; a
 * word written another way, varreg_canonical, as the table writes it), or
 * NULL. */
const struct var_alias *varreg_alias(const char *name);
/* The alias whose words are name's in another order ("lr min frac" is
 * "min lr frac", "rope base freq" "rope freq base"), two words at least
 * and after varreg_canonical; NULL when none, or when aliases of two keys
 * have those words. For config constants (LR_MIN_FRAC), whose word order
 * is the author's. */
const struct var_alias *varreg_alias_any_order(const char *name);

/* Normalised name norm with its words in the table's spelling
 * ("embedding learning rate" -> "embedding lr", "device bs" -> "device
 * batch size"); returns 1 when a word was rewritten. */
int varreg_canonical(const char *norm, char *buf, size_t n);

/* Lowercase, '_' / '-' / white space as one space, trimmed. */
void varreg_normalise(const char *name, char *buf, size_t n);

/* Values are words, not numbers ("activation relu2" is a change). */
int varreg_categorical(const struct var_def *d);

/* 1 when our trainer's device path ("cpu", "cuda") implements value of d. */
int varreg_on_device(const struct var_def *d, const char *value, const char *device);

const char *varreg_kind_name(enum var_kind k);
const char *varreg_type_name(enum var_type t);

/* The kind of any recorded variable: a registry key's own; otherwise by
 * prefix, "impl." impl and "data." data, and math for everything else
 * (desc.* knobs, code changes, unknown keys): a change not known to keep
 * the mathematics is assumed to change it, so the audit never excuses it
 * as an implementation detail. */
enum var_kind varreg_kind_of(const char *var);

/* The key a name stands for: an alias (as written: "MATRIX_LR", "matrix
 * LR"), else a registry key in any case ("Optim.Matrix_LR"); NULL when
 * neither. *implied (may be NULL) gets the alias's implied value. */
const char *varreg_resolve(const char *name, const char **implied);

/* The desc.* key for a knob that has no key (docs/variables.md): "desc."
 * and the name lowercased, every run of characters other than letters and
 * digits written '_', none leading or trailing, at most 48 after "desc.".
 * "value embeddings" -> desc.value_embeddings, "x0-lambda" -> desc.x0_lambda.
 * buf gets "" when the name has no letter or digit. */
void varreg_desc_key(const char *name, char *buf, size_t n);

/* Values of a VAR_CHOICE (its choices) or VAR_BOOL ("false", "true"):
 * how many (0 for other types), and the i-th as text into buf. */
int varreg_value_count(const struct var_def *d);
/* 0 = ok, -1 when i is out of range. */
int varreg_value_at(const struct var_def *d, int i, char *buf, size_t n);

#endif
