/* kernels_model.cu — whole-model checks and throughput of the CUDA path.
 *   kernels_model check   loss and every parameter's gradient of the GPU
 *                         model against the CPU model (trainer/model.c) on
 *                         a small config, then 10 optimiser steps of each
 *                         (Muon and AdamW) on the same batches, comparing
 *                         losses step by step. Exit 1 when out of tolerance.
 *                         Then the same loss and gradient check for each
 *                         impl.* variant of the GPU path (flash attention,
 *                         recompute, unfused cross-entropy, autotuned
 *                         GEMMs, relu^2 in our GEMM's epilogues on an
 *                         H100/H200) and the 10-step check with unfused AdamW.
 *   kernels_model bench DEPTH DIM HEADS OPTIMIZER STEPS [IMPL,...]
 *                         training throughput at seq 2048, batch 64 (one
 *                         optimiser step per micro-batch, like the PyTorch
 *                         runner in bench/torch/): tokens/s, MFU, memory.
 *                         IMPL words: flash recompute unfused_adamw
 *                         unfused_xent autotune graphs relu2_epilogue
 *                         (impl.relu2=epilogue) rotary_epilogue
 *                         (impl.rotary=epilogue), own_gemm (impl.gemm=wgmma),
 *                         familyN (the flash
 *                         kernel family N of kernels.h, FLASH_*), fq5 (the
 *                         fused backward's variant 5, flash_fq_diagnostic).
 * Tolerances: loss 5e-3 relative; gradients 5e-2 relative L2 per tensor
 * (bf16 operands through every layer); 10-step losses 2e-2 relative. */
#include "kernels_common.cuh"
#include "gpu_model.h"
extern "C" {
#include "config.h"
#include "hw.h"
#include "optim.h"
}

static int failures;

/* 128 (head size 64); the rotary epilogue's check sets 256 (head size 128) */
static int small_dim = 128;

static void small_config(struct config *c, const char *optimizer)
{
	config_defaults(c);
	c->depth = 2;
	c->dim = small_dim;
	c->heads = 2;
	c->seq_len = 128;
	c->device_batch_size = 4;
	c->total_batch_size = 4 * 128;
	snprintf(c->matrix_optimizer, sizeof(c->matrix_optimizer), "%s", optimizer);
}

/* Text-like batches: windows of a fixed paragraph, so the loss can fall. */
static void batch(int B, int T, std::vector<int> &in, std::vector<int> &tg)
{
	static const char text[] =
		"It is a truth universally acknowledged, that a single man in possession of a good "
		"fortune, must be in want of a wife. However little known the feelings or views of "
		"such a man may be on his first entering a neighbourhood, this truth is so well fixed "
		"in the minds of the surrounding families, that he is considered the rightful property "
		"of some one or other of their daughters. ";
	int len = (int)sizeof(text) - 1;
	in.resize((size_t)B * T);
	tg.resize((size_t)B * T);
	for (int b = 0; b < B; b++) {
		int off = (int)(rng_next(&bench_seed) % (uint64_t)len);
		for (int t = 0; t < T; t++) {
			in[(size_t)b * T + t] = (unsigned char)text[(off + t) % len];
			tg[(size_t)b * T + t] = (unsigned char)text[(off + t + 1) % len];
		}
	}
}

static const char *options_label(const struct gpu_options *o)
{
	static char buf[128];
	snprintf(buf, sizeof buf, "%s%s%s%s%s%s%s%s", o->flash ? "flash " : "naive ", o->recompute ? "recompute " : "",
		 o->fused_adamw ? "" : "unfused_adamw ", o->fused_xent ? "" : "unfused_xent ",
		 o->relu2_epilogue ? "relu2_epilogue " : "", o->rotary_epilogue ? "rotary_epilogue " : "",
		 o->own_gemm ? "own_gemm " : "", o->autotune ? "autotune" : "heuristic");
	return buf;
}

