/* describe.c — a run description read as changes; see describe.h.
 *
 * The text is cut into tokens (tokenize), then read left to right by the
 * productions below; what no production takes is prose and is skipped.
 *
 *   description := {label} clause {SEP clause} [STOP anything]
 *                  (nothing read: the sentence after a "hypothesis:" / "change:" /
 *                  "idea:" marker, read the same way)
 *   label       := "[" … "]" | LABELWORD [":"] | WORD ":"    exp12  v3:  [keep]  BEST:
 *   SEP         := "," | ";" | "+" | "&" | "/" | "and" | "plus" | "with" | ":"
 *   STOP        := " - " | " — " | " – " | ". "  |  MARKER ":"   (hypothesis:, result:…)
 *   clause      := {change | result | paren | prose}
 *   change      := [verb] name ["from"] value ("to" | ARROW) value  [old]   depth 8 to 9, X 4->6
 *                | [verb] name ("=" | ":") value [ARROW value]      [old]   WD=0.05
 *                | verb name "to" value                             [old]   raise X to 0.2
 *                | verb name "(" value ("to" | ARROW) value ")"             increase X (a to b)
 *                | known-name "(" value ")"  |  known-name "(" tuple ")"        bigger batch (2^20)
 *                | name {"was" | "is" | "now" | "changed" …} ["by" N] value     depth changed 8->10
 *                | technique [":"] ("on" | "off" | "enabled" | "disabled")     weight tying on
 *                | known-name ("x" N | "*" N)                                   MATRIX_LR x2 (unknown)
 *                | ("warmup" | "warmdown") value [ARROW value] ("steps" | "iters")   desc.warmup_steps
 *                | technique ("on" | "in") ("all" | "every" | "alternating") "layers"  desc.X_layers
 *                | [verb] name ARROW value | name "to" value                attention to flash
 *                | known-name value                                 [old]   softcap 30 (from 15)
 *                  (not a sweep: "lr 0.02 0.04 0.08", "depth 10, 12, 14" yield nothing;
 *                  a result with its own number may follow: "matrix lr 0.04 bpb 0.98")
 *                | int-known-name INT ARROW FRACTION                       depth 12 → 0.972 (a score)
 *                | known-name value ARROW RESULT-WORD                      depth 10 -> val_bpb 0.97
 *                | known-name value ARROW value SCORE-WORD                 depth 10 -> 0.975 bpb
 *                  (both: the value before the arrow, the rest a result)
 *                | known-name value paren ARROW value                      lr 0.04 (best) -> 0.05
 *                | technique [":"] SWITCH ARROW SWITCH                     weight tying: on -> off
 *                | toggle name {("and" | "," | "/") name}                   remove X and Y, no X
 *                  (toggle: add, enable, use, apply, introduce, remove, drop, zero …,
 *                  also as -ing; "use" + a name we do not know: two words at least)
 *                | name ("disabled" | "enabled" | "off")                    autotune disabled
 *                | value [ARROW value] known-name                   [old]   4 heads, 5% warmup
 *                  (pairs in a row: "10 layers 640 dim 8 heads", each to the name after it)
 *                | NUMBER("L" | "w" | "dim")  |  NUMBER"-"("layer" | "head")  8L 768w, 12-layer
 *                | PATTERN ARROW PATTERN                                    SSSL -> SL
 *                | value-word {filler}                              [old]   SwiGLU MLP
 *                | ["from"] value-word ("to" | ARROW) value-word            ReLU^2 -> SwiGLU
 *                | "replace" value-word "with" value-word                   replace ReLU^2 with GELU
 *                | "swap" value-word "for" value-word                       swap ReLU^2 for SwiGLU
 *                | direction known-name ["by" NUMBER]                       reduce warmup (value unknown)
 *                | known-name                                               weight tying, flash attention
 *                  (a technique alone: in the first clause, or in a clause joined by
 *                  "+", ",", "and" to one that changed something)
 *   old         := "(" ["up" | "down"] ("from" | "was") value ")"
 *                | ("instead of" | "replacing" | "replaces" | "(replace[s] …)") value
 *                | "from" value    (after "to b": EMBEDDING_LR to 0.8 from 0.6)
 *   restated    := change ("kept" | "unchanged" | "stays" | "(default)" | "(as before)"
 *                  | "(same as" ("before" | "baseline" | "previous" | "best" | "parent") ")")
 *                  read, and no change
 *   result      := RESULT-WORD {value | ARROW}                              val_bpb 0.98->0.97, MFU 58→52%
 *   paren       := "(" piece {SEP piece} ")"   a piece is read (known names with a
 *                  stated value only) unless it judges (better, worse, than, …),
 *                  and only when the setting is all it says (read_piece: not
 *                  "(baseline depth 8)"); nothing after "with" in it
 *   sentence    := STOP ["also"] CHANGE-VERB clause     "… 0.04. Also bumped X to v."
 *   ARROW       := "->" | "→" | "=>"
 *
 * Where the grammar is not sure it yields nothing: a name it does not know
 * becomes desc.NAME only at the start of a clause and only with an arrow,
 * "from … to", "=", a verb or a toggle; a known name followed by more name
 * words is not that name ("seq len curriculum 512->2048" is
 * desc.seq_len_curriculum); after "with" only explicit changes count (what
 * follows "with" is usually context, unless a lone verb came before it:
 * "experiment with depth 12"; round 10: a registry knob and its number after
 * a change, "depth 7 with device batch 16"), after a context word (same, at, after, than,
 * …) nothing but parentheses; "baseline", "rerun", "no logic change" mean no
 * change at all; a name we do not know that compares ("more data"), names a
 * place ("RMSNorm after embedding") or no knob ("the previous best config",
 * "a bug"), and a measured quantity (rates, memory, time, eval loss, step
 * counts) never becomes desc.NAME. Also refused: a toggle followed by "to"
 * names a place ("applied to embeddings"); one digit-bearing word to
 * another ("bf16 -> fp8") names no knob; a *_steps knob given a fraction
 * ("momentum warmup 0.85 -> 0.95") is misnamed; a parenthesis that plans
 * or reports a failure (next, would, OOM, crashed, diverged, nan) judges.
 * Round 6: a number outside its knob's range (ranges[], whole numbers for
 * counts) names another knob — a warmup "ratio" of 50 counts steps — and is
 * otherwise refused; "log:" rows change nothing; one code token before '='
 * names a knob anywhere ("MoE top_k=1"); a direction without a value changes
 * a numeric knob by an unsaid amount ("Slightly lower weight decay"); and
 * infer.c drops a desc.* name coined from prose words that neither is
 * written as an identifier nor states a transition (infer_drop_coined).
 * Round 8: abbreviations (three letters or fewer), part words alone, the
 * explanation after a technique's title colon and a knob changed for a
 * part of the model ("weight decay for token embeddings", "embedding
 * weight decay") coin or read no knob; the old side of "instead of", a
 * parenthesis giving a change in another unit, "FAILED TO APPLY:" rows
 * and the goal before "by VERB-ing" are no change; a parenthesis opening
 * with a known knob's transition, "LRs: matrix a->b …" and "but VERB" are
 * read (docs/ingest.md, "Evidence (round 8)", "Read (round 8)").
 * Round 9: a hyphen makes no value, a number before another plural noun
 * counts it, sizes are at least 1, a stop after a parenthesis ends the
 * sentence, capitals name a setting; words written two ways are one
 * (varreg_canonical), full windows, constant WD, a knob's own place, a
 * value added in a parenthesis, "at", "final", shape before decay, an LR
 * named by its part (docs/ingest.md, "Round 9"). */
#include "describe.h"
#include "varreg.h"
#include "utf8.h"
#include "util.h"

/* ---- lexicon ----------------------------------------------------------- */

static int in_list(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w, *list))
			return 1;
	return 0;
}

/* Words that say how (they license a name the registry does not know). */
static const char *const verbs[] = {
	"increase", "decrease", "reduce", "raise", "lower", "bump", "change", "set", "try",
	"tune", "adjust", "tweak", "switch", "revert", "restore", "scale", "update", "extend",
	"shorten", "lengthen", "boost", "cut", "test", "re check", "recheck", "widen",
	"narrow", "deepen", "halve", "double", "triple", "use", "enable", "add", "remove",
	"disable", "drop", "no", "without", "w/o", "enabled", "added", "removed", "disabled",
	"dropped", "turn",
	/* the same in the past tense and as -ing: "Increased matrix LR from 0.04 to 0.05" */
	"increased", "decreased", "reduced", "raised", "lowered", "bumped", "changed", "tried",
	"tuned", "adjusted", "tweaked", "switched", "reverted", "restored", "scaled", "updated",
	"extended", "shortened", "lengthened", "boosted", "widened", "narrowed", "deepened",
	"halved", "doubled", "tripled", "used", "increasing", "decreasing", "reducing", "raising",
	"lowering", "bumping", "changing", "trying", "tuning", "switching", "reverting", "using",
	"doubling", "halving", "setting", "adding", "enabling", "removing", "disabling", "dropping",
	"introduce", "introduced", "introducing", "apply", "applied", "applying", NULL
};
static const char *const toggles_on[] = { "enable", "add", "use", "enabled", "added", "adding",
					  "enabling", "introduce", "introduced", "introducing",
					  "apply", "applied", "applying", NULL };
static const char *const toggles_off[] = { "remove", "disable", "drop", "no", "without", "w/o",
					   "removed", "disabled", "dropped", "zero", "removing",
					   "disabling", "dropping", NULL };
/* Skipped between a verb and its name: "change only X", "switch to X". */
static const char *const fillers[] = { "only", "the", "a", "an", "back", "to", "in", "up", "down",
					NULL };
static const char *const articles[] = { "the", "a", "an", NULL };

/* Adjectives before a name: "small LR warmup", "matrix weight decay". */
static const char *const modifiers[] = {
	"small", "large", "longer", "shorter", "full", "higher", "lower", "new", "more", "less",
	"modest", "short", "tiny", "slight", "brief", "mild",
	"per layer", /* "per-layer scalar learning rate": the scalars are per layer */
	"bigger", "smaller", "tuned", "matrix", "dead", "plain", "current", "initial", "peak",
	"muon", "adam", "larger", "wider", "deeper", "narrower", "shallower",
	"final", /* "remove final logit cap": the cap on the final logits */
	"default", /* "Double the default model depth from one … to two" */
	"model",   /* "model depth 8 -> 6" was desc.model_depth: the model's is the knob */
	NULL
};
/* A name we do not know that starts with one of these compares rather
 * than names: "use more data", "add more regularization". */
static const char *const comparatives[] = {
	"more", "less", "fewer", "bigger", "smaller", "higher", "lower", "larger", "longer",
	"shorter", "wider", "deeper", "narrower", "shallower", "different", "other", "better",
	"worse", "extra", NULL
};
/* After these, the rest of a clause is context or judgement. */
static const char *const context_words[] = {
	"same", "at", "after", "on", "than", "vs", "vs.", "worse", "better", "despite", "because",
	"but", "since", "due", "compared", "during", "while", "for", "still", "then", "so",
	"which", "confirmed", "kept", "keep", "too",
	/* "with the current halved TOTAL_BATCH_SIZE=2**19 setup": the setting it
	 * had (round 11: "combined with proven X=a" is read, as the README
	 * labels it; a value the parent had is dropped by the state) */
	"current",
	/* a verdict on the change: "remove logit softcap hurts stability" */
	"hurts", "hurt", "helps", "helped", "improves", "improved", "degrades", "degraded", "breaks",
	"broke", "regresses", "regressed",
	/* round 13: "depth 8 beats the baseline", "… matches baseline" */
	"beats", "beat", "matches", "matched", "outperforms", "underperforms", NULL
};
/* A parenthesis with one of these judges or explains: not a change. */
static const char *const judgement_words[] = {
	"better", "worse", "than", "vs", "vs.", "too", "optimal", "hurt", "hurts", "helps", "best",
	"hypothesis", "evidence", "result", "gain", "noise", "slower", "faster", "improvement",
	"regression",
	/* a plan or a failure, not this run's setting: "(depth 12 would OOM)", "(try X next)" */
	"next", "would", "could", "might", "later", "todo", "oom", "ooms", "oomed", "crash",
	"crashed", "crashes", "diverged", "diverges", "nan", "failed", "fails", NULL
};
/* "hypothesis: …": from here on the description explains. */
static const char *const prose_markers[] = {
	"hypothesis", "evidence", "result", "results", "bottleneck", "note", "interpretation",
	"conclusion", "reason", "observation", "finding", "why", NULL
};
/* Measured results are never names. */
static const char *const result_words[] = {
	"bpb", "val bpb", "mfu", "tok/s", "tok/sec", "tokens/s", "throughput", "params",
	"parameters", "memory", "vram", "perplexity", "ppl", "loss", "val loss", "train loss",
	"training loss", "final loss", "steps", "step", "tokens", "time", "speed", "delta", "mb",
	"gb", "score", "model size", "grad norm", NULL
};
/* Too vague to be a knob of its own without more words. */
static const char *const vague_names[] = {
	"lr", "learning rate", "size", "rate", "ratio", "value", "init", "scale", "mode", "model", "run", "exp", "std",
	"mean", "factor", "coef", "coefficient",
	"test", "v", "x", "it", "this", "that", "improvement", "benefit", "change", "changes",
	"effect", "help", "difference", "logic change", "gain", "regression", "progress", NULL
};
/* Outcomes and bookkeeping, not knobs: "no OOM", "add logging" (a run
 * that changes no training setting changes nothing). */
static const char *const not_knob_words[] = {
	"oom", "nan", "nans", "crash", "crashes", "issue", "issues", "problem", "problems",
	"speedup", "slowdown", "signal", "warning", "warnings", "error", "errors", "logging",
	"log", "logs", "print", "prints", "printing", "comment", "comments", "monitoring",
	"profiling", "timing", "plot", "plots", "metrics", "tests", "docs", "readme", "saving",
	"instability", "explosion", "spike", "spikes", "divergence",
	/* round 12: "branch=main", "run_tag=a1": which run, not how it trained */
	"branch", "tag", "commit",
	/* "use the previous best config": a configuration, not a knob */
	"config", "configuration", "configs", "settings", "setup", "default", "defaults", "best",
	"previous", "original", "baseline", "everything", "anything", "nothing", "something",
	"hack", "hacks", "approach", "idea", "ideas", "trick", "tricks", "stuff", "thing", "things",
	"bug", "bugs", "fix", "fixes", "typo", "cleanup", "refactor",
	NULL
};
/* Words that never belong to a knob's name. */
static const char *const stop_words[] = {
	"the", "a", "an", "of", "to", "from", "in", "on", "at", "is", "was", "be", "by", "per",
	"or", "not", "and", "but", "it", "this", "that", "as", "into", "over", "instead",
	"are", "were", "goes", "go", "went", "becomes", "become", "became", "now", "moves",
	"both", "each", "either", NULL
};
/* The first word says this run changed nothing. */
static const char *const no_change_words[] = {
	"baseline", "rerun", "re run", "repeat", "verification", "verify", "re verify",
	"reverify", NULL
};

/* Names of knobs the registry has no key for (desc.*), one spelling per
 * concept (tests/fixtures/infer/README.md). technique: naming it alone
 * says it was tried ("weight tying" -> true). */
static const struct desc_name {
	const char *spelling, *name;
	int technique;
} desc_names[] = {
	{ "value embeddings", "value_embeddings", 1 }, { "value embedding", "value_embeddings", 1 },
	{ "ve", "value_embeddings", 1 },
	{ "value embed", "value_embeddings", 1 },
	{ "n kv head", "n_kv_head", 0 }, { "n kv heads", "n_kv_head", 0 },
	{ "kv heads", "n_kv_head", 0 }, { "ns steps", "ns_steps", 0 },
	{ "muon ns steps", "ns_steps", 0 }, /* "NS iterations", "Newton-Schulz steps": varreg_canonical */
	{ "muon momentum warmup steps", "muon_momentum_warmup_steps", 0 },
	{ "momentum warmup", "muon_momentum_warmup_steps", 0 },
	{ "muon momentum warmup", "muon_momentum_warmup_steps", 0 },
	{ "muon momentum ramp", "muon_momentum_warmup_steps", 0 },
	{ "momentum ramp", "muon_momentum_warmup_steps", 0 },
	{ "muon momentum ramp steps", "muon_momentum_warmup_steps", 0 },
	{ "num kv heads", "n_kv_head", 0 },
	{ "weight tying", "weight_tying", 1 }, { "tied embeddings", "weight_tying", 1 },
	{ "tie embeddings", "weight_tying", 1 }, { "tie word embeddings", "weight_tying", 1 },
	{ "tied word embeddings", "weight_tying", 1 }, { "tie weights", "weight_tying", 1 }, { "z loss", "z_loss", 0 },
	{ "label smoothing", "label_smoothing", 0 }, { "xsa", "xsa", 1 },
	{ "exclusive self attention", "xsa", 1 }, { "short window", "short_window", 0 },
	{ "partial rope", "partial_rope", 1 }, { "mtp", "mtp", 1 },
	{ "multi token prediction", "mtp", 1 }, { "ema decay", "ema_decay", 0 },
	{ "differential attention", "differential_attention", 1 },
	{ "parallel block", "parallel_block", 1 }, { "parallel attn+mlp", "parallel_block", 1 },
	{ "parallel attn+mlp block", "parallel_block", 1 }, { "parallel attention", "parallel_block", 1 },
	{ "shards", "shards", 0 }, { "data shards", "shards", 0 }, { "train shards", "shards", 0 },
	/* the README's one-name-per-concept table (tests/fixtures/infer) */
	{ "x0 init", "x0_init", 0 }, { "x0 lambdas init", "x0_init", 0 },
	{ "x0 residual", "x0_residual", 1 }, { "x0 residual connection", "x0_residual", 1 },
	{ "cudnn benchmark", "cudnn_benchmark", 1 }, /* torch.backends.cudnn.benchmark */
	{ "x0 lambda init", "x0_init", 0 }, { "muon beta2", "muon_beta2", 0 },
	{ "normuon beta2", "muon_beta2", 0 }, { "gqa", "n_kv_head", 0 },
	{ "zloss", "z_loss", 0 }, { "ema", "ema_decay", 0 },
	{ "gradient accumulation steps", "grad_accum_steps", 0 },
	{ "parallel residual", "parallel_block", 1 }, { "parallel blocks", "parallel_block", 1 },
	/* round 6: spellings two sources share */
	{ "autotune", "autotune", 1 }, { "accum", "grad_accum_steps", 0 },
	{ "gradient accumulation", "grad_accum_steps", 0 }, { "accum steps", "grad_accum_steps", 0 },
	{ "muon warmup", "muon_momentum_warmup_steps", 0 },
	{ "muon ramp", "muon_momentum_warmup_steps", 0 },
	/* round 11: where a momentum warmup starts (momentum_ramp reads it) */
	{ "muon momentum start", "muon_momentum_start", 0 },
	/* round 12: a value on autoresearch's x0_lambdas is where they start
	 * (five sources write "x0_lambdas init a->b", one "x0_lambda=0.05");
	 * removing them removes the skip (toggle_name: x0_residual) */
	{ "x0 lambda", "x0_init", 0 }, { "x0 lambdas", "x0_init", 0 },
};

/* desc.* spellings that carry their value ("constant WD": the schedule). */
static const struct desc_value {
	const char *spelling, *name, *value;
} desc_values[] = {
	{ "untie embeddings", "weight_tying", "false" }, { "untied embeddings", "weight_tying", "false" },
	{ "untie weights", "weight_tying", "false" }, { "untied weights", "weight_tying", "false" },
};

/* Words that are values of one variable ("SwiGLU", "squared ReLU"). */
static const struct value_word {
	const char *word, *var, *value;
} value_words[] = {
	{ "swiglu", "model.activation", "swiglu" }, { "silu", "model.activation", "silu" },
	{ "gelu", "model.activation", "gelu" }, { "geglu", "model.activation", "geglu" },
	{ "relu", "model.activation", "relu" }, { "relu2", "model.activation", "relu2" },
	{ "relu\xc2\xb2", "model.activation", "relu2" }, { "relu^2", "model.activation", "relu2" },
	{ "squared relu", "model.activation", "relu2" }, { "relu squared", "model.activation", "relu2" },
	{ "relu square", "model.activation", "relu2" }, /* "ReLU-square" */
	{ "relusquared", "model.activation", "relu2" }, /* the class name, "ReluSquared" */
	{ "muon", "optim.matrix_optimizer", "muon" }, { "adamw", "optim.matrix_optimizer", "adamw" },
	{ "flash", "impl.attention", "flash" }, { "sdpa", "impl.attention", "sdpa" },
	{ "naive", "impl.attention", "naive" }, { "fa2", "impl.attention", "fa2" },
	{ "fa3", "impl.attention", "fa3" }, { "flash attention", "impl.attention", "flash" },
	{ "eager", "impl.compile_mode", "eager" }, { "cosine", "sched.warmdown_shape", "cosine" },
	{ "linear", "sched.warmdown_shape", "linear" }, { "sqrt", "sched.warmdown_shape", "sqrt" },
};
/* Nouns after a value word that keep it one phrase: "SwiGLU gated MLP". */
static const char *const value_nouns[] = {
	"activation", "mlp", "style", "gated", "optimizer", "function", "nonlinearity", "mode",
	"block", "attention", "kernel",
	/* after a warmdown shape: "linear learning-rate decay", "a cosine one" */
	"decay", "warmdown", "cooldown", "schedule", "annealing", "lr", "learning rate", "one", NULL
};

/* ---- tokens ------------------------------------------------------------ */

/* K_LONG: a word too long for any name or value (over 95 bytes): no rule
 * reads it, so a change next to it is not inferred from a cut word. */
enum kind { K_WORD, K_NUM, K_ARROW, K_EQ, K_COLON, K_SEP, K_STOP, K_PAREN, K_BRACKET, K_QUOTE,
	    K_LONG };
enum sep { SEP_AND, SEP_LIST, SEP_WITH, SEP_CLAUSE };

struct tok {
	enum kind k;
	enum sep sep;
	int a, b;      /* bytes [a, b) of the text */
	char w[96];    /* K_WORD: normalised (varreg_normalise); K_NUM: as written */
};

struct toks {
	struct tok *t;
	int n, cap;
};

static struct tok *tok_push(struct toks *tk, enum kind k, int a, int b)
{
	if (tk->n == tk->cap) {
		tk->cap = tk->cap ? 2 * tk->cap : 32;
		tk->t = xrealloc(tk->t, (size_t)tk->cap * sizeof(*tk->t));
	}
	struct tok *t = &tk->t[tk->n++];
	memset(t, 0, sizeof(*t));
	t->k = k;
	t->a = a;
	t->b = b;
	return t;
}

static int is_arrow(const char *s)
{
	if (!strncmp(s, "\xe2\x86\x92", 3))
		return 3;
	if (!strncmp(s, "-->", 3))
		return 3;
	return ((s[0] == '-' || s[0] == '=') && s[1] == '>') ? 2 : 0;
}

static int is_dash(const char *s)
{
	return !strncmp(s, "\xe2\x80\x94", 3) || !strncmp(s, "\xe2\x80\x93", 3) ? 3 : 0;
}

static int blank_at(const char *s, int i, int end)
{
	return i >= end || isspace((unsigned char)s[i]);
}

/* The index after the bracket closing the one at s[i], or end. */
static int closing(const char *s, int i, int end, char open, char close)
{
	int depth = 0;
	for (int j = i; j < end; j++) {
		if (s[j] == open)
			depth++;
		else if (s[j] == close && --depth == 0)
			return j + 1;
	}
	return end;
}

/* A number as written: 0.04, 1e-4, 2^17, 2**19, 524K, 5%, 4x, 8L, 768w,
 * 768dim. Fills value and unit; 0 when s is one. */
static int num_parse(const char *s, double *value, char unit[8])
{
	char *end;
	const char *p = s + (*s == '+');
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -1;
	double v = strtod(p, &end);
	if (*end == '^' || (end[0] == '*' && end[1] == '*')) {
		const char *e = end + (*end == '^' ? 1 : 2);
		char *eend;
		long x = strtol(e, &eend, 10);
		if (eend == e || x < 0 || x > 60)
			return -1;
		v = pow(v, (double)x);
		end = eend;
	}
	static const char *const units[] = { "", "k", "K", "M", "B", "%", "x", "X", "L", "w", "dim",
					     "s", "min", "d", NULL };
	if (!in_list(end, units))
		return -1;
	if (!strcmp(end, "d") && v < 32)
		return -1; /* "512d" is a width; "2d", "3d" are not */
	snprintf(unit, 8, "%s", end);
	*value = v;
	return 0;
}

/* Markdown emphasis at s[i] ("**depth 8->10**", "*VE*"): the length of
 * the run of '*' to skip, 0 when it is none — "2**19" is a power, "x * 2"
 * and "*1.5" a product. */
static int emphasis_at(const char *s, int i, int a, int end)
{
	int e = i;
	while (e < end && s[e] == '*')
		e++;
	if (e == i)
		return 0;
	int before = i > a ? (unsigned char)s[i - 1] : ' ', after = e < end ? (unsigned char)s[e] : ' ';
	int open_ = isspace(before) || strchr("([", before), close_ = isspace(after) || strchr(",.;:)]", after);
	if (isdigit(before) && isdigit(after))
		return 0; /* 2**19 */
	if (e - i >= 2)
		return open_ || close_ ? e - i : 0;
	return (open_ && isalpha(after)) || (close_ && isalnum(before)) ? 1 : 0;
}

/* "10,000": a comma between a digit and three digits is part of a number. */
static int thousands_comma(const char *s, int j, int end)
{
	if (j == 0 || j + 3 >= end + 1 || !isdigit((unsigned char)s[j - 1]))
		return 0;
	for (int k = 1; k <= 3; k++)
		if (j + k >= end || !isdigit((unsigned char)s[j + k]))
			return 0;
	return j + 4 >= end || !isdigit((unsigned char)s[j + 4]);
}

/* '+' at j inside a word joins two settings when a side is an assignment
 * or an identifier ("lr=1e-3+accum=4", "Muon+accum=4",
 * "Muon+cosine_decay"), not in "attn+MLP" or "1e+3". */
static int plus_joins(const char *s, int j, int end)
{
	int a = j, b = j + 1, marks = 0;
	if (s[j] != '+' || j == 0 || isspace((unsigned char)s[j - 1]) || b >= end ||
	    !isalpha((unsigned char)s[b]) || ((s[j - 1] == 'e' || s[j - 1] == 'E') && j > 1 &&
					       isdigit((unsigned char)s[j - 2])))
		return 0;
	while (a > 0 && !isspace((unsigned char)s[a - 1]))
		marks |= s[--a] == '=';
	while (b < end && !isspace((unsigned char)s[b]) && s[b] != '+')
		marks |= s[b] == '=' || s[b] == '_', b++;
	return marks;
}

static int word_end(const char *s, int i, int end)
{
	int j = i;
	while (j < end && !isspace((unsigned char)s[j]) && !(j > i && plus_joins(s, j, end)) &&
	       s[j] != '`' && !(j > i && s[j] == '*' && emphasis_at(s, j, i, end)) &&
	       (!strchr("(),;[]=\"", s[j]) || (s[j] == ',' && thousands_comma(s, j, end))) &&
	       !is_arrow(s + j) && !is_dash(s + j) && !(s[j] == ':' && blank_at(s, j + 1, end)))
		j++;
	return j;
}

static void push_word(struct toks *tk, const char *s, int a, int b);

