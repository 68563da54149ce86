/* gen_runrec.c — synthetic run records for bench/ledger_bench.sh.
 *
 *   gen_runrec N SEED OUT.jsonl OUT.tsv
 *
 * Writes N runrec/1 records (one JSON object a line) and the same rows as
 * TSV in the column order of the ledger's runs table (ledger/db.c), so
 * `sqlite3 .import` can load them into an identical table as the reference.
 * The runs look like agent research: 8 agents on 6 GPU classes, each
 * walking a parent chain from its last kept run, changing one or two config
 * variables a run; about 5% repeats of the parent's config, 4% failures.
 * Deterministic for a given SEED. Plain C, no library: must not depend on
 * the code it benchmarks, except the variable registry (common/varreg.c,
 * pure data): every key it writes is a registry key, typed as the registry
 * says. Build: cc -Icommon bench/gen_runrec.c common/varreg.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "varreg.h"

static uint64_t rng_state;

static uint64_t rng(void) /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

static const struct gpu {
	const char *name, *cls, *tier, *cc;
	int mem_mb;
	double base_bpb;
} gpus[] = {
	{ "NVIDIA H100 80GB HBM3", "H100", "xl", "9.0", 81559, 0.985 },
	{ "NVIDIA H200", "H200", "xl", "9.0", 143771, 0.975 },
	{ "NVIDIA A100-SXM4-40GB", "A100", "large", "8.0", 40960, 1.020 },
	{ "NVIDIA GeForce RTX 3090", "RTX 3090", "medium", "8.6", 24576, 1.080 },
	{ "NVIDIA GeForce RTX 4090", "RTX 4090", "medium", "8.9", 24564, 1.050 },
	{ "NVIDIA A10G", "A10G", "medium", "8.6", 23028, 1.110 },
};
#define NGPU (int)(sizeof(gpus) / sizeof(gpus[0]))
#define NAGENT 8

/* The variables the agents change: registry keys. Numbers come with the
 * values an agent picks from; booleans and choices take theirs from the
 * registry (load_vars). */
static const struct plan {
	const char *key;
	const char *values[5];
} plan[] = {
	{ "model.depth", { "6", "8", "9", "10", "12" } },
	{ "model.dim", { "384", "512", "640", "768", "512" } },
	{ "model.heads", { "4", "6", "8", "8", "4" } },
	{ "optim.matrix_lr", { "0.02", "0.03", "0.04", "0.05", "0.06" } },
	{ "optim.embedding_lr", { "0.4", "0.6", "0.8", "1.0", "0.6" } },
	{ "optim.weight_decay", { "0", "0.01", "0.1", "0.0", "0.05" } },
	{ "sched.warmup_ratio", { "0", "0.02", "0.05", "0.1", "0.0" } },
	{ "sched.warmdown_ratio", { "0.2", "0.3", "0.4", "0.5", "0.3" } },
	{ "train.device_batch_size", { "16", "32", "64", "128", "64" } },
	{ "impl.attention", { NULL } },
	{ "impl.recompute", { NULL } },
	{ "impl.cuda_graphs", { NULL } },
};
#define NVAR (int)(sizeof(plan) / sizeof(plan[0]))
#define MAXVAL 8

/* One variable as written: its key and its values as JSON text. */
static struct var {
	const char *name;
	int nvalues;
	char values[MAXVAL][48];
} vars[NVAR];

static int is_number(const char *s, int integer)
{
	char *end;
	if (integer)
		(void)strtol(s, &end, 10);
	else
		(void)strtod(s, &end);
	return *s && !*end;
}

/* Fill vars from plan and the registry; exit 3 when they disagree. */
static void load_vars(void)
{
	for (int v = 0; v < NVAR; v++) {
		const struct var_def *d = varreg_find(plan[v].key);
		struct var *out = &vars[v];
		out->name = plan[v].key;
		if (!d || !d->devices) {
			fprintf(stderr, "gen_runrec: %s is %s (common/varreg.c)\n", plan[v].key,
				d ? "not a variable of our trainer" : "not a registry key");
			exit(3);
		}
		int from_registry = d->type == VAR_BOOL || d->type == VAR_CHOICE;
		out->nvalues = from_registry ? varreg_value_count(d) : 5;
		if (out->nvalues < 2 || out->nvalues > MAXVAL || (!from_registry && !plan[v].values[0])) {
			fprintf(stderr, "gen_runrec: %s: no values to pick from\n", plan[v].key);
			exit(3);
		}
		for (int i = 0; i < out->nvalues; i++) {
			char text[40];
			if (from_registry) {
				varreg_value_at(d, i, text, sizeof(text));
			} else if (!is_number(plan[v].values[i], d->type == VAR_INT)) {
				fprintf(stderr, "gen_runrec: %s: '%s' is not %s\n", plan[v].key,
					plan[v].values[i], varreg_type_name(d->type));
				exit(3);
			} else {
				snprintf(text, sizeof(text), "%s", plan[v].values[i]);
			}
			if (d->type == VAR_CHOICE || d->type == VAR_STRING) /* JSON text */
				snprintf(out->values[i], sizeof(out->values[i]), "\"%s\"", text);
			else
				snprintf(out->values[i], sizeof(out->values[i]), "%s", text);
		}
	}
}

