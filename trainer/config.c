/* config.c — the table of trainer variables and its parser; see config.h.
 * Defaults follow the issue's GPU shape (depth 8, dim 512, 4 heads of 128,
 * seq 2048, device batch 64) and autoresearch's optimiser settings; CPU runs
 * override the shape (trainer/configs/demo-cpu.conf, docs/trainer.md). */
#include <jansson.h>
#include "config.h"
#include "suggest.h"
#include "utf8.h"
#include "varreg.h"
#include "util.h"

#define OFF(f) offsetof(struct config, f)
#define SZ(f) sizeof(((struct config *)0)->f)
#define I(k, kind, def, f, help) { k, CFG_INT, kind, def, NULL, OFF(f), 0, help }
#define L(k, kind, def, f, help) { k, CFG_LONG, kind, def, NULL, OFF(f), 0, help }
#define F(k, kind, def, f, help) { k, CFG_FLOAT, kind, def, NULL, OFF(f), 0, help }
#define B(k, kind, def, f, help) { k, CFG_BOOL, kind, def, NULL, OFF(f), 0, help }
#define E(k, kind, def, ch, f, help) { k, CFG_ENUM, kind, def, ch, OFF(f), SZ(f), help }
#define S(k, kind, def, f, help) { k, CFG_STRING, kind, def, NULL, OFF(f), SZ(f), help }