/* "embeddings/value" is two names; "tok/s" and "0.75/0.25" are one word. */
static int split_slash(struct toks *tk, const char *s, int a, int b)
{
	const char *slash = memchr(s + a, '/', (size_t)(b - a));
	if (!slash)
		return 0;
	int m = (int)(slash - s);
	int left = 0, right = 0;
	for (int i = a; i < m; i++)
		left += isalpha((unsigned char)s[i]) != 0;
	for (int i = m + 1; i < b; i++)
		right += isalpha((unsigned char)s[i]) != 0;
	static const char *const per[] = { "sec", "step", "iter", "gpu", NULL };
	char rest[16];
	snprintf(rest, sizeof(rest), "%.*s", b - m - 1, s + m + 1);
	for (char *c = rest; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (left < 2 || right < 3 || !isalpha((unsigned char)s[m + 1]) || in_list(rest, per))
		return 0; /* "tokens/sec" is a rate, one word */
	push_word(tk, s, a, m);
	tok_push(tk, K_SEP, m, m + 1)->sep = SEP_AND;
	push_word(tk, s, m + 1, b);
	return 1;
}

static void push_word(struct toks *tk, const char *s, int a, int b)
{
	char raw[96];
	double v;
	char unit[8];
	if (split_slash(tk, s, a, b))
		return;
	int o = 0;
	for (int i = a; i < b && o + 1 < (int)sizeof(raw); i++)
		if (s[i] != ',')
			raw[o++] = s[i];
	raw[o] = '\0';
	if (b - a >= (int)sizeof(raw)) { /* cut: maybe inside a character */
		tok_push(tk, K_LONG, a, b)->w[0] = '\0';
		return;
	}
	struct tok *t = tok_push(tk, K_WORD, a, b);
	if (!num_parse(raw, &v, unit)) {
		t->k = K_NUM;
		snprintf(t->w, sizeof(t->w), "%s", raw);
		return;
	}
	varreg_normalise(raw, t->w, sizeof(t->w));
	if (!strcmp(t->w, "and") || !strcmp(t->w, "plus") || !strcmp(t->w, "with")) {
		t->k = K_SEP;
		t->sep = t->w[0] == 'w' ? SEP_WITH : SEP_AND;
	}
}

/* A word and, when it ends a sentence ("… 0.04. Then"), the stop after it. */
static int lex_word(struct toks *tk, const char *s, int i, int end)
{
	int j = word_end(s, i, end), b = j;
	while (b > i + 1 && strchr(".!?", s[b - 1]) && blank_at(s, j, end))
		b--;
	/* "(delta +0.005). z-loss is redundant with softcap=30": a stop
	 * right after a parenthesis or a quote ends the sentence too */
	if (j == i + 1 && strchr(".!?", s[i]) && i > 0 && strchr(")]\"'`", s[i - 1]) && blank_at(s, j, end)) {
		snprintf(tok_push(tk, K_STOP, i, j)->w, 2, ".");
		return j;
	}
	char tail[8];
	snprintf(tail, sizeof(tail), "%.*s", j - i, s + i);
	int abbrev = !strcmp(tail, "e.g.") || !strcmp(tail, "i.e.") || !strcmp(tail, "vs.");
	if (abbrev)
		b = j;
	push_word(tk, s, i, b);
	if (b < j)
		snprintf(tok_push(tk, K_STOP, b, j)->w, 2, "."); /* a sentence's end */
	return j;
}

/* One token at s[i]; returns the index after it. */
static int lex_one(struct toks *tk, const char *s, int i, int end)
{
	int n, c = (unsigned char)s[i];
	if ((n = is_arrow(s + i))) {
		tok_push(tk, K_ARROW, i, i + n);
		return i + n;
	}
	if ((n = is_dash(s + i)) || (c == '-' && i > 0 && isspace((unsigned char)s[i - 1]) &&
				      blank_at(s, i + 1, end))) {
		tok_push(tk, K_STOP, i, i + (n ? n : 1));
		return i + (n ? n : 1);
	}
	if (c == '(' || c == '[') {
		int j = closing(s, i, end, (char)c, c == '(' ? ')' : ']');
		tok_push(tk, c == '(' ? K_PAREN : K_BRACKET, i, j);
		return j;
	}
	if (c == '"' || (c == '\'' && (i == 0 || isspace((unsigned char)s[i - 1])))) {
		const char *q = memchr(s + i + 1, c, (size_t)(end - i - 1));
		if (q) {
			tok_push(tk, K_QUOTE, i, (int)(q - s) + 1);
			return (int)(q - s) + 1;
		}
	}
	if (c == '=' || c == ':' || c == ',' || c == ';' || c == '&' || plus_joins(s, i, end) ||
	    (c == '+' && !isdigit((unsigned char)s[i + 1]) &&
	     (blank_at(s, i + 1, end) || (i > 0 && isspace((unsigned char)s[i - 1]))))) {
		struct tok *t = tok_push(tk, c == '=' ? K_EQ : c == ':' ? K_COLON : K_SEP, i, i + 1);
		t->sep = c == ',' ? SEP_LIST : c == ';' ? SEP_CLAUSE : SEP_AND;
		return i + 1;
	}
	if (strchr(")]\"'", c))
		return i + 1; /* unbalanced: nothing */
	return lex_word(tk, s, i, end);
}

/* Round 12: "3 percent", "3 %" are "3%" wherever the number stands (it
 * was read only after the name: "add 3 percent lr warmup" was nothing,
 * "warmup 3 percent" a warmup of 0.03). The number becomes one token
 * with its unit, spanning both. */
static void merge_percent(struct toks *tk)
{
	struct tok *last = tk->n >= 2 ? &tk->t[tk->n - 1] : NULL, *num = last ? last - 1 : NULL;
	if (!last || num->k != K_NUM || last->k != K_WORD ||
	    (strcmp(last->w, "percent") && strcmp(last->w, "%")) || strpbrk(num->w, "%kKMBxXLwd^*") ||
	    strlen(num->w) + 2 > sizeof(num->w))
		return;
	size_t len = strlen(num->w);
	num->w[len] = '%';
	num->w[len + 1] = '\0';
	num->b = last->b;
	tk->n--;
}

/* Round 12: "warmdown 50 -> 70 percent": a share's sign written once,
 * after the new value, is the old value's too where the old one is a
 * count of percent (1 or more; it read nothing: 50 is no ratio). */
static void share_both_sides(struct toks *tk)
{
	for (int i = 2; i < tk->n; i++) {
		struct tok *t = &tk->t[i], *op = &tk->t[i - 1], *old = &tk->t[i - 2];
		size_t n = strlen(old->w);
		if (t->k != K_NUM || !strchr(t->w, '%') || op->k != K_ARROW || old->k != K_NUM ||
		    strpbrk(old->w, "%kKMBxXLwd^*s") || n + 2 > sizeof(old->w) || atof(old->w) < 1)
			continue; /* "warmdown 0.5 -> 70%": a ratio already */
		old->w[n] = '%';
		old->w[n + 1] = '\0';
	}
}

static void tokenize(const char *s, int a, int end, struct toks *tk)
{
	for (int i = a; i < end;) {
		int e = emphasis_at(s, i, a, end);
		if (isspace((unsigned char)s[i]) || s[i] == '`')
			i++; /* "`DEPTH=10`": Markdown code, read as its text */
		else if (e)
			i += e;
		else {
			i = lex_one(tk, s, i, end);
			merge_percent(tk);
		}
	}
	share_both_sides(tk);
}

/* ---- the reader's state ------------------------------------------------ */

struct name {
	char var[80];
	const char *implied; /* the value the name carries ("flash attention") */
	int technique;       /* naming it says it was tried */
	int known;
	int total;           /* "total batch": never the device batch */
	int range;           /* "seq len curriculum 512->2048": the values are
	                      * the known knob's range, not this knob's */
};

struct memo {
	int done;
	signed char k;
	struct name nm;
};

struct reader {
	const char *text;
	struct toks tk;
	struct memo *memo; /* per token: known_name's answer */
	struct change_list *out;
	int added;
	int depth;      /* parentheses inside parentheses */
	int first;      /* the first clause's first token */
	int titled;     /* past "TECHNIQUE:", whose explanation coins no knob */
	int title_n;    /* changes read before that colon (out->n then) */
	int last_b;     /* where the text of the change emitted last ends */
};

/* F_NEG: after a negation ("without", "no"), so a form that reads the
 * name as switched on or tried may not take it */
enum { F_PAREN = 1, F_WITH = 2, F_NEG = 4 };

/* Where the text inside the bracket token t ends: at its closing bracket,
 * or at the token's end when the bracket is never closed ("(replaces
 * ReLU^2" as the last words: its last byte is text, not a bracket; cut
 * off, it split a character, found by fuzz_infer). */
static int inner_end(const char *s, const struct tok *t)
{
	char open = s[t->a], close = open == '(' ? ')' : ']';
	int depth = 0;
	for (int j = t->a; j < t->b; j++)
		if (s[j] == open)
			depth++;
		else if (s[j] == close && --depth == 0)
			return j;
	return t->b;
}

/* A reader of the inside of parenthesis t of outer. */
static void reader_open(struct reader *in, const struct reader *outer, const struct tok *t)
{
	memset(in, 0, sizeof(*in));
	in->text = outer->text;
	in->out = outer->out;
	in->depth = outer->depth + 1;
	in->titled = outer->titled;
	tokenize(outer->text, t->a + 1, inner_end(outer->text, t), &in->tk);
	in->memo = xcalloc((size_t)in->tk.n + 1, sizeof(*in->memo));
}

static void reader_close(struct reader *r)
{
	free(r->tk.t);
	free(r->memo);
}

static const struct tok *at(const struct reader *r, int p, int end)
{
	static const struct tok none = { .k = K_STOP, .a = -1, .b = -1 };
	return p >= 0 && p < end ? &r->tk.t[p] : &none; /* a look behind the first token too */
}

static int word_is(const struct reader *r, int p, int end, const char *w)
{
	const struct tok *t = at(r, p, end);
	return t->k == K_WORD && !strcmp(t->w, w);
}

static int word_in(const struct reader *r, int p, int end, const char *const *list)
{
	const struct tok *t = at(r, p, end);
	return t->k == K_WORD && in_list(t->w, list);
}

/* Verbs of a purpose: "… to 28 to add model capacity", "… so as to
 * reduce memory" say why, not what else changed. */
static const char *const purpose_verbs[] = {
	"add", "allow", "increase", "reduce", "decrease", "improve", "maintain", "prevent",
	"double", "halve", "enable", "get", "give", "make", "keep", "speed", "match", "compensate",
	"trade", "see", "check", "let", "fit", "avoid", "stabilize", "stabilise", "boost",
	"capture", "free", "save", "push", "exploit", "recover", "balance", "offset", "reach",
	"gain", "squeeze", "utilize", "utilise", "leverage", "accommodate", "counter",
	"counteract", "mitigate", "encourage", "help", "force", "ensure", "retain", "preserve",
	"regain", "limit", "compare", "isolate", "confirm", "verify", "measure", "probe",
	"explore", "spend", "smooth", "handle", "support", "unlock", "learn", "converge",
	"train", "fix", "address", "extract", "lower", "raise", "cut", "shrink", "grow", "test",
	"try", "study", "evaluate", "assess", "examine", "investigate", "determine", "understand",
	/* the verbs agents write after a change ("… to 4 to maximize gradient steps") */
	"maximize", "maximise", "minimize", "minimise", "simplify", "create", "override", "eliminate",
	"accelerate", "achieve", "strengthen", "weaken", "sharpen", "soften", "broaden", "focus",
	"use", "apply", "remove", "disable", "replace", "restore", "approximate", "emulate", "mimic",
	"reflect", "target", "tighten", "loosen", "relax", "widen", "narrow", "deepen", "extend",
	"shorten", "lengthen", "provide", "produce", "perform", "compute", "process", "accelerate",
	"amortize", "spread", "concentrate", "escape", "break", "dampen", "damp", "regularize",
	"regularise", "prioritize", "prioritise", "emphasize", "emphasise", "bring", NULL
};

/* "to VERB" at p: a purpose (see purpose_verbs). */
static int purpose_at(const struct reader *r, int p, int end)
{
	/* "to potentially improve", "to further reduce": an adverb first */
	const struct tok *adv = at(r, p + 1, end);
	int ly = adv->k == K_WORD && strlen(adv->w) > 4 && str_ends_with(adv->w, "ly") &&
		 !strchr(adv->w, ' ');
	return word_is(r, p, end, "to") &&
	       (word_in(r, p + 1, end, purpose_verbs) || ((ly || word_is(r, p + 1, end, "further")) &&
							   word_in(r, p + 2, end, purpose_verbs)));
}

/* "while" or "by" and one of these: a change made with the first, or the
 * change that the phrase before it was the goal of. */
static const char *const while_changes[] = {
	"enabling", "disabling", "increasing", "decreasing", "reducing", "raising", "lowering",
	"adding", "removing", "dropping", "using", "switching", "changing", "setting", "halving",
	"doubling", NULL
};

/* "by setting …", "while enabling …" at p: the start of another change. */
static int means_at(const struct reader *r, int p, int end)
{
	return (word_is(r, p, end, "while") || word_is(r, p, end, "by")) &&
	       word_in(r, p + 1, end, while_changes);
}

/* Where a phrase may end: the clause ends, a parenthesis, a context word,
 * a purpose or a means follows. */
/* Round 12: "halve batch size run exceeded 10 minute timeout": "run" (or
 * "it") and a past-tense verb or a failure word report what happened to
 * the run, commentary with no separator before it. */
static int run_report_at(const struct reader *r, int p, int end)
{
	static const char *const fails[] = { "oom", "ooms", "oomed", "crash", "crashes", "fails",
					     "diverges", "timeout", "timed", NULL };
	if (!word_is(r, p, end, "run") && !word_is(r, p, end, "it"))
		return 0;
	const struct tok *t = at(r, p + 1, end);
	size_t n = t->k == K_WORD ? strlen(t->w) : 0;
	return n && (in_list(t->w, fails) || (n > 4 && !strcmp(t->w + n - 2, "ed")));
}

static int boundary(const struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	return t->k == K_SEP || t->k == K_STOP || t->k == K_COLON || t->k == K_PAREN ||
	       t->k == K_BRACKET || word_in(r, p, end, context_words) || purpose_at(r, p, end) ||
	       means_at(r, p, end) || run_report_at(r, p, end);
}

/* ---- values ------------------------------------------------------------ */

static void format_number(double v, char *buf, size_t n)
{
	infer_number_text(v, buf, n); /* one text for one value: 0.00001, not 1e-05 */
}

/* Token counts: "524K" means 2^19, "16K" 2^14 (the power of two meant). */
static int counts_tokens(const char *var)
{
	return !strcmp(var, "train.total_batch_size") || !strcmp(var, "model.seq_len") ||
	       !strcmp(var, "model.vocab_size") ||
	       (str_starts_with(var, "desc.") && (strstr(var, "batch") || strstr(var, "tokens")));
}

static double thousands(double v, const char *unit, const char *var)
{
	v *= unit[0] == 'B' ? 1e9 : unit[0] == 'M' ? 1e6 : 1e3;
	double p2 = exp2(round(log2(v)));
	/* "1M tokens" is 2^20 (4.9% off): millions are rounded more loosely */
	double tol = unit[0] == 'M' ? 0.05 : 0.025;
	return counts_tokens(var) && fabs(p2 - v) <= tol * v ? p2 : v;
}

/* A number for var: 0 and buf filled, 1 when it is stated but its value is
 * unknown ("2x" of something, "+20%"), -1 when it is no value of var. */
static int number_value(const char *raw, const char *var, char *buf, size_t n)
{
	double v;
	char unit[8];
	if (num_parse(raw, &v, unit))
		return -1;
	if (raw[0] == '+')
		return 1; /* a step, not the value */
	if (unit[0] == 's' || unit[0] == 'm') { /* 600s, 10min: the time budget */
		if (strcmp(var, "train.time_budget_s"))
			return -1;
		v *= unit[0] == 'm' ? 60 : 1;
	} else if (strchr("kKMB", unit[0]) && unit[0])
		v = thousands(v, unit, var);
	else if (unit[0] == '%')
		v /= 100;
	else if (unit[0] == 'x' || unit[0] == 'X') {
		if (strcmp(var, "model.mlp_ratio"))
			return 1;
	} else if (unit[0] == 'L')
		return strcmp(var, "model.depth") ? -1 : (format_number(v, buf, n), 0);
	else if (unit[0] == 'w' || unit[0] == 'd')
		return strcmp(var, "model.dim") ? -1 : (format_number(v, buf, n), 0);
	const struct var_def *d = varreg_find(var);
	if (d && (d->type == VAR_CHOICE || d->type == VAR_STRING || d->type == VAR_BOOL))
		return -1;
	format_number(v, buf, n);
	return 0;
}

/* Copy len bytes of text into buf (n bytes) as a value: 0, or -1 when it
 * does not fit or is not UTF-8. A value is never cut: cut, it would be
 * another value, or end inside a character and not be UTF-8 (found by
 * fuzz_infer). Text that is not UTF-8 for any other reason is no value
 * either (a record keeps only UTF-8; see inner_end for one such cut). */
static int slice_value(char *buf, size_t n, const char *text, int len)
{
	if (len < 0 || (size_t)len >= n || !utf8_valid(text, (size_t)len))
		return -1;
	memcpy(buf, text, (size_t)len);
	buf[len] = '\0';
	return 0;
}

static const struct value_word *find_value_word(const char *w, const char *var)
{
	char stripped[96];
	snprintf(stripped, sizeof(stripped), "%s", w);
	if (str_ends_with(stripped, " style"))
		stripped[strlen(stripped) - 6] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(value_words); i++)
		if (!strcmp(value_words[i].word, stripped) && (!var || !strcmp(value_words[i].var, var)))
			return &value_words[i];
	return NULL;
}

/* The value word at p, two words before one ("squared ReLU", "ReLU");
 * var NULL for any variable. Sets *k to the tokens it spans. */
static const struct value_word *value_word_at(const struct reader *r, int p, int end,
					      const char *var, int *k);
static int join_words(const struct reader *r, int p, int q, char *buf, size_t n);

/* SSSL, L, SL: a window pattern. */
static int is_window_pattern(const struct tok *t, const char *text)
{
	int n = t->b - t->a;
	for (int i = t->a; i < t->b; i++)
		if (!strchr("SL", text[i]))
			return 0;
	return n >= 1 && n <= 64; /* one letter a layer */
}

/* fa3, bf16: a word that can only be a value (prose words have no
 * digits). A hyphen alone is no mark: "sub-heads", "half-sized" are
 * prose (round 9: "12 attention sub-heads" was impl.attention
 * sub-heads); reduce-overhead, max-autotune are their knob's choices. */
static int looks_like_value(const struct reader *r, const struct tok *t)
{
	int marks = 0, alpha = 0;
	for (int i = t->a; i < t->b; i++) {
		marks += isdigit((unsigned char)r->text[i]);
		alpha += isalpha((unsigned char)r->text[i]) != 0;
	}
	return marks && alpha >= 2 && r->text[t->a] != '-';
}

static int word_value(const struct reader *r, const struct tok *t, const char *var, char *buf, size_t n)
{
	static const char *const yes[] = { "true", "on", "yes", "enabled", NULL };
	static const char *const no[] = { "false", "off", "no", "disabled", NULL };
	const struct var_def *d = varreg_find(var);
	const struct value_word *vw = find_value_word(t->w, var);
	if (vw)
		return snprintf(buf, n, "%s", vw->value), 0;
	if (!strcmp(var, "model.window_pattern"))
		/* letters a layer and nothing else (round 10: "short window from
		 * seq_len/2 to seq_len/4" is the short window's length, not a layout) */
		return is_window_pattern(t, r->text) ? slice_value(buf, n, r->text + t->a, t->b - t->a) : -1;
	if (d && d->type == VAR_BOOL && (in_list(t->w, yes) || in_list(t->w, no)))
		return snprintf(buf, n, "%s", in_list(t->w, yes) ? "true" : "false"), 0;
	if (d && varreg_categorical(d) && looks_like_value(r, t))
		return slice_value(buf, n, r->text + t->a, t->b - t->a);
	if (d && d->type == VAR_CHOICE && d->choices) {
		char pat[160];
		snprintf(pat, sizeof(pat), "|%s|", d->choices);
		char w[100], raw[100];
		snprintf(w, sizeof(w), "|%s|", t->w);
		if (strstr(pat, w))
			return snprintf(buf, n, "%s", t->w), 0;
		/* the word as written: t->w reads "reduce-overhead" as two words */
		int len = snprintf(raw, sizeof(raw), "|%.*s|", t->b - t->a, r->text + t->a);
		for (int i = 0; i < len; i++)
			raw[i] = (char)tolower((unsigned char)raw[i]);
		if (len < (int)sizeof(raw) && strstr(pat, raw))
			return slice_value(buf, n, raw + 1, len - 2);
	}
	return -1;
}

static const struct value_word *value_word_at(const struct reader *r, int p, int end,
					      const char *var, int *k)
{
	char two[200];
	const struct value_word *vw = NULL;
	*k = 0;
	if (p + 1 < end && !join_words(r, p, p + 2, two, sizeof(two)) && (vw = find_value_word(two, var)))
		*k = 2;
	else if (at(r, p, end)->k == K_WORD && (vw = find_value_word(at(r, p, end)->w, var)))
		*k = 1;
	return vw;
}

/* "(0.8, 0.95)": numbers in a parenthesis, written "(0.8, 0.95)". */
static int tuple_value(const struct reader *r, const struct tok *t, char *buf, size_t n)
{
	struct toks in = { 0 };
	tokenize(r->text, t->a + 1, inner_end(r->text, t), &in);
	int ok = in.n >= 3, len = snprintf(buf, n, "(");
	for (int i = 0; i < in.n && ok; i++) {
		char num[40];
		ok = i % 2 ? in.t[i].k == K_SEP && in.t[i].sep == SEP_LIST
			   : in.t[i].k == K_NUM && !number_value(in.t[i].w, "", num, sizeof(num));
		if (ok && !(i % 2) && (size_t)len < n)
			len += snprintf(buf + len, n - (size_t)len, "%s%s", i ? ", " : "", num);
	}
	ok = ok && in.n % 2 == 1 && (size_t)len + 2 < n;
	if (ok)
		snprintf(buf + len, n - (size_t)len, ")");
	free(in.t);
	return ok ? 0 : -1;
}

static const char *toggle_value(const struct name *nm, int on);

/* Words that switch a numeric knob off. */
static const char *const knob_off_words[] = { "off", "none", "disabled", NULL };

/* What "off" makes a numeric knob (0 for one whose zero means off, else
 * false: see toggle_value), or NULL when it is no numeric knob. */
static const char *off_value(const char *var)
{
	const struct var_def *d = varreg_find(var);
	struct name nm = { .known = 1 };
	if (!d || (d->type != VAR_NUMBER && d->type != VAR_INT))
		return NULL;
	snprintf(nm.var, sizeof(nm.var), "%s", var);
	return toggle_value(&nm, 0);
}

/* "1/4", "8/3": a fraction written as one. */
static int is_fraction(const struct reader *r, const struct tok *t)
{
	int slash = 0, digits = 0;
	for (int i = t->a; i < t->b; i++) {
		char c = r->text[i];
		if (c == '/')
			slash++;
		else if (isdigit((unsigned char)c))
			digits++;
		else
			return 0;
	}
	return slash == 1 && digits >= 2 && r->text[t->a] != '/' && r->text[t->b - 1] != '/';
}

/* A count spelled out ("four", "eight"), or -1 for any other word. */
static int spelled_count(const char *w)
{
	static const char *const spelled[] = { "one", "two", "three", "four", "five", "six", "seven",
					       "eight", "nine", "ten", "eleven", "twelve", "sixteen",
					       "twenty", "thirty", NULL };
	static const int spelled_n[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 20, 30 };
	for (size_t i = 0; spelled[i]; i++)
		if (!strcmp(w, spelled[i]))
			return spelled_n[i];
	return -1;
}

/* Round 11: a fraction spelled out ("half", "three-quarters",
 * "five-eighths") as the digits write it ("1/2", "3/4", "5/8"; kept as
 * written, as "1/4" is), into buf; -1 for any other word. */
static int spelled_fraction(const char *w, char *buf, size_t n)
{
	static const struct { const char *whole; int den; } parts[] = {
		{ "half", 2 }, { "halves", 2 }, { "third", 3 }, { "thirds", 3 },
		{ "quarter", 4 }, { "quarters", 4 }, { "fifth", 5 }, { "fifths", 5 },
		{ "eighth", 8 }, { "eighths", 8 },
	};
	const char *part = strrchr(w, ' ');
	int num = 1;
	if (part) { /* "three quarters": the tokenizer reads the hyphen as a space */
		char head[16];
		size_t k = (size_t)(part - w);
		if (k >= sizeof(head))
			return -1;
		memcpy(head, w, k);
		head[k] = '\0';
		if ((num = spelled_count(head)) < 1 || strchr(head, ' '))
			return -1;
		part++;
	} else {
		part = w;
	}
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		int plural = part[strlen(part) - 1] == 's';
		if (strcmp(part, parts[i].whole) || plural != (num > 1))
			continue; /* "one half", "three quarters": the number agrees */
		if (num >= parts[i].den)
			return -1; /* a fraction of a whole, not more */
		snprintf(buf, n, "%d/%d", num, parts[i].den);
		return 0;
	}
	return -1;
}

/* How many letters and digits w has. */
static int alnum_count(const char *w)
{
	int n = 0;
	for (; *w; w++)
		n += isalnum((unsigned char)*w) != 0;
	return n;
}

/* The value token p states for var: 0 (buf filled), 1 (stated, value
 * unknown), -1 (not a value of var). Unknown knobs (desc.*) take numbers,
 * quoted text, tuples and, if loose, a plain word. */
/* "seq_len/4", "context/8": a length given as a share of the context (a
 * sliding window's), kept as written (README: a fraction as written). */
static int share_of_context(const struct reader *r, const struct tok *t)
{
	static const char *const whole[] = { "seq_len", "seq len", "seqlen", "context", "ctx",
					     "max_seq_len", NULL };
	const char *slash = memchr(r->text + t->a, '/', (size_t)(t->b - t->a));
	if (!slash || slash + 1 >= r->text + t->b)
		return 0;
	char head[32];
	int hn = (int)(slash - (r->text + t->a));
	if (hn <= 0 || hn >= (int)sizeof(head))
		return 0;
	for (int i = 0; i < hn; i++)
		head[i] = (char)tolower((unsigned char)r->text[t->a + i]);
	head[hn] = '\0';
	for (const char *c = slash + 1; c < r->text + t->b; c++)
		if (!isdigit((unsigned char)*c))
			return 0;
	return in_list(head, whole);
}

/* Round 11: a duration's unit written as a word after its number ("5
 * min", "300 seconds", "1 hour"): seconds per unit, 0 for any other word. */
static double time_unit(const struct reader *r, int p, int end)
{
	static const char *const minutes[] = { "min", "mins", "minute", "minutes", NULL };
	static const char *const seconds[] = { "s", "sec", "secs", "second", "seconds", NULL };
	static const char *const hours[] = { "h", "hr", "hrs", "hour", "hours", NULL };
	return word_in(r, p, end, minutes) ? 60 : word_in(r, p, end, seconds) ? 1
	       : word_in(r, p, end, hours) ? 3600 : 0;
}