static void check_gradients(const struct gpu_options *opt)
{
	struct config c;
	struct model cm;
	struct model_dims d;
	struct gpu_model gm;
	small_config(&c, "muon");
	model_dims_from_config(&d, &c);
	int B = c.device_batch_size, T = c.seq_len;
	OK(model_init(&cm, &d, B));
	model_init_weights(&cm, 42);
	/* wo and wproj start at zero, which would leave the gradients of
	 * wq..wfc zero too: give them small random values for this check. */
	for (int i = 0; i < cm.pl.ntensors; i++) {
		const struct param_tensor *t = &cm.pl.t[i];
		if (strstr(t->name, ".wo") || strstr(t->name, ".wproj")) {
			std::vector<float> r = randn((size_t)t->rows * t->cols, 0.02, false);
			memcpy(cm.params + t->offset, r.data(), r.size() * sizeof(float));
		}
	}
	OK(gpu_model_init(&gm, &d, B, opt));
	OK(gpu_model_set_params(&gm, cm.params));
	std::vector<int> in, tg;
	batch(B, T, in, tg);
	float lc = model_forward(&cm, in.data(), tg.data(), B, T), lg;
	model_zero_grad(&cm);
	model_backward(&cm, 1.0f);
	OK(gpu_model_zero_grad(&gm));
	OK(gpu_model_forward(&gm, in.data(), tg.data(), B, 1, 1.0f, &lg));
	OK(gpu_model_backward(&gm));
	std::vector<float> gg(cm.pl.total);
	OK(gpu_model_get_grads(&gm, gg.data()));
	double lerr = fabs(lg - lc) / fabs(lc);
	printf("model check (depth 2, dim %d, 2 heads, T 128, B 4, qk_norm, softcap 15; %s):\n", c.dim,
	       options_label(opt));
	printf("  loss  cpu %.6f  gpu %.6f  rel err %.2e (tol 5e-3) %s\n", lc, lg, lerr,
	       lerr <= 5e-3 ? "ok" : "FAIL");
	failures += !(lerr <= 5e-3);
	double worst = 0;
	for (int i = 0; i < cm.pl.ntensors; i++) {
		const struct param_tensor *t = &cm.pl.t[i];
		size_t n = (size_t)t->rows * t->cols;
		std::vector<float> a(gg.begin() + t->offset, gg.begin() + t->offset + n);
		std::vector<float> r(cm.grads + t->offset, cm.grads + t->offset + n);
		double e = rel_err(a, r);
		worst = std::max(worst, e);
		printf("  grad %-10s (%4dx%-4d) rel err %.2e (tol 5e-2) %s\n", t->name, t->rows, t->cols, e,
		       e <= 5e-2 ? "ok" : "FAIL");
		failures += !(e <= 5e-2);
	}
	printf("  worst gradient rel err %.2e\n", worst);
	gpu_model_release(&gm);
	model_release(&cm);
}

/* 10 steps from the real initialisation, each path with its own optimiser. */
static void check_steps(const char *optimizer, int fused_adamw)
{
	struct config c;
	struct model cm;
	struct model_dims d;
	struct gpu_model gm;
	struct optim opt;
	small_config(&c, optimizer);
	model_dims_from_config(&d, &c);
	int B = c.device_batch_size, T = c.seq_len;
	OK(model_init(&cm, &d, B));
	model_init_weights(&cm, 7);
	OK(optim_init(&opt, &cm, &c));
	struct gpu_options o;
	gpu_options_default(&o, !strcmp(optimizer, "muon"));
	o.fused_adamw = fused_adamw;
	OK(gpu_model_init(&gm, &d, B, &o));
	OK(gpu_model_set_params(&gm, cm.params));
	printf("10 steps, %s%s (lr as configured, same batches):\n  step   cpu loss   gpu loss   rel diff\n",
	       optimizer, fused_adamw ? "" : ", unfused AdamW");
	double worst = 0;
	for (int s = 0; s < 10; s++) {
		std::vector<int> in, tg;
		double norm;
		float lg;
		batch(B, T, in, tg);
		float lc = model_forward(&cm, in.data(), tg.data(), B, T);
		model_zero_grad(&cm);
		model_backward(&cm, 1.0f);
		optim_step(&opt, &cm, &c, 1.0);
		OK(gpu_model_zero_grad(&gm));
		OK(gpu_model_forward(&gm, in.data(), tg.data(), B, 1, 1.0f, &lg));
		OK(gpu_model_backward(&gm));
		OK(gpu_model_step(&gm, &c, 1.0, &norm));
		double e = fabs(lg - lc) / fabs(lc);
		worst = std::max(worst, e);
		printf("  %4d   %.5f    %.5f    %.2e\n", s + 1, lc, lg, e);
	}
	printf("  worst %.2e (tol 2e-2) %s\n", worst, worst <= 2e-2 ? "ok" : "FAIL");
	failures += !(worst <= 2e-2);
	gpu_model_release(&gm);
	optim_release(&opt);
	model_release(&cm);
}

