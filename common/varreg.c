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

/* { key, kind, type, choices, devices, autoresearch constant, help } */
static const struct var_def vars[] = {
	{ "model.depth", M, VAR_INT, NULL, BOTH, "DEPTH", "transformer blocks (n_layer)" },
	{ "model.dim", M, VAR_INT, NULL, BOTH, NULL,
	  "residual stream width (n_embd; autoresearch derives it from DEPTH * ASPECT_RATIO)" },
	{ "model.heads", M, VAR_INT, NULL, BOTH, NULL,
	  "attention heads (n_head; autoresearch: model dim / HEAD_DIM)" },
	{ "model.head_dim", M, VAR_INT, NULL, NULL, "HEAD_DIM", "width of one attention head" },
	{ "model.aspect_ratio", M, VAR_NUMBER, NULL, NULL, "ASPECT_RATIO",
	  "model dim per block: dim = depth * aspect_ratio, rounded up to whole heads" },
	{ "model.seq_len", M, VAR_INT, NULL, BOTH, "MAX_SEQ_LEN", "context length in tokens" },
	{ "model.vocab_size", M, VAR_INT, NULL, BOTH, "VOCAB_SIZE", "vocabulary size in tokens" },
	{ "model.window_pattern", M, VAR_STRING, NULL, NULL, "WINDOW_PATTERN",
	  "sliding-window layout per block, S short / L long, repeated (SSSL)" },
	{ "model.activation", M, VAR_CHOICE, "relu2|relu|gelu|swiglu|geglu|silu", NULL, NULL,
	  "MLP nonlinearity" },
	{ "model.qk_norm", M, VAR_BOOL, NULL, BOTH, NULL, "RMS-normalise queries and keys per head" },
	{ "model.softcap", M, VAR_NUMBER, NULL, BOTH, NULL,
	  "logit soft-cap c: logits = c * tanh(z / c); 0 = off" },
	{ "model.mlp_ratio", M, VAR_NUMBER, NULL, BOTH, NULL, "MLP hidden width / model dim" },
	{ "model.rope_base", M, VAR_NUMBER, NULL, NULL, NULL, "rotary embedding base (theta)" },
	{ "model.dropout", M, VAR_NUMBER, NULL, NULL, NULL, "dropout probability" },

	{ "optim.matrix_lr", M, VAR_NUMBER, NULL, BOTH, "MATRIX_LR",
	  "learning rate of the 2-D block matrices (Muon's)" },
	{ "optim.embedding_lr", M, VAR_NUMBER, NULL, BOTH, "EMBEDDING_LR",
	  "learning rate of the token embedding" },
	{ "optim.unembedding_lr", M, VAR_NUMBER, NULL, BOTH, "UNEMBEDDING_LR",
	  "learning rate of the output head (lm_head)" },
	/* our trainer's model has no 1-D parameters (its RMSNorm has no gain),
	 * so it has no such learning rate: one it recorded would change nothing */
	{ "optim.scalar_lr", M, VAR_NUMBER, NULL, NULL, "SCALAR_LR",
	  "learning rate of 1-D parameters (per-layer scalars)" },
	{ "optim.weight_decay", M, VAR_NUMBER, NULL, BOTH, "WEIGHT_DECAY",
	  "decoupled weight decay of the block matrices" },
	{ "optim.adam_betas", M, VAR_TUPLE, NULL, NULL, "ADAM_BETAS",
	  "AdamW (beta1, beta2) as one tuple; our trainer has optim.beta1 and optim.beta2" },
	{ "optim.beta1", M, VAR_NUMBER, NULL, BOTH, NULL, "AdamW beta1" },
	{ "optim.beta2", M, VAR_NUMBER, NULL, BOTH, NULL, "AdamW beta2" },
	{ "optim.matrix_optimizer", M, VAR_CHOICE, "adamw|muon", BOTH, NULL,
	  "optimiser of the block matrices" },
	{ "optim.muon_momentum", M, VAR_NUMBER, NULL, BOTH, NULL, "Muon (Nesterov) momentum" },
	{ "optim.grad_clip", M, VAR_NUMBER, NULL, BOTH, NULL,
	  "clip the global gradient norm to this; 0 = off" },

	{ "sched.warmup_ratio", M, VAR_NUMBER, NULL, BOTH, "WARMUP_RATIO",
	  "fraction of the run with linear LR warmup" },
	{ "sched.warmdown_ratio", M, VAR_NUMBER, NULL, BOTH, "WARMDOWN_RATIO",
	  "fraction of the run spent decaying the LR (cooldown)" },
	/* cosine: autoresearch forks use it; our trainer does not have it */
	{ "sched.warmdown_shape", M, VAR_CHOICE, "linear|sqrt|cosine", "linear=cpu|cuda;sqrt=cpu|cuda",
	  NULL, "curve of the warmdown" },
	{ "sched.final_lr_frac", M, VAR_NUMBER, NULL, BOTH, "FINAL_LR_FRAC",
	  "LR multiplier at the end of the run" },

	{ "train.device_batch_size", M, VAR_INT, NULL, BOTH, "DEVICE_BATCH_SIZE",
	  "sequences per micro-step (per device)" },
	{ "train.total_batch_size", M, VAR_INT, NULL, BOTH, "TOTAL_BATCH_SIZE",
	  "tokens per optimiser step (2**19 = 524288)" },
	{ "train.time_budget_s", BU, VAR_NUMBER, NULL, BOTH, "TIME_BUDGET",
	  "wall-clock training budget in seconds" },
	{ "train.timeout_grace_s", BU, VAR_NUMBER, NULL, BOTH, NULL,
	  "seconds past the budget before a run counts as a timeout" },
	{ "train.steps", BU, VAR_INT, NULL, BOTH, NULL, "optimiser steps; 0 = train for the time budget" },
	{ "train.seed", M, VAR_INT, NULL, BOTH, NULL, "seed of initialisation and batch sampling" },
	/* math, as the trainer's table (trainer/config.c) has it; whether a
	 * device switch should count as impl is the trainer's call. */
	{ "train.device", M, VAR_CHOICE, "auto|cpu|cuda", BOTH, NULL,
	  "trainer device path; records hold the one used" },
	{ "train.eval_tokens", M, VAR_INT, NULL, BOTH, "EVAL_TOKENS", "validation tokens for val_bpb" },

	{ "data.path", D, VAR_STRING, NULL, BOTH, NULL, "prepared data (manifest.json or its directory)" },

	/* Which values each device implements is the trainer's to say
	 * (issue 10); until then the registry claims only what runs today.
	 * Values after the trainer's (sdpa, fa3, torch's compile modes) are
	 * names people use for other trainers: known, on no device of ours. */
	/* The claims below are what trainer/impl.c implements (test_varreg
	 * checks every value against it): auto is resolved at start-up to a
	 * value the device runs. */
	{ "impl.recompute", IM, VAR_BOOL, NULL, "false=cpu|cuda;true=cuda", NULL,
	  "recompute activations in backward (gradient checkpointing)" },
	{ "impl.compile_mode", IM, VAR_CHOICE,
	  "auto|none|heuristic|autotune|default|max|eager|reduce-overhead|max-autotune|"
	  "max-autotune-no-cudagraphs", "auto=cpu|cuda;none=cpu;heuristic=cuda;autotune=cuda", NULL,
	  "GEMM algorithm choice: cuBLASLt's first heuristic or benchmarked at start-up "
	  "(torch.compile mode elsewhere)" },
	{ "impl.attention", IM, VAR_CHOICE, "auto|naive|flash|sdpa|fa3",
	  "auto=cpu|cuda;naive=cpu|cuda;flash=cuda", NULL, "attention kernel" },
	{ "impl.fused_adamw", IM, VAR_BOOL, NULL, "true=cpu|cuda;false=cuda", NULL,
	  "one fused AdamW kernel" },
	{ "impl.fused_xent", IM, VAR_BOOL, NULL, "true=cpu|cuda;false=cuda", NULL,
	  "fused softcap + cross-entropy kernel" },
	{ "impl.relu2", IM, VAR_CHOICE, "auto|kernel|epilogue",
	  "auto=cpu|cuda;kernel=cpu|cuda;epilogue=cuda", NULL,
	  "relu^2 as its own pass, or fused into the MLP GEMMs' epilogues" },
	{ "impl.rotary", IM, VAR_CHOICE, "auto|kernel|epilogue",
	  "auto=cpu|cuda;kernel=cpu|cuda;epilogue=cuda", NULL,
	  "QK-norm + rotary as its own pass, or fused into the QKV GEMM's epilogue and the attention "
	  "backward's way out" },
	{ "impl.cuda_graphs", IM, VAR_BOOL, NULL, "false=cpu|cuda;true=cuda", NULL,
	  "capture the step as a CUDA graph" },
	{ "impl.threads", IM, VAR_INT, NULL, "0=cpu|cuda;*=cpu", NULL,
	  "OpenMP threads on the CPU path; 0 = default" },
	{ "impl.gemm", IM, VAR_CHOICE, "auto|loops|cublaslt|wgmma",
	  "auto=cpu|cuda;loops=cpu;cublaslt=cuda;wgmma=cuda", NULL,
	  "which GEMM runs the blocks' products with no fused epilogue: cuBLASLt or our own" },
};