static int value_at(const struct reader *r, int p, int end, const char *var, int loose,
		    char *buf, size_t n)
{
	const struct tok *t = at(r, p, end);
	int is_desc = str_starts_with(var, "desc.");
	const struct var_def *d = varreg_find(var);
	double per = t->k == K_NUM ? time_unit(r, p + 1, end) : 0, secs;
	char unit[8];
	if (per && strcmp(var, "train.time_budget_s"))
		return -1; /* "warmup 5 min": a duration, no value of var */
	if (per) { /* "time budget 5 min": in seconds */
		if (num_parse(t->w, &secs, unit) || unit[0])
			return -1;
		format_number(secs * per, buf, n);
		return 0;
	}
	switch (t->k) {
	case K_NUM:
		/* round 11: "WD 0,1" (a decimal comma, or "8,10" a list without
		 * spaces; thousands are one number already): not sure, no value */
		if (r->text[t->b] == ',' && isdigit((unsigned char)r->text[t->b + 1]))
			return -1;
		if ((word_is(r, p + 1, end, "percent") || word_is(r, p + 1, end, "%")) &&
		    !strpbrk(t->w, "%kKMBxXLwd")) { /* "50 %" as "50 percent" */
			char pct[100];
			snprintf(pct, sizeof(pct), "%s%%", t->w); /* "30 percent" */
			return number_value(pct, var, buf, n);
		}
		return number_value(t->w, var, buf, n);
	case K_QUOTE:
		return slice_value(buf, n, r->text + t->a + 1, t->b - t->a - 2);
	case K_PAREN:
		return (is_desc || (d && d->type == VAR_TUPLE)) ? tuple_value(r, t, buf, n) : -1;
	case K_WORD:
		if (!word_value(r, t, var, buf, n))
			return 0;
		if (spelled_count(t->w) > 0 && at(r, p + 1, end)->k == K_WORD) {
			char two[200];
			snprintf(two, sizeof(two), "%s %s", t->w, at(r, p + 1, end)->w);
			if (!spelled_fraction(two, buf, n))
				return -1; /* "three quarters": a share, not three */
		}
		if (d && d->type == VAR_INT && spelled_count(t->w) > 0) {
			snprintf(buf, n, "%d", spelled_count(t->w)); /* "heads from four to eight" */
			return 0;
		}
		if (!strcmp(var, "desc.short_window") && share_of_context(r, t))
			return slice_value(buf, n, r->text + t->a, t->b - t->a); /* "seq_len/4", as written */
		/* "from half to three-quarters of the context": only where a
		 * range or a share says it is a value ("half precision" is not,
		 * and "reduce X to half" halves X) */
		if ((word_is(r, p - 1, end, "from") || word_is(r, p + 1, end, "of") ||
		     (word_is(r, p - 1, end, "to") && word_is(r, p - 3, end, "from"))) && !(d && d->type != VAR_NUMBER) &&
		    !spelled_fraction(t->w, buf, n))
			return 0;
		if (is_fraction(r, t) && !(d && (d->type == VAR_CHOICE || d->type == VAR_STRING ||
						  d->type == VAR_BOOL))) {
			return slice_value(buf, n, r->text + t->a, t->b - t->a); /* "1/4", as written */
		}
		if (!strcmp(t->w, "zero") && d && (d->type == VAR_NUMBER || d->type == VAR_INT)) {
			snprintf(buf, n, "0"); /* "Set Muon weight decay to zero" */
			return 0;
		}
		if (in_list(t->w, knob_off_words) && off_value(var)) {
			snprintf(buf, n, "%s", off_value(var)); /* "softcap off", "WD: none" */
			return 0;
		}
		/* "MLP_ONLY_LAYERS={}": a word with no letter or digit states no value */
		if (is_desc && loose && !in_list(t->w, stop_words) && !strchr(t->w, ' ') && alnum_count(t->w))
			return slice_value(buf, n, r->text + t->a, t->b - t->a);
		return -1;
	default:
		return -1;
	}
}

/* ---- names ------------------------------------------------------------- */

static const struct desc_value *find_desc_value(const char *spelling)
{
	/* "constant WD", "constant weight decay": autoresearch decays the
	 * weight decay with the run's progress; constant is that schedule
	 * removed, in any spelling of the knob */
	static const struct desc_value constant_wd = { "constant", "weight_decay_schedule", "constant" };
	const struct var_alias *al;
	if (str_starts_with(spelling, "constant ") && (al = varreg_alias(spelling + 9)) &&
	    !strcmp(al->key, "optim.weight_decay"))
		return &constant_wd;
	for (size_t i = 0; i < ARRAY_SIZE(desc_values); i++)
		if (!strcmp(desc_values[i].spelling, spelling))
			return &desc_values[i];
	return NULL;
}

/* 1 when desc.NAME var is one of the corpus's names (desc_names). */
static int find_desc_name_var(const char *var)
{
	for (size_t i = 0; i < ARRAY_SIZE(desc_names); i++)
		if (!strcmp(desc_names[i].name, var + 5))
			return 1;
	return 0;
}

static const struct desc_name *desc_name_exact(const char *spelling)
{
	for (size_t i = 0; i < ARRAY_SIZE(desc_names); i++)
		if (!strcmp(desc_names[i].spelling, spelling))
			return &desc_names[i];
	return NULL;
}

/* As written, else with its words in the table's spelling (varreg_canonical:
 * "Newton-Schulz iterations" is "ns steps"). */
static const struct desc_name *find_desc_name(const char *spelling)
{
	char canon[160];
	const struct desc_name *dn = desc_name_exact(spelling);
	if (!dn && varreg_canonical(spelling, canon, sizeof(canon)))
		dn = desc_name_exact(canon);
	return dn;
}

/* desc.NAME: lower case, runs of anything but letters and digits as one '_'. */
static void desc_slug(const char *words, char *var, size_t n)
{
	size_t o = (size_t)snprintf(var, n, "desc.");
	int sep = 0;
	for (const char *p = words; *p && o + 2 < n && o < 5 + 48; p++) {
		if (isalnum((unsigned char)*p)) {
			if (sep && o > 5)
				var[o++] = '_';
			var[o++] = (char)tolower((unsigned char)*p);
			sep = 0;
		} else {
			sep = 1;
		}
	}
	var[o] = '\0';
}

/* A known spelling: registry alias, desc spelling, or a dotted key. */
/* "all full-context windows", "all-long attention windows", "all-full
 * attention window pattern", "full context windows": every layer attends
 * in full, the window pattern L. A rule of the words, not an alias for
 * each of the ways four sources wrote it. */
static int full_windows(const char *words)
{
	static const char *const full[] = { "full", "long", "global", "dense", NULL };
	static const char *const kind[] = { "context", "causal", "attention", "attn", NULL };
	char w[8][32];
	int n = 0;
	const char *p = words;
	for (; *p && n < 8; n++) {
		size_t k = strcspn(p, " ");
		if (k >= sizeof(w[0]))
			return 0;
		memcpy(w[n], p, k);
		w[n][k] = '\0';
		p += k + (p[k] == ' ');
	}
	if (*p || !n)
		return 0; /* more words than any spelling of it has */
	int i = !strcmp(w[0], "all");
	if (i >= n || !in_list(w[i++], full))
		return 0;
	while (i < n && in_list(w[i], kind))
		i++;
	if (i >= n || (strcmp(w[i], "windows") && strcmp(w[i], "window")))
		return 0;
	i++;
	i += i < n && !strcmp(w[i], "pattern");
	/* one window alone ("full window") may be one layer's: "all" or a plural says every layer */
	return i == n && (!strcmp(w[0], "all") || strstr(words, "windows"));
}

/* nm as alias al names it; words, as written, say whether it counts tokens. */
static void name_from_alias(struct name *nm, const struct var_alias *al, const char *words)
{
	memset(nm, 0, sizeof(*nm));
	snprintf(nm->var, sizeof(nm->var), "%s", al->key);
	nm->implied = al->implied;
	const struct var_def *d = varreg_find(al->key);
	nm->technique = d && d->type == VAR_BOOL;
	nm->known = 1;
	nm->total = strstr(words, "total") || strstr(words, "tokens");
}

static int lookup_name(const char *words, struct name *nm)
{
	if (full_windows(words)) {
		memset(nm, 0, sizeof(*nm));
		snprintf(nm->var, sizeof(nm->var), "model.window_pattern");
		nm->implied = "L";
		nm->known = 1;
		return 0;
	}
	const struct var_alias *al = varreg_alias(words);
	if (al) {
		name_from_alias(nm, al, words);
		return 0;
	}
	const struct desc_name *dn = find_desc_name(words);
	const struct desc_value *dv = dn ? NULL : find_desc_value(words);
	memset(nm, 0, sizeof(*nm));
	if (dv) {
		snprintf(nm->var, sizeof(nm->var), "desc.%s", dv->name);
		nm->implied = dv->value;
	} else if (dn) {
		snprintf(nm->var, sizeof(nm->var), "desc.%s", dn->name);
		nm->technique = dn->technique;
	} else if (strchr(words, '.') && !strchr(words, ' ') && varreg_find(words)) {
		snprintf(nm->var, sizeof(nm->var), "%.70s", words);
	} else {
		return -1;
	}
	nm->known = 1;
	nm->total = strstr(words, "total") || strstr(words, "tokens");
	return 0;
}

/* Words [p, q) joined with spaces, or -1 when one is not a word. */
static int join_words(const struct reader *r, int p, int q, char *buf, size_t n)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = p; i < q; i++) {
		if (r->tk.t[i].k != K_WORD)
			return -1;
		o += (size_t)snprintf(buf + o, o < n ? n - o : 0, "%s%s", i > p ? " " : "", r->tk.t[i].w);
	}
	return o < n ? 0 : -1;
}

/* Words that end a name without changing it: "LR warmup ratio". */
static const char *const name_suffixes[] = {
	"ratio", "fraction", "frac", "rate", "value", "coefficient", "coef", "factor", NULL
};

/* The longest known name of up to four words at p (leading modifiers
 * allowed, and a suffix from name_suffixes); returns its length in tokens,
 * 0 when none. */
/* "learning rate for matrix params", "LR of the embeddings": a learning
 * rate named by the part it is for, as "matrix LR" is; its length, or 0. */
static int lr_of_part(const struct reader *r, int p, int end, struct name *nm)
{
	static const struct { const char *part, *name; } parts[] = {
		{ "matrix", "matrix lr" }, { "matrices", "matrix lr" }, { "muon", "matrix lr" },
		{ "embedding", "embedding lr" }, { "embeddings", "embedding lr" },
		{ "unembedding", "unembedding lr" }, { "lm head", "unembedding lr" },
		{ "scalar", "scalar lr" }, { "scalars", "scalar lr" },
	};
	static const char *const group[] = { "params", "parameters", "weights", "group", "param", NULL };
	int q = p;
	if (word_is(r, q, end, "lr"))
		q++;
	else if (word_is(r, q, end, "learning") && word_is(r, q + 1, end, "rate"))
		q += 2;
	else
		return 0;
	if (!word_is(r, q, end, "for") && !word_is(r, q, end, "of"))
		return 0;
	q += 1 + word_is(r, q + 1, end, "the");
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		int k = strchr(parts[i].part, ' ') ? 2 : 1;
		char words[64];
		if (join_words(r, q, q + k, words, sizeof(words)) || strcmp(words, parts[i].part))
			continue;
		q += k;
		while (word_in(r, q, end, group))
			q++;
		return lookup_name(parts[i].name, nm) ? 0 : q - p;
	}
	return 0;
}

static int constant_name(const struct reader *r, int p);

/* Round 11: "documents per Adam update", "sequences per step": the
 * sequences one optimizer step takes, the device batch (the README's
 * name for it); its length, or 0. */
static int per_update_batch(const struct reader *r, int p, int end, struct name *nm)
{
	static const char *const seqs[] = { "documents", "docs", "sequences", "samples", NULL };
	static const char *const step[] = { "update", "step", NULL };
	if (!word_in(r, p, end, seqs) || !word_is(r, p + 1, end, "per"))
		return 0;
	for (int q = p + 2; q < p + 5; q++)
		if (word_in(r, q, end, step)) {
			memset(nm, 0, sizeof(*nm));
			snprintf(nm->var, sizeof(nm->var), "train.device_batch_size");
			nm->known = 1;
			return q + 1 - p;
		} else if (at(r, q, end)->k != K_WORD || in_list(at(r, q, end)->w, stop_words)) {
			return 0;
		}
	return 0;
}

static int lookup_known(const struct reader *r, int p, int end, struct name *nm)
{
	char words[400];
	int lp = lr_of_part(r, p, end, nm);
	if (lp || (lp = per_update_batch(r, p, end, nm)))
		return lp;
	/* round 11: "higher LR for embedding" after a multiple ("5x higher …") */
	for (int skip = 1; skip <= 2 && p + skip < end && in_list(r->tk.t[p + skip - 1].w, modifiers); skip++)
		if ((lp = lr_of_part(r, p + skip, end, nm)))
			return skip + lp;
	for (int k = 4; k >= 1; k--) {
		if (p + k > end || join_words(r, p, p + k, words, sizeof(words)))
			continue;
		for (int skip = 0; skip < k && skip <= 2; skip++) {
			if (skip && !in_list(r->tk.t[p + skip - 1].w, modifiers))
				break;
			if (join_words(r, p + skip, p + k, words, sizeof(words)) == 0 &&
			    !lookup_name(words, nm))
				return k + word_in(r, p + k, end, name_suffixes);
			/* round 11: "get_muon_momentum warmup", "get_lr warmdown": a
			 * training script's getter names the knob it returns */
			if (!skip && !strncmp(r->text + r->tk.t[p].a, "get_", 4) && str_starts_with(words, "get ") &&
			    words[4] && !lookup_name(words + 4, nm))
				return k + word_in(r, p + k, end, name_suffixes);
		}
	}
	/* "LR_MIN_FRAC": a config constant is a name of the registry in the
	 * author's word order */
	const struct var_alias *al;
	if (p < end && r->tk.t[p].k == K_WORD && constant_name(r, p) &&
	    (al = varreg_alias_any_order(r->tk.t[p].w))) {
		name_from_alias(nm, al, r->tk.t[p].w);
		return 1;
	}
	return 0;
}

/* lookup_known, remembered per token for the reader's whole range: the
 * productions ask about the same token many times (5.3 -> 2.1 us a short
 * description). */
static int known_name(const struct reader *r, int p, int end, struct name *nm)
{
	struct memo *m = &r->memo[p];
	if (p >= end)
		return 0;
	if (!m->done) {
		m->k = (signed char)lookup_known(r, p, r->tk.n, &m->nm);
		m->done = 1;
	}
	if (m->k > end - p)
		return lookup_known(r, p, end, nm);
	*nm = m->nm;
	return m->k;
}

/* "it/s", "samples/sec", "ms/step": a rate, measured. */
static int is_rate(const char *w)
{
	static const char *const per[] = { "s", "sec", "step", "iter", "it", NULL };
	const char *slash = strrchr(w, '/');
	return slash && in_list(slash + 1, per);
}

static int is_result_name(const char *words)
{
	if (in_list(words, result_words))
		return 1;
	for (const char *w = words; *w;) {
		const char *sp = strchr(w, ' ');
		char one[96];
		snprintf(one, sizeof(one), "%.*s", (int)(sp ? sp - w : (long)strlen(w)), w);
		static const char *const any[] = { "bpb", "val bpb", "mfu", "tok/s", "tok/sec",
						   "throughput", "params", "parameters", "vram",
						   /* measured, never set: "peak mem", "wall time" */
						   "param", "mem", "memory", "time", "runtime", "latency",
						   "elapsed", "duration", "accuracy", "acc", "tokens", NULL };
		if (in_list(one, any) || is_rate(one))
			return 1;
		w = sp ? sp + 1 : w + strlen(w);
	}
	/* "eval loss", "num steps": a loss or a step count measured */
	static const char *const measured_first[] = { "eval", "val", "validation", "test", "train",
						      "training", "final", "avg", "mean", "num",
						      "total", "step", "grad", NULL };
	static const char *const measured_last[] = { "loss", "steps", "count", "norm", NULL };
	const char *last = strrchr(words, ' ');
	char first[96];
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(words, " "), words);
	return last && in_list(last + 1, measured_last) && in_list(first, measured_first);
}

/* Token p written as a config constant, capitals and '_' ("TTT_EPOCHS",
 * "MAX_VAL_TOKENS"): a setting of the script even in a technique's
 * explanation ("TTT-3 smoke test: TTT_EPOCHS=3"), where a code name in
 * lower case ("d_c", "c_proj") is a part of the technique. */
static int constant_name(const struct reader *r, int p)
{
	const struct tok *t = &r->tk.t[p];
	int under = 0, upper = 0;
	for (int i = t->a; i < t->b; i++) {
		char c = r->text[i];
		if (islower((unsigned char)c))
			return 0;
		under |= c == '_';
		upper += isupper((unsigned char)c) != 0;
	}
	return under && upper >= 4;
}

/* Token p a config constant whose last word names no measure
 * ("AUTOTUNE_MAX_MEMORY_FRACTION", a fraction): a setting of the script
 * even where its other words name a measure; "PEAK_VRAM_MB" and "VAL_BPB"
 * are measured. */
static int constant_setting(const struct reader *r, int p)
{
	/* what a constant's last word must not be: a measure's unit. Tokens,
	 * steps and time count settings too ("TTT_CHUNK_TOKENS=32768",
	 * "WARMUP_STEPS", "TIME_BUDGET") */
	static const char *const measures[] = { "bpb", "mfu", "loss", "mb", "gb", "params", "vram",
						"mem", "memory", "throughput", "speed", "latency",
						"accuracy", "acc", "ppl", "perplexity", "score", NULL };
	const char *w = r->tk.t[p].w, *last = strrchr(w, ' ');
	return constant_name(r, p) && last && !in_list(last + 1, measures) && !is_rate(last + 1) &&
	       !in_list(w, result_words);
}

/* Words that name which part of the model a registry knob is about
 * ("matrix" LR, "embedding" LR, "scalar" LR): alone they name no knob. */
static const char *const part_words[] = {
	"embedding", "embeddings", "embed", "unembedding", "unembed", "scalar", "scalars",
	"head", "heads", "lm", "matrices", NULL
};

/* 1 when every word of [p, q) is a modifier or a part word: "increase
 * LRs: matrix 0.04->0.06" names the matrix LR, not a knob "matrix". */
static int only_part_words(const struct reader *r, int p, int q)
{
	for (int i = p; i < q; i++)
		if (!in_list(r->tk.t[i].w, modifiers) && !in_list(r->tk.t[i].w, part_words))
			return 0;
	return 1;
}

/* Words [p, q) as a knob the registry does not know: one to four words,
 * none prose, not a result, not too vague. */