/* "N" -> a flash kernel family (kernels.h's FLASH_*), else -1. */
static int family_number(const char *digits)
{
	char *end;
	long n = strtol(digits, &end, 10);
	return *digits >= '0' && *digits <= '9' && !*end && n < FLASH_FAMILIES ? (int)n : -1;
}

/* "flash,recompute,…" -> options; 0 ok. */
static int parse_impl(struct gpu_options *o, int *graphs, const char *list)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", list);
	for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
		if (!strcmp(w, "flash")) o->flash = 1;
		else if (!strcmp(w, "naive")) o->flash = 0;
		else if (!strcmp(w, "recompute")) o->recompute = 1;
		else if (!strcmp(w, "unfused_adamw")) o->fused_adamw = 0;
		else if (!strcmp(w, "unfused_xent")) o->fused_xent = 0;
		else if (!strcmp(w, "autotune")) o->autotune = 1;
		else if (!strcmp(w, "relu2_epilogue")) o->relu2_epilogue = 1;
		else if (!strcmp(w, "rotary_epilogue")) o->rotary_epilogue = 1;
		else if (!strcmp(w, "own_gemm")) o->own_gemm = 1; /* impl.gemm=wgmma */
		else if (!strcmp(w, "graphs")) *graphs = 1;
		else if (!strcmp(w, "fq5")) /* family 13's variant 5 (flash_fq_diagnostic) */
			flash_fq_diagnostic(5);
		else if (!strncmp(w, "family", 6) && family_number(w + 6) >= 0)
			flash_select_kernels(family_number(w + 6)); /* kernels.h's FLASH_* */
		else {
			fprintf(stderr, "bench: unknown impl word '%s'\n", w);
			return -1;
		}
	}
	return 0;
}

