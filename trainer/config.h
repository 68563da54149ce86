/* config.h — the trainer's variables: ONE table of dotted keys (key, type,
 * default, kind math|impl, help). Parsing, `trainer --list-variables`,
 * `--help` and the run record's resolved config all come from it, so they
 * cannot disagree. Adding a knob = one field in struct config + one row in
 * cfg_keys[] (config.c). Must not know about models, data or CUDA.
 *
 * Kinds: model./optim./sched./train./data. keys change the mathematics;
 * impl. keys must not (an impl change that moves the loss is a bug). */
#ifndef RL_TRAINER_CONFIG_H
#define RL_TRAINER_CONFIG_H
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

enum cfg_type { CFG_INT, CFG_LONG, CFG_FLOAT, CFG_BOOL, CFG_ENUM, CFG_STRING };
enum cfg_kind { CFG_MATH, CFG_IMPL };

#define CFG_STR_MAX 256

struct config {
	/* model.* */
	int depth, dim, heads, seq_len, vocab_size, qk_norm;
	double softcap, mlp_ratio;
	/* optim.* */
	double matrix_lr, embedding_lr, unembedding_lr, weight_decay;
	double beta1, beta2, muon_momentum, grad_clip;
	char matrix_optimizer[16];      /* adamw | muon */
	/* sched.* (fractions of the time budget) */
	double warmup_ratio, warmdown_ratio, final_lr_frac;
	char warmdown_shape[16];        /* linear | sqrt */
	/* train.* */
	int device_batch_size, seed, steps;
	long total_batch_size, eval_tokens;
	double time_budget_s, timeout_grace_s;
	char device[16];                /* auto | cpu | cuda */
	/* data.* */
	char data_path[CFG_STR_MAX];    /* manifest.json or the directory holding it */
	/* impl.* */
	int recompute, cuda_graphs, fused_adamw, fused_xent, threads;
	char compile_mode[16], attention[16], relu2[16], rotary[16], gemm[16];
};

struct cfg_key {
	const char *key;
	enum cfg_type type;
	enum cfg_kind kind;
	const char *def;      /* default as text, parsed like a command-line value */
	const char *choices;  /* CFG_ENUM: "a|b|c"; NULL otherwise */
	size_t offset;        /* into struct config */
	size_t size;          /* CFG_ENUM/CFG_STRING: buffer size */
	const char *help;
};

extern const struct cfg_key cfg_keys[];
extern const size_t cfg_nkeys;

const struct cfg_key *config_find(const char *key);
void config_defaults(struct config *c);
/* Set one key from text. 0 = ok; -1 with a message naming `where`
 * (e.g. "command line" or "run.conf:3") left by rl_error. */
int config_set(struct config *c, const char *key, const char *value, const char *where);
/* "key=value" form (command line). */
int config_set_kv(struct config *c, const char *kv, const char *where);
/* File of "key = value" lines; '#' starts a comment. 0 = ok. */
int config_load_file(struct config *c, const char *path);
/* Cross-key checks (heads divide dim, batch divides total, …). 0 = ok. */
int config_check(const struct config *c);
/* Every key with its resolved value, as a flat JSON object (new ref). */
json_t *config_to_json(const struct config *c);
/* The value of one key as text (for --list-variables and messages). */
void config_value_text(const struct config *c, const struct cfg_key *k, char *buf, size_t n);
/* `trainer --list-variables`: key, default, kind, type, help. */
void config_list_variables(FILE *f);

#endif
