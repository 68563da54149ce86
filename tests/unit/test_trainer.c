/* test_trainer.c — trainer/ beyond single ops: the whole model's gradient
 * against finite differences, determinism of forward/backward across
 * thread counts, the config table (parse, errors, resolved JSON), the LR
 * schedule, the shard header, and that a record built from a run passes
 * runrec/1 validation (common/runrec.h).
 * Test plan: the model check uses a tiny config (V 32, C 8, 2 layers, 2
 * heads, T 6, B 2, qk-norm and soft-cap on) with every weight random, and
 * compares the directional derivative along each tensor's own gradient
 * (and along random directions, |direction| = 1) with central differences
 * of the fp32 loss at h = 1e-2 and 5e-3, Richardson-extrapolated so the
 * O(h^2) error cancels (plain central differences were measured at 5e-3
 * relative error from curvature alone). What is left: fp32 loss noise
 * (~1e-7 · 3.5) / h ~ 1e-4, so MODEL_TOL = 2e-3. */
#include <omp.h>
#include <jansson.h>
#include "config.h"
#include "data.h"
#include "impl.h"
#include "model.h"
#include "record.h"
#include "run.h"
#include "runrec.h"
#include "util.h"
#include "check.h"

#define MODEL_TOL 2e-3

static void tiny_config(struct config *c)
{
	config_defaults(c);
	const char *kv[] = { "model.vocab_size=32", "model.dim=8", "model.depth=2", "model.heads=2",
			     "model.seq_len=6", "model.softcap=3", "model.qk_norm=true",
			     "train.device_batch_size=2", "train.total_batch_size=12" };
	for (size_t i = 0; i < ARRAY_SIZE(kv); i++)
		config_set_kv(c, kv[i], "test");
}

static void tiny_batch(int *in, int *tg, int n, uint64_t s)
{
	for (int i = 0; i < n; i++) {
		in[i] = (int)(rng_next(&s) % 32);
		tg[i] = (int)(rng_next(&s) % 32);
	}
}

static double loss_along(struct model *m, const float *p0, const float *dir, double h,
			 const int *in, const int *tg)
{
	for (size_t i = 0; i < model_num_params(m); i++)
		m->params[i] = p0[i] + (float)(h * dir[i]);
	return model_forward(m, in, tg, 2, 6);
}

/* Relative error of the directional derivative along dir (unit norm). */
static double dir_check(struct model *m, const float *p0, const float *dir, const int *in, const int *tg)
{
	double h = 1e-2, an = 0, d[2];
	for (size_t i = 0; i < model_num_params(m); i++)
		an += (double)m->grads[i] * dir[i];
	for (int k = 0; k < 2; k++, h /= 2)
		d[k] = (loss_along(m, p0, dir, h, in, tg) - loss_along(m, p0, dir, -h, in, tg)) / (2 * h);
	double fd = (4 * d[1] - d[0]) / 3; /* Richardson: cancels the h^2 term */
	memcpy(m->params, p0, model_num_params(m) * sizeof(float));
	return fabs(fd - an) / fmax(fabs(an), 1e-3);
}