static int bench(int depth, int dim, int heads, const char *optimizer, int steps, const char *impl)
{
	struct config c;
	struct model_dims d;
	struct gpu_model gm;
	config_defaults(&c);
	c.depth = depth;
	c.dim = dim;
	c.heads = heads;
	snprintf(c.matrix_optimizer, sizeof(c.matrix_optimizer), "%s", optimizer);
	model_dims_from_config(&d, &c);
	int B = c.device_batch_size, T = c.seq_len, graphs = 0;
	struct gpu_options o;
	gpu_options_default(&o, !strcmp(optimizer, "muon"));
	if (parse_impl(&o, &graphs, impl))
		return 2;
	OK(gpu_model_init(&gm, &d, B, &o));
	{
		struct model hm;
		memset(&hm, 0, sizeof(hm));
		hm.d = d;
		OK(param_layout_init(&hm.pl, &d));
		std::vector<float> p(hm.pl.total);
		hm.params = p.data();
		model_init_weights(&hm, 1);
		OK(gpu_model_set_params(&gm, p.data()));
		param_layout_release(&hm.pl);
	}
	std::vector<int> in = randint((size_t)B * T, 256), tg = randint((size_t)B * T, 256);
	OK(gpu_model_upload(&gm, in.data(), tg.data(), B));
	/* one step on the stream; the loss is read only to keep the same work
	 * as the trainer's step (one sync per step without graphs) */
	auto body = [&] {
		OK(gpu_model_zero_grad(&gm));
		OK(gpu_model_forward_dev(&gm, B, 1, 1.0f, gm.loss_sum));
		OK(gpu_model_backward(&gm));
		OK(gpu_model_step_dev(&gm, &c));
	};
	cudaGraphExec_t exec = NULL;
	auto step = [&] {
		OK(gpu_model_set_schedule(&gm, &c, 1e-3));
		if (exec) {
			CU(cudaGraphLaunch(exec, gm.stream));
		} else {
			body();
			float l;
			CU(cudaMemcpyAsync(&l, gm.loss_sum, sizeof l, cudaMemcpyDeviceToHost, gm.stream));
			CU(cudaStreamSynchronize(gm.stream));
		}
	};
	for (int i = 0; i < 3; i++)
		step();
	if (graphs) {
		cudaGraph_t g;
		CU(cudaStreamBeginCapture(gm.stream, cudaStreamCaptureModeGlobal));
		body();
		CU(cudaStreamEndCapture(gm.stream, &g));
		CU(cudaGraphInstantiate(&exec, g, 0));
		step();
	}
	CU(cudaDeviceSynchronize());
	cudaEvent_t a, b;
	float ms;
	CU(cudaEventCreate(&a));
	CU(cudaEventCreate(&b));
	CU(cudaEventRecord(a, gm.stream));
	for (int i = 0; i < steps; i++)
		step();
	CU(cudaEventRecord(b, gm.stream));
	CU(cudaEventSynchronize(b));
	CU(cudaEventElapsedTime(&ms, a, b));
	cudaDeviceProp p;
	CU(cudaGetDeviceProperties(&p, 0));
	hw_info hi;
	double tok_s = (double)steps * B * T / (ms / 1e3), fpt = model_flops_per_token(&d);
	double mfu = hw_lookup(p.name, &hi) == 0 && hi.peak_bf16_tflops > 0
		? 100.0 * tok_s * fpt / (hi.peak_bf16_tflops * 1e12) : NAN;
	size_t free_b, total_b;
	CU(cudaMemGetInfo(&free_b, &total_b));
	/* the last step's loss sum, to compare two builds or kernel families
	 * at full size: equal within the run-to-run spread that the atomics'
	 * order gives (the embedding gradient, the gradient norm) */
	float last_loss;
	CU(cudaMemcpy(&last_loss, gm.loss_sum, sizeof last_loss, cudaMemcpyDeviceToHost));
	printf("ours depth=%d dim=%d heads=%d opt=%s impl=%s tokens_per_s=%.0f mfu_percent=%.2f "
	       "allocated_mb=%.0f device_used_mb=%.0f params_M=%.2f flops_per_token=%.4g step_ms=%.1f "
	       "loss_sum=%.6g\n",
	       depth, dim, heads, optimizer, impl, tok_s, mfu, gm.bytes / 1048576.0,
	       (total_b - free_b) / 1048576.0, gm.pl.total / 1e6, fpt, ms / steps, last_loss);
	gpu_model_release(&gm);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "check")) {
		/* check familyN: the flash runs on kernel family N */
		if (argc == 3 && !strncmp(argv[2], "family", 6) && family_number(argv[2] + 6) >= 0)
			flash_select_kernels(family_number(argv[2] + 6));
		else if (argc != 2) {
			fprintf(stderr, "usage: kernels_model check [familyN]\n");
			return 2;
		}
		struct gpu_options o;
		gpu_options_default(&o, 1);
		check_gradients(&o);
		o.flash = 1;
		check_gradients(&o);
		o.recompute = 1;
		check_gradients(&o);
		o.flash = 0;
		check_gradients(&o);
		gpu_options_default(&o, 1);
		o.fused_xent = 0;
		check_gradients(&o);
		gpu_options_default(&o, 1);
		o.autotune = 1;
		check_gradients(&o);
		if (hopper_sm_count()) { /* impl.relu2=epilogue, on an H100/H200 */
			gpu_options_default(&o, 1);
			o.flash = o.relu2_epilogue = 1;
			check_gradients(&o);
			/* impl.rotary=epilogue needs head size 128: dim 256, and the
			 * kernel path at that size beside it */
			small_dim = 256;
			check_gradients(&o);
			if (flash_backward_accumulates(128)) { /* its backward runs on the fused family's */
				o.rotary_epilogue = 1;
				check_gradients(&o);
				o.recompute = 1;
				check_gradients(&o);
				o.recompute = 0;
			}
			o.own_gemm = 1; /* impl.gemm=wgmma: every width a multiple of 256 at dim 256 */
			check_gradients(&o);
			small_dim = 128;
		}
		check_steps("muon", 1);
		check_steps("adamw", 1);
		check_steps("adamw", 0);
		printf("model checks: %d failed\n", failures);
		return failures ? 1 : 0;
	}
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "bench"))
		return bench((int)strtol(argv[2], NULL, 10), (int)strtol(argv[3], NULL, 10),
			     (int)strtol(argv[4], NULL, 10), argv[5], (int)strtol(argv[6], NULL, 10),
			     argc == 8 ? argv[7] : "naive");
	fprintf(stderr, "usage: kernels_model check [familyN] | bench DEPTH DIM HEADS muon|adamw STEPS [IMPL,...]\n");
	return 2;
}