const struct cfg_key cfg_keys[] = {
	I("model.depth", CFG_MATH, "8", depth, "number of transformer blocks"),
	I("model.dim", CFG_MATH, "512", dim, "residual stream width C"),
	I("model.heads", CFG_MATH, "4", heads, "attention heads (head dim = dim/heads, even)"),
	I("model.seq_len", CFG_MATH, "2048", seq_len, "context length T in tokens"),
	I("model.vocab_size", CFG_MATH, "256", vocab_size, "vocabulary (256 = bytes; must match the data)"),
	B("model.qk_norm", CFG_MATH, "true", qk_norm, "RMS-normalise queries and keys per head before rotary"),
	F("model.softcap", CFG_MATH, "15", softcap, "logit soft-cap c: logits = c*tanh(z/c); 0 = off"),
	F("model.mlp_ratio", CFG_MATH, "4", mlp_ratio, "MLP hidden width = mlp_ratio * dim"),

	F("optim.matrix_lr", CFG_MATH, "0.04", matrix_lr, "learning rate of the 2-D block matrices"),
	F("optim.embedding_lr", CFG_MATH, "0.6", embedding_lr, "AdamW learning rate of the token embedding"),
	F("optim.unembedding_lr", CFG_MATH, "0.004", unembedding_lr, "AdamW learning rate of the output head"),
	F("optim.weight_decay", CFG_MATH, "0.2", weight_decay, "decoupled weight decay of the block matrices"),
	F("optim.beta1", CFG_MATH, "0.8", beta1, "AdamW beta1"),
	F("optim.beta2", CFG_MATH, "0.95", beta2, "AdamW beta2"),
	E("optim.matrix_optimizer", CFG_MATH, "muon", "adamw|muon", matrix_optimizer,
	  "optimiser of the block matrices (muon = Newton-Schulz orthogonalised momentum)"),
	F("optim.muon_momentum", CFG_MATH, "0.95", muon_momentum, "Muon Nesterov momentum"),
	F("optim.grad_clip", CFG_MATH, "0", grad_clip, "clip the global gradient norm to this; 0 = off"),

	F("sched.warmup_ratio", CFG_MATH, "0", warmup_ratio, "fraction of the time budget with linear LR warmup"),
	F("sched.warmdown_ratio", CFG_MATH, "0.5", warmdown_ratio, "fraction of the time budget spent decaying the LR"),
	E("sched.warmdown_shape", CFG_MATH, "linear", "linear|sqrt", warmdown_shape,
	  "warmdown curve: 1-w or 1-sqrt(w) of the way to final_lr_frac"),
	F("sched.final_lr_frac", CFG_MATH, "0", final_lr_frac, "LR multiplier at the end of the budget"),

	I("train.device_batch_size", CFG_MATH, "64", device_batch_size, "sequences per micro-step"),
	L("train.total_batch_size", CFG_MATH, "524288", total_batch_size,
	  "tokens per optimiser step (a multiple of device_batch_size*seq_len)"),
	F("train.time_budget_s", CFG_MATH, "300", time_budget_s, "wall-clock training budget in seconds"),
	F("train.timeout_grace_s", CFG_MATH, "120", timeout_grace_s,
	  "a run whose total time exceeds budget + grace ends as timeout"),
	I("train.steps", CFG_MATH, "0", steps,
	  "0 = train for the time budget; N > 0 = exactly N steps, LR progress step/N (reproducible)"),
	I("train.seed", CFG_MATH, "42", seed, "seed of initialisation and batch sampling"),
	E("train.device", CFG_MATH, "auto", "auto|cpu|cuda", device, "auto = the GPU when one is usable"),
	L("train.eval_tokens", CFG_MATH, "10485760", eval_tokens,
	  "validation tokens evaluated for val_bpb (capped at the split's size)"),

	S("data.path", CFG_MATH, "data/sample", data_path, "manifest.json of the prepared data, or its directory"),

	/* Which device implements which value: trainer/impl.c (one table). */
	B("impl.recompute", CFG_IMPL, "false", recompute,
	  "recompute each block's activations in backward instead of keeping them (GPU path)"),
	E("impl.compile_mode", CFG_IMPL, "auto", "auto|none|heuristic|autotune", compile_mode,
	  "GEMM algorithms: heuristic = cuBLASLt's first pick, autotune = fastest of its candidates "
	  "timed at start-up per shape (GPU); none = plain C loops (CPU); auto = the device's default"),
	E("impl.attention", CFG_IMPL, "auto", "auto|naive|flash", attention,
	  "attention: naive stores the T x T probabilities, flash is fused with online softmax (GPU); "
	  "auto = flash where the GPU shape allows, else naive"),
	B("impl.fused_adamw", CFG_IMPL, "true", fused_adamw,
	  "AdamW in one kernel; false = separate moment, update and cast kernels (GPU path)"),
	B("impl.fused_xent", CFG_IMPL, "true", fused_xent,
	  "soft-cap + cross-entropy + gradient in one kernel; false = separate kernels (GPU path)"),
	E("impl.relu2", CFG_IMPL, "auto", "auto|kernel|epilogue", relu2,
	  "the MLP's relu^2: kernel = its own pass between cuBLASLt GEMMs (and the CPU's loop); "
	  "epilogue = it and its gradient in the epilogues of our own GEMMs (Hopper GPU); "
	  "auto = epilogue where the GPU and shape allow, else kernel"),
	E("impl.rotary", CFG_IMPL, "auto", "auto|kernel|epilogue", rotary,
	  "QK-norm + rotary: kernel = its own pass after the QKV GEMM (and the CPU's loop); "
	  "epilogue = in the epilogue of our own QKV GEMM, its backward on the fused attention backward's "
	  "way out (Hopper GPU, flash attention); "
	  "auto = epilogue where the GPU and shape allow, else kernel"),
	B("impl.cuda_graphs", CFG_IMPL, "false", cuda_graphs,
	  "capture the whole optimiser step once as a CUDA graph and replay it (GPU path)"),
	I("impl.threads", CFG_IMPL, "0", threads, "OpenMP threads on the CPU path; 0 = OpenMP's default"),
	E("impl.gemm", CFG_IMPL, "auto", "auto|loops|cublaslt|wgmma", gemm,
	  "the blocks' products with no epilogue of ours (attention's output projection, the MLP's "
	  "projection, the input gradients of QKV, the output projection and fc): loops = the CPU's C "
	  "loops; cublaslt; wgmma = our own Hopper GEMM (weight gradients and the classifier stay on "
	  "cuBLASLt); auto = wgmma where the GPU and shape allow, else cublaslt (loops on the CPU)"),
};
const size_t cfg_nkeys = ARRAY_SIZE(cfg_keys);

const struct cfg_key *config_find(const char *key)
{
	for (size_t i = 0; i < cfg_nkeys; i++)
		if (!strcmp(cfg_keys[i].key, key))
			return &cfg_keys[i];
	return NULL;
}

static int parse_bool(const char *s, int *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "1") || !strcmp(s, "on") || !strcmp(s, "yes"))
		*out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "0") || !strcmp(s, "off") || !strcmp(s, "no"))
		*out = 0;
	else
		return -1;
	return 0;
}

static int choice_ok(const char *choices, const char *v)
{
	size_t n = strlen(v);
	for (const char *p = choices; *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && !strncmp(p, v, n))
			return 1;
		p += len + (bar != NULL);
	}
	return 0;
}

/* "did you mean" (common/suggest.c, the rule of every program) over the
 * trainer's keys, else where to find them. */
static void hint_closest_key(const char *key)
{
	const char *keys[ARRAY_SIZE(cfg_keys)];
	for (size_t i = 0; i < cfg_nkeys; i++)
		keys[i] = cfg_keys[i].key;
	const char *best = suggest_closest(key, keys, cfg_nkeys);
	if (best)
		rl_hint("did you mean '%s'?", best);
	else
		rl_hint("trainer --list-variables shows them all");
}