static int unknown_name(const struct reader *r, int p, int q, struct name *nm)
{
	char words[400];
	if ((r->titled && !(q - p == 1 && constant_name(r, p))) || q - p < 1 || q - p > 4 ||
	    join_words(r, p, q, words, sizeof(words)))
		return -1; /* "Multi-Latent Attention (MLA): … shared d_c=384 latent": a part of the technique */
	for (int i = p; i < q; i++) {
		const char *w = r->tk.t[i].w;
		int alpha = 0;
		for (const char *c = w; *c; c++)
			alpha |= isalpha((unsigned char)*c);
		if (!alpha || in_list(w, stop_words) || in_list(w, context_words) || in_list(w, verbs) ||
		    in_list(w, not_knob_words) || (i == p && in_list(w, result_words)) ||
		    find_value_word(w, NULL) ||
		    (i > p && r->tk.t[i].b - r->tk.t[i].a >= 2 && is_window_pattern(&r->tk.t[i], r->text)))
			return -1; /* "ReLU^2 -> …" names a value, not a knob; round 11:
				    * "windows SSSL -> SL" names no "windows_sssl" */
	}
	/* "HD=64", "DBS 32->64", "d_c=384": three letters or fewer are an
	 * abbreviation, which names no knob we could tell from another (the
	 * lexicon's VE, XSA, MTP are known names, not coined) */
	int constant = q - p == 1 && constant_setting(r, p);
	if (!strcmp(words, "lr") || !strcmp(words, "learning rate")) {
		/* round 13: which LR is not said; the parent's state may tell
		 * (infer_changes_in), the text alone does not (infer_changes) */
		memset(nm, 0, sizeof(*nm));
		snprintf(nm->var, sizeof(nm->var), "%s", DESCRIBE_BARE_LR);
		return 0;
	}
	if ((!constant && is_result_name(words)) || in_list(words, vague_names) || alnum_count(words) < 4 ||
	    only_part_words(r, p, q) ||
	    in_list(r->tk.t[p].w, comparatives) || spelled_count(r->tk.t[p].w) > 0)
		return -1; /* "use one GPU", "two more tricks": a count of things, no knob */
	int m = p;
	while (m < q - 1 && in_list(r->tk.t[m].w, modifiers))
		m++;
	if (m > p && !join_words(r, m, q, words, sizeof(words)) && in_list(words, vague_names))
		return -1; /* "higher LR": which LR is not said */
	join_words(r, p, q, words, sizeof(words));
	memset(nm, 0, sizeof(*nm));
	desc_slug(words, nm->var, sizeof(nm->var));
	/* one name per concept: "x0_lambdas learning rate multiplier" and
	 * "x0_lambdas LR multiplier" coin the same knob; round 11: so do an
	 * init and its spread spelled out ("initialization standard
	 * deviation" is "init_std") */
	static const struct { const char *spelled, *as; } shorter[] = {
		{ "learning_rate", "lr" }, { "standard_deviation", "std" },
		{ "initialization", "init" }, { "initialisation", "init" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(shorter); i++) {
		char *at_w;
		size_t k = strlen(shorter[i].spelled), a = strlen(shorter[i].as);
		while ((at_w = strstr(nm->var, shorter[i].spelled)) != NULL) {
			memcpy(at_w, shorter[i].as, a);
			memmove(at_w + a, at_w + k, strlen(at_w + k) + 1);
		}
	}
	return 0;
}

/* ---- emitting ---------------------------------------------------------- */

/* A plain "batch" with values under 4096 counts sequences, not tokens:
 * "batch 32 -> 64" is the device batch. Round 13: from 256 to 4095 it
 * may be either — autoresearch's device batch is 128 at most (forks lower
 * it), a tiny run's total batch of tokens is 1024-4096 (entrpi-m5), and a
 * model of another kind counts samples ("larger batch 512" of a diffusion
 * run is its whole batch) — so NULL: no knob is named for sure. */
static const char *batch_var(const struct name *nm, const char *old_val, const char *new_val)
{
	double v;
	const char *val = new_val ? new_val : old_val;
	if (strcmp(nm->var, "train.total_batch_size") || nm->total || !val)
		return nm->var;
	if (parse_double(val, &v) || v <= 0 || v >= 4096)
		return nm->var;
	if (v >= 256)
		return NULL;
	return "train.device_batch_size";
}

/* The values a variable can take, where a number outside them says the
 * text meant another knob: a warmup "ratio" of 50 counts steps, a
 * "warmup 300->150" after "muon" is the momentum warmup. */
static const struct range {
	const char *var;
	double lo, hi;
} ranges[] = {
	{ "sched.warmup_ratio", 0, 1 }, { "sched.warmdown_ratio", 0, 1 },
	{ "sched.final_lr_frac", 0, 1 }, { "model.dropout", 0, 1 }, { "optim.beta1", 0, 1 },
	{ "optim.beta2", 0, 1 }, { "optim.muon_momentum", 0, 1 }, { "optim.weight_decay", 0, 10 },
	{ "optim.matrix_lr", 0, 100 }, { "optim.embedding_lr", 0, 100 },
	{ "optim.unembedding_lr", 0, 100 }, { "optim.scalar_lr", 0, 100 },
	{ "optim.grad_clip", 0, 1e6 }, { "model.softcap", 0, 1e6 },
	/* sizes and counts of at least one: "layer 0→11" numbers layers */
	{ "model.depth", 1, 1e6 }, { "model.heads", 1, 1e6 }, { "model.head_dim", 1, 1e6 },
	{ "model.dim", 1, 1e9 }, { "model.seq_len", 1, 1e9 }, { "model.vocab_size", 1, 1e9 },
	{ "train.device_batch_size", 1, 1e9 }, { "train.total_batch_size", 1, 1e12 },
};

/* 1 when a stated number of var lies outside its range, or is no whole
 * number where var counts ("depth 0.5", "batch 0.6"). */
static int out_of_range(const char *var, const char *val)
{
	double v;
	const struct var_def *d = varreg_find(var);
	if (val && d && d->type == VAR_INT && !parse_double(val, &v) && v != floor(v))
		return 1;
	for (size_t i = 0; val && i < ARRAY_SIZE(ranges); i++)
		if (!strcmp(ranges[i].var, var))
			return !parse_double(val, &v) && (v < ranges[i].lo || v > ranges[i].hi);
	return 0;
}

/* A whole number of at least 2: a count (of steps), no ratio. */
static int count_like(const char *val)
{
	double v;
	return !val || (!parse_double(val, &v) && v >= 2 && v == floor(v));
}

static int same_family(const char *a, const char *b);

/* 1 when var, a desc.* knob read in a parenthesis, is of the family of a
 * change already read (warmup_steps after warmup_ratio): the parenthesis
 * gives that change in another unit, it turns no second knob. */
static int restates_in_other_unit(const struct change_list *out, const char *var)
{
	if (!str_starts_with(var, "desc."))
		return 0;
	const char *mine = var + strlen("desc.");
	for (int i = 0; i < out->n; i++) {
		const char *dot = strchr(out->v[i].var, '.');
		if (dot && strcmp(out->v[i].var, var) && same_family(dot + 1, mine))
			return 1;
	}
	return 0;
}

/* 1 for a value that is one end of a path through the model ("from input
 * to output", "from the first layer to the last"): a connection's
 * course, no setting's two values. */
static int path_end(const char *v)
{
	static const char *const ends[] = {
		"input", "output", "inputs", "outputs", "start", "end", "top", "bottom", "first", "last",
		"encoder", "decoder", "embedding", "embeddings", "head", "layer", "block", "beginning", NULL
	};
	char lo[32];
	if (!v || strlen(v) >= sizeof(lo))
		return 0;
	for (size_t i = 0; i <= strlen(v); i++)
		lo[i] = (char)tolower((unsigned char)v[i]);
	return in_list(lo, ends);
}

static void emit(struct reader *r, const struct name *nm, const char *old_val,
		 const char *new_val, int p, int q)
{
	const struct tok *first = &r->tk.t[p], *last = &r->tk.t[q - 1];
	const char *var = batch_var(nm, old_val, new_val);
	if (!var)
		return;
	if (!strcmp(var, "desc.x0_init") && !old_val && new_val &&
	    (!strcmp(new_val, "true") || !strcmp(new_val, "false")))
		/* round 12: "remove x0_lambdas", "x0 lambdas off" switch the skip
		 * they weight, not a start value (the README's desc.x0_residual) */
		var = "desc.x0_residual";
	if (str_starts_with(var, "desc.") && path_end(old_val) && path_end(new_val))
		return; /* round 12: "residual skip from input to output": where it runs */
	if (r->depth > 0 && !strcmp(var, "desc.grad_accum_steps"))
		return; /* "(grad_accum 2->1)": what a batch change implied, no knob turned */
	if (out_of_range(var, old_val) || out_of_range(var, new_val)) {
		/* "warmup=50": the warmup counted in steps, as "warmup 50 steps" is */
		int steps = (!strcmp(var, "sched.warmup_ratio") || !strcmp(var, "sched.warmdown_ratio")) &&
			    (old_val || new_val) && count_like(old_val) && count_like(new_val);
		if (!steps)
			return; /* no value of this knob: another knob, unnamed */
		/* unit unsaid: the corpus's names, warmup_steps (round 6) and
		 * warmdown_iters (parameter-golf's WARMDOWN_ITERS, two sources) */
		var = !strcmp(var, "sched.warmup_ratio") ? "desc.warmup_steps" : "desc.warmdown_iters";
	}
	for (int i = 0; i < r->out->n; i++) {
		const struct change *c = &r->out->v[i];
		if (strcmp(c->var, var))
			continue;
		if (!old_val && !new_val)
			return; /* "batch 2^15 … half batch": the stated value stays */
		/* a knob read twice: the first stated value is the run's, a later
		 * one with another value is commentary ("remove logit softcap:
		 * softcap=15 is useful"); the same value again adds only an old
		 * side the first lacked ("WEIGHT_DECAY 0.2->0.0 no weight decay") */
		if (c->new_val && old_val && !strcmp(old_val, c->new_val))
			break; /* "depth 8 to 9 + depth 9 to 10": a step on from the first */
		if (c->new_val && (!new_val || strcmp(c->new_val, new_val) || c->old_val || !old_val))
			return;
	}
	char *span = xstrndup(r->text + first->a, (size_t)(last->b - first->a));
	change_list_add_span(r->out, var, old_val, new_val, span);
	free(span);
	r->added++;
	r->last_b = last->b;
}

/* ---- old values --------------------------------------------------------- */

/* 1 when token q is a modifier before the old value ("instead of plain
 * ReLU"), not the value itself ("instead of Muon": muon is both). */
static int skip_modifier(const struct reader *r, int q, int end, const char *var)
{
	int k;
	return word_in(r, q, end, modifiers) && !value_word_at(r, q, end, var, &k);
}

/* "(was b)", "(up from b)", "(replaces b)", "instead of b", "replacing b":
 * the old value, when it is a value of var. Returns tokens taken. */
static int take_old(struct reader *r, int p, int end, const char *var, char *old, size_t n)
{
	const struct tok *t = at(r, p, end);
	if (t->k == K_PAREN) {
		struct reader in;
		reader_open(&in, r, t);
		int got = 0, q = 0, e = in.tk.n;
		static const char *const lead[] = { "up", "down", NULL };
		static const char *const words[] = { "from", "was", "replaces", "replace", "replacing",
						     "prev", "previously", "previous", "before", NULL };
		q += word_in(&in, q, e, lead);
		if (word_in(&in, q, e, words)) {
			q++;
			q += skip_modifier(&in, q, e, var);
			int k;
			const struct value_word *vw = value_word_at(&in, q, e, var, &k);
			if (vw && (got = boundary(&in, q + k, e)))
				snprintf(old, n, "%s", vw->value);
			else
				got = !value_at(&in, q, e, var, 0, old, n) && boundary(&in, q + 1, e);
		}
		reader_close(&in);
		return got;
	}
	int q = p;
	if (word_is(r, q, end, "instead") && word_is(r, q + 1, end, "of"))
		q += 2;
	else if (word_is(r, q, end, "replacing") || word_is(r, q, end, "replaces"))
		q++;
	else if (word_is(r, q, end, "from") && at(r, q + 1, end)->k == K_NUM && boundary(r, q + 2, end))
		q++; /* "EMBEDDING_LR to 0.8 from 0.6" */
	else
		return 0;
	q += skip_modifier(r, q, end, var);
	int k;
	const struct value_word *vw = value_word_at(r, q, end, var, &k);
	if (vw) {
		snprintf(old, n, "%s", vw->value);
		return q + k - p;
	}
	return !value_at(r, q, end, var, 0, old, n) ? q + 1 - p : 0;
}

/* "depth 10 kept", "ASPECT_RATIO 64 (default)", "batch (unchanged)": the
 * setting is restated, not changed. */
static int restated_at(const struct reader *r, int q, int end)
{
	static const char *const words[] = { "kept", "unchanged", "stays", "default", "defaults", "same",
					     NULL }; /* round 11: "(defaults)" */
	const struct tok *t = at(r, q, end);
	if (t->k == K_WORD)
		return word_in(r, q, end, words) && boundary(r, q + 1, end);
	if (t->k != K_PAREN)
		return 0;
	struct reader in;
	reader_open(&in, r, t);
	int n = in.tk.n, i = word_is(&in, 0, n, "the") || word_is(&in, 0, n, "as");
	static const char *const earlier[] = { "before", "baseline", "previous", "best", "parent", NULL };
	int yes = n >= 1 && n - i == 1 && (word_in(&in, i, n, words) || word_is(&in, i, n, "before"));
	/* "(same as before)", "(same as baseline)", "(as in the parent)" */
	yes |= n <= 4 && (word_is(&in, 0, n, "same") || word_is(&in, 0, n, "as")) &&
	       word_in(&in, n - 1, n, earlier);
	reader_close(&in);
	return yes;
}

/* A knob counted in steps ("desc.warmup_steps", "desc.ns_iters"). */
/* The words a count of steps is given in ("100 steps", "80 iters"). */
static const char *const step_units[] = { "steps", "step", "iters", "iterations", NULL };

static int counts_steps(const char *var)
{
	return str_ends_with(var, "_steps") || str_ends_with(var, "_iters");
}

/* A number with a fraction ("0.85"): no count of steps. */
static int fractional(const char *v)
{
	char *e;
	if (!v)
		return 0;
	double x = strtod(v, &e);
	return e != v && !*e && x != floor(x);
}

/* Emit name = (old, new) over tokens [p, q), taking an old value after it. */
/* Nouns that name a part of the model or of the run a knob can be set
 * for on its own ("embedding weight decay", "attention dropout", "val
 * batch size"). */
static const char *const part_nouns[] = {
	"embedding", "embeddings", "embed", "attention", "attn", "mlp", "ffn", "value", "val",
	"eval", "validation", "residual", "output", "input", "router", "expert", "experts", "token",
	"layer", "gate", "norm", "bias", "kv", "query", "key", "vocab", "lm", "head", NULL
};

static int for_part_at(const struct reader *r, int q, int end, const char *var);
static int part_knob_at(const struct reader *r, int q, int end, const char *knob, char *var, size_t n);

/* A momentum, at most 1 and more than 0. */
static int momentum_like(const char *v)
{
	char *e;
	double x = v ? strtod(v, &e) : 0;
	return v && e != v && !*e && x > 0 && x < 1;
}

/* Round 11: "Muon momentum warmup 0.85 -> 0.95 [over 300 steps]", "Muon
 * momentum warmup from 0.90 instead of 0.88": the values of a momentum
 * warmup are momenta, and the one it starts from is the knob changed
 * (the README's desc.muon_momentum_start; the end is the momentum the
 * run had, autoresearch's 0.95); "over N steps" after them is the
 * warmup's length. A pair ramps from its first value, one value after
 * "from" is the start, anything else is not sure: nothing. Returns the
 * tokens taken from p. */
static int momentum_ramp(struct reader *r, const char *old_val, const char *new_val, int p, int q,
			 int end)
{
	struct name start = { .var = "desc.muon_momentum_start", .known = 1 };
	struct name steps = { .var = "desc.muon_momentum_warmup_steps", .known = 1 };
	const char *from = NULL, *was = NULL;
	char old[96], n[40];
	int extra = 0;
	if (old_val && new_val && momentum_like(old_val) && momentum_like(new_val) &&
	    strtod(old_val, NULL) < strtod(new_val, NULL)) {
		from = old_val; /* the ramp's two ends */
	} else if (!old_val && momentum_like(new_val) && word_is(r, q - 2, end, "from")) {
		from = new_val;
		if ((extra = take_old(r, q, end, start.var, old, sizeof(old))) && momentum_like(old))
			was = old; /* "from 0.90 instead of 0.88" */
	}
	if (!from)
		return q - p;
	emit(r, &start, was, from, p, q + extra);
	q += extra;
	if (word_is(r, q, end, "over") && at(r, q + 1, end)->k == K_NUM &&
	    word_in(r, q + 2, end, step_units) && !number_value(at(r, q + 1, end)->w, steps.var, n, sizeof(n))) {
		emit(r, &steps, NULL, n, q, q + 3); /* "over 500 steps" */
		q += 3;
	}
	return q - p;
}

static int is_to(const struct reader *r, int p, int end);

/* The parenthesis t read as a momentum warmup's "a -> b over N steps"
 * and nothing else; 1 when it was. */
static int paren_ramp(struct reader *r, const struct tok *t)
{
	struct reader in;
	char a[96], b[96];
	int got = 0, before = r->out->n;
	reader_open(&in, r, t);
	int n = in.tk.n;
	if ((n == 3 || (n == 6 && word_is(&in, 3, n, "over"))) && is_to(&in, 1, n) &&
	    !value_at(&in, 0, n, "desc.muon_momentum_start", 0, a, sizeof(a)) &&
	    !value_at(&in, 2, n, "desc.muon_momentum_start", 0, b, sizeof(b)))
		momentum_ramp(&in, a, b, 0, 3, n);
	got = r->out->n > before;
	reader_close(&in);
	return got;
}

static int finish(struct reader *r, const struct name *nm, const char *old_val,
		  const char *new_val, int p, int q, int end)
{
	char old[96];
	int extra = 0;
	if (str_starts_with(nm->var, "optim.") || str_starts_with(nm->var, "model.dropout") ||
	    str_starts_with(nm->var, "model.softcap"))
		if (for_part_at(r, q, end, nm->var)) {
			/* "Increase weight decay for token embeddings": a part's knob,
			 * named where the corpus names it, else unnamed */
			struct name part = { .known = 1 };
			char to[96];
			int k = part_knob_at(r, q, end, nm->var, part.var, sizeof(part.var));
			if (k && !new_val && word_is(r, q + k, end, "to") && at(r, q + k + 1, end)->k == K_NUM &&
			    !value_at(r, q + k + 1, end, nm->var, 0, to, sizeof(to))) {
				emit(r, &part, old_val, to, p, q + k + 2); /* "… for embeddings to 0.01" */
				return q + k + 2 - p;
			}
			if (k && boundary(r, q + k, end)) {
				emit(r, &part, old_val, new_val, p, q + k);
				return q + k - p;
			}
			return q - p;
		}
	if (new_val && restated_at(r, q, end))
		return q + 1 - p; /* taken, and nothing changed */
	if (counts_steps(nm->var) && (fractional(old_val) || fractional(new_val))) {
		if (!strcmp(nm->var, "desc.muon_momentum_warmup_steps"))
			return momentum_ramp(r, old_val, new_val, p, q, end);
		return q - p; /* "warmup steps 0.85 -> 0.95": no step count */
	}
	int held_before = word_is(r, p - 1, end, "constant") || word_is(r, p - 1, end, "fixed");
	int held_after = (word_is(r, q, end, "constant") || word_is(r, q, end, "fixed")) &&
			 boundary(r, q + 1, end); /* round 11: "Muon momentum 0.95 constant" */
	if (strstr(nm->var, "momentum") && !counts_steps(nm->var) && (held_before || held_after)) {
		/* "constant Muon momentum 0.95": the value stays, its warmup went
		 * (README: desc.muon_momentum_warmup_steps 0) */
		struct name warm = { .var = "desc.muon_momentum_warmup_steps", .known = 1 };
		int e = held_before ? q : q + 1;
		if (!strcmp(nm->var, "optim.muon_momentum"))
			emit(r, &warm, NULL, "0", held_before ? p - 1 : p, e);
		return e - p;
	}
	if (!old_val && (extra = take_old(r, q, end, nm->var, old, sizeof(old))))
		old_val = old;
	if (nm->range) { /* "seq len curriculum 512->2048": the schedule is tried */
		old_val = NULL;
		new_val = "true";
	}
	emit(r, nm, old_val, new_val, p, q + extra);
	return q + extra - p;
}

/* Where the softcap is: the output logits (an attention softcap would be
 * another knob). */
static const char *const softcap_home[] = { "output", "lm", "final", "logit", "logits", "tanh",
					    NULL };

/* "in output logits tanh", "on the final logits" at q after the softcap:
 * tokens of its home, 0 when none. */
static int softcap_home_at(const struct reader *r, int q, int end)
{
	if (!word_is(r, q, end, "in") && !word_is(r, q, end, "on"))
		return 0;
	int h = q + 1 + word_is(r, q + 1, end, "the"), s = h;
	while (h < s + 4 && word_in(r, h, end, softcap_home))
		h++;
	return h > s ? h - q : 0;
}

/* "for token embeddings", "on the value embedding parameters", "in the
 * attention": a part of the model at q, which a change of a knob there
 * restricts to that part (another knob). "for all layers" is no part. */
static int for_part_at(const struct reader *r, int q, int end, const char *var)
{
	/* "Increase softcap from 12 to 16 in output logits tanh": the output
	 * logits are where the softcap is, no part of its own (an attention
	 * softcap would be) */
	static const char *const preps[] = { "for", "on", "in", "of", "to", NULL };
	static const char *const dets[] = { "the", "its", "each", "every", "per-layer", "token",
					    "value", "input", "output", "only", NULL };
	static const char *const extends[] = { "too", "also", "as", NULL };
	if (!word_in(r, q, end, preps) || at(r, q + 1, end)->k == K_NUM)
		return 0;
	for (int i = q + 1; i < q + 5 && i < end; i++) {
		if (!strcmp(var, "model.softcap") && word_in(r, i, end, softcap_home))
			return 0;
		if (word_in(r, i, end, part_nouns) && !word_is(r, i, end, "layer")) {
			/* "weight decay 0.1 was applied to embeddings too": the
			 * knob reaches one more part, it is still the knob */
			for (int j = i + 1; j < end && j < i + 4; j++)
				if (word_in(r, j, end, extends))
					return 0;
			return 1;
		}
		if (!word_in(r, i, end, dets))
			return 0;
	}
	return 0;
}

/* The parts of the model whose weight decay or dropout is a knob of the
 * corpus's ("desc.<part>_<base>"); the attention's and the MLP's weight
 * decay are none. part_of reads them, describe_name_known knows them. */
static const struct { const char *part; int dropout_only; } model_parts[] = {
	{ "value_embedding", 0 }, { "embedding", 0 }, { "attention", 1 }, { "mlp", 1 },
};
enum { PART_VALUE_EMBEDDING, PART_EMBEDDING, PART_ATTENTION, PART_MLP };

/* The part's entry of model_parts if it has a knob of base ("weight_decay",
 * "dropout"), else NULL. */
static const char *part_with_base(int part, const char *base)
{
	return model_parts[part].dropout_only && strcmp(base, "dropout") ? NULL : model_parts[part].part;
}

/* The part of the model named at i whose knob base ("weight_decay",
 * "dropout") the corpus has ("value embedding" -> "value_embedding",
 * "token embeddings" -> "embedding", "MLP" -> "mlp"), *len its tokens;
 * NULL for another. */
static const char *part_of(const struct reader *r, int i, int end, const char *base, int *len)
{
	int emb = word_is(r, i + 1, end, "embedding") || word_is(r, i + 1, end, "embeddings");
	*len = 2;
	if (word_is(r, i, end, "value") && emb)
		return part_with_base(PART_VALUE_EMBEDDING, base);
	if (word_is(r, i, end, "token") && emb)
		return part_with_base(PART_EMBEDDING, base);
	*len = 1;
	if (word_is(r, i, end, "embedding") || word_is(r, i, end, "embeddings"))
		return part_with_base(PART_EMBEDDING, base);
	if (word_is(r, i, end, "attention") || word_is(r, i, end, "attn"))
		return part_with_base(PART_ATTENTION, base);
	if (word_is(r, i, end, "mlp") || word_is(r, i, end, "ffn"))
		return part_with_base(PART_MLP, base);
	return NULL;
}

/* Whether var is "desc.<part>_<base>" of a part in model_parts. */
static int part_knob_known(const char *var)
{
	static const char *const bases[] = { "weight_decay", "dropout" };
	char name[64];
	for (size_t p = 0; p < ARRAY_SIZE(model_parts); p++)
		for (size_t b = 0; b < ARRAY_SIZE(bases); b++) {
			const char *part = part_with_base((int)p, bases[b]);
			snprintf(name, sizeof(name), "desc.%s_%s", part ? part : "", bases[b]);
			if (part && !strcmp(var, name))
				return 1;
		}
	return 0;
}

/* The corpus's base of a knob one part may have, or NULL. */
static const char *part_base(const char *var)
{
	return !strcmp(var, "optim.weight_decay") ? "weight_decay"
	       : !strcmp(var, "model.dropout") ? "dropout" : NULL;
}

/* "MLP dropout", "embedding weight decay", "token embedding dropout" at p:
 * the part's knob (part_knob_at's names), its tokens; 0 when none. */
static int part_first_name(const struct reader *r, int p, int end, struct name *nm)
{
	static const char *const bases[] = { "weight_decay", "dropout", NULL };
	struct name tail;
	for (int b = 0; bases[b]; b++) {
		int len, kt;
		const char *part = part_of(r, p, end, bases[b], &len);
		if (!part || !(kt = known_name(r, p + len, end, &tail)) || !part_base(tail.var) ||
		    strcmp(part_base(tail.var), bases[b]))
			continue;
		memset(nm, 0, sizeof(*nm));
		snprintf(nm->var, sizeof(nm->var), "desc.%s_%s", part, bases[b]);
		nm->known = 1;
		return len + kt;
	}
	return 0;
}

/* "for token embeddings", "to the value embedding parameter group",
 * "after the attention output" at q: a part whose weight decay or dropout
 * is a knob of the corpus's ("desc.embedding_weight_decay",
 * "desc.value_embedding_weight_decay", "desc.attention_dropout",
 * "desc.mlp_dropout", "desc.embedding_dropout"; README: a knob changed for
 * one part is that part's knob). Writes the knob into var and returns the
 * tokens of the phrase, 0 for another part or another knob. */
static int part_knob_at(const struct reader *r, int q, int end, const char *knob, char *var, size_t n)
{
	static const char *const preps[] = { "for", "on", "to", "after", "in", "of", NULL };
	static const char *const dets[] = { "the", "all", NULL };
	static const char *const tails[] = { "output", "outputs", "projection", "parameters", "params",
					     "parameter", "param", "group", "weights", "layer", "layers",
					     NULL };
	const char *base = part_base(knob);
	if (!base || !word_in(r, q, end, preps))
		return 0;
	int i = q + 1 + word_in(r, q + 1, end, dets), len;
	const char *part = part_of(r, i, end, base, &len);
	if (!part)
		return 0;
	i += len;
	while (i < q + 8 && word_in(r, i, end, tails))
		i++;
	if (!boundary(r, i, end) && !word_is(r, i, end, "to"))
		return 0;
	const struct tok *sep = at(r, i, end);
	if (sep->k == K_SEP && (sep->sep == SEP_AND || sep->sep == SEP_LIST) &&
	    (word_in(r, i + 1, end, part_nouns) || word_in(r, i + 1, end, dets)))
		return 0; /* "for embeddings and the lm head": not that part alone */
	snprintf(var, n, "desc.%s_%s", part, base);
	return i - q;
}

/* ---- productions ------------------------------------------------------- */

/* A result word at p ("… 2x steps"): the number before it is no value. */
static int p_result_at(const struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	return t->k == K_WORD && is_result_name(t->w) && !(p < end && constant_setting(r, p));
}

/* A score word at p: "… -> 0.975 bpb" names what the run got, not a value. */
static int p_score_at(const struct reader *r, int p, int end)
{
	static const char *const scores[] = { "bpb", "val bpb", "loss", "val loss", "ppl",
					      "perplexity", "score", NULL };
	return word_in(r, p, end, scores);
}

/* "bpb 0.98", "params: 50M" at p: a result with its own number, so the
 * number before it is the knob's ("matrix lr 0.04 bpb 0.98"). */
static int scored_at(const struct reader *r, int p, int end)
{
	static const char *const own[] = { "bpb", "val bpb", "loss", "val loss", "ppl", "mfu",
					   "params", NULL };
	int i = p + 1 + (at(r, p + 1, end)->k == K_EQ || at(r, p + 1, end)->k == K_COLON);
	return word_in(r, p, end, own) && at(r, i, end)->k == K_NUM;
}

/* "matrix lr 0.02 0.04 0.08", "depth 10, 12, 14": a number at p followed by
 * more bare numbers is a sweep or a list of tries, no one value of the run. */
static int value_list_at(const struct reader *r, int p, int end)
{
	if (at(r, p, end)->k != K_NUM)
		return 0;
	if (word_is(r, p + 1, end, "or") && at(r, p + 2, end)->k == K_NUM)
		return 1; /* round 11: "depth 6 or 8": two tries, which one ran is unsaid */
	if (at(r, p + 1, end)->k == K_NUM)
		return at(r, p + 2, end)->k == K_NUM || word_is(r, p + 2, end, "sweep");
	for (int i = 1; i <= 3; i += 2) { /* "10, 12, 14": three plain numbers */
		const struct tok *sep = at(r, p + i, end), *num = at(r, p + i + 1, end);
		if (sep->k != K_SEP || sep->sep != SEP_LIST || num->k != K_NUM ||
		    strpbrk(num->w, "abcdfghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSTUVWXYZ%"))
			return 0;
	}
	return 1;
}

struct vals {
	char a[96], b[96];
	int ra, rb; /* value_at's answers */
};

static int is_to(const struct reader *r, int p, int end)
{
	return at(r, p, end)->k == K_ARROW || word_is(r, p, end, "to");
}

/* "warmdown reduced to 0.3", "LR back to 0.04", "weight decay of 0.1":
 * words between a name and its operator; returns where the operator is. */
/* "Reduce weight decay for Muon optimizer to 0.05": autoresearch decays
 * only the matrices Muon steps, so weight decay "for Muon" is the weight
 * decay, no part's; the tokens to skip before the value, else 0. */
static int muon_scope(const struct reader *r, int q, int end, const char *var)
{
	static const char *const what[] = { "optimizer", "params", "parameters", "matrices",
					    "matrix", "weights", NULL };
	if (strcmp(var, "optim.weight_decay") || !word_is(r, q, end, "for"))
		return 0;
	int s = q + 1 + word_is(r, q + 1, end, "the");
	if (!word_is(r, s, end, "muon"))
		return 0;
	s++;
	while (s - q < 6 && word_in(r, s, end, what))
		s++;
	return word_is(r, s, end, "to") || word_is(r, s, end, "from") || at(r, s, end)->k == K_ARROW ? s - q : 0;
}

static int skip_between(const struct reader *r, int q, int end, int known)
{
	static const char *const between[] = {
		"up", "down", "back", "further", "slightly", "increased", "decreased", "reduced",
		"raised", "lowered", "bumped", "changed", "halved", "doubled", "moved", "set",
		"was", "is", "now", "again", "goes", "went", "grows", "shrinks",
		/* words that name the same knob again ("z-loss regularization
		 * coefficient from 1e-4 to 5e-4"), and how much */
		"coefficient", "coef", "strength", "amount", "factor", "term", "regularization",
		"regularisation", "penalty", "magnitude", "significantly", "substantially", "somewhat",
		"marginally", "moderately", "considerably", "greatly", NULL
	};
	int s = q;
	if (at(r, q, end)->k == K_COLON && word_is(r, q + 1, end, "from"))
		return q + 1; /* "X: from a to b" */
	while (s - q < 4 && word_in(r, s, end, between))
		s++;
	if (s > q && word_is(r, s, end, "by") && at(r, s + 1, end)->k == K_NUM && word_is(r, s + 2, end, "to"))
		s += 2; /* "increased by 25% to 0.05": the step, then the value */
	if (s > q && (word_is(r, s, end, "to") || word_is(r, s, end, "from") ||
		      at(r, s, end)->k == K_ARROW))
		return s;
	/* "depth changed 8->10", "warmdown now 0.7" */
	if (s > q && known && at(r, s, end)->k == K_NUM &&
	    (at(r, s + 1, end)->k == K_ARROW || word_is(r, s - 1, end, "now")))
		return s;
	return known && word_is(r, q, end, "of") &&
	       (at(r, q + 1, end)->k == K_NUM || at(r, q + 1, end)->k == K_PAREN) ? q + 1 : q;
}

/* Words for the setting a run started from ("from default"). */
static const char *const default_words[] = { "default", "baseline", "current", "original", NULL };

/* "default", "the default", "its baseline value" at p: tokens taken, 0 if none. */
static int default_at(const struct reader *r, int p, int end)
{
	static const char *const det[] = { "the", "its", NULL };
	int q = p + word_in(r, p, end, det);
	if (!word_in(r, q, end, default_words))
		return 0;
	return q + 1 - p + (word_is(r, q + 1, end, "value") || word_is(r, q + 1, end, "setting"));
}

/* "of the default", "the baseline", "of current" at p, after a value: the
 * value is a multiple of another, so the run's own value is unknown. */
static int relative_at(const struct reader *r, int p, int end)
{
	int of = word_is(r, p, end, "of"), k = default_at(r, p + of, end);
	if (!k || (!of && !word_is(r, p, end, "the")) || !boundary(r, p + of + k, end))
		return 0;
	return of + k;
}

/* "(a to b)", "(a -> b)": 0 and v filled when parenthesis t is that. */
static int paren_range(const struct reader *r, const struct tok *t, const char *var, int loose,
		       struct vals *v)
{
	struct reader in;
	reader_open(&in, r, t);
	int ok = in.tk.n == 3 && (v->ra = value_at(&in, 0, 3, var, loose, v->a, sizeof(v->a))) >= 0 &&
		 is_to(&in, 1, 3) && (v->rb = value_at(&in, 2, 3, var, loose, v->b, sizeof(v->b))) >= 0;
	reader_close(&in);
	return ok ? 0 : -1;
}

/* A word at p that is var's own unit ("batch 64K tokens", "seq len 512
 * tokens"): part of the value, not a result. */
static double time_unit(const struct reader *r, int p, int end);

static int own_unit(const struct reader *r, int p, int end, const char *var)
{
	static const char *const tokens[] = { "tokens", "tok", "toks", NULL };
	if (!strcmp(var, "train.total_batch_size") || !strcmp(var, "model.seq_len"))
		return word_in(r, p, end, tokens) && boundary(r, p + 1, end);
	if (!strcmp(var, "train.time_budget_s")) /* "time budget 10 minutes" */
		return time_unit(r, p, end) > 0 && boundary(r, p + 1, end);
	/* "Muon momentum warmup 100 steps": a knob that counts steps, in its unit */
	if (counts_steps(var))
		return word_in(r, p, end, step_units) && boundary(r, p + 1, end);
	return 0;
}

/* Round 11: the noun a count of var is told in, after the count: "from
 * six documents to eight" (sequences of a batch), "from one transformer
 * block to two" (layers), "from 300 steps to 80 steps"; a "%" apart from
 * its number. Tokens taken, 0 when the word at p is no such noun. */
static int count_noun(const struct reader *r, int p, int end, const char *var)
{
	static const char *const layers[] = { "layers", "layer", "blocks", "block", NULL };
	static const char *const seqs[] = { "documents", "document", "docs", "sequences",
					    "samples", "rows", NULL };
	static const char *const heads[] = { "heads", "head", NULL };
	if (word_is(r, p, end, "%"))
		return 1; /* "warmup 5 % -> 10 %": value_at read it as a share */
	if (!strcmp(var, "model.depth")) {
		int t = word_is(r, p, end, "transformer");
		return word_in(r, p + t, end, layers) ? t + 1 : 0;
	}
	if (!strcmp(var, "train.total_batch_size") || !strcmp(var, "train.device_batch_size"))
		return word_in(r, p, end, seqs); /* batch_var: under 4096, sequences */
	if (!strcmp(var, "model.heads") || !strcmp(var, "desc.n_kv_head"))
		return word_in(r, p, end, heads);
	if (!strcmp(var, "train.time_budget_s"))
		return time_unit(r, p, end) > 0; /* "from 5 min to 10 min" */
	return counts_steps(var) && word_in(r, p, end, step_units);
}

/* "MoE MLP: 4 experts", "heads: 4 experts": a number followed by a
 * plural noun that is neither a name nor a unit of var counts that noun,
 * not var (round 9: "Sparse MoE MLP: 4 half-sized SwiGLU experts" was an
 * MLP ratio of 4). Looks past hyphenated adjectives and value words. */
static int counts_other(const struct reader *r, int p, int end, const char *var)
{
	struct name nm;
	int i = p;
	while (i < p + 3 && at(r, i, end)->k == K_WORD && (strchr(r->tk.t[i].w, ' ') ||
							   find_value_word(r->tk.t[i].w, NULL)))
		i++; /* "half-sized" (read as two words), "SwiGLU" */
	const struct tok *t = at(r, i, end);
	size_t n = t->k == K_WORD ? strlen(t->w) : 0;
	if (n < 4 || t->w[n - 1] != 's' || t->w[n - 2] == 's' || own_unit(r, i, end, var) ||
	    in_list(t->w, stop_words) || in_list(t->w, context_words) || in_list(t->w, verbs) ||
	    in_list(t->w, not_knob_words) || in_list(t->w, judgement_words) ||
	    is_result_name(t->w) || known_name(r, i, end, &nm))
		return 0; /* "MATRIX_LR=0.045 settings", "DEVICE_BATCH_SIZE 64 OOMs" */
	for (const char *c = t->w; *c; c++)
		if (!isalpha((unsigned char)*c))
			return 0;
	return 1;
}

/* "(512)", "(32K tokens)": 0 and v->b filled when parenthesis t holds one
 * value of var (and its unit) and nothing else. */
static int paren_value(const struct reader *r, const struct tok *t, const char *var, struct vals *v)
{
	struct reader in;
	reader_open(&in, r, t);
	int ok = (in.tk.n == 1 || (in.tk.n == 2 && own_unit(&in, 1, 2, var))) && in.tk.t[0].k == K_NUM &&
		 (v->rb = value_at(&in, 0, 1, var, 0, v->b, sizeof(v->b))) >= 0;
	reader_close(&in);
	return ok ? 0 : -1;
}

/* "x2", "×2", "*1.5", "* 1.5" at q, ending the phrase: a multiple. */
static int is_times_step(const struct reader *r, int q, int end)
{
	const struct tok *t = at(r, q, end);
	if (t->k != K_WORD)
		return 0;
	const char *w = r->text + t->a;
	int lead = !strncmp(w, "\xc3\x97", 2) ? 2 : (*w == 'x' || *w == '*') ? 1 : 0;
	if (!lead)
		return 0;
	if (t->b - t->a == lead) /* "* 1.5" */
		return at(r, q + 1, end)->k == K_NUM && boundary(r, q + 2, end);
	for (int i = t->a + lead; i < t->b; i++)
		if (!isdigit((unsigned char)r->text[i]) && r->text[i] != '.')
			return 0;
	return boundary(r, q + 1, end);
}

/* Words that say a technique is on or off ("weight tying on"). */
static const char *const switch_words[] = { "on", "off", "enabled", "disabled", NULL };

/* The end of "a -> b [-> c …]" whose b is at p (v->b, v->rb hold it):
 * the token after the last value, the last value in v->b; -1 when an
 * arrow leads to no value. */
static int chain_end(const struct reader *r, int p, int end, const char *var, int loose,
		     struct vals *v)
{
	int e = p + 1;
	while (at(r, e, end)->k == K_ARROW) {
		char next[96];
		int rn = value_at(r, e + 1, end, var, loose, next, sizeof(next));
		if (rn < 0)
			return -1;
		snprintf(v->b, sizeof(v->b), "%s", next);
		v->rb = rn;
		e += 2;
	}
	return e;
}

/* "50% of run", "the final 20%", "last 10% of training": a share of the
 * run at p, a percentage with the words that place it. Returns the tokens
 * taken (the percentage at *pct), 0 when p holds none. */
static int run_share_at(const struct reader *r, int p, int end, int *pct)
{
	static const char *const place[] = { "final", "last", "first", NULL };
	static const char *const whole[] = { "run", "training", "steps", "budget", NULL };
	int q = p + word_is(r, p, end, "the");
	int placed = word_in(r, q, end, place);
	q += placed;
	const struct tok *t = at(r, q, end);
	if (t->k != K_NUM || !strchr(t->w, '%'))
		return 0;
	*pct = q++;
	int of = word_is(r, q, end, "of") ? 1 + word_is(r, q + 1, end, "the") : 0;
	static const char *const kinds[] = { "time", "training", "total", NULL };
	if (of && word_in(r, q + of, end, kinds) && word_in(r, q + of + 1, end, whole))
		of++; /* "5% of the time budget", "10% of training steps" */
	if (of && word_in(r, q + of, end, whole))
		q += of + 1;
	else if (!placed)
		return 0; /* a bare "20%" is the plain form's */
	return q - p;
}

/* "delay LR warmdown from 50% of run to final 20%", "warmdown further to
 * final 10%": a warmup or warmdown given as the share of the run it
 * takes is its ratio. */
static int run_share_form(struct reader *r, const struct name *nm, int p, int q, int end)
{
	if (strcmp(nm->var, "sched.warmdown_ratio") && strcmp(nm->var, "sched.warmup_ratio"))
		return 0;
	struct vals v;
	int from = word_is(r, q, end, "from"), pa = -1, pb = -1, ka = 0, kb;
	if (from && !(ka = run_share_at(r, q + 1, end, &pa)) &&
	    at(r, q + 1, end)->k == K_NUM && strchr(at(r, q + 1, end)->w, '%')) {
		pa = q + 1; /* "from 50% to the final 20%" */
		ka = 1;
	}
	if (from && !ka)
		return 0;
	int t = q + from + ka;
	/* round 12: "warmdown over the last 40% of the run", "warmup for the
	 * first 5%": the share it spans, said with another preposition */
	static const char *const spans[] = { "over", "for", "during", "in", NULL };
	int to = word_is(r, t, end, "to") || (!from && word_in(r, t, end, spans));
	if (!to || !(kb = run_share_at(r, t + 1, end, &pb)) || !boundary(r, t + 1 + kb, end))
		return 0;
	if ((v.rb = value_at(r, pb, end, nm->var, 0, v.b, sizeof(v.b))) != 0 ||
	    (pa >= 0 && (v.ra = value_at(r, pa, end, nm->var, 0, v.a, sizeof(v.a))) != 0))
		return 0;
	return finish(r, nm, pa >= 0 ? v.a : NULL, v.b, p, t + 1 + kb, end);
}

/* "warmup 100 steps", "warmdown 3500 -> 80 iters": a warmup counted in
 * steps is desc.warmup_steps (the README's), not the ratio. */
static int step_count_form(struct reader *r, const struct name *nm, int p, int q, int end)
{
	const char *which = !strcmp(nm->var, "sched.warmup_ratio") ? "desc.warmup"
			    : !strcmp(nm->var, "sched.warmdown_ratio") ? "desc.warmdown" : NULL;
	int a = q + word_is(r, q, end, "from"), e = a + 1;
	if (!which || at(r, a, end)->k != K_NUM)
		return 0;
	if (is_to(r, a + 1, end) && at(r, a + 2, end)->k == K_NUM)
		e = a + 3;
	if (!word_in(r, e, end, step_units) || !boundary(r, e + 1, end))
		return 0;
	struct name st = { .known = 1 };
	char old[40], val[40];
	snprintf(st.var, sizeof(st.var), "%s_%s", which, word_is(r, e, end, "iters") ||
		 word_is(r, e, end, "iterations") ? "iters" : "steps"); /* named by its unit */
	if (number_value(at(r, e - 1, end)->w, st.var, val, sizeof(val)) ||
	    (e == a + 3 && number_value(at(r, a, end)->w, st.var, old, sizeof(old))))
		return 0;
	return finish(r, &st, e == a + 3 ? old : NULL, val, p, e + 1, end);
}

/* After name (tokens [p, q)): the forms that state values. Returns the
 * tokens taken from p, 0 when none fits. licensed: a verb came first. */
static int name_forms(struct reader *r, const struct name *nm, int p, int q, int end,
		      int licensed, int flags)
{
	struct vals v;
	if (nm->implied)
		return 0; /* "AdamW to Muon": AdamW is a value */
	q += muon_scope(r, q, end, nm->var);
	q = skip_between(r, q, end, nm->known);
	int n;
	if ((n = step_count_form(r, nm, p, q, end)) || (n = run_share_form(r, nm, p, q, end)))
		return n;
	const char *var = nm->var;
	int known = nm->known, loose = !known;
	const struct tok *t = at(r, q, end);
	int from = word_is(r, q, end, "from"), a = q + from;
#define VAL(i, dst, res) ((res) = value_at(r, (i), end, var, loose, (dst), sizeof(dst)), (res) >= 0)
#define SIDE(buf, res) ((res) == 0 ? (buf) : NULL)
	/* "from default to 28", "from the baseline value to 4": the old side unsaid */
	int dflt = from ? default_at(r, a, end) : 0;
	if (dflt && is_to(r, a + dflt, end) && VAL(a + dflt + 1, v.b, v.rb) &&
	    boundary(r, a + dflt + 2, end))
		return finish(r, nm, NULL, SIDE(v.b, v.rb), p, a + dflt + 2, end);
	/* "to 1/4 of the default", "to 0.75x of default": relative, value unknown */
	int rel = word_is(r, q, end, "to") && at(r, q + 1, end)->k != K_SEP ? relative_at(r, q + 2, end) : 0;
	if (rel && (known || licensed))
		return finish(r, nm, NULL, NULL, p, q + 2 + rel, end);
	/* "from six documents to eight", "from 300 steps to 80 steps": each
	 * count in what it counts */
	int u = known ? count_noun(r, a + 1, end, var) : 0;
	if (u && (word_is(r, a + 1 + u, end, "down") || word_is(r, a + 1 + u, end, "up")))
		u++; /* "from 12 layers down to 10" */
	if (u && VAL(a, v.a, v.ra) && is_to(r, a + 1 + u, end) && VAL(a + 2 + u, v.b, v.rb)) {
		int e = a + 3 + u, ub = count_noun(r, e, end, var);
		double secs;
		char unit[8];
		if (!ub && !strcmp(var, "train.time_budget_s")) { /* "from 5 minutes to 10": a's unit */
			if (num_parse(at(r, a + 2 + u, end)->w, &secs, unit) || unit[0])
				return 0;
			format_number(secs * time_unit(r, a + 1, end), v.b, sizeof(v.b));
		}
		e += ub;
		if (boundary(r, e, end))
			return finish(r, nm, SIDE(v.a, v.ra), SIDE(v.b, v.rb), p, e, end);
	}
	/* [from] a (to | ->) b [-> c …] */
	if (VAL(a, v.a, v.ra) && is_to(r, a + 1, end) && VAL(a + 2, v.b, v.rb) &&
	    (known || from || at(r, a + 1, end)->k == K_ARROW || at(r, a, end)->k == K_NUM) &&
	    (known || at(r, a + 2, end)->k != K_WORD || boundary(r, a + 3, end))) {
		int e = chain_end(r, a + 2, end, var, loose, &v);
		struct name unit;
		if (e < 0)
			return 0; /* "15 -> 20 -> off": no value this reading trusts */
		int ku = known_name(r, e, end, &unit);
		if (ku && (!known || strcmp(unit.var, var)) && boundary(r, e + ku, end))
			return 0; /* "tokenizer 8k -> 32k vocab": the values are the vocab's */
		/* "depth 10 -> 0.975 bpb": the arrow leads to the score it got */
		const struct var_def *vd = varreg_find(var);
		if (e == a + 3 && !from && vd && vd->type == VAR_INT && !v.ra && !v.rb &&
		    !fractional(v.a) && fractional(v.b))
			return finish(r, nm, NULL, v.a, p, e, end); /* "depth 12 → 0.972": a score */
		if (e == a + 3 && !from && p_score_at(r, e, end))
			return finish(r, nm, NULL, SIDE(v.a, v.ra), p, e, end);
		/* "0.6 -> 0.9 -> 1.2": tries in a row; the last is the run's value,
		 * which one it came from is not sure */
		return finish(r, nm, e > a + 3 ? NULL : SIDE(v.a, v.ra), SIDE(v.b, v.rb), p, e, end);
	}
	/* round 11: "Muon momentum fixed (at) 0.95": held, so its warmup went,
	 * as "fixed Muon momentum 0.95" (finish) */
	if (!strcmp(var, "optim.muon_momentum") && (word_is(r, q, end, "fixed") || word_is(r, q, end, "constant"))) {
		int e = q + 1 + word_is(r, q + 1, end, "at");
		struct name warm = { .var = "desc.muon_momentum_warmup_steps", .known = 1 };
		if (at(r, e, end)->k == K_NUM && VAL(e, v.a, v.ra)) {
			emit(r, &warm, NULL, "0", p, e + 1);
			return e + 1 - p;
		}
	}
	/* "from 0.90 instead of 0.88": the new value, then the old (finish) */
	if (from && VAL(a, v.a, v.ra) && word_is(r, a + 1, end, "instead") && word_is(r, a + 2, end, "of"))
		return finish(r, nm, NULL, SIDE(v.a, v.ra), p, a + 1, end);
	/* (= | :) a [-> b] */
	if ((t->k == K_EQ || t->k == K_COLON) && at(r, q + 1, end)->k == K_NUM &&
	    counts_other(r, q + 2, end, var))
		return 0;
	/* "logit softcapping at 15.0": a known knob held at a value */
	if (known && !(flags & F_WITH) && word_is(r, q, end, "at") && at(r, q + 1, end)->k == K_NUM &&
	    VAL(q + 1, v.b, v.rb) && boundary(r, q + 2, end) && !p_result_at(r, q + 2, end))
		return finish(r, nm, NULL, SIDE(v.b, v.rb), p, q + 2, end);
	if ((t->k == K_EQ || t->k == K_COLON) && VAL(q + 1, v.a, v.ra)) {
		if (at(r, q + 2, end)->k == K_ARROW && VAL(q + 3, v.b, v.rb))
			return finish(r, nm, SIDE(v.a, v.ra), SIDE(v.b, v.rb), p, q + 4, end);
		if (at(r, q + 2, end)->k == K_ARROW)
			return 0; /* "softcap: 15 -> ???": a is what it was, not the value */
		return finish(r, nm, NULL, SIDE(v.a, v.ra), p, q + 2, end);
	}
	/* "depth 7 with device batch 16": a registry knob and its number after
	 * "with" is a setting of this run too, once the text has changed
	 * something ("val_bpb 0.985 -> 0.979 with depth 10" reports a run);
	 * a value the parent already had is dropped by the state */
	if ((flags & F_WITH) && known && r->out->n > 0 && !str_starts_with(var, "desc.") &&
	    t->k == K_NUM &&
	    boundary(r, q + 1, end) && !counts_other(r, q + 1, end, var) && VAL(q, v.a, v.ra))
		return finish(r, nm, NULL, SIDE(v.a, v.ra), p, q + 1, end);
	if (flags & F_WITH)
		return 0;
	/* (-> | to) b, b not another knob's ("4 heads -> 8 layers") */
	struct name other;
	int ko = known_name(r, q + 2, end, &other);
	if ((t->k == K_ARROW || (word_is(r, q, end, "to") && (known || licensed))) &&
	    VAL(q + 1, v.b, v.rb) && (known || boundary(r, q + 2, end)) &&
	    !(ko && strcmp(other.var, var) && boundary(r, q + 2 + ko, end))) {
		int e = q + 2;
		if (!strcmp(var, "sched.warmdown_shape"))
			while (word_in(r, e, end, value_nouns))
				e++; /* "to cosine schedule instead of linear": the old side follows */
		return finish(r, nm, NULL, SIDE(v.b, v.rb), p, e, end);
	}
	/* "Muon momentum warmup (0.7->0.95 over 500 steps)": a ramp, as unbracketed */
	if (!strcmp(var, "desc.muon_momentum_warmup_steps") && t->k == K_PAREN && paren_ramp(r, t))
		return q + 1 - p;
	/* [verb] name (a to b) */
	int with_after = at(r, q + 1, end)->k == K_SEP && at(r, q + 1, end)->sep == SEP_WITH;
	if ((licensed || known) && t->k == K_PAREN && !with_after && !paren_range(r, t, var, loose, &v))
		return finish(r, nm, SIDE(v.a, v.ra), SIDE(v.b, v.rb), p, q + 1, end);
	if (t->k == K_PAREN && with_after)
		return 0; /* "Replace adaptive cosine gradient clipping (1.0 to 0.3) with …": the old one's range */
	/* known-name (a): "bigger batch (2^20)", "smaller model dim (512)",
	 * "AdamW betas (0.9, 0.95)" */
	if (known && t->k == K_PAREN && !paren_value(r, t, var, &v))
		return finish(r, nm, NULL, SIDE(v.b, v.rb), p, q + 1, end);
	if (known && t->k == K_PAREN && varreg_find(var) && varreg_find(var)->type == VAR_TUPLE &&
	    at(r, q + 1, end)->k != K_ARROW && !tuple_value(r, t, v.b, sizeof(v.b)))
		return finish(r, nm, NULL, v.b, p, q + 1, end);
	/* known-name xN: "UNEMBEDDING_LR x2", "MATRIX_LR *1.5": changed, value unknown */
	if (known && is_times_step(r, q, end))
		return finish(r, nm, NULL, NULL, p, q + 1 + (at(r, q + 1, end)->k == K_NUM), end);
	/* technique on | off: "weight tying on", "XSA: off" */
	int colon = t->k == K_COLON;
	/* "weight tying: on -> off": from the first to the last */
	if (flags & F_NEG)
		return 0;
	if (nm->technique && word_in(r, q + colon, end, switch_words) &&
	    at(r, q + colon + 1, end)->k == K_ARROW && word_in(r, q + colon + 2, end, switch_words) &&
	    boundary(r, q + colon + 3, end))
		return finish(r, nm, word_in(r, q + colon, end, knob_off_words) ? "false" : "true",
			      word_in(r, q + colon + 2, end, knob_off_words) ? "false" : "true",
			      p, q + colon + 3, end);
	if (nm->technique && word_in(r, q + colon, end, switch_words) && boundary(r, q + colon + 1, end))
		return finish(r, nm, NULL, word_in(r, q + colon, end, knob_off_words) ? "false" : "true",
			      p, q + colon + 1, end);
	/* known-name a (not "a -> what this reading does not take", not "a * 2",
	 * not "depth 10 base": the base it started from) */
	static const char *const times[] = { "*", "x", "\xc3\x97", "times", "base", "baseline", NULL };
	/* "matrix lr 0.04 (best so far) -> 0.05": a remark between the two values */
	if (known && at(r, q + 1, end)->k == K_PAREN && at(r, q + 2, end)->k == K_ARROW &&
	    VAL(q, v.a, v.ra) && VAL(q + 3, v.b, v.rb) && boundary(r, q + 4, end))
		return finish(r, nm, SIDE(v.a, v.ra), SIDE(v.b, v.rb), p, q + 4, end);
	if (known && t->k == K_NUM && own_unit(r, q + 1, end, var) && VAL(q, v.a, v.ra))
		return finish(r, nm, NULL, SIDE(v.a, v.ra), p, q + 2, end); /* "batch 64K tokens" */
	/* round 11: "batch six documents per Adam update instead of eight": the
	 * count in what it counts, then what one optimizer step takes */
	int cn = known ? count_noun(r, q + 1, end, var) : 0;
	if (cn && VAL(q, v.a, v.ra)) {
		struct name per;
		int e = q + 1 + cn, k = per_update_batch(r, q + 1, end, &per);
		if (k && !strcmp(per.var, "train.device_batch_size"))
			e = q + 1 + k;
		if (boundary(r, e, end) || word_is(r, e, end, "instead"))
			return finish(r, nm, NULL, SIDE(v.a, v.ra), p, e, end);
	}
	if (known && t->k == K_NUM && counts_other(r, q + 1, end, var))
		return 0; /* "mlp 4 experts" */
	/* "flash attention 2x faster", "weight tying 1.2x slower": a multiple
	 * that a comparison follows is a result, no step of the knob */
	static const char *const speeds[] = { "faster", "slower", "quicker", "speedup", "speed", NULL };
	if (known && t->k == K_NUM && strpbrk(t->w, "xX") &&
	    (word_in(r, q + 1, end, speeds) || word_in(r, q + 1, end, comparatives)))
		return 0;
	/* round 11: "depth 8 + 2", "WD 0.1 + 0.05": a sum, not the value */
	const struct tok *plus = at(r, q + 1, end);
	if (known && t->k == K_NUM && plus->k == K_SEP && plus->a >= 0 && r->text[plus->a] == '+' &&
	    at(r, q + 2, end)->k == K_NUM && !strpbrk(at(r, q + 2, end)->w, "^*") && boundary(r, q + 3, end))
		return 0; /* ("depth 8 + 2^17" is the depth and the batch) */
	if (known && t->k != K_PAREN && (!p_result_at(r, q + 1, end) || scored_at(r, q + 1, end)) &&
	    (at(r, q + 1, end)->k != K_ARROW || p_result_at(r, q + 2, end)) && !word_in(r, q + 1, end, times) && !value_list_at(r, q, end) && VAL(q, v.a, v.ra))
		return finish(r, nm, NULL, SIDE(v.a, v.ra), p, q + 1, end);
	return 0;
#undef VAL
#undef SIDE
}

/* The state of the clause being read. */
struct clause {
	int start;  /* its first token */
	int flags;  /* F_PAREN, F_WITH */
	int carry;  /* a toggle that goes on over "and" / "," / "/": 1 on, 2 off */
	int toggled;
	int listed; /* the clause before it changed something and "+", "&", "and", ","
	             * joined them: a technique named alone is a change too */
	int added;  /* r->added when the clause began */
};

/* The word before the operator: name words run from p to the first token
 * that is not a word, or to "from" / "to". */
static int name_end_n(const struct reader *r, int p, int end, int most)
{
	int q = p;
	while (q < end && q - p < most && r->tk.t[q].k == K_WORD && !word_is(r, q, end, "from") &&
	       !word_is(r, q, end, "to"))
		q++;
	return q;
}

static int name_end(const struct reader *r, int p, int end)
{
	return name_end_n(r, p, end, 5);
}

/* A known knob's name and one of these is a schedule of that knob: the
 * values stated are the knob's range over it, not the schedule's value. */
static const char *const schedule_words[] = {
	"curriculum", "schedule", "ramp", "annealing", NULL
};

/* name-forms for a known name at p, else (at the start of a clause or after
 * a verb) for the words up to the operator as a desc.* knob. */
/* A word at p with a digit in it ("bf16", "fp8"): a setting's name, not a knob's. */
static int has_digit(const struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	return t->k == K_WORD && strpbrk(t->w, "0123456789") != NULL;
}

/* A word at p written as code: '_' or a digit in it, or capitals past its
 * first letter (top_k, TOP_K, AR, x0). */
static int code_token(const struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	int marks = 0, caps = 0;
	if (t->k != K_WORD)
		return 0;
	for (int i = t->a; i < t->b; i++) {
		marks |= r->text[i] == '_' || isdigit((unsigned char)r->text[i]);
		caps |= i > t->a && isupper((unsigned char)r->text[i]);
	}
	return marks || caps;
}


/* 1 when [p, q) is part nouns before a registry name that ends the words
 * ("embedding weight decay", "attention dropout"). */
/* Words that qualify a part ("value embedding parameter group"). */
static const char *const part_qualifiers[] = { "parameter", "parameters", "param", "params",
					       "group", "groups", "weights", NULL };

static int part_before_known(const struct reader *r, int p, int q)
{
	struct name tail;
	if (p >= q) /* no words: p may stand past the last token (make fuzz found it) */
		return 0;
	if (!in_list(r->tk.t[p].w, part_nouns))
		return 0;
	for (int i = p + 1; i < q; i++) {
		if (!in_list(r->tk.t[i - 1].w, part_nouns) && !in_list(r->tk.t[i - 1].w, part_qualifiers))
			return 0;
		if (known_name(r, i, q, &tail) == q - i && !str_starts_with(tail.var, "desc."))
			return 1;
	}
	return 0;
}

/* 1 when a registry knob's name ends the words [a, e) ("… parameter
 * group weight decay"), its first word a part qualifier or the name. */
static int registry_tail(const struct reader *r, int a, int e)
{
	struct name tail;
	for (int i = a; i < e; i++) {
		if (known_name(r, i, e, &tail) == e - i && !str_starts_with(tail.var, "desc."))
			return 1;
		if (!in_list(r->tk.t[i].w, part_qualifiers) && !in_list(r->tk.t[i].w, part_nouns))
			return 0;
	}
	return 0;
}

/* The end of the phrase q is in: the next boundary. */
static int phrase_end(const struct reader *r, int q, int end)
{
	while (q < end && !boundary(r, q, end))
		q++;
	return q;
}

static int mixed_case(const struct reader *r, const struct tok *t);

static int p_named(struct reader *r, int p, int end, int licensed, int at_start, int flags)
{
	struct name nm;
	int k = known_name(r, p, end, &nm), n, kv, kp;
	/* "MLP dropout 0.1", "embedding weight decay 0.01": a part's knob */
	if ((kp = part_first_name(r, p, end, &nm)))
		return name_forms(r, &nm, p, p + kp, end, licensed, flags);
	/* "switch LR warmdown to cosine (schedule)": a shape given to the
	 * warmdown is its shape's change, not its ratio's */
	if (k && !strcmp(nm.var, "sched.warmdown_ratio") && is_to(r, p + k, end) &&
	    value_word_at(r, p + k + 1, end, "sched.warmdown_shape", &kv))
		snprintf(nm.var, sizeof(nm.var), "sched.warmdown_shape");
	int home = k && !strcmp(nm.var, "model.softcap") ? softcap_home_at(r, p + k, end) : 0;
	if (home && (n = name_forms(r, &nm, p, p + k + home, end, licensed, flags)))
		return n; /* "softcap in output logits tanh from 12 to 14" */
	if (k && (n = name_forms(r, &nm, p, p + k, end, licensed, flags)))
		return n;
	/* "MoE top_k=1", "lr=1e-3+accum=4": one token written as code right
	 * before '=' names a knob wherever it stands */
	int assigned = !k && at(r, p + 1, end)->k == K_EQ && code_token(r, p, end);
	if ((flags & F_PAREN) || !(at_start || licensed || assigned))
		return 0;
	int q = name_end(r, p, end);
	const struct tok *op = at(r, q, end);
	/* "embedding weight decay 0.01", "attention dropout 0.1": a part's
	 * knob, which the forms below may coin; the registry knob inside the
	 * phrase is never read on its own (no weight decay of the embeddings
	 * is the model's weight decay) */
	struct name first = nm, last;
	/* "value embedding (parameter group) weight decay 0.003": a knob of a
	 * technique's part, not the model's weight decay */
	int e = name_end_n(r, p, end, 7);
	int tech_part = k && str_starts_with(first.var, "desc.") && registry_tail(r, p + k, e);
	int part = (!k && part_before_known(r, p, e)) || tech_part;
	int phrase = part ? phrase_end(r, e, end) - p : 0;
	if (op->k == K_COLON || (op->k == K_EQ && q - p != 1) || k >= q - p || unknown_name(r, p, q, &nm))
		return phrase; /* a known name the forms refused is not a knob of its own either */
	if (q - p == 1 && op->k == K_ARROW && has_digit(r, p, end) && has_digit(r, q + 1, end))
		return 0; /* "bf16 -> fp8", "v1 -> v2": one setting to another, the knob unnamed */
	if (q - p == 1 && op->k == K_ARROW && mixed_case(r, &r->tk.t[p]) &&
	    at(r, q + 1, end)->k == K_WORD && mixed_case(r, at(r, q + 1, end)))
		return 0; /* round 11: "LayerNorm -> RMSNorm" was desc.layernorm ? -> RMSNorm:
			   * two proper names, values of a knob unnamed */
	if (!k && q - p >= 2 && op->k == K_ARROW && at(r, q + 1, end)->k == K_WORD &&
	    !has_digit(r, q - 1, q) && !code_token(r, q - 1, q))
		return 0; /* round 12: "loss_fn mse -> huber" was desc.loss_fn_mse ? -> huber:
			   * before a word value the name's last word may be the old one */
	nm.range = k && p + k < q && word_in(r, q - 1, q, schedule_words);
	if (k && !tech_part && known_name(r, p + k, q, &last) == q - p - k && !str_starts_with(last.var, "desc.")) {
		if (part_base(last.var) && in_list(r->tk.t[p].w, part_nouns))
			return phrase_end(r, q, end) - p; /* "attention weight decay 0.1": a part's knob, unnamed */
		nm = last; /* "ADAM_BETAS beta1 0.8->0.9": the more precise name */
	}
	int n2 = name_forms(r, &nm, p, q, end, licensed, flags);
	return n2 ? n2 : phrase;
}

static const char *zero_off[] = { "optim.weight_decay", "sched.warmup_ratio", "sched.warmdown_ratio",
				  "sched.final_lr_frac", "model.dropout", NULL };

/* The value "add X" (on) or "remove X" (off) gives X, or NULL for none. */
static const char *toggle_value(const struct name *nm, int on)
{
	const struct var_def *d = varreg_find(nm->var);
	if (on && !d && !nm->implied && !strcmp(nm->var, "desc.n_kv_head"))
		return NULL; /* "enable GQA": a count of KV heads, not a switch */
	if (on)
		return nm->implied ? nm->implied : (!d || d->type == VAR_BOOL) ? "true" : NULL;
	if (!d) /* a loss term, a warmup counted in steps ("remove Muon momentum
		 * warmup"), a part's dropout or weight decay: zero is its off */
		return str_ends_with(nm->var, "_loss") || str_ends_with(nm->var, "_dropout") ||
		       str_ends_with(nm->var, "_weight_decay") || (counts_steps(nm->var) &&
			(strstr(nm->var, "warmup") || strstr(nm->var, "warmdown"))) ? "0" : "false";
	if (d->type == VAR_BOOL)
		return "false";
	if (in_list(nm->var, zero_off))
		return "0";
	if (!strcmp(nm->var, "impl.compile_mode"))
		return "eager";
	if (!strcmp(nm->var, "model.window_pattern"))
		return "L"; /* no sliding window: every layer attends in full */
	return d->type == VAR_NUMBER && !nm->implied ? "false" : NULL;
}

/* Words [p, q) hold a knob the registry knows ("SSSL window pattern"):
 * they are that knob's setting, not a technique of their own to toggle. */
static int names_a_setting(struct reader *r, int p, int q)
{
	struct name nm;
	for (int i = p + 1; i < q; i++)
		if (known_name(r, i, q, &nm) && !str_starts_with(nm.var, "desc."))
			return 1;
	return 0;
}

static int is_lr_schedule(const char *var)
{
	return !strcmp(var, "sched.warmup_ratio") || !strcmp(var, "sched.warmdown_ratio");
}

/* "(0 steps)", "(100 iters)": a parenthesis that counts steps. */
static int paren_counts_steps(const struct reader *r, const struct tok *t)
{
	struct toks in = { 0 };
	tokenize(r->text, t->a + 1, inner_end(r->text, t), &in);
	int yes = in.n == 2 && in.t[0].k == K_NUM && in.t[1].k == K_WORD && in_list(in.t[1].w, step_units);
	free(in.t);
	return yes;
}

/* "Add a small LR warmup (5% of the time budget)", "Add dropout (p=0.1)":
 * a numeric knob turned on with its value in the parenthesis after it —
 * one value, as a share of the run, or "p=" / "rate=" and one value. 1
 * and buf filled, else 0. */
static int added_value(struct reader *r, int q, int end, const char *var, char *buf, size_t n)
{
	const struct tok *t = at(r, q, end);
	if (t->k != K_PAREN)
		return 0;
	struct reader in;
	reader_open(&in, r, t);
	int m = in.tk.n, pct = -1, ok = 0;
	if (m >= 3 && in.tk.t[0].k == K_WORD && (word_is(&in, 0, m, "p") || word_is(&in, 0, m, "rate")) &&
	    in.tk.t[1].k == K_EQ && in.tk.t[2].k == K_NUM && m == 3)
		pct = 2;
	else if (m == 1 && in.tk.t[0].k == K_NUM)
		pct = 0;
	else if (run_share_at(&in, 0, m, &pct) != m)
		pct = -1;
	if (pct >= 0)
		ok = value_at(&in, pct, m, var, 0, buf, n) == 0 && !out_of_range(var, buf);
	reader_close(&in);
	return ok;
}

/* "on 16GB", "on H100", "on the M4": where the run ran (a word with a
 * digit after "on"), not a part of the model the knob is restricted to. */
static int on_hardware(const struct reader *r, int p, int end)
{
	if (!word_is(r, p, end, "on"))
		return 0;
	/* round 11: a system or a device named by a word ("torch.compile on
	 * Linux") is where the run ran too */
	static const char *const systems[] = { "linux", "windows", "macos", "mac", "wsl", "ubuntu",
					       "mps", "cuda", "rocm", "cpu", "gpu", NULL };
	const struct tok *t = at(r, p + 1 + word_in(r, p + 1, end, articles), end);
	if (t->k != K_WORD)
		return 0;
	if (in_list(t->w, systems))
		return 1;
	for (int i = t->a; i < t->b; i++)
		if (isdigit((unsigned char)r->text[i]))
			return 1;
	return 0;
}

/* "to cross-entropy loss", "to the loss": where a loss term lives, no
 * part of the model ("Add label smoothing to cross-entropy loss"). */
static int loss_home(const struct reader *r, int p, int end)
{
	static const char *const det[] = { "the", "a", NULL };
	static const char *const home[] = { "loss", "cross entropy", "cross", "ce", "objective", "xent",
					     NULL };
	int q = p + 1 + word_in(r, p + 1, end, det);
	return word_is(r, p, end, "to") && word_in(r, q, end, home);
}

/* toggle name: the name runs to the end of the phrase. */
static int toggle_name(struct reader *r, int p, int end, int on)
{
	static const char *const again[] = { "back", "again", "too", "entirely", "completely", NULL };
	struct name nm;
	int k = known_name(r, p, end, &nm), q = p, kf = part_first_name(r, p, end, &nm);
	if (kf)
		k = kf; /* "no MLP dropout": the part's knob (nm is it) */
	if (k && word_in(r, p + k, end, again) && boundary(r, p + k + 1, end))
		k++; /* "add value embeddings back" */
	else if (k && !boundary(r, p + k, end) && !loss_home(r, p + k, end))
		return 0; /* "remove seq len warmup" is no knob we can name */
	if (!k) {
		while (q < end && q - p < 4 && !boundary(r, q, end))
			q++;
		k = q - p;
		if (k > 3 || !boundary(r, q, end) || names_a_setting(r, p, q) ||
		    (unknown_name(r, p, q, &nm) && (known_name(r, q - 1, q, &nm) != 1 ||
						    !str_starts_with(nm.var, "desc."))))
			return 0;
	}
	static const char *const scope[] = { "on", "in", "to", "from", NULL };
	static const char *const place[] = { "after", "before", "at", "between", "inside", "within",
					     "for", "of", NULL };
	if (word_in(r, p + k, end, scope) && at(r, p + k + 1, end)->k == K_WORD &&
	    !purpose_at(r, p + k, end) && !on_hardware(r, p + k, end) && !loss_home(r, p + k, end))
		return 0; /* "no weight decay on embeddings": X for a part only, another knob */
	if (str_starts_with(nm.var, "desc.") && !find_desc_name_var(nm.var) &&
	    word_in(r, p + k, end, place) && at(r, p + k + 1, end)->k == K_WORD)
		return 0; /* "add RMSNorm after embedding": which norm is named by its place */
	const char *val = toggle_value(&nm, on);
	char given[96];
	static const char *const where[] = { "after", "before", "on", "in", "to", "for", "at", "between",
					     "inside", "within", "into", NULL };
	struct name part = { .known = 1 };
	int kp;
	if (!val && on && (kp = part_knob_at(r, p + k, end, nm.var, part.var, sizeof(part.var)))) {
		/* "Add dropout after token embedding", "… after token embeddings
		 * (p=0.1)": that part's knob, the corpus's name for it; a dropout
		 * named is tried (true), a weight decay's value is unsaid */
		const char *v = !strcmp(nm.var, "model.dropout") ? "true" : NULL;
		if (added_value(r, p + k + kp, end, nm.var, given, sizeof(given)))
			v = given, kp++;
		return finish(r, &part, NULL, v, p, p + k + kp, end);
	}
	if (!val && on && added_value(r, p + k, end, nm.var, given, sizeof(given))) {
		/* "Add dropout (p=0.2) after the attention output": that place's
		 * dropout, another knob (named when the corpus names it); "… (5%
		 * of the time budget) to improve early training" is a purpose */
		if (word_in(r, p + k + 1, end, where) && at(r, p + k + 2, end)->k == K_WORD &&
		    !purpose_at(r, p + k + 1, end)) {
			if ((kp = part_knob_at(r, p + k + 1, end, nm.var, part.var, sizeof(part.var))))
				return finish(r, &part, NULL, given, p, p + k + 1 + kp, end);
			return 0;
		}
		return finish(r, &nm, NULL, given, p, p + k + 1, end); /* "add dropout (p=0.1)" */
	}
	const struct tok *next = at(r, p + k, end);
	if (!val && on && (in_list(nm.var, zero_off) || !strcmp(nm.var, "desc.n_kv_head")) &&
	    (next->k == K_SEP || next->k == K_STOP || p + k >= end || purpose_at(r, p + k, end)))
		/* "add warmup and less aggressive cooldown", "Add a modest LR
		 * warmup and …": a knob off at zero turned on, to a value unsaid */
		return finish(r, &nm, NULL, NULL, p, p + k, end);
	if (!val)
		return 0;
	const struct tok *unit = at(r, p + k, end);
	if (!on && unit->k == K_PAREN && is_lr_schedule(nm.var) && paren_counts_steps(r, unit)) {
		/* "no warmup (0 steps)": the warmup of a file that counts it in steps */
		snprintf(nm.var, sizeof(nm.var), "%s", !strcmp(nm.var, "sched.warmup_ratio")
			 ? "desc.warmup_steps" : "desc.warmdown_steps");
		val = "0";
	}
	return finish(r, &nm, NULL, val, p, p + k, end);
}

static int skip_fillers(const struct reader *r, int q, int end)
{
	while (word_in(r, q, end, fillers) && q + 1 < end)
		q++;
	return q;
}

static int p_valueword(struct reader *r, int p, int end);
static int p_bare(struct reader *r, int p, int end, int alone);
static int p_value_arrow(struct reader *r, int p, int end);

/* "Muon momentum fixed 0.95 no warmup": a bare warmup or warmdown toggled
 * in the middle of a clause that named a knob with a warmup of its own
 * (momentum, batch size, sequence length) is that knob's schedule, not
 * the learning rate's. */
static int others_schedule(const struct reader *r, int p, int end, const struct clause *cs)
{
	struct name nm, sched;
	int q = skip_fillers(r, p + 1, end), k = known_name(r, q, end, &sched);
	if (p == cs->start || !k || !is_lr_schedule(sched.var) || k != 1)
		return 0;
	for (int i = cs->start; i < p; i++)
		if (known_name(r, i, p, &nm) && (strstr(nm.var, "momentum") ||
						 !strcmp(nm.var, "train.total_batch_size") ||
						 !strcmp(nm.var, "model.seq_len")))
			return 1; /* knobs that have warmups of their own */
	return 0;
}

static int p_layers(struct reader *r, int p, int end);

/* add/enable/use | remove/disable/drop/no/without X, or a value form after
 * them ("add small LR warmup 0.0 -> 0.05"). */
/* Round 11: "add a layer", "Remove the second transformer block", "drop
 * the last layer": one layer more or fewer, the depth changed by an
 * unsaid amount (which layer is not a knob). Tokens taken, 0 if none. */
static int p_layer_toggle(struct reader *r, int p, int end)
{
	static const char *const which[] = { "a", "an", "the", "one", "another", "extra", "last",
					     "first", "second", "third", "final", "more", NULL };
	static const char *const layer[] = { "layer", "block", NULL };
	static const char *const verbs_of_count[] = { "add", "added", "adding", "remove", "removed",
						      "removing", "drop", "dropped", "dropping", NULL };
	if (!word_in(r, p, end, verbs_of_count))
		return 0; /* "use a block" says nothing of how many */
	int q = p + 1;
	while (q < p + 4 && word_in(r, q, end, which))
		q++;
	q += word_is(r, q, end, "transformer");
	if (q == p + 1 || !word_in(r, q, end, layer) || !boundary(r, q + 1, end))
		return 0;
	struct name depth = { .var = "model.depth", .known = 1 };
	return finish(r, &depth, NULL, NULL, p, q + 1, end);
}

/* Round 13: "exp6 flat recursion no z_L hierarchy": a negation right
 * after words that no production took, with nothing read in the clause
 * yet, may say what those words mean (flat, i.e. no hierarchy) rather
 * than be a second change, when what it negates is no knob we know
 * either (p_toggle: "bigger model no warmup" is warmup 0): the clause
 * says nothing for sure. Two words at least before it, words only, none
 * a known name or value ("Muon momentum fixed 0.95 no warmup" is read
 * before the negation). */
static int negation_glosses(const struct reader *r, int p, int end, const struct clause *cs)
{
	struct name nm;
	if (p - cs->start < 2 || r->added != cs->added)
		return 0;
	for (int i = cs->start; i < p; i++) {
		const struct tok *t = &r->tk.t[i];
		if (t->k != K_WORD || known_name(r, i, end, &nm) || find_value_word(t->w, NULL) ||
		    in_list(t->w, verbs) || in_list(t->w, toggles_on) || in_list(t->w, toggles_off))
			return 0;
	}
	return 1;
}

static int p_toggle(struct reader *r, int p, int end, struct clause *cs)
{
	int on = word_in(r, p, end, toggles_on), off = word_in(r, p, end, toggles_off), turn = 0;
	if ((word_is(r, p, end, "turn") || word_is(r, p, end, "switch")) &&
	    (word_is(r, p + 1, end, "on") || word_is(r, p + 1, end, "off"))) {
		on = word_is(r, p + 1, end, "on"); /* "turn off X" */
		off = !on;
		turn = 1;
	}
	if (!on && !off)
		return 0;
	if (others_schedule(r, p, end, cs))
		return 0;
	/* "applied to embeddings", "added to the residual": a place, not a technique */
	if (!turn && word_is(r, p + 1, end, "to"))
		return 0;
	int q = skip_fillers(r, p + 1 + turn, end), n;
	struct name all;
	if (off && !turn && !known_name(r, q, end, &all) && negation_glosses(r, p, end, cs))
		return phrase_end(r, p + 1, end) - p;
	if (off && word_is(r, q, end, "all") && known_name(r, q + 1, end, &all))
		q++; /* "disable all value embeddings": every one of them, the knob itself */
	if (on && (n = p_layers(r, q, end)))
		return q - p + n; /* "add value embeddings to all layers": which layers have it */
	if ((n = p_named(r, q, end, 1, 1, cs->flags | (off ? F_NEG : 0))))
		return q - p + n;
	int use = word_is(r, p, end, "use");
	if (use && ((n = p_valueword(r, q, end)) || (n = p_bare(r, q, end, 1)) || p != cs->start))
		return n ? q - p + n : 0;
	/* "use X" of a name we do not know: at a clause's start only, and
	 * named in two words at least ("use x0" says too little to name it) */
	int w = q;
	while (use && w < end && w - q < 2 && !boundary(r, w, end))
		w++;
	if ((use && w - q < 2) || !(n = toggle_name(r, q, end, on)))
		return 0;
	cs->toggled = on ? 1 : 2;
	return q - p + n;
}


/* After "by": "half", "a third", "a factor of 2", "a small factor":
 * tokens of an amount that gives no value, 0 when it is none. */
static int by_amount(const struct reader *r, int p, int end)
{
	static const char *const amount[] = { "half", "a", "an", "small", "large", "factor", "of",
					      "third", "quarter", "bit", "little", "lot", "fraction", NULL };
	int q = p;
	while (q - p < 5 && (word_in(r, q, end, amount) || (q > p && at(r, q, end)->k == K_NUM)))
		q++;
	return q > p && boundary(r, q, end) ? q - p : 0;
}

/* "embedding, matrix, and scalar learning rates" at p (after a direction
 * word): each "<word> lr" a known learning rate, changed by an unsaid
 * amount. Returns the tokens taken, 0 when it is not such a list. */
static int lr_list(struct reader *r, int p, int end)
{
	static const char *const heads[] = { "learning rates", "lrs", "lr", "learning rate", NULL };
	int q = p, items[8], n = 0;
	while (n < 8 && at(r, q, end)->k == K_WORD) {
		items[n++] = q++;
		if (at(r, q, end)->k == K_SEP && (at(r, q, end)->sep == SEP_LIST || at(r, q, end)->sep == SEP_AND))
			q++;
		if (at(r, q, end)->k == K_SEP && at(r, q, end)->sep == SEP_AND)
			q++; /* ", and" */
		int h = word_is(r, q, end, "learning") ? 2 : 1;
		if (n >= 2 && at(r, q, end)->k == K_WORD &&
		    (in_list(at(r, q, end)->w, heads) || (h == 2 && (word_is(r, q + 1, end, "rates") ||
								      word_is(r, q + 1, end, "rate"))))) {
			if (!boundary(r, q + h, end))
				return 0;
			struct name nm[8];
			for (int i = 0; i < n; i++) {
				char words[120];
				snprintf(words, sizeof(words), "%s lr", r->tk.t[items[i]].w);
				if (lookup_name(words, &nm[i]) || !str_starts_with(nm[i].var, "optim."))
					return 0;
			}
			for (int i = 0; i < n; i++)
				emit(r, &nm[i], NULL, NULL, items[i], q + h);
			return q + h - p;
		}
	}
	return 0;
}

/* The part words of the learning rates, as a text naming learning rates
 * first lists them ("LRs: matrix 0.04->0.06 embedding 0.6->0.8"). */
static const struct lr_part {
	const char *word, *var;
} lr_parts[] = {
	{ "matrix", "optim.matrix_lr" },	  { "embedding", "optim.embedding_lr" },
	{ "embed", "optim.embedding_lr" },	  { "unembedding", "optim.unembedding_lr" },
	{ "unembed", "optim.unembedding_lr" }, { "scalar", "optim.scalar_lr" },
};

static const char *lr_part_var(const struct tok *t)
{
	for (size_t i = 0; t->k == K_WORD && i < ARRAY_SIZE(lr_parts); i++)
		if (!strcmp(t->w, lr_parts[i].word))
			return lr_parts[i].var;
	return NULL;
}

/* 1 when the text before offset pos names learning rates ("LRs",
 * "LR", "learning rates") as a word of its own. */
static int lr_named_before(const char *text, int pos)
{
	for (int i = 0; i + 1 < pos; i++) {
		if ((i > 0 && isalnum((unsigned char)text[i - 1])) || tolower((unsigned char)text[i]) != 'l')
			continue;
		int k = !strncasecmp(text + i, "learning rate", 13) ? 13
			: tolower((unsigned char)text[i + 1]) == 'r' ? 2 : 0;
		if (k && i + k < pos && tolower((unsigned char)text[i + k]) == 's')
			k++;
		if (k && i + k <= pos && !isalnum((unsigned char)text[i + k]))
			return 1;
	}
	return 0;
}

/* "increase LRs: matrix 0.04->0.06 embedding 0.6->0.8 unembed 0.004->0.006",
 * "3x LR increase (matrix 0.001->0.003, scalar 0.01->0.03)": after a text
 * that named learning rates, a part word and its value (or its values
 * around an arrow) is that part's learning rate. */
static int p_lr_part(struct reader *r, int p, int end)
{
	const char *var = lr_part_var(at(r, p, end));
	char a[100], b[100];
	/* round 12: "lower LRs (matrix=0.02, embed=0.3, unembed=0.002)": a
	 * part and its value joined by "=" or ":" */
	int eq = at(r, p + 1, end)->k == K_EQ || at(r, p + 1, end)->k == K_COLON;
	if (!var || !lr_named_before(r->text, at(r, p, end)->a) ||
	    value_at(r, p + 1 + eq, end, var, 0, a, sizeof(a)) || at(r, p + 1 + eq, end)->k != K_NUM)
		return 0;
	int q = p + 2 + eq, arrow = at(r, q, end)->k == K_ARROW;
	if (arrow && (value_at(r, q + 1, end, var, 0, b, sizeof(b)) || at(r, q + 1, end)->k != K_NUM))
		return 0;
	q += arrow ? 2 : 0;
	if (q < end && !boundary(r, q, end) && !lr_part_var(at(r, q, end)))
		return 0; /* "matrix 0.02 0.04 0.08": a sweep, no one value */
	struct name nm = { .known = 1 };
	snprintf(nm.var, sizeof(nm.var), "%s", var);
	emit(r, &nm, arrow ? a : NULL, arrow ? b : a, p, q);
	return q - p;
}

/* halve/double/reduce X [to v] at the start of a clause: X changed, its
 * value unknown unless stated ("reduce warmup", "more heads"). */
static int p_direction(struct reader *r, int p, int end, int flags)
{
	static const char *const words[] = {
		"halve", "double", "triple", "more", "fewer", "increase", "decrease", "reduce",
		"raise", "lower", "bump", "boost", "cut", "shorten", "lengthen", "extend", "widen",
		"narrow", "deepen", "halved", "doubled", "tripled", "increased", "decreased", "reduced",
		"raised", "lowered", "bumped", "boosted", "shortened", "lengthened", "extended",
		"widened", "narrowed", "deepened",
		/* "… by increasing WARMDOWN_RATIO" */
		"increasing", "decreasing", "reducing", "raising", "lowering", "halving", "doubling",
		"tripling", "boosting", "shortening", "lengthening", "extending", "widening", "narrowing",
		"deepening",
		/* "Set COMPILE_MODE to enable JIT", "tune warmdown": changed, value unsaid */
		"set", "change", "adjust", "tune", "retune", "tweak", "modify", "vary", "tuned",
		"adjusted", "tweaked", "changed", "modified", "varied", "retuned",
		/* "higher matrix LR", "a smaller total batch", "longer warmup" */
		"higher", "larger", "bigger", "smaller", "longer", "shorter", "wider", "narrower",
		"deeper", "shallower", "less", "greater", NULL
	};
	/* "slightly lower weight decay", "much higher LR" */
	static const char *const adverbs[] = { "slightly", "much", "somewhat", "even", "bit", "little",
					       "a", "way", "significantly", "marginally", NULL };
	/* said after the name: "bump the embedding LR a bit", "tune X upward" */
	static const char *const amounts[] = { "a", "bit", "little", "slightly", "further", "upward",
					       "upwards", "downward", "downwards", "up", "down", NULL };
	/* what makes a knob's change a comparison ("more heads than …") */
	static const char *const compares[] = { "than", "vs", "vs.", "compared", "relative", "like",
						"as", NULL };
	struct name nm;
	int lead = 0;
	while (lead < 3 && word_in(r, p + lead, end, adverbs) && word_in(r, p + lead + 1, end, adverbs))
		lead++;
	if (word_in(r, p + lead, end, adverbs) && word_in(r, p + lead + 1, end, words) &&
	    !word_in(r, p + lead, end, words))
		lead++;
	p += lead;
	if (!word_in(r, p, end, words) || (flags & F_WITH))
		return 0; /* "… with tuned weight decay": the setting it ran with */
	int n0;
	if ((n0 = lr_list(r, p + 1, end)))
		return 1 + n0;
	int q = skip_fillers(r, p + 1, end), n, k;
	if ((n = p_named(r, q, end, 1, 1, flags)))
		return q - p + n;
	k = known_name(r, q, end, &nm);
	struct name unit;
	int ku, by = k && word_is(r, q + k, end, "by");
	if (k && word_is(r, q + k, end, "by") && at(r, q + k + 1, end)->k == K_NUM) {
		k += 2; /* "increase matrix LR by 20%": a step, the value unknown */
		if ((ku = known_name(r, q + k, end, &unit)) && !strcmp(unit.var, nm.var))
			k += ku; /* "increase DEPTH by 2 layers" */
	}
	else if (k && word_is(r, q + k, end, "by"))
		k += 1 + by_amount(r, q + k + 1, end); /* "reduce batch by half", "by a small factor" */
	/* "z-loss regularization coefficient": words naming the same knob again */
	static const char *const again[] = { "coefficient", "coef", "strength", "term", "regularization",
					     "regularisation", "penalty", NULL };
	for (int i = 0; k && !by && i < 2 && word_in(r, q + k, end, again); i++)
		k++;
	while (k && !by && word_in(r, q + k, end, amounts) && q + k < end && !boundary(r, q + k, end))
		k++; /* "a bit", "upward" */
	int dk;
	if (k && !by && word_is(r, q + k, end, "from") && (dk = default_at(r, q + k + 1, end)) &&
	    boundary(r, q + k + 1 + dk, end))
		k += 1 + dk; /* "Increase DEPTH from default to allow more capacity": the
			      * old side is the default */
	/* "more heads than …" compares; "by 2 while keeping …" has said its amount */
	/* a size compared says nothing of a switch or a choice ("longer flash attention") */
	static const char *const sizes[] = { "higher", "larger", "bigger", "smaller", "longer", "shorter",
					     "wider", "narrower", "deeper", "shallower", "less",
					     "greater", NULL };
	const struct var_def *d = k ? varreg_find(nm.var) : NULL;
	if (!k || !boundary(r, q + k, end) || (!by && word_in(r, q + k, end, compares)) || nm.implied ||
	    (word_in(r, p, end, sizes) && (!d || (d->type != VAR_INT && d->type != VAR_NUMBER))))
		return 0;
	return finish(r, &nm, NULL, NULL, p - lead, q + k, end);
}

/* verb X …: what follows a verb may name a knob the registry lacks. */
static int p_verb(struct reader *r, int p, int end, int flags)
{
	if (!word_in(r, p, end, verbs))
		return 0;
	int q = skip_fillers(r, p + 1, end), n;
	/* "without checkpointing on 16GB": a negation the toggle form refused
	 * never reads what it negates as tried (on) */
	int neg = word_in(r, p, end, toggles_off);
	if ((n = p_value_arrow(r, q, end)) || (n = p_named(r, q, end, 1, 1, flags | (neg ? F_NEG : 0))))
		return q - p + n;
	if (!neg && ((n = p_valueword(r, q, end)) || (n = p_bare(r, q, end, 1))))
		return q - p + n;
	if (q > p && (n = p_direction(r, q, end, flags)))
		return q - p + n; /* "try a larger MATRIX_LR" */
	return 0;
}

/* Two variables of one family: sched.warmdown_ratio, sched.warmdown_shape. */
static int same_family(const char *a, const char *b)
{
	const char *ua = strrchr(a, '_'), *ub = strrchr(b, '_');
	size_t la = ua ? (size_t)(ua - a) : strlen(a), lb = ub ? (size_t)(ub - b) : strlen(b);
	return !strcmp(a, b) || (la == lb && !strncmp(a, b, la));
}

/* A known name and '=' at p: the next change of "HEAD_DIM=64 4 heads
 * dim=256", where no separator ends the one before. */
static int starts_assignment(struct reader *r, int p, int end)
{
	struct name nm;
	int k = known_name(r, p, end, &nm);
	return k && at(r, p + k, end)->k == K_EQ;
}

/* value [-> value] known-name: "4 heads", "768→896 dim", "SL pattern",
 * "cosine warmdown", "12 heads instead of 6". */
static int p_value_first(struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	int arrow = at(r, p + 1, end)->k == K_ARROW, q = p + (arrow ? 3 : 1), k;
	struct name nm;
	struct vals v;
	if ((t->k != K_NUM && t->k != K_WORD) || !(k = known_name(r, q, end, &nm)))
		return 0;
	const struct var_def *dk = varreg_find(nm.var);
	int counted = t->k == K_WORD && spelled_count(t->w) > 0 && !nm.implied && dk && dk->type == VAR_INT;
	if (t->k == K_WORD && !counted) {
		const struct value_word *vw = find_value_word(t->w, NULL);
		if (nm.implied || !(vw || is_window_pattern(t, r->text)))
			return 0;
		if (vw && !same_family(vw->var, nm.var))
			return 0;
		if (vw)
			snprintf(nm.var, sizeof(nm.var), "%s", vw->var);
	}
	struct name again;
	int k2;
	if (!arrow && t->k == K_NUM && at(r, q + k, end)->k == K_ARROW && at(r, q + k + 1, end)->k == K_NUM &&
	    (k2 = known_name(r, q + k + 2, end, &again)) && !strcmp(again.var, nm.var) &&
	    boundary(r, q + k + 2 + k2, end)) { /* "8 layers -> 10 layers" */
		if ((v.ra = value_at(r, p, end, nm.var, 0, v.a, sizeof(v.a))) < 0 ||
		    (v.rb = value_at(r, q + k + 1, end, nm.var, 0, v.b, sizeof(v.b))) < 0)
			return 0;
		return finish(r, &nm, v.ra ? NULL : v.a, v.rb ? NULL : v.b, p, q + k + 2 + k2, end);
	}
	struct name next;
	/* round 11: "3 layers x 192 dim", "8 heads × 64": a shape's sides */
	int by = word_is(r, q + k, end, "x") || word_is(r, q + k, end, "\xc3\x97");
	if (!boundary(r, q + k, end) && !word_is(r, q + k, end, "instead") &&
	    !word_is(r, q + k, end, "of") && !starts_assignment(r, q + k, end) &&
	    !(at(r, q + k + by, end)->k == K_NUM && known_name(r, q + k + by + 1, end, &next)))
		return 0; /* "10 layers 640 dim": pairs in a row, each value before its name */
	static const char *const step_words[] = { "more", "fewer", "less", "extra", "additional", NULL };
	static const char *const step_verbs[] = { "add", "added", "adding", "remove", "removed", "removing",
						  "drop", "dropped", "cut", "plus", "minus", NULL };
	const struct var_def *d = varreg_find(nm.var);
	/* "add 2 layers" counts what is added; "add 5% warmup" sets a ratio */
	int after_verb = p > 0 && r->tk.t[p - 1].k == K_WORD && in_list(r->tk.t[p - 1].w, step_verbs) &&
			 d && d->type == VAR_INT;
	if (word_in(r, q, end, step_words) || (after_verb && !arrow))
		/* "2 more layers", "added 2 layers": a step, the value unknown */
		return !arrow && (t->k == K_NUM || counted) ? finish(r, &nm, NULL, NULL, p, q + k, end) : 0;
	if ((v.rb = value_at(r, q - 1, end, nm.var, 0, v.b, sizeof(v.b))) < 0 ||
	    (arrow && (v.ra = value_at(r, p, end, nm.var, 0, v.a, sizeof(v.a))) < 0))
		return 0;
	return finish(r, &nm, arrow && !v.ra ? v.a : NULL, v.rb ? NULL : v.b, p, q + k, end);
}

/* Round 11: "WARMDOWN=0.05 2^17 GPU1": a power of two written as one
 * (2^13 to 2^24), standing by itself after a change, is autoresearch's
 * token batch (TOTAL_BATCH_SIZE = 2**19), the README's label; not after
 * a word, whose value it may be, nor before a name or a result, whose
 * value it is. */
static int p_power_batch(struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end), *before = at(r, p - 1, end);
	int exp = 0, k = 0;
	struct name nm;
	if (t->k != K_NUM || r->added == 0 || before->k == K_WORD || before->k == K_ARROW ||
	    before->k == K_EQ || before->k == K_COLON)
		return 0;
	if (sscanf(t->w, "2^%d%n", &exp, &k) != 1 && sscanf(t->w, "2**%d%n", &exp, &k) != 1)
		return 0;
	if (t->w[k] || exp < 13 || exp > 24 || at(r, p + 1, end)->k == K_ARROW ||
	    known_name(r, p + 1, end, &nm) || p_result_at(r, p + 1, end))
		return 0;
	struct name batch = { .var = "train.total_batch_size", .known = 1, .total = 1 };
	char val[40];
	if (number_value(t->w, batch.var, val, sizeof(val)))
		return 0;
	return finish(r, &batch, NULL, val, p, p + 1, end);
}