struct agent {
	int gpu;
	int cfg[NVAR];     /* current (last kept) config: value indices */
	long last_kept;    /* run index, -1 none */
	double best;
};

static const char *statuses[] = { "ok", "crash", "oom", "nan" };

static void write_config(FILE *f, const int *cfg)
{
	fputs("\"config\":{", f);
	for (int v = 0; v < NVAR; v++)
		fprintf(f, "%s\"%s\":%s", v ? "," : "", vars[v].name, vars[v].values[cfg[v]]);
	fputs("}", f);
}

/* One record; also its TSV row. Fields the TSV needs are passed in. */
struct run {
	long i;
	int agent, gpu, status, changed[2], nchanged;
	long parent;
	double t0, val, mfu;
	int cfg[NVAR];
	const char *decision;
};

static void iso(double t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void describe(const struct run *r, char *buf, size_t n)
{
	if (!r->nchanged) {
		snprintf(buf, n, "repeat of the parent config");
		return;
	}
	int off = 0;
	for (int k = 0; k < r->nchanged; k++) {
		const struct var *v = &vars[r->changed[k]];
		off += snprintf(buf + off, n - (size_t)off, "%s%s to %s", k ? " + " : "", v->name,
				v->values[r->cfg[r->changed[k]]]);
	}
	for (char *p = buf; *p; p++)
		if (*p == '"')
			*p = '\'';
}

static void write_json(FILE *f, const struct run *r, const char *desc)
{
	const struct gpu *g = &gpus[r->gpu];
	char t0[32], t1[32];
	iso(r->t0, t0, sizeof(t0));
	iso(r->t0 + 325, t1, sizeof(t1));
	fprintf(f, "{\"schema\":\"runrec/1\",\"run_id\":\"g-%07ld\",", r->i);
	if (r->parent >= 0)
		fprintf(f, "\"parent\":\"g-%07ld\",", r->parent);
	else
		fputs("\"parent\":null,", f);
	fprintf(f, "\"campaign\":\"camp-%d\",\"agent\":\"agent-%d\",\"description\":\"%s\","
		"\"started_at\":\"%s\",\"finished_at\":\"%s\",\"status\":\"%s\",\"decision\":\"%s\",",
		r->agent % 3, r->agent, desc, t0, t1, statuses[r->status], r->decision);
	fprintf(f, "\"hardware\":{\"gpu_name\":\"%s\",\"gpu_count\":1,\"gpu_mem_mb\":%d,"
		"\"compute_capability\":\"%s\",\"driver\":\"550.54.15\",\"cuda\":\"12.4\",\"host\":\"node-%d\"},",
		g->name, g->mem_mb, g->cc, r->agent);
	fprintf(f, "\"code\":{\"commit\":\"%07x\",\"dirty\":false},"
		"\"data\":{\"name\":\"fineweb-edu\",\"sha256\":\"%064d\"},\"budget\":{\"seconds\":300},",
		0x3f2a9c1 + r->agent, 0);
	write_config(f, r->cfg);
	if (r->status == 0)
		fprintf(f, ",\"metrics\":{\"val_bpb\":%.6f,\"training_seconds\":300.1,\"total_seconds\":325.0,"
			"\"peak_vram_mb\":%d,\"mfu_percent\":%.2f,\"total_tokens_M\":%.1f,\"num_steps\":%d,"
			"\"num_params_M\":50.3,\"tokens_per_second\":%.0f}}\n",
			r->val, g->mem_mb / 2 + (int)(r->i % 997), r->mfu, 400 + r->mfu * 3, 900 + (int)(r->i % 50),
			1.4e6 + r->mfu * 1000);
	else
		fprintf(f, ",\"metrics\":{\"training_seconds\":%.1f},\"failure\":{\"phase\":\"forward\","
			"\"message\":\"%s\",\"log_tail\":\"step %ld\\nerror\\n\"}}\n",
			40 + uniform() * 200, r->status == 2 ? "CUDA out of memory" : "loss diverged",
			r->i % 500);
}

/* The runs table's columns in order (db.c); empty fields import as ''. */
static void write_tsv(FILE *f, const struct run *r, const char *desc, const char *json)
{
	const struct gpu *g = &gpus[r->gpu];
	char t0[32], t1[32], parent[32] = "";
	iso(r->t0, t0, sizeof(t0));
	iso(r->t0 + 325, t1, sizeof(t1));
	if (r->parent >= 0)
		snprintf(parent, sizeof(parent), "g-%07ld", r->parent);
	fprintf(f, "%ld\tg-%07ld\t%016llx%016llx%016llx%016llx\t%s\tcamp-%d\tagent-%d\t%s\t%s\t%s\t%s\t%s\t%.0f\t",
		r->i + 1, r->i, (unsigned long long)rng(), (unsigned long long)rng(),
		(unsigned long long)rng(), (unsigned long long)r->i, parent, r->agent % 3, r->agent,
		desc, statuses[r->status], r->decision, t0, t1, r->t0 + 325);
	fprintf(f, "%s\t%s\t%s\t1\t%d\t%07x\t0\t\tfineweb-edu\t%064d\t", g->name, g->cls, g->tier,
		g->mem_mb, 0x3f2a9c1 + r->agent, 0);
	if (r->status == 0)
		fprintf(f, "%.6f", r->val);
	fprintf(f, "\trk-%d-%d-%d%d%d%d\trunrec\truns.jsonl\t%ld\t2026-03-20T00:00:00Z\t",
		r->gpu, r->agent, r->cfg[0], r->cfg[1], r->cfg[3], r->cfg[4], r->i + 1);
	/* the record column: the JSON line without its newline */
	fwrite(json, 1, strlen(json) - 1, f);
	fputc('\n', f);
}

static void next_run(struct run *r, struct agent *ag, long i, double *clock)
{
	memset(r, 0, sizeof(*r));
	r->i = i;
	r->agent = (int)(rng() % NAGENT);
	struct agent *a = &ag[r->agent];
	r->gpu = a->gpu;
	r->parent = a->last_kept;
	memcpy(r->cfg, a->cfg, sizeof(r->cfg));
	if (uniform() >= 0.05) { /* otherwise a repeat: parent config unchanged */
		r->nchanged = uniform() < 0.15 ? 2 : 1;
		for (int k = 0; k < r->nchanged; k++) {
			int v = (int)(rng() % NVAR);
			if (k == 1 && v == r->changed[0])
				v = (v + 1) % NVAR;
			r->changed[k] = v;
			int nv = vars[v].nvalues; /* another of its values */
			r->cfg[v] = (r->cfg[v] + 1 + (int)(rng() % (uint64_t)(nv - 1))) % nv;
		}
	}
	double u = uniform();
	r->status = u < 0.025 ? 1 : u < 0.035 ? 2 : u < 0.04 ? 3 : 0;
	*clock += 3 + uniform() * 10;
	r->t0 = *clock;
	r->mfu = 30 + uniform() * 20;
	r->val = gpus[r->gpu].base_bpb + 0.02 * (r->cfg[0] - 2) * (r->cfg[0] - 2) / 4.0 +
		 0.01 * (r->cfg[3] - 2) * (r->cfg[3] - 2) / 4.0 + (uniform() - 0.5) * 0.01 -
		 0.00000002 * (double)i;
	int keep = r->status == 0 && r->val < a->best;
	r->decision = keep ? "keep" : "discard";
	if (keep) {
		a->best = r->val;
		a->last_kept = i;
		memcpy(a->cfg, r->cfg, sizeof(a->cfg));
	}
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: gen_runrec N SEED OUT.jsonl OUT.tsv\n");
		return 2;
	}
	long n = strtol(argv[1], NULL, 10);
	rng_state = strtoull(argv[2], NULL, 10);
	FILE *fj = fopen(argv[3], "w"), *ft = fopen(argv[4], "w");
	if (n <= 0 || !fj || !ft) {
		fprintf(stderr, "gen_runrec: bad N or cannot open output\n");
		return 2;
	}
	load_vars();
	struct agent ag[NAGENT];
	for (int a = 0; a < NAGENT; a++) {
		ag[a].gpu = a % NGPU;
		for (int v = 0; v < NVAR; v++)
			ag[a].cfg[v] = 1;
		ag[a].last_kept = -1;
		ag[a].best = 9;
	}
	double clock = 1773633600; /* 2026-03-16T04:00:00Z */
	char *line = NULL;
	size_t cap = 0;
	for (long i = 0; i < n; i++) {
		struct run r;
		char desc[160];
		next_run(&r, ag, i, &clock);
		describe(&r, desc, sizeof(desc));
		FILE *mem = open_memstream(&line, &cap);
		write_json(mem, &r, desc);
		fclose(mem);
		fputs(line, fj);
		write_tsv(ft, &r, desc, line);
	}
	free(line);
	if (fclose(fj) || fclose(ft)) {
		fprintf(stderr, "gen_runrec: write failed\n");
		return 1;
	}
	return 0;
}