/* variant 0: qk-norm and soft-cap on; variant 1: both off */
static void test_model_grad(int variant)
{
	struct config c;
	struct model_dims d;
	struct model m;
	int in[12], tg[12];
	uint64_t s = 7;
	char id[64];
	tiny_config(&c);
	if (variant) {
		config_set_kv(&c, "model.qk_norm=false", "test");
		config_set_kv(&c, "model.softcap=0", "test");
	}
#define ID(name) (snprintf(id, sizeof(id), "trainer-model-grad%s.%s", variant ? "-plain" : "", name), id)
	model_dims_from_config(&d, &c);
	CHECK(ID("init"), model_init(&m, &d, 2) == 0);
	size_t n = model_num_params(&m);
	CHECK(ID("nparams"), n == 2 * 32 * 8 + 2 * (4 * 8 * 8 + 2 * 8 * 32));
	for (size_t i = 0; i < n; i++) /* all random, so no gradient is trivially 0 */
		m.params[i] = (float)(0.5 * rng_gauss(&s));
	tiny_batch(in, tg, 12, 99);
	float *p0 = xmalloc(n * sizeof(float)), *dir = xcalloc(n, sizeof(float));
	memcpy(p0, m.params, n * sizeof(float));
	model_zero_grad(&m);
	model_forward(&m, in, tg, 2, 6);
	model_backward(&m, 1.0f);
	double worst = 0;
	char worst_name[32] = "";
	for (int t = 0; t < m.pl.ntensors; t++) {
		const struct param_tensor *pt = &m.pl.t[t];
		size_t len = (size_t)pt->rows * pt->cols;
		double norm = 0;
		memset(dir, 0, n * sizeof(float));
		for (size_t i = 0; i < len; i++)
			norm += (double)m.grads[pt->offset + i] * m.grads[pt->offset + i];
		for (size_t i = 0; i < len; i++)
			dir[pt->offset + i] = (float)(m.grads[pt->offset + i] / sqrt(norm));
		double e = dir_check(&m, p0, dir, in, tg);
		if (e > worst) {
			worst = e;
			snprintf(worst_name, sizeof(worst_name), "%s", pt->name);
		}
	}
	if (!CHECK(ID("tensors"), worst <= MODEL_TOL))
		printf("#   worst relative error %.3g in %s\n", worst, worst_name);
	worst = 0;
	for (int k = 0; k < 3; k++) {
		double norm = 0;
		for (size_t i = 0; i < n; i++) {
			dir[i] = (float)rng_gauss(&s);
			norm += (double)dir[i] * dir[i];
		}
		for (size_t i = 0; i < n; i++)
			dir[i] = (float)(dir[i] / sqrt(norm));
		worst = fmax(worst, dir_check(&m, p0, dir, in, tg));
	}
	if (!CHECK(ID("random"), worst <= 5 * MODEL_TOL))
		printf("#   worst relative error %.3g\n", worst);
	/* micro-batches accumulate: two backward(0.5) == one backward(1) */
	float *g1 = xmalloc(n * sizeof(float));
	memcpy(g1, m.grads, n * sizeof(float));
	model_zero_grad(&m);
	for (int k = 0; k < 2; k++) {
		model_forward(&m, in, tg, 2, 6);
		model_backward(&m, 0.5f);
	}
	double diff = 0;
	for (size_t i = 0; i < n; i++)
		diff = fmax(diff, fabs(m.grads[i] - g1[i]));
	CHECK(ID("accumulates"), diff < 1e-6);
	free(g1);
	free(p0);
	free(dir);
	model_release(&m);
#undef ID
}

/* Bit-identical loss and gradients with 1 and 2 threads. */
static void test_determinism(void)
{
	struct config c;
	struct model_dims d;
	struct model m;
	int in[12], tg[12];
	float loss[2], *g[2];
	tiny_config(&c);
	model_dims_from_config(&d, &c);
	tiny_batch(in, tg, 12, 5);
	for (int k = 0; k < 2; k++) {
		omp_set_num_threads(k + 1);
		model_init(&m, &d, 2);
		model_init_weights(&m, 42);
		loss[k] = model_forward(&m, in, tg, 2, 6);
		model_backward(&m, 1.0f);
		g[k] = xmalloc(model_num_params(&m) * sizeof(float));
		memcpy(g[k], m.grads, model_num_params(&m) * sizeof(float));
		model_release(&m);
	}
	CHECK("trainer-determinism-threads.loss", loss[0] == loss[1]);
	CHECK("trainer-determinism-threads.grads",
	      !memcmp(g[0], g[1], (2 * 32 * 8 + 2 * (4 * 8 * 8 + 2 * 8 * 32)) * sizeof(float)));
	/* initial loss of a fresh model is close to ln(V): lm_head starts tiny */
	CHECK_NEAR("trainer-init-loss", loss[0], log(32.0), 0.05);
	free(g[0]);
	free(g[1]);
	omp_set_num_threads(2);
}