/* "12-layer model", "8-head attention": a count joined to its knob. */
static int p_hyphen_unit(struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	char *sp = strchr(t->w, ' ');
	struct name nm;
	/* "six-layer model", "four-head attention": a count spelled out */
	char num[24];
	if (!sp || sp == t->w || strchr(sp + 1, ' '))
		return 0;
	snprintf(num, sizeof(num), "%.*s", (int)(sp - t->w), t->w);
	int spelled = spelled_count(num);
	if (spelled > 0)
		snprintf(num, sizeof(num), "%d", spelled);
	for (const char *c = num; *c; c++)
		if (!isdigit((unsigned char)*c))
			return 0;
	static const char *const units[] = { "layer", "layers", "head", "heads", NULL };
	if (!in_list(sp + 1, units) || lookup_name(sp[1] == 'l' ? "layers" : "heads", &nm))
		return 0;
	return finish(r, &nm, NULL, num, p, p + 1, end);
}

/* 8L (depth), 768w / 768dim (width). */
static int p_unit(struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	struct name nm = { .known = 1 };
	char val[40];
	if (t->k == K_WORD)
		return p_hyphen_unit(r, p, end);
	if (t->k != K_NUM)
		return 0;
	size_t n = strlen(t->w);
	if (n > 1 && t->w[n - 1] == 'L')
		snprintf(nm.var, sizeof(nm.var), "model.depth");
	else if ((n > 1 && (t->w[n - 1] == 'w' || t->w[n - 1] == 'd')) || str_ends_with(t->w, "dim"))
		snprintf(nm.var, sizeof(nm.var), "model.dim");
	else
		return 0;
	if (number_value(t->w, nm.var, val, sizeof(val)))
		return 0;
	return finish(r, &nm, NULL, val, p, p + 1, end);
}

