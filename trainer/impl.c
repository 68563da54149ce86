/* impl.c — the table of which device implements which impl.* value
 * (impl.h). Rows are (key, value, devices, condition, why-not); value "*"
 * matches any value. A key=value with no row for the run's device is
 * refused at start-up. Keep a row only where code on that device takes a
 * different path for the value (docs/trainer.md, docs/cuda.md say which). */
#include "gpu.h"
#include "impl.h"
#include "util.h"

struct impl_row {
	const char *key, *value;
	unsigned devices;
	/* Shape condition on a device (NULL = always): 0 = ok, else -1 with why. */
	int (*condition)(const struct config *c, char *why, size_t n);
	const char *absent; /* why the devices not listed lack it */
};

static const struct impl_row impl_rows[] = {
	{ "impl.recompute", "false", IMPL_CPU | IMPL_CUDA, NULL, NULL },
	{ "impl.recompute", "true", IMPL_CUDA, NULL,
	  "the CPU path keeps every activation; it has no recomputing backward" },
	{ "impl.compile_mode", "none", IMPL_CPU, NULL,
	  "the CUDA path always chooses GEMM algorithms (heuristic or autotune)" },
	{ "impl.compile_mode", "heuristic", IMPL_CUDA, NULL,
	  "the CPU path has no GEMM library, only its own C loops (compile_mode none)" },
	{ "impl.compile_mode", "autotune", IMPL_CUDA, NULL,
	  "the CPU path has no GEMM library, only its own C loops (compile_mode none)" },
	{ "impl.attention", "naive", IMPL_CPU | IMPL_CUDA, NULL, NULL },
	{ "impl.attention", "flash", IMPL_CUDA, gpu_flash_supported,
	  "the CPU path has one attention, which stores the T x T probabilities (naive)" },
	/* The CPU's AdamW is one loop over m, v and p: fused. */
	{ "impl.fused_adamw", "true", IMPL_CPU | IMPL_CUDA, NULL, NULL },
	{ "impl.fused_adamw", "false", IMPL_CUDA, NULL,
	  "the CPU path has one AdamW loop, which updates m, v and p in one pass (fused)" },
	/* The CPU's cross-entropy caps, normalises and takes the loss in one
	 * pass per row: fused as far as the CPU has kernels at all. */
	{ "impl.fused_xent", "true", IMPL_CPU | IMPL_CUDA, NULL, NULL },
	{ "impl.fused_xent", "false", IMPL_CUDA, NULL,
	  "the CPU path has one cross-entropy, soft-cap and softmax in one pass per row (fused)" },
	{ "impl.relu2", "kernel", IMPL_CPU | IMPL_CUDA, NULL, NULL },
	{ "impl.relu2", "epilogue", IMPL_CUDA, gpu_relu2_epilogue_supported,
	  "the CPU path computes relu^2 in a loop of its own between its matmuls, with no GEMM epilogues" },
	{ "impl.rotary", "kernel", IMPL_CPU | IMPL_CUDA, NULL, NULL },
	{ "impl.rotary", "epilogue", IMPL_CUDA, gpu_rotary_epilogue_supported,
	  "the CPU path normalises and rotates q and k in a loop of its own after its matmul, with no GEMM "
	  "epilogues" },
	{ "impl.cuda_graphs", "false", IMPL_CPU | IMPL_CUDA, NULL, NULL },
	{ "impl.cuda_graphs", "true", IMPL_CUDA, NULL, "CUDA graphs exist on the CUDA path only" },
	{ "impl.threads", "0", IMPL_CPU | IMPL_CUDA, NULL, NULL },
	{ "impl.gemm", "loops", IMPL_CPU, NULL, "the CUDA path's products run on a GEMM library or kernel" },
	{ "impl.gemm", "cublaslt", IMPL_CUDA, NULL, "the CPU path has no GEMM library, only its own C loops" },
	{ "impl.gemm", "wgmma", IMPL_CUDA, gpu_gemm_wgmma_supported,
	  "the CPU path has no GEMM library, only its own C loops" },
	{ "impl.threads", "*", IMPL_CPU, NULL,
	  "the CUDA path runs no OpenMP loops, so a thread count would change nothing" },
};

unsigned impl_device_bit(const char *device)
{
	return !strcmp(device, "cpu") ? IMPL_CPU : !strcmp(device, "cuda") ? IMPL_CUDA : 0;
}

static const struct impl_row *find_row(const char *key, const char *value, unsigned dev)
{
	for (size_t i = 0; i < ARRAY_SIZE(impl_rows); i++) {
		const struct impl_row *r = &impl_rows[i];
		if (!strcmp(r->key, key) && (!strcmp(r->value, value) || !strcmp(r->value, "*")) &&
		    (r->devices & dev))
			return r;
	}
	return NULL;
}