int config_set(struct config *c, const char *key, const char *value, const char *where)
{
	const struct cfg_key *k = config_find(key);
	char *field;
	long l;
	double d;
	if (!k) {
		const struct var_def *known = varreg_find(key);
		if (known) { /* autoresearch has it; this model has nothing it would change */
			rl_error("%s: '%s' is not a trainer variable: the variable registry knows it (%s%s%s), "
				 "but this trainer's model has nothing it would change, and a setting that changes "
				 "nothing is not recorded",
				 where, key, known->help, known->constant ? "; autoresearch's " : "",
				 known->constant ? known->constant : "");
			rl_hint("trainer --list-variables shows the variables this trainer has");
		} else {
			rl_error("%s: '%s' is not a trainer variable", where, key);
			hint_closest_key(key);
		}
		return -1;
	}
	field = (char *)c + k->offset;
	switch (k->type) {
	case CFG_INT:
		if (parse_long(value, &l) || l < -2147483647L || l > 2147483647L)
			goto bad;
		*(int *)field = (int)l;
		return 0;
	case CFG_LONG:
		if (parse_long(value, &l))
			goto bad;
		*(long *)field = l;
		return 0;
	case CFG_FLOAT:
		if (parse_double(value, &d) || !isfinite(d))
			goto bad;
		*(double *)field = d;
		return 0;
	case CFG_BOOL:
		if (parse_bool(value, (int *)field))
			goto bad;
		return 0;
	case CFG_ENUM:
		if (!choice_ok(k->choices, value)) {
			rl_error("%s: %s '%s' is not one of %s", where, key, value, k->choices);
			return -1;
		}
		/* fallthrough */
	case CFG_STRING:
		if (strlen(value) >= k->size) {
			rl_error("%s: %s is longer than %zu bytes", where, key, k->size - 1);
			return -1;
		}
		memcpy(field, value, strlen(value) + 1);
		return 0;
	}
bad:
	rl_error("%s: %s '%s' is not %s", where, key, value,
		 k->type == CFG_BOOL ? "true or false" :
		 k->type == CFG_INT || k->type == CFG_LONG ? "an integer" : "a finite number");
	rl_hint("trainer --list-variables shows every key, its type and default");
	return -1;
}

int config_set_kv(struct config *c, const char *kv, const char *where)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv) {
		rl_error("%s: '%s' is not key=value", where, kv);
		return -1;
	}
	char *key = xstrndup(kv, (size_t)(eq - kv));
	int rc = config_set(c, key, eq + 1, where);
	free(key);
	return rc;
}

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < cfg_nkeys; i++)
		if (config_set(c, cfg_keys[i].key, cfg_keys[i].def, "built-in defaults"))
			die("config table: bad default for '%s'", cfg_keys[i].key);
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

int config_load_file(struct config *c, const char *path)
{
	char *text = read_file(path, NULL);
	int rc = 0, lineno = 0;
	if (!text)
		return -1;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *s = trim(line), where[CFG_STR_MAX + 32];
		if (!*s)
			continue;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		char *eq = strchr(s, '=');
		if (!eq) {
			rl_error("%s: '%s' is not 'key = value'", where, s);
			rc = -1;
			continue;
		}
		*eq = '\0';
		if (config_set(c, trim(s), trim(eq + 1), where))
			rc = -1;
	}
	free(text);
	return rc;
}