/* Names people write, normalised (varreg_normalise): autoresearch's
 * train.py constants (DEPTH -> "depth", MATRIX_LR -> "matrix lr") and the
 * prose spellings seen in results.tsv descriptions. */
static const struct var_alias aliases[] = {
	/* autoresearch names without a row below: GPTConfig's fields, the
	 * prepare.py constants, and more prose spellings (issue 9). */
	{ "context len", "model.seq_len", NULL }, { "ctx len", "model.seq_len", NULL },
	{ "soft capping", "model.softcap", NULL }, { "logit soft capping", "model.softcap", NULL },
	{ "context", "model.seq_len", NULL }, { "context size", "model.seq_len", NULL },
	{ "context window", "model.seq_len", NULL }, { "ctx", "model.seq_len", NULL },
	{ "block size", "model.seq_len", NULL },
	{ "eval tokens", "train.eval_tokens", NULL }, { "val tokens", "train.eval_tokens", NULL },
	{ "validation tokens", "train.eval_tokens", NULL },
	{ "number of layers", "model.depth", NULL }, { "layer count", "model.depth", NULL },
	{ "d model", "model.dim", NULL }, { "model width", "model.dim", NULL },
	{ "n embed", "model.dim", NULL },
	{ "n heads", "model.heads", NULL }, { "attention heads", "model.heads", NULL },
	{ "number of heads", "model.heads", NULL }, { "head count", "model.heads", NULL },
	{ "head size", "model.head_dim", NULL },
	{ "vocabulary size", "model.vocab_size", NULL }, { "n vocab", "model.vocab_size", NULL },
	{ "sliding window pattern", "model.window_pattern", NULL },
	{ "attention window pattern", "model.window_pattern", NULL },
	{ "activation function", "model.activation", NULL },
	{ "qknorm", "model.qk_norm", NULL },
	{ "logit cap", "model.softcap", NULL },
	{ "soft cap", "model.softcap", NULL },
	{ "mlp mult", "model.mlp_ratio", NULL }, { "mlp expansion", "model.mlp_ratio", NULL },
	{ "ffn ratio", "model.mlp_ratio", NULL }, { "mlp hidden ratio", "model.mlp_ratio", NULL },
	{ "ffn expansion", "model.mlp_ratio", NULL }, { "mlp multiplier", "model.mlp_ratio", NULL },
	{ "mlp hidden multiplier", "model.mlp_ratio", NULL },
	{ "mlp hidden size multiplier", "model.mlp_ratio", NULL },
	{ "rope freq base", "model.rope_base", NULL }, { "rope base freq", "model.rope_base", NULL },
	{ "dropout rate", "model.dropout", NULL },
	{ "emb lr", "optim.embedding_lr", NULL }, { "wte lr", "optim.embedding_lr", NULL },
	{ "head lr", "optim.unembedding_lr", NULL },
	{ "betas", "optim.adam_betas", NULL }, { "adamw betas", "optim.adam_betas", NULL },
	{ "adam b1", "optim.beta1", NULL }, { "adam b2", "optim.beta2", NULL },
	{ "gradient clip", "optim.grad_clip", NULL },
	{ "clip grad norm", "optim.grad_clip", NULL }, { "grad norm clip", "optim.grad_clip", NULL },
	{ "max grad norm", "optim.grad_clip", NULL },
	{ "warmup frac", "sched.warmup_ratio", NULL }, { "warmup fraction", "sched.warmup_ratio", NULL },
	{ "lr warmup", "sched.warmup_ratio", NULL },
	{ "warmdown frac", "sched.warmdown_ratio", NULL },
	{ "warmdown fraction", "sched.warmdown_ratio", NULL },
	{ "cooldown ratio", "sched.warmdown_ratio", NULL },
	{ "cooldown frac", "sched.warmdown_ratio", NULL },
	{ "cooldown shape", "sched.warmdown_shape", NULL },
	{ "warmdown curve", "sched.warmdown_shape", NULL },
	{ "final lr fraction", "sched.final_lr_frac", NULL },
	{ "min lr frac", "sched.final_lr_frac", NULL },
	{ "total batch tokens", "train.total_batch_size", NULL },
	{ "batch tokens", "train.total_batch_size", NULL },
	{ "tokens per step", "train.total_batch_size", NULL },
	{ "per device batch", "train.device_batch_size", NULL },
	{ "per device batch size", "train.device_batch_size", NULL },
	{ "microbatch", "train.device_batch_size", NULL },
	{ "microbatch size", "train.device_batch_size", NULL },
	{ "time budget s", "train.time_budget_s", NULL },
	{ "training budget", "train.time_budget_s", NULL },
	{ "time limit", "train.time_budget_s", NULL },
	{ "timeout grace", "train.timeout_grace_s", NULL },
	{ "train steps", "train.steps", NULL }, { "training steps", "train.steps", NULL },
	{ "max steps", "train.steps", NULL }, { "max iters", "train.steps", NULL },
	{ "random seed", "train.seed", NULL }, { "rng seed", "train.seed", NULL },
	{ "train device", "train.device", NULL },
	{ "data path", "data.path", NULL }, { "dataset path", "data.path", NULL },
	{ "data dir", "data.path", NULL },
	{ "activation recompute", "impl.recompute", NULL },
	{ "activation recomputation", "impl.recompute", NULL },
	{ "gradient checkpoint", "impl.recompute", NULL },
	{ "torch.compile", "impl.compile_mode", NULL },
	{ "torch compile mode", "impl.compile_mode", NULL },
	{ "attention impl", "impl.attention", NULL },
	{ "attention implementation", "impl.attention", NULL },
	{ "flashattention", "impl.attention", "flash" }, { "fa2", "impl.attention", "flash" },
	{ "flash attention 2", "impl.attention", "flash" },
	{ "flash attention 3", "impl.attention", "fa3" },
	{ "fa3", "impl.attention", "fa3" }, { "naive attention", "impl.attention", "naive" },
	{ "scaled dot product attention", "impl.attention", "sdpa" },
	{ "fused adam", "impl.fused_adamw", NULL }, { "fused optim", "impl.fused_adamw", NULL },
	{ "fused ce", "impl.fused_xent", NULL }, { "fused loss", "impl.fused_xent", NULL },
	{ "fused cross entropy loss", "impl.fused_xent", NULL },
	{ "cudagraphs", "impl.cuda_graphs", NULL }, { "cuda graph capture", "impl.cuda_graphs", NULL },
	{ "omp threads", "impl.threads", NULL }, { "openmp threads", "impl.threads", NULL },
	{ "num threads", "impl.threads", NULL },

	/* the registry's first names (infer.c's former alias table) */
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
	{ "aspect ratio", "model.aspect_ratio", NULL }, { "mlp ratio", "model.mlp_ratio", NULL },
	{ "vocab", "model.vocab_size", NULL }, { "vocab size", "model.vocab_size", NULL },
	{ "window pattern", "model.window_pattern", NULL },
	{ "sliding window", "model.window_pattern", NULL },
	{ "activation", "model.activation", NULL }, { "mlp activation", "model.activation", NULL },
	{ "softcap", "model.softcap", NULL }, { "logit softcap", "model.softcap", NULL },
	{ "rope base", "model.rope_base", NULL }, { "rope theta", "model.rope_base", NULL },
	{ "dropout", "model.dropout", NULL },
	{ "matrix lr", "optim.matrix_lr", NULL }, { "muon lr", "optim.matrix_lr", NULL },
	{ "embedding lr", "optim.embedding_lr", NULL },
	{ "unembedding lr", "optim.unembedding_lr", NULL },
	{ "lm head lr", "optim.unembedding_lr", NULL },
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
	{ "gradient checkpointing", "impl.recompute", NULL },
	{ "activation checkpointing", "impl.recompute", NULL },
	{ "checkpointing", "impl.recompute", NULL }, { "recompute", "impl.recompute", NULL },
	{ "recomputation", "impl.recompute", NULL },
	{ "attention", "impl.attention", NULL }, { "attention kernel", "impl.attention", NULL },
	{ "flash attention", "impl.attention", "flash" },
	{ "sdpa", "impl.attention", "sdpa" },
	{ "compile", "impl.compile_mode", NULL }, { "torch compile", "impl.compile_mode", NULL },
	{ "compile mode", "impl.compile_mode", NULL },
	/* round 12: an agent's prose and identifier ("Disabled model
	 * compilation (compile_model=False)") */
	{ "compilation", "impl.compile_mode", NULL }, { "model compilation", "impl.compile_mode", NULL },
	{ "torch compilation", "impl.compile_mode", NULL }, { "compile model", "impl.compile_mode", NULL },
	{ "cuda graphs", "impl.cuda_graphs", NULL }, { "cuda graph", "impl.cuda_graphs", NULL },
	{ "fused optimizer", "impl.fused_adamw", NULL }, { "fused adamw", "impl.fused_adamw", NULL },
	{ "fused xent", "impl.fused_xent", NULL },
	{ "fused cross entropy", "impl.fused_xent", NULL }, { "threads", "impl.threads", NULL },
	{ "matrix optimizer", "optim.matrix_optimizer", NULL },
	{ "muon", "optim.matrix_optimizer", "muon" }, { "adamw", "optim.matrix_optimizer", "adamw" },
	{ "warmdown shape", "sched.warmdown_shape", NULL },
	/* round 12: "change LR schedule to cosine" coined desc.lr_schedule;
	 * autoresearch's schedule is flat then a decay, whose shape it names */
	{ "lr schedule", "sched.warmdown_shape", NULL }, { "learning rate schedule", "sched.warmdown_shape", NULL },
	{ "lr sched", "sched.warmdown_shape", NULL },
	/* spellings from the description corpus (tests/fixtures/infer) */
	{ "mlp", "model.mlp_ratio", NULL },
	{ "pattern", "model.window_pattern", NULL }, { "window", "model.window_pattern", NULL },
	{ "rope", "model.rope_base", NULL },
	{ "adamb1", "optim.beta1", NULL },
	{ "adamb2", "optim.beta2", NULL },
	{ "max norm", "optim.grad_clip", NULL }, { "clip", "optim.grad_clip", NULL },
	{ "muon optimizer", "optim.matrix_optimizer", "muon" },
	{ "lr warmdown", "sched.warmdown_ratio", NULL }, { "lr cooldown", "sched.warmdown_ratio", NULL },
	/* round 12: "shorten lr warmdown window to 10 percent" */
	{ "warmdown window", "sched.warmdown_ratio", NULL }, { "lr warmdown window", "sched.warmdown_ratio", NULL },
	{ "cosine warmdown", "sched.warmdown_shape", "cosine" },
	{ "linear warmdown", "sched.warmdown_shape", "linear" },
	{ "final lr", "sched.final_lr_frac", NULL },
	{ "final lr floor", "sched.final_lr_frac", NULL }, { "lr floor", "sched.final_lr_frac", NULL },
	{ "train batch tokens", "train.total_batch_size", NULL },
	{ "eager mode", "impl.compile_mode", "eager" },
	{ "qk layernorm", "model.qk_norm", NULL },
	{ "beta 1", "optim.beta1", NULL },
	{ "beta 2", "optim.beta2", NULL },
	{ "warm up", "sched.warmup_ratio", NULL },
	{ "warm down", "sched.warmdown_ratio", NULL }, { "cool down", "sched.warmdown_ratio", NULL },
	{ "ffn mult", "model.mlp_ratio", NULL },
	{ "logits softcap", "model.softcap", NULL },
	/* every layer attending in full ("all long windows"): a rule of the
	 * grammar (ledger/describe.c, full_windows), no alias */
	{ "aspect", "model.aspect_ratio", NULL }, { "layer", "model.depth", NULL },
	/* Muon's one momentum is its beta1 ("Muon beta1=0.9"); the value the
	 * warmup ramps it to is the "final momentum"; AR the aspect ratio
	 * ("DEPTH=6 AR=64") */
	{ "muon beta1", "optim.muon_momentum", NULL }, { "final momentum", "optim.muon_momentum", NULL },
	{ "final muon momentum", "optim.muon_momentum", NULL }, { "ar", "model.aspect_ratio", NULL },
	/* DEVICE_BATCH_SIZE, TOTAL_BATCH_SIZE by their initials ("DBS 32->64 TBS 2**16->2**17") */
	{ "dbs", "train.device_batch_size", NULL }, { "tbs", "train.total_batch_size", NULL },
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

/* Words written in more than one way, each to the one the aliases use:
 * a rule for every name instead of an alias for each ("embedding learning
 * rate", "UNEMBED_LR", "device bs", "sequence length", "QK normalization",
 * "rotary base" are each one name of the table). Whole words only. */
static const struct { const char *word, *canonical; } synonyms[] = {
	{ "learning rate", "lr" }, { "embed", "embedding" }, { "unembed", "unembedding" },
	{ "bs", "batch size" }, { "sequence", "seq" }, { "length", "len" },
	{ "normalization", "norm" }, { "normalisation", "norm" }, { "rotary", "rope" },
	{ "dimension", "dim" }, { "iterations", "steps" }, { "newton schulz", "ns" },
	{ "frequency", "freq" },
	/* round 10: shortenings, so that each needs no spelling of its own */
	{ "grad", "gradient" }, { "accum", "accumulation" },
	{ "embeds", "embeddings" }, { "attn", "attention" }, { "diff", "differential" },
	{ "softcapping", "softcap" },
	/* round 11: a window's own words ("short attention window size" is the
	 * short window), an init and its spread spelled out */
	{ "attention window size", "window" }, { "attention window", "window" },
	{ "window size", "window" }, { "initialization", "init" }, { "initialisation", "init" },
	{ "standard deviation", "std" },
	/* a count's "n" glued on (NLAYERS, nheads): nanoGPT's n_layer, n_head */
	{ "nlayers", "n layers" }, { "nlayer", "n layer" }, { "nheads", "n heads" },
	{ "nhead", "n head" }, { "nembd", "n embd" },
};

int varreg_canonical(const char *norm, char *buf, size_t n)
{
	size_t o = 0;
	int changed = 0;
	if (!n)
		return 0;
	for (const char *p = norm; *p && o + 1 < n;) {
		size_t k = 0;
		const char *to = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(synonyms) && !to; i++) {
			k = strlen(synonyms[i].word);
			if (!strncmp(p, synonyms[i].word, k) && (p[k] == ' ' || !p[k]))
				to = synonyms[i].canonical;
		}
		if (!to) { /* a word as it is */
			k = strcspn(p, " ");
			to = p;
		} else {
			changed = 1;
		}
		size_t len = to == p ? k : strlen(to);
		if (o + len + 1 >= n)
			break;
		memcpy(buf + o, to, len);
		o += len;
		p += k;
		if (*p == ' ' && o + 1 < n)
			buf[o++] = *p++;
	}
	buf[o] = '\0';
	return changed;
}