/* SwiGLU [MLP | activation | …]: a value word naming the change alone. */
static int p_valueword(struct reader *r, int p, int end)
{
	int k;
	const struct value_word *vw = value_word_at(r, p, end, NULL, &k);
	/* "cosine LR decay", "cosine_decay", "Cosine LR schedule": a shape
	 * word is the warmdown's only before a word of decay (alone,
	 * "linear" and "cosine" name many things: "linear warmup") */
	static const char *const decay_nouns[] = { "decay", "schedule", "annealing", "lr", "learning rate",
						   "learning", "rate", "warmdown", "cooldown", NULL };
	/* "sqrt warmdown decay", "linear learning rate decay" */
	int shape = vw && !strcmp(vw->var, "sched.warmdown_shape");
	if (shape) {
		int d = k;
		while (d < k + 3 && word_in(r, p + d, end, decay_nouns))
			d++;
		shape = d > k && (word_is(r, p + d - 1, end, "decay") || word_is(r, p + d - 1, end, "schedule") ||
				  word_is(r, p + d - 1, end, "annealing"));
		if (shape)
			k = d; /* the nouns are the shape's */
	}
	if (!vw || (!strcmp(vw->var, "sched.warmdown_shape") && !shape) || !strcmp(vw->var, "impl.attention"))
		return 0;
	while (word_in(r, p + k, end, value_nouns))
		k++;
	if (word_is(r, p + k, end, "kept") || word_is(r, p + k, end, "still"))
		return 0; /* "AdamW kept for embeddings": what stayed */
	if (word_is(r, p + k, end, "in") && at(r, p + k + 1, end)->k == K_WORD)
		k += 2; /* "SwiGLU activation in MLP (replaces …)" */
	else if (word_is(r, p + k, end, "only") && boundary(r, p + k + 1, end))
		k++; /* round 12: "SiLU activation only": the one change */
	if (!boundary(r, p + k, end) && !word_is(r, p + k, end, "in") &&
	    !word_is(r, p + k, end, "instead") && !word_is(r, p + k, end, "replacing") &&
	    !word_is(r, p + k, end, "replaces"))
		return 0;
	struct name nm = { .known = 1 };
	snprintf(nm.var, sizeof(nm.var), "%s", vw->var);
	return finish(r, &nm, NULL, vw->value, p, p + k, end);
}

