/* varreg.c — the variable registry's tables; see varreg.h. */
#include <ctype.h>
#include <string.h>
#include "varreg.h"
#include "util.h"

#define M VAR_MATH
#define IM VAR_IMPL
#define D VAR_DATA
#define BU VAR_BUDGET
#define BOTH "cpu|cuda"

static const struct var_def vars[] = {
	{ "model.depth", M, VAR_INT, NULL, BOTH },
	{ "model.dim", M, VAR_INT, NULL, BOTH },
	{ "model.heads", M, VAR_INT, NULL, BOTH },
	{ "model.head_dim", M, VAR_INT, NULL, NULL },
	{ "model.aspect_ratio", M, VAR_NUMBER, NULL, NULL },
	{ "model.seq_len", M, VAR_INT, NULL, BOTH },
	{ "model.vocab_size", M, VAR_INT, NULL, BOTH },
	{ "model.window_pattern", M, VAR_STRING, NULL, NULL },
	{ "model.activation", M, VAR_CHOICE, "relu2|relu|gelu|swiglu|geglu|silu", NULL },
	{ "model.qk_norm", M, VAR_BOOL, NULL, BOTH },
	{ "model.softcap", M, VAR_NUMBER, NULL, BOTH },
	{ "model.mlp_ratio", M, VAR_NUMBER, NULL, BOTH },
	{ "model.rope_base", M, VAR_NUMBER, NULL, NULL },
	{ "model.dropout", M, VAR_NUMBER, NULL, NULL },

	{ "optim.matrix_lr", M, VAR_NUMBER, NULL, BOTH },
	{ "optim.embedding_lr", M, VAR_NUMBER, NULL, BOTH },
	{ "optim.unembedding_lr", M, VAR_NUMBER, NULL, BOTH },
	{ "optim.scalar_lr", M, VAR_NUMBER, NULL, BOTH },
	{ "optim.weight_decay", M, VAR_NUMBER, NULL, BOTH },
	{ "optim.adam_betas", M, VAR_TUPLE, NULL, NULL },
	{ "optim.beta1", M, VAR_NUMBER, NULL, BOTH },
	{ "optim.beta2", M, VAR_NUMBER, NULL, BOTH },
	{ "optim.matrix_optimizer", M, VAR_CHOICE, "adamw|muon", BOTH },
	{ "optim.muon_momentum", M, VAR_NUMBER, NULL, BOTH },
	{ "optim.grad_clip", M, VAR_NUMBER, NULL, BOTH },

	{ "sched.warmup_ratio", M, VAR_NUMBER, NULL, BOTH },
	{ "sched.warmdown_ratio", M, VAR_NUMBER, NULL, BOTH },
	{ "sched.warmdown_shape", M, VAR_CHOICE, "linear|sqrt", BOTH },
	{ "sched.final_lr_frac", M, VAR_NUMBER, NULL, BOTH },

	{ "train.device_batch_size", M, VAR_INT, NULL, BOTH },
	{ "train.total_batch_size", M, VAR_INT, NULL, BOTH },
	{ "train.time_budget_s", BU, VAR_NUMBER, NULL, BOTH },
	{ "train.timeout_grace_s", BU, VAR_NUMBER, NULL, BOTH },
	{ "train.steps", BU, VAR_INT, NULL, BOTH },
	{ "train.seed", M, VAR_INT, NULL, BOTH },
	{ "train.device", IM, VAR_CHOICE, "auto|cpu|cuda", BOTH },
	{ "train.eval_tokens", M, VAR_INT, NULL, BOTH },

	{ "data.path", D, VAR_STRING, NULL, BOTH },

	/* Which values each device implements is the trainer's to say
	 * (issue 10); until then the registry claims only what runs today. */
	{ "impl.recompute", IM, VAR_BOOL, NULL, "false=cpu|cuda" },
	{ "impl.compile_mode", IM, VAR_CHOICE, "none|default|max", "none=cpu|cuda" },
	{ "impl.attention", IM, VAR_CHOICE, "auto|naive|flash|sdpa", "auto=cpu|cuda;naive=cpu|cuda" },
	{ "impl.fused_adamw", IM, VAR_BOOL, NULL, "true=cuda" },
	{ "impl.fused_xent", IM, VAR_BOOL, NULL, "true=cuda" },
	{ "impl.cuda_graphs", IM, VAR_BOOL, NULL, "false=cpu|cuda" },
	{ "impl.threads", IM, VAR_INT, NULL, "cpu" },
};