static const struct var_alias *alias_exact(const char *norm)
{
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].name, norm))
			return &aliases[i];
	return NULL;
}

const struct var_alias *varreg_alias(const char *name)
{
	char norm[128], canon[160];
	varreg_normalise(name, norm, sizeof(norm));
	const struct var_alias *a = alias_exact(norm);
	if (!a && varreg_canonical(norm, canon, sizeof(canon)))
		a = alias_exact(canon);
	return a;
}

/* Words of norm sorted, joined by one space, into buf; how many words. */
static int sorted_words(const char *norm, char *buf, size_t n)
{
	char copy[160], *words[16];
	int k = 0;
	snprintf(copy, sizeof(copy), "%s", norm);
	for (char *w = strtok(copy, " "); w && k < 16; w = strtok(NULL, " "))
		words[k++] = w;
	for (int i = 1; i < k; i++) /* insertion sort: a name has a few words */
		for (int j = i; j > 0 && strcmp(words[j - 1], words[j]) > 0; j--) {
			char *t = words[j];
			words[j] = words[j - 1];
			words[j - 1] = t;
		}
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < k && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " " : "", words[i]);
	return k;
}

const struct var_alias *varreg_alias_any_order(const char *name)
{
	char norm[128], canon[160], want[160], have[160], alias_canon[160];
	const struct var_alias *found = NULL;
	varreg_normalise(name, norm, sizeof(norm));
	if (!varreg_canonical(norm, canon, sizeof(canon)))
		snprintf(canon, sizeof(canon), "%s", norm);
	if (sorted_words(canon, want, sizeof(want)) < 2)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++) {
		const char *a = aliases[i].name;
		if (varreg_canonical(a, alias_canon, sizeof(alias_canon)))
			a = alias_canon;
		sorted_words(a, have, sizeof(have));
		if (strcmp(have, want))
			continue;
		if (found && strcmp(found->key, aliases[i].key))
			return NULL; /* two knobs with those words: which is not sure */
		found = &aliases[i];
	}
	return found;
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
		if (eq && eq < p + len && (((size_t)(eq - p) == vlen && !strncmp(p, value, vlen)) ||
					    (eq - p == 1 && *p == '*')))
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

