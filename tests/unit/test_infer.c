/* test_infer.c — ledger/infer.c: changed variables from descriptions and
 * exact config diffs.
 * Test plan: each grammar form of docs/ingest.md once (to, ->, →, a→b,
 * "name: a → b", name=v, name v, bare alias), the splitting rules (" + ",
 * " & ", ";" always; " and " / ", " only when every side is a change),
 * prose that must yield nothing, unknown names -> desc.<slug>, and exact
 * diffs with changed, added and removed keys. Each case checks the exact
 * variable, old and new text. */
#include <jansson.h>
#include "infer.h"
#include "util.h"
#include "check.h"

/* Render a change list as "var:old>new|…" (NULL as "~") for one-line checks. */
static char *render(const struct change_list *cl)
{
	sb s = SB_INIT;
	for (int i = 0; i < cl->n; i++)
		sb_addf(&s, "%s%s:%s>%s", i ? "|" : "", cl->v[i].var,
			cl->v[i].old_val ? cl->v[i].old_val : "~",
			cl->v[i].new_val ? cl->v[i].new_val : "~");
	return sb_detach(&s);
}

static void expect(const char *id, const char *desc, const char *want)
{
	struct change_list cl = CHANGE_LIST_INIT;
	infer_changes(desc, &cl);
	char *got = render(&cl);
	if (!check_report(id, desc, !strcmp(got, want), __FILE__, __LINE__))
		printf("#   want '%s'\n#   got  '%s'\n", want, got);
	free(got);
	change_list_release(&cl);
}

static void test_forms(void)
{
	expect("infer-1.1", "depth 8 to 9", "model.depth:8>9");
	expect("infer-1.2", "embedding LR 0.6 to 0.8", "optim.embedding_lr:0.6>0.8");
	expect("infer-1.3", "increase matrix LR 0.04 to 0.05", "optim.matrix_lr:0.04>0.05");
	expect("infer-1.4", "depth 8 \xe2\x86\x92 9", "model.depth:8>9");
	expect("infer-1.5", "depth 8\xe2\x86\x92" "9", "model.depth:8>9");
	expect("infer-1.6", "attention: sdpa \xe2\x86\x92 flash", "impl.attention:sdpa>flash");
	expect("infer-1.7", "device batch 32 -> 64", "train.device_batch_size:32>64");
	expect("infer-1.8", "warmdown=0.5", "sched.warmdown_ratio:~>0.5");
	expect("infer-1.9", "weight decay 0.1", "optim.weight_decay:~>0.1");
	expect("infer-1.10", "reduce depth from 9 to 8", "model.depth:9>8");
	expect("infer-1.11", "grad checkpointing", "impl.recompute:~>~");
	expect("infer-1.12", "switch to flash attention", "impl.attention:~>flash");
	expect("infer-1.13", "disable grad checkpointing", "impl.recompute:~>false");
	expect("infer-1.14", "activation relu2", "model.activation:~>relu2");
	expect("infer-1.15", "total batch size 2**19 to 2**18", "train.total_batch_size:2**19>2**18");
	expect("infer-1.15b", "batch 32 -> 64", "train.device_batch_size:32>64");
	expect("infer-1.15c", "batch size 2**19 to 2**18", "train.total_batch_size:2**19>2**18");
	expect("infer-1.15d", "batch size 524288 to 262144", "train.total_batch_size:524288>262144");
	expect("infer-1.16", "optim.beta2 0.95 -> 0.99", "optim.beta2:0.95>0.99");
	expect("infer-1.17", "x0 lambda 0.1 to 0.2", "desc.x0_lambda:0.1>0.2");
	expect("infer-1.18", "attention to flash", "impl.attention:~>flash");
	expect("infer-1.19", "add QK norm", "model.qk_norm:~>true");
	expect("infer-1.20", "switch to muon", "optim.matrix_optimizer:~>muon");
	expect("infer-1.21", "heads 4 to 8", "model.heads:4>8");
}

static void test_splitting(void)
{
	expect("infer-2.1", "grad checkpointing + device batch 32 -> 64",
	       "impl.recompute:~>~|train.device_batch_size:32>64");
	expect("infer-2.2", "depth 9 and dim 640", "model.depth:~>9|model.dim:~>640");
	expect("infer-2.3", "matrix LR 0.04 to 0.05, embedding LR 0.6 to 0.8",
	       "optim.matrix_lr:0.04>0.05|optim.embedding_lr:0.6>0.8");
	expect("infer-2.4", "depth 10; warmup 0.1 & seed 7",
	       "model.depth:~>10|sched.warmup_ratio:~>0.1|train.seed:~>7");
	/* prose: " and " does not split, and nothing is recognised */
	expect("infer-2.5", "warmup and warmdown tweaks", "");
	/* remarks in parentheses are not part of a change */
	expect("infer-2.7", "depth 9 and dim 576 (OOM)", "model.depth:~>9|model.dim:~>576");
	/* the same variable twice: the later phrase wins */
	expect("infer-2.6", "depth 8 to 9 + depth 9 to 10", "model.depth:9>10");
}

static void test_prose(void)
{
	expect("infer-3.1", "baseline", "");
	expect("infer-3.2", "", "");
	expect("infer-3.3", "try a completely different idea for the residual stream", "");
	expect("infer-3.4", "revert", "");
	struct change_list cl = CHANGE_LIST_INIT;
	CHECK("infer-3.5", infer_changes(NULL, &cl) == 0 && cl.n == 0);
}

static void test_alias(void)
{
	CHECK("infer-4.1", !strcmp(infer_alias("Embedding_LR"), "optim.embedding_lr"));
	CHECK("infer-4.2", !strcmp(infer_alias("n-layer"), "model.depth"));
	CHECK("infer-4.3", infer_alias("frobnication") == NULL);
}

static void test_exact(void)
{
	json_t *p = json_loads("{\"model.depth\":8,\"optim.matrix_lr\":0.04,\"impl.attention\":\"sdpa\","
			       "\"impl.recompute\":false,\"train.seed\":1}", 0, NULL);
	json_t *c = json_loads("{\"model.depth\":9,\"optim.matrix_lr\":0.04,\"impl.attention\":\"flash\","
			       "\"impl.recompute\":true,\"sched.warmup_ratio\":0.05}", 0, NULL);
	struct change_list cl = CHANGE_LIST_INIT;
	changes_exact(p, c, &cl);
	char *got = render(&cl);
	const char *want = "impl.attention:sdpa>flash|impl.recompute:false>true|model.depth:8>9|"
			   "sched.warmup_ratio:~>0.05|train.seed:1>~";
	if (!CHECK("infer-5.1", !strcmp(got, want)))
		printf("#   got '%s'\n", got);
	free(got);
	change_list_release(&cl);
	changes_exact(p, p, &cl);
	CHECK("infer-5.2", cl.n == 0);
	change_list_release(&cl);
	json_decref(p);
	json_decref(c);

	sb s = SB_INIT;
	json_t *r = json_real(0.04);
	json_scalar_text(r, &s);
	CHECK("infer-5.3", !strcmp(s.buf, "0.04"));
	json_decref(r);
	sb_release(&s);
}

int main(void)
{
	test_forms();
	test_splitting();
	test_prose();
	test_alias();
	test_exact();
	return check_status();
}