/* Names people write, normalised (varreg_normalise): autoresearch's
 * train.py constants (DEPTH -> "depth", MATRIX_LR -> "matrix lr") and the
 * prose spellings seen in results.tsv descriptions. */
static const struct var_alias aliases[] = {
	{ "depth", "model.depth", NULL }, { "n layer", "model.depth", NULL },
	{ "n layers", "model.depth", NULL }, { "num layers", "model.depth", NULL },
	{ "layers", "model.depth", NULL },
	{ "dim", "model.dim", NULL }, { "model dim", "model.dim", NULL },
	{ "width", "model.dim", NULL }, { "n embd", "model.dim", NULL },
	{ "embedding dim", "model.dim", NULL }, { "hidden size", "model.dim", NULL },
	{ "heads", "model.heads", NULL }, { "n head", "model.heads", NULL },
	{ "num heads", "model.heads", NULL }, { "head dim", "model.head_dim", NULL },
	{ "qk norm", "model.qk_norm", NULL }, { "seq len", "model.seq_len", NULL },
	{ "max seq len", "model.seq_len", NULL },
	{ "sequence length", "model.seq_len", NULL }, { "context length", "model.seq_len", NULL },
	{ "aspect ratio", "model.aspect_ratio", NULL }, { "mlp ratio", "model.mlp_ratio", NULL },
	{ "vocab", "model.vocab_size", NULL }, { "vocab size", "model.vocab_size", NULL },
	{ "window pattern", "model.window_pattern", NULL },
	{ "sliding window", "model.window_pattern", NULL },
	{ "activation", "model.activation", NULL }, { "mlp activation", "model.activation", NULL },
	{ "softcap", "model.softcap", NULL }, { "logit softcap", "model.softcap", NULL },
	{ "rope base", "model.rope_base", NULL }, { "rope theta", "model.rope_base", NULL },
	{ "dropout", "model.dropout", NULL },
	{ "matrix lr", "optim.matrix_lr", NULL }, { "muon lr", "optim.matrix_lr", NULL },
	{ "embedding lr", "optim.embedding_lr", NULL }, { "embed lr", "optim.embedding_lr", NULL },
	{ "unembedding lr", "optim.unembedding_lr", NULL },
	{ "unembed lr", "optim.unembedding_lr", NULL }, { "lm head lr", "optim.unembedding_lr", NULL },
	{ "scalar lr", "optim.scalar_lr", NULL },
	{ "weight decay", "optim.weight_decay", NULL }, { "wd", "optim.weight_decay", NULL },
	{ "adam betas", "optim.adam_betas", NULL },
	{ "beta1", "optim.beta1", NULL }, { "adam beta1", "optim.beta1", NULL },
	{ "beta2", "optim.beta2", NULL }, { "adam beta2", "optim.beta2", NULL },
	{ "muon momentum", "optim.muon_momentum", NULL }, { "momentum", "optim.muon_momentum", NULL },
	{ "grad clip", "optim.grad_clip", NULL }, { "gradient clipping", "optim.grad_clip", NULL },
	{ "warmup", "sched.warmup_ratio", NULL }, { "warmup ratio", "sched.warmup_ratio", NULL },
	{ "warmdown", "sched.warmdown_ratio", NULL }, { "warmdown ratio", "sched.warmdown_ratio", NULL },
	{ "cooldown", "sched.warmdown_ratio", NULL },
	{ "final lr frac", "sched.final_lr_frac", NULL },
	{ "device batch", "train.device_batch_size", NULL },
	{ "device batch size", "train.device_batch_size", NULL },
	{ "micro batch", "train.device_batch_size", NULL },
	{ "micro batch size", "train.device_batch_size", NULL },
	{ "batch", "train.total_batch_size", NULL }, { "batch size", "train.total_batch_size", NULL },
	{ "total batch", "train.total_batch_size", NULL },
	{ "total batch size", "train.total_batch_size", NULL },
	{ "seed", "train.seed", NULL }, { "time budget", "train.time_budget_s", NULL },
	{ "grad checkpointing", "impl.recompute", NULL },
	{ "gradient checkpointing", "impl.recompute", NULL },
	{ "activation checkpointing", "impl.recompute", NULL },
	{ "checkpointing", "impl.recompute", NULL }, { "recompute", "impl.recompute", NULL },
	{ "recomputation", "impl.recompute", NULL },
	{ "attention", "impl.attention", NULL }, { "attention kernel", "impl.attention", NULL },
	{ "flash attention", "impl.attention", "flash" }, { "flash attn", "impl.attention", "flash" },
	{ "sdpa", "impl.attention", "sdpa" },
	{ "compile", "impl.compile_mode", NULL }, { "torch compile", "impl.compile_mode", NULL },
	{ "compile mode", "impl.compile_mode", NULL },
	{ "cuda graphs", "impl.cuda_graphs", NULL }, { "cuda graph", "impl.cuda_graphs", NULL },
	{ "fused optimizer", "impl.fused_adamw", NULL }, { "fused adamw", "impl.fused_adamw", NULL },
	{ "fused xent", "impl.fused_xent", NULL },
	{ "fused cross entropy", "impl.fused_xent", NULL }, { "threads", "impl.threads", NULL },
	{ "matrix optimizer", "optim.matrix_optimizer", NULL },
	{ "muon", "optim.matrix_optimizer", "muon" }, { "adamw", "optim.matrix_optimizer", "adamw" },
	{ "warmdown shape", "sched.warmdown_shape", NULL },
	/* spellings from the description corpus (tests/fixtures/infer) */
	{ "d model", "model.dim", NULL }, { "mlp", "model.mlp_ratio", NULL },
	{ "mlp expansion", "model.mlp_ratio", NULL }, { "mlp mult", "model.mlp_ratio", NULL },
	{ "pattern", "model.window_pattern", NULL }, { "window", "model.window_pattern", NULL },
	{ "rope", "model.rope_base", NULL },
	{ "adamb1", "optim.beta1", NULL }, { "adam b1", "optim.beta1", NULL },
	{ "adamb2", "optim.beta2", NULL }, { "adam b2", "optim.beta2", NULL },
	{ "max norm", "optim.grad_clip", NULL }, { "clip", "optim.grad_clip", NULL },
	{ "grad clipping", "optim.grad_clip", NULL }, { "muon optimizer", "optim.matrix_optimizer", "muon" },
	{ "lr warmup", "sched.warmup_ratio", NULL }, { "warmup fraction", "sched.warmup_ratio", NULL },
	{ "lr cooldown", "sched.warmdown_ratio", NULL }, { "warmdown fraction", "sched.warmdown_ratio", NULL },
	{ "cosine warmdown", "sched.warmdown_shape", "cosine" },
	{ "linear warmdown", "sched.warmdown_shape", "linear" },
	{ "final lr", "sched.final_lr_frac", NULL }, { "final lr fraction", "sched.final_lr_frac", NULL },
	{ "final lr floor", "sched.final_lr_frac", NULL }, { "lr floor", "sched.final_lr_frac", NULL },
	{ "device bs", "train.device_batch_size", NULL },
	{ "train batch tokens", "train.total_batch_size", NULL },
	{ "batch tokens", "train.total_batch_size", NULL },
	{ "total batch tokens", "train.total_batch_size", NULL },
	{ "eager mode", "impl.compile_mode", "eager" }, { "torch.compile", "impl.compile_mode", NULL },
	{ "qk layernorm", "model.qk_norm", NULL }, { "model width", "model.dim", NULL },
	{ "seq length", "model.seq_len", NULL }, { "sequence len", "model.seq_len", NULL },
	{ "context len", "model.seq_len", NULL }, { "ctx len", "model.seq_len", NULL },
	{ "block size", "model.seq_len", NULL }, { "beta 1", "optim.beta1", NULL },
	{ "beta 2", "optim.beta2", NULL }, { "embedding learning rate", "optim.embedding_lr", NULL },
	{ "matrix learning rate", "optim.matrix_lr", NULL },
	{ "unembedding learning rate", "optim.unembedding_lr", NULL },
	{ "scalar learning rate", "optim.scalar_lr", NULL }, { "warm up", "sched.warmup_ratio", NULL },
	{ "warm down", "sched.warmdown_ratio", NULL }, { "cool down", "sched.warmdown_ratio", NULL },
	{ "ffn ratio", "model.mlp_ratio", NULL }, { "ffn mult", "model.mlp_ratio", NULL },
	{ "logit cap", "model.softcap", NULL }, { "logits softcap", "model.softcap", NULL },
};