static void test_config(void)
{
	struct config c;
	config_defaults(&c);
	CHECK("trainer-config-defaults", c.depth == 8 && c.dim == 512 && c.heads == 4 && c.seq_len == 2048 &&
	      c.device_batch_size == 64 && !strcmp(c.device, "auto"));
	CHECK("trainer-config-set", config_set_kv(&c, "optim.matrix_lr=0.02", "t") == 0 && c.matrix_lr == 0.02);
	CHECK("trainer-config-unknown", config_set_kv(&c, "model.widht=3", "t") != 0);
	CHECK("trainer-config-badint", config_set_kv(&c, "model.depth=3.5", "t") != 0 && c.depth == 8);
	CHECK("trainer-config-enum", config_set_kv(&c, "sched.warmdown_shape=cosine", "t") != 0 &&
	      config_set_kv(&c, "sched.warmdown_shape=sqrt", "t") == 0);
	CHECK("trainer-config-bool", config_set_kv(&c, "impl.recompute=yes", "t") == 0 && c.recompute == 1);
	CHECK("trainer-config-check", config_check(&c) == 0);
	config_set_kv(&c, "model.heads=3", "t");
	CHECK("trainer-config-check.heads", config_check(&c) != 0);
	json_t *j = config_to_json(&c);
	CHECK("trainer-config-json.all", json_object_size(j) == cfg_nkeys);
	CHECK("trainer-config-json.types", json_is_integer(json_object_get(j, "model.depth")) &&
	      json_is_real(json_object_get(j, "optim.matrix_lr")) &&
	      json_is_true(json_object_get(j, "impl.recompute")) &&
	      !strcmp(json_string_value(json_object_get(j, "sched.warmdown_shape")), "sqrt"));
	json_decref(j);
	int kinds_ok = 1;
	for (size_t i = 0; i < cfg_nkeys; i++)
		kinds_ok &= (cfg_keys[i].kind == CFG_IMPL) == str_starts_with(cfg_keys[i].key, "impl.");
	CHECK("trainer-config-kinds", kinds_ok);
}

/* Every choice of every impl.* key has a row in trainer/impl.c (which
 * devices implement it, or why none does), and auto resolves to a value
 * the device implements. */
static void test_impl_table(void)
{
	int all_ok = 1;
	for (size_t i = 0; i < cfg_nkeys; i++) {
		const struct cfg_key *k = &cfg_keys[i];
		const char *bools = "true|false", *choices = k->type == CFG_BOOL ? bools : k->choices;
		if (k->kind != CFG_IMPL || !choices)
			continue;
		for (const char *p = choices; *p;) {
			size_t len = strcspn(p, "|");
			char v[64];
			snprintf(v, sizeof(v), "%.*s", (int)len, p);
			if (strcmp(v, "auto") && !impl_has_row(k->key, v)) {
				fprintf(stderr, "# %s=%s: not in trainer/impl.c\n", k->key, v);
				all_ok = 0;
			}
			p += len + (p[len] == '|');
		}
	}
	CHECK("trainer-impl-every-choice", all_ok);
	/* and, since issue 10, every value runs on at least one device */
	CHECK("trainer-impl-all-run-somewhere", impl_devices("impl.recompute", "true") == IMPL_CUDA &&
	      impl_devices("impl.attention", "flash") == IMPL_CUDA &&
	      impl_devices("impl.compile_mode", "autotune") == IMPL_CUDA &&
	      impl_devices("impl.fused_adamw", "false") == IMPL_CUDA &&
	      impl_devices("impl.fused_xent", "false") == IMPL_CUDA &&
	      impl_devices("impl.relu2", "epilogue") == IMPL_CUDA &&
	      impl_devices("impl.rotary", "epilogue") == IMPL_CUDA &&
	      impl_devices("impl.gemm", "wgmma") == IMPL_CUDA &&
	      impl_devices("impl.gemm", "cublaslt") == IMPL_CUDA &&
	      impl_devices("impl.cuda_graphs", "true") == IMPL_CUDA);
	struct config c;
	char why[512], hint[256];
	config_defaults(&c);
	impl_resolve(&c, "cpu");
	CHECK("trainer-impl-cpu-auto", !strcmp(c.attention, "naive") && !strcmp(c.compile_mode, "none") &&
	      !strcmp(c.relu2, "kernel") && !strcmp(c.rotary, "kernel") && !strcmp(c.gemm, "loops") &&
	      impl_check(&c, "cpu", why, sizeof(why), hint, sizeof(hint)) == 0);
	config_defaults(&c);
	impl_resolve(&c, "cuda");
	CHECK("trainer-impl-cuda-auto", !strcmp(c.compile_mode, "heuristic") &&
	      impl_check(&c, "cuda", why, sizeof(why), hint, sizeof(hint)) == 0);
	c.threads = 4;
	CHECK("trainer-impl-cuda-threads", impl_check(&c, "cuda", why, sizeof(why), hint, sizeof(hint)) != 0 &&
	      strstr(why, "impl.threads=4 is not implemented on cuda"));
	CHECK("trainer-impl-devices", impl_devices("impl.cuda_graphs", "false") == (IMPL_CPU | IMPL_CUDA) &&
	      impl_devices("impl.compile_mode", "none") == IMPL_CPU && impl_devices("impl.gemm", "loops") == IMPL_CPU &&
	      impl_devices("impl.attention", "naive") == (IMPL_CPU | IMPL_CUDA));
}