/* "SSSL -> SL": two window patterns (one of two letters at least, so a
 * lone "L" or "S" is not read as one) are the window pattern's change. */
static int p_pattern_arrow(struct reader *r, int p, int end)
{
	const struct tok *a = at(r, p, end), *b = at(r, p + 2, end);
	if (a->k != K_WORD || b->k != K_WORD || at(r, p + 1, end)->k != K_ARROW ||
	    !is_window_pattern(a, r->text) || !is_window_pattern(b, r->text) ||
	    (a->b - a->a < 2 && b->b - b->a < 2) || !boundary(r, p + 3, end))
		return 0;
	struct name nm = { .known = 1 };
	char old[96], val[96]; /* one letter a layer: as long as a token */
	snprintf(nm.var, sizeof(nm.var), "model.window_pattern");
	if (slice_value(old, sizeof(old), r->text + a->a, a->b - a->a) ||
	    slice_value(val, sizeof(val), r->text + b->a, b->b - b->a))
		return 0;
	return finish(r, &nm, old, val, p, p + 3, end);
}

/* [from] A (-> | to) B, replace A with B, both value words of one
 * variable: "ReLU^2 -> SwiGLU", "switch from AdamW to Muon". */
static int p_value_arrow(struct reader *r, int p, int end)
{
	static const char *const replace_words[] = { "replace", "replaced", "replacing", "swap",
						     "swapped", "swapping", NULL };
	int replace = word_in(r, p, end, replace_words);
	int from = word_is(r, p, end, "from") || replace;
	int ka, kb, q = p + from;
	if (replace && word_in(r, q, end, articles))
		q++; /* "replace the linear warmdown with a cosine one" */
	const struct value_word *a = value_word_at(r, q, end, NULL, &ka), *b;
	if (!a)
		return p_pattern_arrow(r, p, end);
	/* "naive attention -> flash", "ReLU² activation -> GELU": the noun
	 * after the first value belongs to it */
	while (!is_to(r, q + ka, end) && word_in(r, q + ka, end, value_nouns) && is_to(r, q + ka + 1, end))
		ka++;
	for (int i = 0; replace && i < 3 && word_in(r, q + ka, end, value_nouns); i++)
		ka++; /* "replace linear learning-rate decay with …" */
	/* "Replace squared ReLU activation in MLP with GELU": the block the
	 * value lives in, no part of its own (activations are the MLP's) */
	static const char *const blocks[] = { "mlp", "mlps", "ffn", "block", "blocks", NULL };
	if (replace && word_is(r, q + ka, end, "in")) {
		int d = word_in(r, q + ka + 1, end, articles);
		if (word_in(r, q + ka + 1 + d, end, blocks))
			ka += 2 + d;
	}
	const struct tok *op = at(r, q + ka, end);
	int with = replace &&
		   ((op->k == K_SEP && op->sep == SEP_WITH) ||
		    (str_starts_with(at(r, p, end)->w, "swap") && word_is(r, q + ka, end, "for")));
	if (!with && !is_to(r, q + ka, end))
		return replace && value_word_at(r, q, end, NULL, &kb) ? q + ka - p : 0;
	/* "replace ReluSquared with plain ReLU": a word that says the value is
	 * the usual one, not another knob */
	static const char *const plain[] = { "plain", "standard", "vanilla", "regular", NULL };
	int qb = q + ka + 1 + (with && word_in(r, q + ka + 1, end, articles));
	qb += with && word_in(r, qb, end, plain);
	b = value_word_at(r, qb, end, a->var, &kb);
	while (b && !boundary(r, qb + kb, end) && word_in(r, qb + kb, end, value_nouns))
		kb++; /* "… -> SwiGLU MLP" */
	if (!b || !boundary(r, qb + kb, end))
		return replace ? qb - p : 0; /* what replaced it is unsaid: not the old value either */
	struct name nm = { .known = 1 };
	snprintf(nm.var, sizeof(nm.var), "%s", a->var);
	return finish(r, &nm, a->value, b->value, p, qb + kb, end);
}

/* A known name alone: a technique tried ("weight tying"), or a name that
 * carries its value ("flash attention"). alone: not even context words
 * may follow. */
static int on_hardware(const struct reader *r, int p, int end);

static int p_bare(struct reader *r, int p, int end, int alone)
{
	struct name nm;
	int k = known_name(r, p, end, &nm);
	if (!k || !boundary(r, p + k, end) ||
	    (alone && word_in(r, p + k, end, context_words) && !on_hardware(r, p + k, end)))
		return 0; /* "VE on all layers" is about VE, not VE itself; "… on H100" is where */
	if (nm.implied)
		return finish(r, &nm, NULL, nm.implied, p, p + k, end);
	if (!strcmp(nm.var, "impl.compile_mode") && alone && str_starts_with(at(r, p, end)->w, "torch"))
		return finish(r, &nm, NULL, NULL, p, p + k, end); /* "torch.compile": on, its mode unsaid
								    * (a bare "compile" may be the verb) */
	return nm.technique ? finish(r, &nm, NULL, "true", p, p + k, end) : 0;
}

/* "VE on all layers", "XSA on alternating layers": which layers have a
 * technique is a knob of its own, desc.<technique>_layers (the README's
 * desc.value_embedding_layers), valued all or alternating. */
static int p_layers(struct reader *r, int p, int end)
{
	static const char *const on[] = { "on", "in", "for", "at", "to", NULL };
	static const char *const all[] = { "all", "every", "each", NULL };
	static const char *const alt[] = { "alternating", "alternate", NULL };
	static const char *const all_layers[] = { "all layers", "every layer", NULL };
	struct name nm;
	const char *val;
	int k, q, e;
	if (word_in(r, p, end, all_layers) && (k = known_name(r, p + 1, end, &nm)) &&
	    boundary(r, p + 1 + k, end)) {
		val = "all"; /* "all-layers value embeddings" */
		e = p + 1 + k;
	} else {
		k = known_name(r, p, end, &nm);
		q = p + k + word_in(r, p + k, end, on); /* "VE all layers": the "on" unsaid */
		val = word_in(r, q, end, alt) ? "alternating"
		      : word_is(r, q, end, "every") && word_is(r, q + 1, end, "other") ? (q++, "alternating")
		      : word_in(r, q, end, all) ? "all" : NULL;
		if (!k || !val || !(word_is(r, q + 1, end, "layers") || word_is(r, q + 1, end, "layer")) ||
		    !boundary(r, q + 2, end))
			return 0;
		e = q + 2;
	}
	if (!nm.technique || !str_starts_with(nm.var, "desc."))
		return 0;
	char base[80];
	snprintf(base, sizeof(base), "%s", nm.var);
	size_t n = strlen(base);
	if (n > 6 && base[n - 1] == 's')
		base[n - 1] = '\0'; /* value_embeddings -> value_embedding_layers */
	snprintf(nm.var, sizeof(nm.var), "%.60s_layers", base);
	nm.technique = 0;
	return finish(r, &nm, NULL, val, p, e, end);
}

/* X disabled / X enabled, at the start of a clause. */
static int p_postfix_toggle(struct reader *r, int p, int end)
{
	struct name nm;
	int q = name_end(r, p, end) - 1;
	if (q <= p || q - p > 3 || !boundary(r, q + 1, end))
		return 0;
	static const char *const on_words[] = { "enabled", "added", NULL };
	static const char *const off_words[] = { "disabled", "removed", "dropped", "off", NULL };
	int on = word_in(r, q, end, on_words), off = word_in(r, q, end, off_words);
	int known = known_name(r, p, q, &nm) == q - p;
	if ((!on && !off) || (!known && unknown_name(r, p, q, &nm)))
		return 0;
	if (!known && q - p < 2 && word_is(r, q, end, "off"))
		return 0; /* "day off": "off" after one word we do not know names no knob */
	const char *val = toggle_value(&nm, on);
	return val ? finish(r, &nm, NULL, val, p, q + 1, end) : 0;
}

/* val_bpb 0.98 -> 0.97, MFU 58→52%, 71K tok/s: taken, never a change. */
static int p_result(struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	if (t->k != K_WORD || !is_result_name(t->w) || constant_setting(r, p))
		return 0;
	int q = p + 1;
	while (q < end && (r->tk.t[q].k == K_NUM || r->tk.t[q].k == K_ARROW))
		q++;
	return q - p;
}

/* A word written in mixed case past its first letter ("PoPE", "NorMuon",
 * "Peri-LN"): a technique's proper name, not an English word. */
static int mixed_case(const struct reader *r, const struct tok *t)
{
	int upper = 0, lower = 0;
	for (int i = t->a; i < t->b; i++) {
		unsigned char c = (unsigned char)r->text[i];
		upper |= i > t->a && isupper(c);
		lower |= islower(c) != 0;
	}
	return upper && lower;
}

/* "PoPE (Polar Positional Embedding) replacing RoPE", "Peri-LN (…)": a
 * description that opens with a technique's proper name and then only
 * explains it tried that technique (desc.NAME true). */
static int p_named_technique(struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end), *next = at(r, p + 1, end);
	struct name nm;
	if (t->k != K_WORD || !mixed_case(r, t) || known_name(r, p, end, &nm) ||
	    find_value_word(t->w, NULL) || unknown_name(r, p, p + 1, &nm))
		return 0;
	/* "LayerNorm instead of RMSNorm" swaps two settings of a knob it does
	 * not name: no technique of its own */
	if (!(next->k == K_PAREN || next->k == K_STOP || p + 1 >= end))
		return 0;
	if (strstr(t->w, "muon") || strstr(t->w, "adam"))
		return 0; /* "NorMuon": an optimizer, the matrix optimizer's value or a
		           * knob of its own; which is not sure */
	if (memchr(r->text + t->a, '+', (size_t)(t->b - t->a)))
		return 0; /* "LeakyReLU²+batch1M+mlp4x", "SwiGLU+warmup": several
		           * changes run together, no one technique */
	return finish(r, &nm, NULL, "true", p, p + 1, end);
}

/* One production at p; returns the tokens it took, 0 for none. */
/* A negation ("no", "without", "remove" …) that no form took: what it
 * negates runs to the phrase's end and is read as nothing, never as what
 * was tried ("no flash attention" is not flash attention, "without
 * checkpointing on 16GB" not checkpointing). Tokens taken, 0 if none. */
static int negated_rest(const struct reader *r, int p, int end)
{
	const struct tok *next = at(r, p + 1, end);
	if (!word_in(r, p, end, toggles_off) || boundary(r, p + 1, end) || next->k == K_NUM ||
	    (next->k == K_WORD && spelled_count(next->w) > 0))
		return 0; /* "remove 2 heads": a step, read by the count forms */
	int q = p + 1;
	while (q < end && !boundary(r, q, end))
		q++;
	return q - p;
}

/* 1 when p follows "instead of", "rather than" or "replacing": what is
 * there is what the run moved away from, no new value of its own. */
static int after_instead(const struct reader *r, int p, int end)
{
	(void)end;
	return p >= 2 && ((word_is(r, p - 2, p, "instead") && word_is(r, p - 1, p, "of")) ||
			  (word_is(r, p - 2, p, "rather") && word_is(r, p - 1, p, "than")));
}

/* Round 12: a window layout told in words ("use short attention windows in
 * lower layers", "mixed short-long windows", "increase long attention in
 * upper layers"): the window pattern changed, to a value unsaid (the
 * README's label; "use mixed short-long windows" had coined a knob). A
 * kind of window and where it goes, or a mix of kinds, must both be
 * there: "short window 512" is the short window's length, "attention in
 * upper layers" no layout. Returns the tokens taken. */
static int p_window_layout(struct reader *r, int p, int end)
{
	static const char *const kinds[] = { "short", "long", "sliding", "local", "global", "full", NULL };
	static const char *const nouns[] = { "window", "windows", "attention", NULL };
	static const char *const places[] = { "lower", "upper", "early", "earlier", "late", "later",
					      "first", "last", "top", "bottom", "deeper", "shallow",
					      "shallower", "final", NULL };
	static const char *const layer_words[] = { "layers", "blocks", "layer", "block", NULL };
	int kind = 0, noun = 0, place = 0, mixed = 0, q = p;
	for (; q < end && q - p < 10; q++) {
		const struct tok *t = at(r, q, end);
		if (t->k != K_WORD)
			break;
		int two = strstr(t->w, "short") && strstr(t->w, "long"); /* "short-long" */
		if (in_list(t->w, kinds) || two)
			kind = kind || !noun, mixed |= two;
		else if (!strcmp(t->w, "mixed") || !strcmp(t->w, "alternating") || !strcmp(t->w, "interleaved"))
			mixed = 1;
		else if (in_list(t->w, nouns))
			noun = 1;
		else if (noun && kind && word_is(r, q, end, "in") &&
			 word_in(r, q + 1 + word_is(r, q + 1, end, "the"), end, places) &&
			 word_in(r, q + 2 + word_is(r, q + 1, end, "the"), end, layer_words)) {
			place = 1;
			q += 3 + word_is(r, q + 1, end, "the");
			break;
		} else if (noun || kind)
			break;
	}
	if (!noun || !kind || !(place || mixed) || (q < end && !boundary(r, q, end) &&
						   !word_is(r, q, end, "on")))
		return 0;
	struct name nm = { .var = "model.window_pattern", .known = 1 };
	return finish(r, &nm, NULL, NULL, p, q, end);
}

/* Round 12: "(single attention head)", "1 head", "one head": a head
 * count of one, told in the singular that the registry's "heads" does not
 * match ("increase head dim to 256 (single attention head)" recorded the
 * head dim alone). "the lm head", "single head dim" are no count. */
static int p_one_head(struct reader *r, int p, int end)
{
	const struct tok *t = at(r, p, end);
	int one = (t->k == K_NUM && !strcmp(t->w, "1")) || word_is(r, p, end, "one") ||
		  word_is(r, p, end, "single") || word_is(r, p, end, "a");
	int q = p + 1 + word_is(r, p + 1, end, "attention");
	if (!one || !word_is(r, q, end, "head") || !boundary(r, q + 1, end) ||
	    (word_is(r, p, end, "a") && !word_is(r, p + 1, end, "single")))
		return 0;
	struct name nm = { .var = "model.heads", .known = 1 };
	return finish(r, &nm, NULL, "1", p, q + 1, end);
}

static int production(struct reader *r, int p, int end, struct clause *cs)
{
	int n, start = p == cs->start, paren = cs->flags & F_PAREN;
	struct name nm;
	if ((n = p_one_head(r, p, end)))
		return n;
	if (!known_name(r, p, end, &nm) && (n = p_result(r, p, end)))
		return n; /* "time budget 300" is a knob, "time 301 s" a result */
	if ((n = p_lr_part(r, p, end)))
		return n; /* "LRs: matrix 0.04->0.06 …" */
	if (paren)
		return (n = p_named(r, p, end, 0, 0, cs->flags)) ? n
		       : (n = p_value_first(r, p, end)) ? n : p_unit(r, p, end);
	if (start && cs->carry && (n = p_value_first(r, p, end)))
		return n; /* "add VE, SSSL window pattern": a value, not a toggle */
	if (start && cs->carry && (n = toggle_name(r, p, end, cs->carry == 1))) {
		cs->toggled = cs->carry;
		return n;
	}
	if (start && r->first == cs->start && (n = p_named_technique(r, p, end)))
		return n;
	if (after_instead(r, p, end))
		return phrase_end(r, p + 1, end) - p; /* "… instead of linear warmdown": the old side */
	if ((n = p_window_layout(r, p, end)))
		return n;
	if ((n = p_value_arrow(r, p, end)) || (n = p_layer_toggle(r, p, end)) || (n = p_toggle(r, p, end, cs)) || (start && (n = p_direction(r, p, end, cs->flags))) ||
	    (n = p_verb(r, p, end, cs->flags)) || (n = p_named(r, p, end, 0, start, cs->flags)))
		return n;
	if (cs->flags & F_WITH)
		return 0;
	if ((n = p_value_first(r, p, end)) || (n = p_unit(r, p, end)) || (n = p_power_batch(r, p, end)) ||
	    (start && (n = p_layers(r, p, end))) ||
	    (start && (r->first == cs->start || cs->listed) && (n = p_valueword(r, p, end))) ||
	    (start && (r->first == cs->start || cs->listed) && (n = p_bare(r, p, end, 1))) ||
	    (start && (n = p_postfix_toggle(r, p, end))))
		return n;
	return negated_rest(r, p, end);
}

/* ---- clauses, parentheses, the description ------------------------------ */

static int judges(const struct reader *r, int a, int b)
{
	for (int i = a; i < b; i++)
		if (word_in(r, i, b, judgement_words))
			return 1;
	return 0;
}

static int read_span(struct reader *r, int a, int end, int flags);

/* A parenthesis: each piece that states rather than judges is read for
 * known names with values ("(4 heads, worse quality)" -> heads 4). */
/* Token i of a parenthesis a piece may hold beside the setting it states:
 * a separator, a word of no meaning, or part of a result ("75M params",
 * "bpb 0.98"). */
static int piece_filler(const struct reader *in, int i, int b)
{
	static const char *const fillers_ok[] = { "total", "new", "now", "also", "only", NULL };
	const struct tok *t = &in->tk.t[i];
	if (t->k == K_SEP || t->k == K_ARROW || t->k == K_PAREN)
		return 1;
	if (t->k == K_WORD && (in_list(t->w, stop_words) || in_list(t->w, fillers_ok) ||
			       is_result_name(t->w)))
		return 1;
	return t->k == K_NUM && (p_result_at(in, i + 1, b) || (i > 0 && p_result_at(in, i - 1, b)));
}

/* 1 when [a, b) says where a setting comes from ("from previous keep",
 * "as in exp 5", "had", "before"): context, not this run's change. */
static int sourced(const struct reader *r, int a, int b)
{
	static const char *const source_words[] = { "from", "previous", "prev", "before", "earlier",
						    "last", "as", "like", "had", "was", "were",
						    "baseline", "default", "exp", "run", "best", NULL };
	for (int i = a; i < b; i++)
		if (word_in(r, i, b, source_words))
			return 1;
	return 0;
}

static int change_list_has(const struct change_list *cl, const char *var)
{
	for (int i = 0; i < cl->n; i++)
		if (!strcmp(cl->v[i].var, var))
			return 1;
	return 0;
}

/* 1 when c, read first from a piece starting at lo, is a registry knob's
 * stated transition (old and new) written at the piece's start. */
static int leads_piece(const struct change *c, const char *lo)
{
	return !str_starts_with(c->var, "desc.") && c->old_val && c->new_val && c->span &&
	       !strncmp(lo, c->span, strlen(c->span));
}

/* Piece [a, b) of parenthesis in: its settings go to r's list only when
 * they are all the piece says ("(4 heads)", "(device batch 8, 75M
 * params)"); a piece that also names a run, a comparison or where the
 * setting comes from ("(baseline depth 8)", "(exp7 had depth 8)", "(depth
 * 8 from previous keep)") is commentary, and its settings are context. */
static void read_piece(struct reader *in, int a, int b)
{
	struct change_list scratch = CHANGE_LIST_INIT, *out = in->out;
	int added = in->added, covered[64] = { 0 }, all = 1;
	if (a >= b)
		return; /* "(, depth 8)": an empty piece (found by fuzz_infer) */
	in->out = &scratch;
	read_span(in, a, b, F_PAREN);
	in->out = out;
	const char *lo = in->text + in->tk.t[a].a, *hi = in->text + in->tk.t[b - 1].b;
	for (int c = 0; c < scratch.n; c++) {
		const char *sp = scratch.v[c].span;
		const char *at_ = sp ? memmem(lo, (size_t)(hi - lo), sp, strlen(sp)) : NULL;
		for (int i = a; at_ && i < b && i - a < 64; i++)
			covered[i - a] |= in->text + in->tk.t[i].a >= at_ &&
					  in->text + in->tk.t[i].b <= at_ + strlen(sp);
	}
	for (int i = a; i < b && all; i++)
		all = (i - a < 64 && covered[i - a]) || piece_filler(in, i, b);
	/* "(6->12 attention heads same 768 dim)", "(ASPECT_RATIO 48->38 adds 4
	 * more layers)": a piece that opens with a known knob's transition,
	 * both sides stated, states that consequence whatever it says after */
	int lead = !all && scratch.n && leads_piece(&scratch.v[0], lo) && !sourced(in, a, b) &&
		   !change_list_has(out, scratch.v[0].var);
	if (lead)
		all = 1;
	for (int c = 0; c < (lead ? 1 : scratch.n) && all; c++) {
		const struct change *ch = &scratch.v[c];
		int had = 0;
		for (int i = 0; i < out->n && !ch->old_val && !ch->new_val; i++)
			had |= !strcmp(out->v[i].var, ch->var); /* a stated value stays (emit) */
		/* round 11: "depth 8 -> 10 (10 layers)": the parenthesis says the
		 * new value again, without the old side the text gave */
		for (int i = 0; i < out->n && !ch->old_val && ch->new_val; i++)
			had |= !strcmp(out->v[i].var, ch->var) && out->v[i].new_val &&
			       !strcmp(out->v[i].new_val, ch->new_val);
		/* "WARMUP_RATIO 0.05->0.02 (shorter warmup from 76->30 steps)" */
		if (!had && !restates_in_other_unit(out, ch->var))
			change_list_add_span(out, ch->var, ch->old_val, ch->new_val, ch->span);
	}
	if (!all)
		in->added = added;
	change_list_release(&scratch);
}

/* "4 heads vs 2", "4 attention heads vs 2": a count and its knob set
 * against the old count — the piece before "vs" is the run's setting.
 * Returns its length, 0 when [a, b) is no such piece. */
static int versus_at(const struct reader *r, int a, int b)
{
	struct name nm;
	int k;
	if (at(r, a, b)->k != K_NUM || !(k = known_name(r, a + 1, b, &nm)) || str_starts_with(nm.var, "desc."))
		return 0;
	int v = a + 1 + k;
	return (word_is(r, v, b, "vs") || word_is(r, v, b, "vs.")) && at(r, v + 1, b)->k == K_NUM &&
	       v + 2 == b ? v - a : 0;
}

/* Round 11: "GQA KV_GROUPS=2 (3 kv heads)": a knob coined from an
 * identifier, then a parenthesis right after it that states a known
 * knob's value, a knob whose name shares a word with it, say one setting
 * twice; the known name is the one the corpus uses (README:
 * desc.n_kv_head), so the coined one goes ("FOO_BAR=2 (depth 8)" keeps
 * both). */
/* 1 when the names of keys a and b (past their dots) share a word of two
 * letters or more ("desc.kv_groups", "desc.n_kv_head": kv). */
static int share_a_word(const char *a, const char *b)
{
	char wa[96];
	const char *da = strchr(a, '.'), *db = strchr(b, '.');
	snprintf(wa, sizeof(wa), "%s", da ? da + 1 : a);
	b = db ? db + 1 : b;
	for (char *save = NULL, *w = strtok_r(wa, "_", &save); w; w = strtok_r(NULL, "_", &save)) {
		size_t k = strlen(w);
		for (const char *h = b; k >= 2 && (h = strstr(h, w)) != NULL; h += k)
			if ((h == b || h[-1] == '_') && (h[k] == '_' || !h[k]))
				return 1;
	}
	return 0;
}

static void drop_coined_restated(struct reader *r, int coined, int n0)
{
	if (coined < 0 || r->out->n <= n0)
		return;
	int known = 0;
	for (int i = n0; i < r->out->n; i++)
		known |= describe_name_known(r->out->v[i].var) &&
			 share_a_word(r->out->v[i].var, r->out->v[coined].var);
	if (!known)
		return;
	struct change *c = &r->out->v[coined];
	free(c->var);
	free(c->old_val);
	free(c->new_val);
	free(c->span);
	memmove(c, c + 1, sizeof(*c) * (size_t)(r->out->n - coined - 1));
	r->out->n--;
}