const char *varreg_type_name(enum var_type t)
{
	static const char *const names[] = { "int", "number", "bool", "choice", "string", "tuple" };
	return (unsigned)t < ARRAY_SIZE(names) ? names[t] : "?";
}

enum var_kind varreg_kind_of(const char *var)
{
	const struct var_def *d = varreg_find(var);
	if (d)
		return d->kind;
	if (!strncmp(var, "impl.", 5))
		return VAR_IMPL;
	if (!strncmp(var, "data.", 5))
		return VAR_DATA;
	return VAR_MATH;
}

const char *varreg_resolve(const char *name, const char **implied)
{
	const struct var_alias *a = varreg_alias(name);
	if (implied)
		*implied = a ? a->implied : NULL;
	if (a)
		return a->key;
	char key[128];
	size_t i = 0;
	for (; name[i] && i + 1 < sizeof(key); i++)
		key[i] = (char)tolower((unsigned char)name[i]);
	key[i] = '\0';
	const struct var_def *d = name[i] ? NULL : varreg_find(key);
	return d ? d->key : NULL;
}

void varreg_desc_key(const char *name, char *buf, size_t n)
{
	static const char prefix[] = "desc.";
	const size_t plen = sizeof(prefix) - 1, max = plen + 48;
	size_t o = plen;
	int sep = 0;
	if (!n)
		return;
	buf[0] = '\0';
	if (n <= plen + 1)
		return;
	memcpy(buf, prefix, plen);
	for (const char *p = name; *p; p++) {
		if (!isalnum((unsigned char)*p)) {
			sep = 1;
			continue;
		}
		int under = sep && o > plen;
		if (o + (size_t)under + 1 > max || o + (size_t)under + 1 >= n)
			break;
		if (under)
			buf[o++] = '_';
		buf[o++] = (char)tolower((unsigned char)*p);
		sep = 0;
	}
	buf[o > plen ? o : 0] = '\0';
}

int varreg_value_count(const struct var_def *d)
{
	if (d && d->type == VAR_BOOL)
		return 2;
	if (!d || d->type != VAR_CHOICE || !d->choices)
		return 0;
	int n = 1;
	for (const char *p = d->choices; *p; p++)
		n += *p == '|';
	return n;
}

int varreg_value_at(const struct var_def *d, int i, char *buf, size_t n)
{
	if (i < 0 || i >= varreg_value_count(d) || !n)
		return -1;
	if (d->type == VAR_BOOL) {
		snprintf(buf, n, "%s", i ? "true" : "false");
		return 0;
	}
	const char *p = d->choices;
	for (; i > 0; i--)
		p = strchr(p, '|') + 1;
	size_t len = strcspn(p, "|");
	snprintf(buf, n, "%.*s", (int)len, p);
	return 0;
}