static void test_schedule(void)
{
	struct config c;
	config_defaults(&c);
	config_set_kv(&c, "sched.warmup_ratio=0.1", "t");
	config_set_kv(&c, "sched.warmdown_ratio=0.5", "t");
	config_set_kv(&c, "sched.final_lr_frac=0.2", "t");
	CHECK_NEAR("trainer-sched-warmup", lr_multiplier(&c, 0.05), 0.5, 1e-12);
	CHECK_NEAR("trainer-sched-stable", lr_multiplier(&c, 0.3), 1.0, 1e-12);
	CHECK_NEAR("trainer-sched-linear", lr_multiplier(&c, 0.75), 1.0 - 0.8 * 0.5, 1e-12);
	CHECK_NEAR("trainer-sched-end", lr_multiplier(&c, 1.0), 0.2, 1e-12);
	config_set_kv(&c, "sched.warmdown_shape=sqrt", "t");
	CHECK_NEAR("trainer-sched-sqrt", lr_multiplier(&c, 0.625), 1.0 - 0.8 * 0.5, 1e-12);
}

static void test_shard_header(void)
{
	struct shard_header h = { 1, 2, 50257, SPLIT_VAL, 123456789012ull }, back;
	unsigned char buf[SHARD_HEADER_BYTES];
	shard_header_encode(&h, buf);
	CHECK("trainer-shard-magic", !memcmp(buf, "RLSHARD\0", 8) && buf[8] == 1 && buf[12] == 2);
	CHECK("trainer-shard-roundtrip", shard_header_decode(buf, &back, "t") == 0 &&
	      back.count == h.count && back.vocab_size == 50257 && back.split == SPLIT_VAL);
	buf[0] = 'X';
	CHECK("trainer-shard-badmagic", shard_header_decode(buf, &back, "t") != 0);
}

static void test_record(void)
{
	static struct run r;
	struct run_meta meta = { "agent-x", NULL, NULL, "depth 2 \"quoted\"", "", "2026-03-16T04:00:00Z", NULL };
	sb err = SB_INIT;
	config_defaults(&r.cfg);
	snprintf(r.device, sizeof(r.device), "cpu");
	snprintf(r.status, sizeof(r.status), "nan");
	snprintf(r.phase, sizeof(r.phase), "forward");
	snprintf(r.message, sizeof(r.message), "loss is nan at step 3");
	r.m.val_bpb = NAN;
	r.m.train_loss = NAN;
	r.m.num_steps = 3;
	record_new_id(meta.run_id, sizeof(meta.run_id));
	json_t *rec = record_build(&r, &meta);
	CHECK("trainer-record-valid", runrec_validate(rec, &err) == 0);
	if (err.len)
		printf("#   %s\n", err.buf);
	CHECK("trainer-record-nan-null", json_is_null(json_object_get(json_object_get(rec, "metrics"), "val_bpb")));
	CHECK("trainer-record-failure", !strcmp(runrec_sub_str(rec, "failure", "phase"), "forward"));
	CHECK("trainer-record-config", json_object_size(json_object_get(rec, "config")) == cfg_nkeys &&
	      !strcmp(json_string_value(json_object_get(json_object_get(rec, "config"), "train.device")), "cpu"));
	CHECK("trainer-record-id", str_starts_with(meta.run_id, "t-") && strlen(meta.run_id) == 27);
	json_decref(rec);
	sb_release(&err);
}

int main(void)
{
	rl_progname = "test_trainer";
	test_model_grad(0);
	test_model_grad(1);
	test_determinism();
	test_config();
	test_impl_table();
	test_schedule();
	test_shard_header();
	test_record();
	return check_status();
}