int impl_has_row(const char *key, const char *value)
{
	for (size_t i = 0; i < ARRAY_SIZE(impl_rows); i++)
		if (!strcmp(impl_rows[i].key, key) &&
		    (!strcmp(impl_rows[i].value, value) || !strcmp(impl_rows[i].value, "*")))
			return 1;
	return 0;
}

unsigned impl_devices(const char *key, const char *value)
{
	unsigned devs = 0;
	for (size_t i = 0; i < ARRAY_SIZE(impl_rows); i++)
		if (!strcmp(impl_rows[i].key, key) &&
		    (!strcmp(impl_rows[i].value, value) || !strcmp(impl_rows[i].value, "*")))
			devs |= impl_rows[i].devices;
	return devs;
}

/* Why key=value is missing on dev: the `absent` text of its row for
 * another device, if any. */
static const char *absent_reason(const char *key, const char *value)
{
	for (size_t i = 0; i < ARRAY_SIZE(impl_rows); i++)
		if (!strcmp(impl_rows[i].key, key) && !strcmp(impl_rows[i].value, value)) {
			if (!impl_rows[i].devices)
				return "no device path implements it yet";
			if (impl_rows[i].absent)
				return impl_rows[i].absent;
		}
	for (size_t i = 0; i < ARRAY_SIZE(impl_rows); i++)
		if (!strcmp(impl_rows[i].key, key) && !strcmp(impl_rows[i].value, "*") &&
		    impl_rows[i].absent)
			return impl_rows[i].absent;
	return "no device path implements it";
}

/* "a, b" — the values of key that dev accepts, for the hint. */
static void accepted_values(const char *key, unsigned dev, char *out, size_t n)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(impl_rows); i++) {
		const struct impl_row *r = &impl_rows[i];
		if (strcmp(r->key, key) || !(r->devices & dev))
			continue;
		len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s", len ? ", " : "",
					!strcmp(r->value, "*") ? "any count" : r->value);
	}
}

static void set_value(struct config *c, const char *key, const char *value)
{
	if (config_set(c, key, value, "impl table"))
		die("impl table: %s=%s is not a choice of the config table", key, value);
}

/* An "auto" key becomes preferred where dev has a row for it and the
 * row's condition holds (the same test impl_check applies to an explicit
 * value), else fallback. */
static void resolve_auto(struct config *c, const char *key, const char *value, unsigned dev,
			 const char *preferred, const char *fallback)
{
	char why[256];
	if (strcmp(value, "auto"))
		return;
	const struct impl_row *r = find_row(key, preferred, dev);
	set_value(c, key, r && (!r->condition || r->condition(c, why, sizeof(why)) == 0) ? preferred : fallback);
}

void impl_resolve(struct config *c, const char *device)
{
	unsigned dev = impl_device_bit(device);
	if (!strcmp(c->compile_mode, "auto"))
		set_value(c, "impl.compile_mode", dev == IMPL_CUDA ? "heuristic" : "none");
	resolve_auto(c, "impl.attention", c->attention, dev, "flash", "naive");
	resolve_auto(c, "impl.relu2", c->relu2, dev, "epilogue", "kernel");
	/* after impl.attention: the epilogue writes flash's packed layout */
	resolve_auto(c, "impl.rotary", c->rotary, dev, "epilogue", "kernel");
	if (dev == IMPL_CUDA)
		resolve_auto(c, "impl.gemm", c->gemm, dev, "wgmma", "cublaslt");
	else if (!strcmp(c->gemm, "auto"))
		set_value(c, "impl.gemm", "loops");
}

int impl_check(const struct config *c, const char *device, char *why, size_t n, char *hint, size_t hn)
{
	unsigned dev = impl_device_bit(device);
	for (size_t i = 0; i < cfg_nkeys; i++) {
		const struct cfg_key *k = &cfg_keys[i];
		char value[CFG_STR_MAX], cond[256];
		if (k->kind != CFG_IMPL)
			continue;
		config_value_text(c, k, value, sizeof(value));
		const struct impl_row *r = find_row(k->key, value, dev);
		if (!r) {
			snprintf(why, n, "%s=%s is not implemented on %s: %s", k->key, value, device,
				 absent_reason(k->key, value));
			accepted_values(k->key, dev, cond, sizeof(cond));
			snprintf(hint, hn, "on %s, %s accepts: %s", device, k->key, cond);
			return -1;
		}
		if (r->condition && r->condition(c, cond, sizeof(cond))) {
			snprintf(why, n, "%s=%s is not implemented on %s for this shape: %s", k->key,
				 value, device, cond);
			snprintf(hint, hn, "leave %s=auto to take what this shape supports", k->key);
			return -1;
		}
	}
	return 0;
}
