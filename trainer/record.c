/* record.c — the trainer's run record (record.h): identity, hardware, code
 * version, data identity, resolved config, metrics and failure. Values that
 * are not known (NaN metrics, missing git) become JSON null, never invented. */
#include <limits.h>
#include <omp.h>
#include <unistd.h>
#include <jansson.h>
#include "record.h"
#include "runrec.h"
#include "sha256.h"
#include "utf8.h"
#include "util.h"

void record_new_id(char *buf, size_t n)
{
	char iso[32], compact[32];
	unsigned char rnd[4] = { 0 };
	FILE *f = fopen("/dev/urandom", "rb");
	size_t j = 0;
	if (!f || fread(rnd, 1, sizeof(rnd), f) != sizeof(rnd)) {
		uint32_t x = (uint32_t)getpid() * 2654435761u ^ (uint32_t)(mono_now() * 1e6);
		memcpy(rnd, &x, sizeof(rnd));
	}
	if (f)
		fclose(f);
	utc_now_iso(iso, sizeof(iso));
	for (size_t i = 0; iso[i] && j + 1 < sizeof(compact); i++)
		if (iso[i] != '-' && iso[i] != ':')
			compact[j++] = iso[i];
	compact[j] = '\0';
	snprintf(buf, n, "t-%s-%02x%02x%02x%02x", compact, rnd[0], rnd[1], rnd[2], rnd[3]);
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Lossy, so that text which is not UTF-8 (a host name, a GPU name from
 * the driver) keeps its field instead of silently losing it. */
static json_t *str_or_null(const char *s)
{
	return s ? json_string_lossy(s, NULL) : json_null();
}

/* First "model name" of /proc/cpuinfo, or NULL. Caller frees. */
static char *cpu_model(void)
{
	char *info = read_file("/proc/cpuinfo", NULL), *out = NULL;
	if (!info)
		return NULL;
	char *p = strstr(info, "model name");
	if (p && (p = strchr(p, ':'))) {
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		out = xstrndup(p, strcspn(p, "\n"));
	}
	free(info);
	return out;
}

static json_t *hardware(const struct run *r)
{
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	json_t *hw = json_object();
	json_object_set_new(hw, "host", json_string(host));
	char *cpu = cpu_model();
	json_object_set_new(hw, "cpu", str_or_null(cpu));
	free(cpu);
	if (!strcmp(r->device, "cuda")) {
		json_object_set_new(hw, "gpu_name", json_string(r->gpu.name));
		json_object_set_new(hw, "gpu_count", json_integer(r->gpu.count > 0 ? r->gpu.count : 1));
		json_object_set_new(hw, "gpu_mem_mb", json_real(r->gpu.mem_mb));
		json_object_set_new(hw, "compute_capability", json_string(r->gpu.compute_capability));
		json_object_set_new(hw, "driver", json_string(r->gpu.driver));
		json_object_set_new(hw, "cuda", json_string(r->gpu.cuda));
	} else {
		json_object_set_new(hw, "gpu_name", json_null());
		json_object_set_new(hw, "gpu_count", json_integer(0));
	}
	return hw;
}

/* Output of a shell command run in the trainer's source tree, or NULL. */
static char *git_output(const char *dir, const char *args, size_t *len)
{
	sb cmd = SB_INIT, out = SB_INIT;
	char buf[4096];
	size_t n;
	sb_addf(&cmd, "git -C '%s' %s 2>/dev/null", dir, args);
	FILE *p = popen(cmd.buf, "r");
	sb_release(&cmd);
	if (!p)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		sb_add(&out, buf, n);
	if (pclose(p) != 0) {
		sb_release(&out);
		return NULL;
	}
	*len = out.len;
	return sb_detach(&out);
}

/* The directory of the running executable: build/trainer lives inside
 * the source tree, so git there describes the code that was built. */
static int exe_dir(char *buf, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", buf, n - 1);
	if (len <= 0 || strchr(buf, '\''))
		return -1;
	buf[len] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

json_t *record_code(void)
{
	char dir[PATH_MAX], hex[65];
	size_t len;
	if (exe_dir(dir, sizeof(dir)))
		return json_null();
	char *commit = git_output(dir, "rev-parse HEAD", &len);
	if (!commit)
		return json_null();
	commit[strcspn(commit, "\n")] = '\0';
	char *status = git_output(dir, "status --porcelain --untracked-files=no", &len);
	int dirty = status && len > 0;
	char *diff = git_output(dir, "diff HEAD", &len);
	json_t *code = json_object();
	json_object_set_new(code, "commit", json_string(commit));
	json_object_set_new(code, "dirty", json_boolean(dirty));
	if (diff) {
		sha256_hex(diff, len, hex);
		json_object_set_new(code, "diff_sha256", json_string(hex));
	} else {
		json_object_set_new(code, "diff_sha256", json_null());
	}
	free(commit);
	free(status);
	free(diff);
	return code;
}

static json_t *metrics(const struct run *r)
{
	const struct run_metrics *m = &r->m;
	json_t *o = json_object();
	json_object_set_new(o, "val_bpb", num_or_null(m->val_bpb));
	json_object_set_new(o, "training_seconds", num_or_null(m->training_seconds));
	json_object_set_new(o, "total_seconds", num_or_null(m->total_seconds));
	json_object_set_new(o, "peak_vram_mb", num_or_null(m->peak_vram_mb));
	json_object_set_new(o, "mfu_percent", num_or_null(m->mfu_percent));
	json_object_set_new(o, "total_tokens_M", num_or_null(m->total_tokens_M));
	json_object_set_new(o, "num_steps", json_integer(m->num_steps));
	json_object_set_new(o, "num_params_M", num_or_null(m->num_params_M));
	json_object_set_new(o, "tokens_per_second", num_or_null(m->tokens_per_second));
	json_object_set_new(o, "train_loss", num_or_null(m->train_loss));
	json_object_set_new(o, "depth", json_integer(r->cfg.depth));
	return o;
}

/* The resolved config: every key, with train.device and impl.threads as
 * they were actually used. */
static json_t *resolved_config(const struct run *r)
{
	json_t *c = config_to_json(&r->cfg);
	if (r->device[0])
		json_object_set_new(c, "train.device", json_string(r->device));
	if (r->cfg.threads == 0 && !strcmp(r->device, "cpu"))
		json_object_set_new(c, "impl.threads", json_integer(omp_get_max_threads()));
	return c;
}

json_t *record_build(const struct run *r, const struct run_meta *meta)
{
	char now[32];
	json_t *rec = runrec_new(r->status[0] ? r->status : "crash");
	utc_now_iso(now, sizeof(now));
	json_object_set_new(rec, "run_id", json_string(meta->run_id));
	json_object_set_new(rec, "parent", str_or_null(meta->parent));
	json_object_set_new(rec, "campaign", str_or_null(meta->campaign));
	json_object_set_new(rec, "agent", str_or_null(meta->agent));
	json_object_set_new(rec, "description", str_or_null(meta->description));
	json_object_set_new(rec, "started_at", json_string(meta->started_at));
	json_object_set_new(rec, "finished_at", json_string(now));
	json_object_set_new(rec, "hardware", hardware(r));
	json_object_set_new(rec, "code", meta->code ? json_incref(meta->code) : record_code());
	json_object_set_new(rec, "data", r->data.name[0]
			    ? json_pack("{s:s,s:s}", "name", r->data.name, "sha256", r->data.sha256)
			    : json_null());
	json_object_set_new(rec, "budget", json_pack("{s:f}", "seconds", r->cfg.time_budget_s));
	json_object_set_new(rec, "config", resolved_config(r));
	json_object_set_new(rec, "metrics", metrics(r));
	json_object_set_new(rec, "curve", curve_to_json(&r->curve));
	if (r->status[0] && strcmp(r->status, "ok"))
		json_object_set_new(rec, "failure", json_pack("{s:s,s:s}", "phase", r->phase,
							       "message", r->message));
	else
		json_object_set_new(rec, "failure", json_null());
	return rec;
}

json_t *record_build_start(const struct run *r, const struct run_meta *meta)
{
	json_t *rec = record_build(r, meta);
	static const char *const unknown[] = { "finished_at", "metrics", "failure", "curve" };
	json_object_set_new(rec, "status", json_string("running"));
	for (size_t i = 0; i < ARRAY_SIZE(unknown); i++)
		json_object_set_new(rec, unknown[i], json_null());
	return rec;
}