static int need(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int need(int cond, const char *fmt, ...)
{
	if (cond)
		return 0;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rl_error("config: %s", msg);
	return 1;
}

/* Settings that change nothing in this configuration, refused when they
 * differ from their defaults: recorded, each would be a change that changed
 * nothing, and the ledger would count it as a second variable of the run
 * (adamw with another Muon momentum would read as two changes, "confounded").
 * -1 (said) or 0. */
static int dead_settings(const struct config *c)
{
	struct config d;
	config_defaults(&d);
	int n = 0, muon = !strcmp(c->matrix_optimizer, "muon"), warmdown = c->warmdown_ratio > 0;
	n += need(muon || c->muon_momentum == d.muon_momentum,
		  "optim.muon_momentum %g is Muon's, and optim.matrix_optimizer is %s: it would change nothing "
		  "(leave it at its default %g, or set optim.matrix_optimizer=muon)",
		  c->muon_momentum, c->matrix_optimizer, d.muon_momentum);
	n += need(warmdown || !strcmp(c->warmdown_shape, d.warmdown_shape),
		  "sched.warmdown_shape %s shapes the warmdown, and sched.warmdown_ratio is 0: it would change "
		  "nothing (leave it at its default %s, or give the run a warmdown)",
		  c->warmdown_shape, d.warmdown_shape);
	n += need(warmdown || c->final_lr_frac == d.final_lr_frac,
		  "sched.final_lr_frac %g is where the warmdown ends, and sched.warmdown_ratio is 0: it would "
		  "change nothing (leave it at its default %g, or give the run a warmdown)",
		  c->final_lr_frac, d.final_lr_frac);
	return n;
}

int config_check(const struct config *c)
{
	int n = 0;
	n += need(c->depth >= 1 && c->dim >= 2 && c->heads >= 1 && c->seq_len >= 1,
		  "model.depth, model.dim, model.heads and model.seq_len must be positive");
	n += need(c->heads > 0 && c->dim % c->heads == 0 && (c->dim / c->heads) % 2 == 0,
		  "model.dim %d must split into model.heads %d heads of even size (rotary)",
		  c->dim, c->heads);
	n += need(c->vocab_size >= 2 && c->vocab_size <= 65536, "model.vocab_size %d is not in 2..65536",
		  c->vocab_size);
	n += need(c->mlp_ratio > 0 && c->softcap >= 0, "model.mlp_ratio must be > 0 and model.softcap >= 0");
	n += need(c->device_batch_size >= 1, "train.device_batch_size must be >= 1");
	long micro = (long)c->device_batch_size * c->seq_len;
	n += need(micro > 0 && c->total_batch_size >= micro && c->total_batch_size % micro == 0,
		  "train.total_batch_size %ld is not a multiple of device_batch_size*seq_len = %ld",
		  c->total_batch_size, micro);
	n += need(c->time_budget_s > 0 && c->timeout_grace_s >= 0,
		  "train.time_budget_s must be > 0 and train.timeout_grace_s >= 0");
	n += need(c->warmup_ratio >= 0 && c->warmdown_ratio >= 0 && c->warmup_ratio + c->warmdown_ratio <= 1,
		  "sched.warmup_ratio + sched.warmdown_ratio must be within 0..1");
	n += need(c->final_lr_frac >= 0 && c->final_lr_frac <= 1, "sched.final_lr_frac must be within 0..1");
	n += need(c->beta1 >= 0 && c->beta1 < 1 && c->beta2 >= 0 && c->beta2 < 1,
		  "optim.beta1 and optim.beta2 must be in [0, 1)");
	n += need(c->steps >= 0, "train.steps must be >= 0");
	n += need(c->eval_tokens >= 1 && c->threads >= 0, "train.eval_tokens must be >= 1, impl.threads >= 0");
	n += dead_settings(c);
	return n ? -1 : 0;
}

void config_value_text(const struct config *c, const struct cfg_key *k, char *buf, size_t n)
{
	const char *field = (const char *)c + k->offset;
	switch (k->type) {
	case CFG_INT: snprintf(buf, n, "%d", *(const int *)field); break;
	case CFG_LONG: snprintf(buf, n, "%ld", *(const long *)field); break;
	case CFG_FLOAT: snprintf(buf, n, "%g", *(const double *)field); break;
	case CFG_BOOL: snprintf(buf, n, "%s", *(const int *)field ? "true" : "false"); break;
	default: snprintf(buf, n, "%s", field);
	}
}

json_t *config_to_json(const struct config *c)
{
	json_t *o = json_object();
	for (size_t i = 0; i < cfg_nkeys; i++) {
		const struct cfg_key *k = &cfg_keys[i];
		const char *field = (const char *)c + k->offset;
		json_t *v;
		switch (k->type) {
		case CFG_INT: v = json_integer(*(const int *)field); break;
		case CFG_LONG: v = json_integer(*(const long *)field); break;
		case CFG_FLOAT: v = json_real(*(const double *)field); break;
		case CFG_BOOL: v = json_boolean(*(const int *)field); break;
		default: v = json_string_lossy(field, NULL); /* a path need not be UTF-8 */
		}
		json_object_set_new(o, k->key, v);
	}
	return o;
}

void config_list_variables(FILE *f)
{
	fprintf(f, "%-26s %-12s %-5s %-6s %s\n", "KEY", "DEFAULT", "KIND", "TYPE", "HELP");
	for (size_t i = 0; i < cfg_nkeys; i++) {
		const struct cfg_key *k = &cfg_keys[i];
		static const char *const types[] = { "int", "int", "float", "bool", "enum", "string" };
		fprintf(f, "%-26s %-12s %-5s %-6s %s%s%s\n", k->key, k->def,
			k->kind == CFG_IMPL ? "impl" : "math", types[k->type], k->help,
			k->choices && k->type == CFG_ENUM ? " — " : "",
			k->choices && k->type == CFG_ENUM ? k->choices : "");
	}
}