static void read_paren(struct reader *r, const struct tok *t)
{
	if (r->depth >= 2)
		return;
	/* the change just before, when it is a coined identifier's */
	int n0 = r->out->n, coined = -1;
	int gap = r->last_b;
	while (gap < t->a && isspace((unsigned char)r->text[gap]))
		gap++;
	if (n0 > 0 && gap == t->a && r->last_b > 0 &&
	    !describe_name_known(r->out->v[n0 - 1].var))
		coined = n0 - 1;
	struct reader in;
	reader_open(&in, r, t);
	for (int a = 0, b; a < in.tk.n; a = b + 1) {
		b = a;
		while (b < in.tk.n && in.tk.t[b].k != K_SEP && in.tk.t[b].k != K_COLON &&
		       in.tk.t[b].k != K_STOP)
			b++;
		if (a > 0 && in.tk.t[a - 1].k == K_SEP && in.tk.t[a - 1].sep == SEP_WITH)
			break; /* "(more cooldown with final_lr_frac=0.1)": the setting it ran with */
		int vs = versus_at(&in, a, b);
		if (vs)
			read_piece(&in, a, a + vs); /* "(4 heads vs 2)": the run's side */
		else if (!judges(&in, a, b) && !(b < in.tk.n && in.tk.t[b].k == K_COLON))
			read_piece(&in, a, b);
		/* "(wider: model_dim 256->384)": a direction, then its measure */
		if (b < in.tk.n && in.tk.t[b].k == K_COLON && !(b == a + 1 && word_in(&in, a, b, comparatives) &&
								 !judges(&in, a, b)))
			break; /* "hypothesis: …" */
	}
	r->added += in.added;
	reader_close(&in);
	drop_coined_restated(r, coined, n0);
}

static void new_clause(struct clause *cs, int start, const struct tok *sep, int base, int added)
{
	int list = sep->k == K_SEP && (sep->sep == SEP_AND || sep->sep == SEP_LIST);
	cs->listed = list && added > cs->added && !(base & F_PAREN);
	cs->added = added;
	cs->carry = list ? cs->toggled : 0;
	cs->toggled = 0;
	cs->start = start;
	cs->flags = base | (sep->k == K_SEP && sep->sep == SEP_WITH ? F_WITH : 0);
}

static const char *const with_verbs[] = {
	"experiment", "experimenting", "experimented", "try", "trying", "tried", "test", "testing",
	"tested", "play", "playing", "go", "went", "going", "run", "retry",
	/* round 12: "train with --warmdown-ratio 0.3" */
	"train", "trained", "training", NULL
};

/* After these the rest of the sentence, over "and" and ",", gives a
 * reason or the setting kept ("while keeping no warmup and zero final
 * LR"), not a change. */
static const char *const reason_words[] = {
	"because", "since", "so", "despite", "due", "while", "whereas", "although", "though",
	"keeping", "maintaining", "holding", "retaining", "preserving", NULL
};

/* Verbs that open a sentence stating a further change of the run. */
static const char *const sentence_verbs[] = {
	"increased", "decreased", "reduced", "raised", "lowered", "bumped", "set", "changed",
	"added", "removed", "enabled", "disabled", "switched", "halved", "doubled", "dropped",
	"increase", "decrease", "reduce", "raise", "lower", "bump", "add", "remove", "enable",
	"disable", "switch", "halve", "double", NULL
};

/* After a sentence's end at p - 1: how many tokens lead into a next
 * sentence that states a change ("Also bumped X to v", "Reduced Y …"), 0
 * when it explains, judges or reports (the usual case). */
static int next_sentence_changes(const struct reader *r, int p, int end)
{
	const struct tok *stop = at(r, p - 1, end);
	if (stop->k != K_STOP || stop->w[0] != '.' || r->depth > 0)
		return 0;
	int q = p + word_is(r, p, end, "also");
	return word_in(r, q, end, sentence_verbs) ? q - p + 1 : 0; /* to the verb */
}

/* 1 when [a, p) before a colon is a title: a few words (and a
 * parenthesis, "Multi-Latent Attention (MLA):") that state no value. What
 * follows such a colon explains how the technique was built ("Differential
 * attention: pair 6 heads … + c_proj 384->768"): the identifiers in it are
 * the technique's parts, not knobs the run turned. */
static int title_before(const struct reader *r, int a, int p)
{
	int words = 0;
	if (r->depth > 0 || a < 0 || p - a < 1 || p - a > 6)
		return 0;
	for (int i = a; i < p; i++) {
		if (r->tk.t[i].k != K_WORD && r->tk.t[i].k != K_PAREN)
			return 0;
		words += r->tk.t[i].k == K_WORD;
	}
	return words >= 1;
}

/* "Remove _hp_defaults dependency by setting DEPTH to 12": the changes
 * [from, to) of r's list were read from the goal before "by VERB-ing";
 * when the means read changes of its own (past to), the goal's go — what
 * a change was for is none ("remove softcap by setting it to 0", a means
 * with no name, keeps its goal). */
static int settle_goal(struct reader *r, int from, int to, int ret)
{
	struct change_list *out = r->out, kept = CHANGE_LIST_INIT;
	if (from < 0 || from >= to || out->n <= to)
		return ret;
	for (int i = 0; i < out->n; i++)
		if (i < from || i >= to)
			change_list_add_span(&kept, out->v[i].var, out->v[i].old_val, out->v[i].new_val,
					     out->v[i].span);
	r->added -= to - from;
	change_list_release(out);
	*out = kept;
	return ret;
}

/* Tokens [a, end) as clauses; returns 1 when a stop ended the reading. */
/* Round 12: "weight_decay=0.05 on x0_lambda=0.05 base": the setting a
 * run is built on, stated with its value, is read; the parent's state
 * drops it where it was the parent's already (the README's label: a
 * change where it had not been kept). "on H100", "on head256" stay
 * context. */
static int on_base(const struct reader *r, int p, int end)
{
	if (!word_is(r, p, end, "on"))
		return 0;
	int valued = 0;
	for (int q = p + 1; q < end && q <= p + 6; q++) {
		const struct tok *t = at(r, q, end);
		if (t->k == K_WORD && !strcmp(t->w, "base"))
			return valued && q > p + 2;
		if (t->k == K_EQ || t->k == K_NUM)
			valued = 1;
		else if (t->k != K_WORD)
			return 0;
	}
	return 0;
}

/* Round 12: "keep a 5% final lr floor", "keep 10 percent lr floor during
 * warmdown": "keep" before a value and the knob it sets says the run has
 * that setting (the README's labels), read as a setting; the parent's
 * state drops it where the parent had it. "keep depth 6" (the name first)
 * still says the setting stays. */
static int keep_having(const struct reader *r, int p, int end)
{
	struct name nm;
	int v = p + 1 + (word_is(r, p + 1, end, "a") || word_is(r, p + 1, end, "an")), k;
	if (!word_is(r, p, end, "keep"))
		return 0;
	if (at(r, v, end)->k == K_NUM)
		return known_name(r, v + 1, end, &nm) && !str_starts_with(nm.var, "desc.");
	/* "keep LR floor at 10% during final warmdown": the value set by "at" */
	k = known_name(r, p + 1, end, &nm);
	return k && !str_starts_with(nm.var, "desc.") && word_is(r, p + 1 + k, end, "at") &&
	       at(r, p + 2 + k, end)->k == K_NUM;
}

static int read_span(struct reader *r, int a, int end, int flags)
{
	struct clause cs = { .start = a, .flags = flags, .added = r->added };
	int stopped = 0, clause_out = r->out->n; /* the changes before this clause */
	int goal_from = -1, goal_to = -1;          /* a goal's changes, before "by VERB-ing" */
	for (int p = a; p < end;) {
		const struct tok *t = &r->tk.t[p];
		int also = t->k == K_STOP ? next_sentence_changes(r, p + 1, end) : 0;
		if (also) {
			/* "depth 4 -> 5. Also bumped matrix LR to 0.05.": the next
			 * sentence states another change of this run */
			static const struct tok clause = { .k = K_SEP, .sep = SEP_CLAUSE };
			new_clause(&cs, p + also, &clause, flags, r->added);
			clause_out = r->out->n;
			stopped = 0;
			p += also;
			continue;
		}
		if (t->k == K_STOP || (word_in(r, p, end, prose_markers) && at(r, p + 1, end)->k == K_COLON))
			return settle_goal(r, goal_from, goal_to, 1);
		if (t->k == K_COLON && !r->titled && title_before(r, r->first, p)) {
			r->titled = 1;
			r->title_n = r->out->n;
		}
		if (t->k == K_SEP || t->k == K_COLON) {
			/* "experiment with depth 12": the verb alone before "with"
			 * makes what follows the change, not its context */
			int lead_verb = t->k == K_SEP && t->sep == SEP_WITH && p == cs.start + 1 &&
					word_in(r, cs.start, end, with_verbs);
			new_clause(&cs, p + 1, t, flags, r->added);
			clause_out = r->out->n;
			if (lead_verb)
				cs.flags &= ~F_WITH;
			/* a reason or a purpose runs over "and" / "," to the next ";",
			 * unless a past-tense verb of change follows (round 12: "…
			 * to fix missing setuptools, and reduced device_batch_size
			 * from 32 to 16": an agent's second change) */
			int and_too = t->k == K_SEP && at(r, p + 1, end)->k == K_SEP &&
				      at(r, p + 1, end)->sep == SEP_AND;
			const char *next = at(r, p + 1 + and_too, end)->w;
			if (stopped != 2 || t->k != K_SEP || t->sep == SEP_CLAUSE ||
			    (at(r, p + 1 + and_too, end)->k == K_WORD && in_list(next, sentence_verbs) &&
			     strlen(next) > 2 && !strcmp(next + strlen(next) - 2, "ed")))
				stopped = 0;
			p++;
			continue;
		}
		/* "Remove hardware defaults by setting TOTAL_BATCH_SIZE to 128": the
		 * means is the change */
		if (word_is(r, p, end, "but") && word_in(r, p + 1, end, sentence_verbs)) {
			/* "Use the current best but add a small LR warmup of 2%" */
			static const struct tok but = { .k = K_SEP, .sep = SEP_AND };
			new_clause(&cs, p + 1, &but, flags, r->added);
			clause_out = r->out->n;
			stopped = 0;
			p++;
			continue;
		}
		if (means_at(r, p, end)) {
			/* "increase depth by 1 while enabling checkpointing": two changes;
			 * "Remove _hp_defaults dependency by setting DEPTH to 12": the
			 * means is the change, what it was for is none */
			if (word_is(r, p, end, "by") && goal_from < 0) {
				goal_from = clause_out;
				goal_to = r->out->n;
			}
			static const struct tok and = { .k = K_SEP, .sep = SEP_AND };
			new_clause(&cs, p + 1, &and, flags, r->added);
			clause_out = r->out->n;
			stopped = 0;
			p++;
			continue;
		}
		if (!stopped && (word_in(r, p, end, reason_words) || purpose_at(r, p, end))) {
			stopped = 2;
			p++;
			continue;
		}
		if (t->k == K_PAREN)
			read_paren(r, t);
		if (t->k == K_PAREN || t->k == K_BRACKET || stopped) {
			p++;
			continue;
		}
		if ((word_in(r, p, end, context_words) && !on_base(r, p, end) && !keep_having(r, p, end)) ||
		    run_report_at(r, p, end)) {
			stopped = 1;
			p++;
			continue;
		}
		int n = production(r, p, end, &cs);
		p += n ? n : 1;
	}
	return settle_goal(r, goal_from, goal_to, 0);
}

/* "exp 12", "run 5": a label word and a number. */
static const char *const label_words[] = { "exp", "experiment", "run", "trial", "iter", "iteration", NULL };

/* exp12, v3, apr20: a run label (with a colon after it, any word and
 * number is one: "x0 lambda 0.1" is not a label, "x0: …" is). */
static int is_label_word(const char *w, int colon)
{
	static const char *const prefixes[] = {
		"exp", "run", "trial", "iter", "v", "r", "e", "b", "test", "try", "step", "jan", "feb",
		"mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", NULL
	};
	char prefix[8];
	int letters = 0, digits = 0;
	const char *p = w;
	while (isalpha((unsigned char)*p))
		p++, letters++;
	while (isdigit((unsigned char)*p))
		p++, digits++;
	if (isalpha((unsigned char)*p))
		p++;
	snprintf(prefix, sizeof(prefix), "%.*s", letters < 7 ? letters : 0, w);
	return letters >= 1 && letters <= 6 && digits >= 1 && !*p && (colon || in_list(prefix, prefixes));
}

/* Round 11: "KEEP depth 6", "DISCARD depth 6 worse": a decision written
 * in capitals before the change is a label ("keep depth 6" in lower case
 * says the setting stays). */
static int status_label(const struct reader *r, const struct tok *t)
{
	static const char *const decisions[] = { "keep", "kept", "discard", "discarded", "crash",
						 "crashed", "best", "revert", "reverted", NULL };
	if (t->k != K_WORD || !in_list(t->w, decisions))
		return 0;
	for (int i = t->a; i < t->b; i++)
		if (!isupper((unsigned char)r->text[i]))
			return 0;
	return 1;
}

/* Skip labels; returns the first token after them, or -1 when the
 * description says nothing changed ("baseline", "rerun"). */
static int skip_labels(const struct reader *r, int stated)
{
	struct name nm;
	int p = 0, n = r->tk.n;
	while (p < n) {
		const struct tok *t = &r->tk.t[p];
		if (word_in(r, p, n, no_change_words) && !stated)
			return -1;
		if (word_in(r, p, n, no_change_words)) {
			p += 1 + (at(r, p + 1, n)->k == K_COLON); /* "baseline: depth=4" */
			continue;
		}
		int known = t->k == K_WORD && (known_name(r, p, n, &nm) || find_value_word(t->w, NULL));
		if (t->k == K_BRACKET || status_label(r, t))
			p++;
		else if (t->k == K_WORD && !known && is_label_word(t->w, at(r, p + 1, n)->k == K_COLON))
			p += 1 + (at(r, p + 1, n)->k == K_COLON);
		else if (t->k == K_WORD && t->w[0] == '#')
			p += 1 + (at(r, p + 1, n)->k == K_COLON);
		else if (word_in(r, p, n, label_words) && at(r, p + 1, n)->k == K_NUM)
			p += 2 + (at(r, p + 2, n)->k == K_COLON);
		else if ((t->k == K_WORD || t->k == K_NUM) && !known && at(r, p + 1, n)->k == K_COLON &&
			 !word_in(r, p, n, prose_markers))
			p += 2;
		else if (t->k == K_STOP && p > 0 && p + 1 < n)
			p++; /* "run 5 - depth 9": the dash after a label */
		else
			break;
	}
	return p;
}

/* "M2 Pro 16 GB baseline (depth 4)", "pilot baseline on branch X": the
 * first phrase names this run a baseline, what it states is its setup. */
static int names_a_baseline(const struct reader *r)
{
	static const char *const compared_with[] = { "beats", "beat", "beating", "over", "superseded",
						     "against", "outperforms", "matches", "matched",
						     "within", "below", "above", NULL };
	static const char *const after[] = { "on", "run", "for", "with", "at", "again", NULL };
	int n = r->tk.n;
	for (int p = 0; p < n; p++) {
		const struct tok *t = &r->tk.t[p];
		if (t->k != K_WORD && t->k != K_NUM)
			return 0; /* the first phrase ended */
		if (t->k == K_WORD && (in_list(t->w, verbs) || in_list(t->w, toggles_off)))
			return 0; /* "switch to the baseline LR": a change */
		/* round 13: "depth 8 worse than baseline", "… superseded by
		 * fresh baseline": the baseline it is compared with */
		if (t->k == K_WORD && (in_list(t->w, judgement_words) || in_list(t->w, compared_with)))
			return 0;
		if (word_is(r, p, n, "baseline"))
			return p + 1 >= n || at(r, p + 1, n)->k == K_PAREN || at(r, p + 1, n)->k == K_STOP ||
			       at(r, p + 1, n)->k == K_SEP || at(r, p + 1, n)->k == K_COLON ||
			       word_in(r, p + 1, n, after);
	}
	return 0;
}

/* "no logic change", "no changes", "same config": nothing changed. */
static int says_no_change(const struct reader *r)
{
	/* "log: session history …", "docs: …": a commit of notes, no setting */
	static const char *const bookkeeping[] = { "log", "logs", "docs", "doc", "notes", "note",
						   "chore", NULL };
	int n = r->tk.n;
	if (names_a_baseline(r) || (word_in(r, 0, n, bookkeeping) && at(r, 1, n)->k == K_COLON))
		return 1;
	/* "FAILED TO APPLY: Increase Muon ns_steps from 5 to 6": the edit never
	 * reached the run */
	if (word_is(r, 0, n, "failed") && word_is(r, 1, n, "to") && word_is(r, 2, n, "apply"))
		return 1;
	for (int p = 0; p + 1 < n; p++) {
		/* "at same config", "with the same config": context of a change */
		static const char *const where[] = { "at", "on", "with", "in", "under", "using", NULL };
		int det = p > 0 && word_is(r, p - 1, n, "the");
		if (word_is(r, p, n, "same") && word_is(r, p + 1, n, "config") &&
		    !(p - det > 0 && word_in(r, p - det - 1, n, where)))
			return 1;
		if (!word_is(r, p, n, "no"))
			continue;
		int q = p + 1 + (word_is(r, p + 1, n, "logic") || word_is(r, p + 1, n, "code"));
		if (word_is(r, q, n, "change") || word_is(r, q, n, "changes"))
			return 1;
	}
	return 0;
}

/* "Hypothesis: smaller batch (2^18→2^16) = more steps. Result: …": where
 * nothing before it states a change, the hypothesis sentence names what
 * this run tried (so does a "Change: …" or "Idea: …" sentence); each is
 * read up to its end (the next stop or marker) by the same productions, so
 * prose in it still yields nothing, until one states a change. */
static void read_hypothesis(struct reader *r)
{
	static const char *const markers[] = { "hypothesis", "change", "changes", "idea", "tried",
					       "experiment", "modification", "tweak", "action", NULL };
	int n = r->tk.n;
	for (int p = 0; p + 1 < n && !r->added; p++)
		if (word_in(r, p, n, markers) && r->tk.t[p + 1].k == K_COLON) {
			r->first = p + 2;
			read_span(r, p + 2, n, 0);
		}
}

/* "Muon optimizer: ns_steps 5 -> 3": a heading that names a setting by
 * its value word, then a stated transition of another knob — the heading
 * says what the change is about, not that the setting was switched. The
 * heading's changes (no number in them) go when a later one states both
 * sides; "SwiGLU: replaces ReLU^2" (one knob) keeps its heading. */
static void drop_heading(struct reader *r, int from)
{
	int explicit_after = 0, heading_only = 1;
	struct change_list *out = r->out;
	for (int i = from + r->title_n; i < out->n; i++)
		explicit_after |= out->v[i].old_val && out->v[i].new_val;
	for (int i = from; i < from + r->title_n && i < out->n; i++) {
		const struct change *c = &out->v[i];
		heading_only &= !str_starts_with(c->var, "desc.") && !c->old_val && c->span &&
				!strpbrk(c->span, "0123456789=");
	}
	if (!explicit_after || !heading_only || r->title_n <= 0)
		return;
	struct change_list kept = CHANGE_LIST_INIT;
	for (int i = 0; i < out->n; i++)
		if (i < from || i >= from + r->title_n)
			change_list_add_span(&kept, out->v[i].var, out->v[i].old_val, out->v[i].new_val,
					     out->v[i].span);
	r->added -= r->title_n;
	change_list_release(out);
	*out = kept;
}

/* The description read as changes, or (stated) as the settings it states. */
/* ---- metadata cells ----------------------------------------------------- */

/* Round 12: a cell a CSV writer quoted ("…args=""--seq-len 384"""): its
 * text, the outer quotes off and doubled quotes single. NULL when s is no
 * such cell. */
static char *csv_unquoted(const char *s)
{
	size_t n = strlen(s);
	if (n < 3 || s[0] != '"' || s[n - 1] != '"')
		return NULL;
	for (size_t i = 1; i + 1 < n; i++) /* each quote inside doubled: one cell */
		if (s[i] == '"' && (i + 2 >= n || s[++i] != '"'))
			return NULL;
	char *u = xmalloc(n), *o = u;
	for (size_t i = 1; i + 1 < n; i++) {
		*o++ = s[i];
		if (s[i] == '"' && s[i + 1] == '"' && i + 2 < n)
			i++;
	}
	*o = '\0';
	return u;
}

/* The value of "KEY=" in a key=value metadata line (a word that starts
 * the line or follows a space): [*a, *b), to the next " word=" or the
 * end; a quoted value is its inside. 0 when the key is not there. */
static int meta_value(const char *s, const char *key, int *a, int *b)
{
	size_t kn = strlen(key);
	for (const char *p = s; (p = strstr(p, key)); p++) {
		if ((p > s && !isspace((unsigned char)p[-1])) || p[kn] != '=')
			continue;
		const char *v = p + kn + 1, *e = v;
		if (*v == '"') {
			const char *q = strchr(v + 1, '"');
			*a = (int)(v + 1 - s);
			*b = q ? (int)(q - s) : (int)strlen(s);
			return 1;
		}
		for (; *e; e++) { /* up to " NAME=": the next key */
			if (!isspace((unsigned char)*e))
				continue;
			const char *w = e + 1;
			while (isalnum((unsigned char)*w) || *w == '_')
				w++;
			if (*w == '=' && w > e + 1)
				break;
		}
		*a = (int)(v - s);
		*b = (int)(e - s);
		return 1;
	}
	return 0;
}

/* Round 12: an experiment harness's metadata line ("run_tag=… branch=…
 * exp=… seed=1001 desc=Balanced shape … args=--total-batch-size 4096"):
 * what states a change is the desc= sentence, the seed and the trainer's
 * args; the run's tag, branch, experiment name and the results logged
 * beside them (proxy_val_bpb=, canonical_seq_len= of the evaluation) are
 * not. Returns that text ("desc; seed=N; args"), NULL when s is no such
 * line (two of run_tag, branch, exp, desc, args at least). */
static char *metadata_text(const char *s)
{
	static const char *const keys[] = { "run_tag", "branch", "exp", "desc", "args", NULL };
	int a, b, found = 0;
	for (int i = 0; keys[i]; i++)
		found += meta_value(s, keys[i], &a, &b);
	if (found < 2)
		return NULL;
	sb t = SB_INIT;
	if (meta_value(s, "desc", &a, &b)) {
		while (b > a && (isspace((unsigned char)s[b - 1]) || s[b - 1] == '.'))
			b--;
		sb_addf(&t, "%.*s", b - a, s + a);
	}
	if (meta_value(s, "seed", &a, &b))
		sb_addf(&t, "; seed=%.*s", b - a, s + a);
	if (meta_value(s, "args", &a, &b))
		sb_addf(&t, "; %.*s", b - a, s + a);
	return sb_detach(&t);
}

static int describe_text(const char *description, struct change_list *out, int stated);

static int describe(const char *description, struct change_list *out, int stated)
{
	if (!description)
		return 0;
	char *unq = csv_unquoted(description);
	char *meta = metadata_text(unq ? unq : description);
	int n = describe_text(meta ? meta : unq ? unq : description, out, stated);
	free(meta);
	free(unq);
	return n;
}

static int describe_text(const char *description, struct change_list *out, int stated)
{
	struct reader r = { .text = description, .out = out };
	tokenize(description, 0, (int)strlen(description), &r.tk);
	r.memo = xcalloc((size_t)r.tk.n + 1, sizeof(*r.memo));
	int p = !stated && says_no_change(&r) ? -1 : skip_labels(&r, stated);
	r.first = p;
	int from = out->n;
	if (p >= 0)
		read_span(&r, p, r.tk.n, 0);
	if (r.titled) {
		r.title_n -= from;
		drop_heading(&r, from);
	}
	if (p >= 0 && !stated && !r.added)
		read_hypothesis(&r);
	reader_close(&r);
	return r.added;
}

/* Round 13: "Default M5 baseline", "baseline on the original config": a
 * baseline that names the default settings, not the current best's. */
static int names_default(const struct reader *r)
{
	static const char *const defaults[] = { "default", "defaults", "original", "upstream",
						"stock", "vanilla", NULL };
	static const char *const current[] = { "current", "same", "previous", "best", "latest", NULL };
	static const char *const setup[] = { "config", "configuration", "settings", "setup",
					     "hyperparameters", "hparams", "params", NULL };
	int n = r->tk.n, dflt = 0, seen = 0; /* seen: past the word "baseline" */
	int e = 0;
	while (e < n && (r->tk.t[e].k == K_WORD || r->tk.t[e].k == K_NUM))
		e++; /* the first phrase */
	for (int p = 0; p < e; p++) {
		if (word_in(r, p, e, current))
			return 0; /* "current default" is the current best's */
		/* before "baseline" ("Default M5 baseline"); after it, only as
		 * the whole setup ("baseline at default settings", not
		 * "baseline at default LR": one knob's default) */
		if (word_in(r, p, e, defaults) &&
		    (!seen || p + 1 >= e || word_in(r, p + 1, e, setup)))
			dflt = 1;
		seen |= word_is(r, p, e, "baseline");
	}
	return dflt;
}

/* Only a baseline or a rerun says what the run measured: a notes commit
 * ("log: muon warmup 300->150 keep") or an edit that never applied
 * ("FAILED TO APPLY: Increase Muon ns_steps from 5 to 6") changes nothing
 * but states no setting of the run either. */
static int no_change_kind(const char *text)
{
	struct reader r = { .text = text };
	tokenize(text, 0, (int)strlen(text), &r.tk);
	r.memo = xcalloc((size_t)r.tk.n + 1, sizeof(*r.memo));
	int baseline = names_a_baseline(&r);
	int kind = baseline || skip_labels(&r, 0) < 0;
	if (baseline && names_default(&r))
		kind = 2;
	reader_close(&r);
	return kind;
}

int describe_no_change(const char *description)
{
	if (!description)
		return 0;
	char *unq = csv_unquoted(description);
	char *meta = metadata_text(unq ? unq : description);
	int kind = no_change_kind(meta ? meta : unq ? unq : description);
	free(meta);
	free(unq);
	return kind;
}

int describe_changes(const char *description, struct change_list *out)
{
	return describe(description, out, 0);
}

int describe_lexicon_at(size_t i, const char **spelling, char *key, size_t n)
{
	if (i < ARRAY_SIZE(desc_names)) {
		*spelling = desc_names[i].spelling;
		snprintf(key, n, "desc.%s", desc_names[i].name);
		return 0;
	}
	i -= ARRAY_SIZE(desc_names);
	if (i >= ARRAY_SIZE(desc_values))
		return -1;
	*spelling = desc_values[i].spelling;
	snprintf(key, n, "desc.%s", desc_values[i].name);
	return 0;
}

int describe_name_known(const char *var)
{
	static const char *const steps[] = { "desc.warmup_steps", "desc.warmup_iters",
					     "desc.warmdown_steps", "desc.warmdown_iters", NULL };
	if (!str_starts_with(var, "desc."))
		return varreg_find(var) != NULL;
	if (find_desc_name_var(var) || in_list(var, steps) || !strcmp(var, "desc.weight_decay_schedule") ||
	    part_knob_known(var))
		return 1; /* steps: step_count_form's names, by their unit; the schedule:
			   * find_desc_value's; the parts' knobs: part_of's */
	/* p_layers: "<technique>_layers" of a lexicon technique */
	char stem[96];
	size_t n = strlen(var);
	if (n > 12 && str_ends_with(var, "_layers")) {
		snprintf(stem, sizeof(stem), "%.*s", (int)(n - 7), var);
		if (find_desc_name_var(stem))
			return 1;
		snprintf(stem, sizeof(stem), "%.*ss", (int)(n - 7), var);
		if (find_desc_name_var(stem))
			return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(desc_values); i++)
		if (!strcmp(desc_values[i].name, var + 5))
			return 1;
	return 0;
}

int describe_stated(const char *description, struct change_list *out)
{
	return describe(description, out, 1);
}