size_t varreg_count(void) { return ARRAY_SIZE(vars); }
const struct var_def *varreg_at(size_t i) { return i < ARRAY_SIZE(vars) ? &vars[i] : NULL; }
size_t varreg_alias_count(void) { return ARRAY_SIZE(aliases); }
const struct var_alias *varreg_alias_at(size_t i)
{
	return i < ARRAY_SIZE(aliases) ? &aliases[i] : NULL;
}

const struct var_def *varreg_find(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++)
		if (!strcmp(vars[i].key, key))
			return &vars[i];
	return NULL;
}

void varreg_normalise(const char *s, char *buf, size_t n)
{
	size_t o = 0;
	int space = 1;
	for (; *s && o + 1 < n; s++) {
		char c = (char)tolower((unsigned char)*s);
		if (c == '_' || c == '-' || isspace((unsigned char)c)) {
			if (!space)
				buf[o++] = ' ';
			space = 1;
		} else {
			buf[o++] = c;
			space = 0;
		}
	}
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
}

const struct var_alias *varreg_alias(const char *name)
{
	char norm[128];
	varreg_normalise(name, norm, sizeof(norm));
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].name, norm))
			return &aliases[i];
	return NULL;
}

int varreg_categorical(const struct var_def *d)
{
	return d && (d->type == VAR_CHOICE || d->type == VAR_STRING);
}

/* 1 when list ("cpu|cuda") holds device as a whole word. */
static int has_device(const char *list, size_t len, const char *device)
{
	size_t n = strlen(device);
	for (const char *p = list, *end = list + len; p < end;) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t l = bar ? (size_t)(bar - p) : (size_t)(end - p);
		if (l == n && !strncmp(p, device, n))
			return 1;
		p += l + 1;
	}
	return 0;
}

int varreg_on_device(const struct var_def *d, const char *value, const char *device)
{
	if (!d || !d->devices)
		return 0;
	if (!strchr(d->devices, '='))
		return has_device(d->devices, strlen(d->devices), device);
	size_t vlen = strlen(value);
	for (const char *p = d->devices; *p;) {
		const char *semi = strchr(p, ';'), *eq = strchr(p, '=');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		if (eq && eq < p + len && (size_t)(eq - p) == vlen && !strncmp(p, value, vlen))
			return has_device(eq + 1, len - (size_t)(eq + 1 - p), device);
		p += len + (semi != NULL);
	}
	return 0;
}

const char *varreg_kind_name(enum var_kind k)
{
	static const char *const names[] = { "math", "impl", "data", "budget" };
	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}
