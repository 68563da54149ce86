/* main.c — `trainer`: command line, device choice, data loading, the run,
 * the autoresearch `---` summary on stdout and one run record for every
 * ending (ok, crash, oom, nan, timeout, killed), after a running record at
 * the first step that stays behind when the process is killed outright. The loops live in train.c
 * (CPU) and behind gpu.h (CUDA); this file decides exit codes only.
 * Exit: 0 ok; 2 usage, never with a record (unknown key, bad value,
 * train.device=cuda without a GPU, an impl.* value the device does not
 * implement, a model that does not fit); 3 the run ended without a valid
 * result (crash, oom, nan, timeout, killed). */
#include <signal.h>
#include <unistd.h>
#include "config.h"
#include "impl.h"
#include "prepare.h"
#include "record.h"
#include "run.h"
#include "runrec.h"
#include "utf8.h"
#include "util.h"

static const char usage[] =
	"usage: trainer [--config FILE] [key=value …] [--record FILE] [--agent A]\n"
	"               [--campaign C] [--parent RUN] [--description TEXT]\n"
	"       trainer prepare-data [--out DIR] … SOURCE…   (trainer prepare-data --help)\n"
	"       trainer --list-variables\n"
	"\n"
	"Train a byte-level GPT for train.time_budget_s seconds, evaluate val_bpb on the\n"
	"held-out split, print the autoresearch-style '---' summary on stdout and append a\n"
	"runrec/1 record to the record file, however the run ends (and a 'running' one as\n"
	"training starts, which the final one supersedes). Progress goes to stderr.\n"
	"\n"
	"  --config FILE       'key = value' lines, applied before key=value arguments\n"
	"  key=value           set a variable (trainer --list-variables shows them all)\n"
	"  --record FILE       append the run record here (default runs.jsonl)\n"
	"  --no-record         do not write a record\n"
	"  --agent A, --campaign C, --parent RUN, --description TEXT   recorded as given\n"
	"  --list-variables    print every variable: key, default, kind (math|impl), help\n"
	"\n"
	"Exit status: 0 ok; 2 usage error, no record written (unknown key, bad value,\n"
	"train.device=cuda without a usable GPU, an impl.* value the device does not\n"
	"implement, a model that does not fit); 3 the run ended as crash, oom, nan,\n"
	"timeout or killed (the record says which).\n";

static volatile sig_atomic_t stop_signal;

/* The first signal is the cause the record names. */
static void on_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

/* Installed first thing, so that a signal at any moment of a run ends it
 * as killed with a final record (the loop looks at the flag before its
 * first step), and one before the running record is written still does.
 * SIGINT, SIGTERM, SIGHUP: SA_RESETHAND, so a second one kills a run that
 * stopped listening (the running record then shows it lost). SIGPIPE
 * (stdout or stderr read by a pipe that closed, `trainer | head`) keeps
 * its handler: every later progress line would raise it again, and the
 * writes fail with EPIPE instead, which costs nothing. */
static void install_signals(void)
{
	static const int stop_on[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < ARRAY_SIZE(stop_on); i++)
		sigaction(stop_on[i], &sa, NULL);
}

struct cli {
	const char *config_file, *record;
	struct run_meta meta;
	char **kv;
	int nkv;
};

#define CLI_CONTINUE (-1)

/* CLI_CONTINUE to train; otherwise the exit status: EXIT_OK after --help
 * or --list-variables, EXIT_USAGE on errors. */
static int parse_cli(struct cli *cli, int argc, char **argv)
{
	static const char *const valued[] = { "--config", "--record", "--agent", "--campaign",
					      "--parent", "--description" };
	cli->record = "runs.jsonl";
	cli->kv = xcalloc((size_t)argc, sizeof(char *));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t k;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "--list-variables")) {
			config_list_variables(stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "--no-record")) {
			cli->record = NULL;
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(valued) && strcmp(a, valued[k]); k++)
			;
		if (k < ARRAY_SIZE(valued)) {
			if (i + 1 >= argc) {
				rl_error("%s needs a value", a);
				return EXIT_USAGE;
			}
			const char *v = argv[++i];
			/* k >= 2: text that goes into the record, which is JSON */
			if (k >= 2 && !utf8_valid(v, strlen(v))) {
				rl_error("%s: the value is not valid UTF-8 text", a);
				rl_hint("run records are JSON; give %s in UTF-8", a);
				return EXIT_USAGE;
			}
			const char **slot[] = { &cli->config_file, &cli->record, &cli->meta.agent,
						&cli->meta.campaign, &cli->meta.parent,
						&cli->meta.description };
			*slot[k] = v;
		} else if (a[0] != '-' && strchr(a, '=')) {
			cli->kv[cli->nkv++] = argv[i];
		} else {
			rl_error("'%s' is not an option or key=value", a);
			rl_hint("trainer --help");
			return EXIT_USAGE;
		}
	}
	return CLI_CONTINUE;
}

static int resolve_config(struct run *r, const struct cli *cli)
{
	config_defaults(&r->cfg);
	if (cli->config_file && config_load_file(&r->cfg, cli->config_file))
		return -1;
	for (int i = 0; i < cli->nkv; i++)
		if (config_set_kv(&r->cfg, cli->kv[i], "command line"))
			return -1;
	return config_check(&r->cfg);
}

/* Pick cpu or cuda. train.device=cuda without a GPU is a usage error. */
static int resolve_device(struct run *r)
{
	char why[256] = "";
	int have_gpu = strcmp(r->cfg.device, "cpu") && gpu_probe(&r->gpu, why, sizeof(why)) == 0;
	if (!strcmp(r->cfg.device, "cuda") && !have_gpu) {
		rl_error("train.device=cuda: no CUDA GPU: %s", why);
		rl_hint("use train.device=cpu (or train.device=auto) to train on the CPU");
		return -1;
	}
	snprintf(r->device, sizeof(r->device), "%s", have_gpu ? "cuda" : "cpu");
	return 0;
}

/* Everything that can be refused before a run starts, so that a usage
 * mistake never leaves a record: the device, the impl.* values it
 * implements, and (CPU) whether the model fits in RAM. The GPU's fit is
 * its allocation at set-up (run_refuse). bare: no arguments at all. */
static int preflight(struct run *r, int bare)
{
	char why[512], hint[256];
	if (resolve_device(r))
		return -1;
	if (bare && !strcmp(r->device, "cpu")) {
		rl_error("no CUDA GPU here, and the defaults are the GPU shape (depth %d, dim %d, "
			 "seq_len %d, device batch %d)", r->cfg.depth, r->cfg.dim, r->cfg.seq_len,
			 r->cfg.device_batch_size);
		rl_hint("on a CPU run the demo model: trainer --config trainer/configs/demo-cpu.conf "
			"(data: trainer prepare-data; trainer --help)");
		return -1;
	}
	impl_resolve(&r->cfg, r->device);
	if (impl_check(&r->cfg, r->device, why, sizeof(why), hint, sizeof(hint))) {
		rl_error("%s", why);
		rl_hint("%s", hint);
		return -1;
	}
	if (!strcmp(r->device, "cpu") && cpu_fits(&r->cfg, why, sizeof(why))) {
		rl_error("train.device=cpu: the model does not fit: %s", why);
		rl_hint("the defaults are the GPU shape; on a CPU start from the demo config: "
			"trainer --config trainer/configs/demo-cpu.conf");
		return -1;
	}
	return 0;
}

static int load_data(struct run *r)
{
	if (dataset_load(&r->data, r->cfg.data_path))
		return run_fail(r, "crash", "data", "data.path '%s': %s", r->cfg.data_path,
				r->data.error);
	if (r->data.vocab_size != r->cfg.vocab_size)
		return run_fail(r, "crash", "data", "model.vocab_size %d does not match the data's %d",
				r->cfg.vocab_size, r->data.vocab_size);
	if (r->data.ntrain <= (size_t)r->cfg.seq_len + 1)
		return run_fail(r, "crash", "data", "the train split (%zu tokens) is shorter than one "
				"sequence of model.seq_len %d", r->data.ntrain, r->cfg.seq_len);
	return 0;
}

/* The autoresearch block: keys padded so values start at column 19. */
static void print_summary(const struct run *r)
{
	const struct run_metrics *m = &r->m;
	printf("---\n");
	printf("%-18s%.6f\n", "val_bpb:", m->val_bpb);
	printf("%-18s%.1f\n", "training_seconds:", m->training_seconds);
	printf("%-18s%.1f\n", "total_seconds:", m->total_seconds);
	printf("%-18s%.1f\n", "peak_vram_mb:", m->peak_vram_mb);
	/* A GPU missing from the peak table (common/hw.c) has no MFU: say so
	 * rather than print a made-up or NaN figure; the record holds null. */
	if (isfinite(m->mfu_percent))
		printf("%-18s%.2f\n", "mfu_percent:", m->mfu_percent);
	else
		printf("%-18s%s\n", "mfu_percent:", "unknown");
	printf("%-18s%.1f\n", "total_tokens_M:", m->total_tokens_M);
	printf("%-18s%ld\n", "num_steps:", m->num_steps);
	printf("%-18s%.1f\n", "num_params_M:", m->num_params_M);
	printf("%-18s%d\n", "depth:", m->depth);
	fflush(stdout);
}

/* Append rec (reference stolen) to the record file. */
static int append_record(json_t *rec, const struct cli *cli)
{
	sb err = SB_INIT;
	int rc = 0;
	if (runrec_validate(rec, &err)) { /* a bug here, not in the run */
		rl_error("internal: the run record is not valid runrec/1: %s", err.buf);
		rc = -1;
	} else if (runrec_append(cli->record, rec)) {
		rc = -1;
	}
	sb_release(&err);
	json_decref(rec);
	return rc;
}

static int write_record(const struct run *r, const struct cli *cli)
{
	return cli->record ? append_record(record_build(r, &cli->meta), cli) : 0;
}

/* The record that says the run started (run.h on_start: called once the
 * model is set up, so a model refused at set-up still leaves none): a run
 * that never writes its final one (SIGKILL, the OOM killer, a lost
 * machine) is then still in the ledger, and shows as lost once its budget
 * and grace are over. */
static int write_start_record(const struct run *r, void *ctx)
{
	const struct cli *cli = ctx;
	return cli->record ? append_record(record_build_start(r, &cli->meta), cli) : 0;
}

static int run_training(struct run *r)
{
	if (load_data(r))
		return -1;
	return !strcmp(r->device, "cuda") ? gpu_train(r) : cpu_train(r);
}

/* The one line that says how the run ended. */
static void report_failure(const struct run *r)
{
	rl_error("run ended as %s in phase %s: %s", r->status, r->phase, r->message);
}

int main(int argc, char **argv)
{
	static struct run r; /* large; zeroed */
	struct cli cli;
	int rc, exit_code;
	rl_progname = "trainer";
	if (argc > 1 && !strcmp(argv[1], "prepare-data"))
		return cmd_prepare_data(argc - 1, argv + 1);
	install_signals();
	memset(&cli, 0, sizeof(cli));
	r.t0 = mono_now();
	r.stop = &stop_signal;
	r.progress_tty = isatty(STDERR_FILENO);
	r.m.val_bpb = r.m.train_loss = NAN;
	record_new_id(cli.meta.run_id, sizeof(cli.meta.run_id));
	utc_now_iso(cli.meta.started_at, sizeof(cli.meta.started_at));
	rc = parse_cli(&cli, argc, argv);
	if (rc != CLI_CONTINUE) {
		free(cli.kv);
		return rc;
	}
	if (resolve_config(&r, &cli)) {
		rl_hint("trainer --list-variables shows every key, its type and default");
		free(cli.kv);
		return EXIT_USAGE;
	}
	r.m.depth = r.cfg.depth;
	if (preflight(&r, argc == 1)) {
		free(cli.kv);
		return EXIT_USAGE;
	}
	cli.meta.code = record_code(); /* the code as it was when the run started */
	r.on_start = write_start_record;
	r.on_start_ctx = &cli;
	exit_code = run_training(&r) == 0 ? EXIT_OK : EXIT_FAILURE_RT;
	if (r.refused) { /* the model could not be set up: usage, no record */
		rl_error("the model does not fit on %s: %s", r.device, r.message);
		rl_hint("lower train.device_batch_size (train.total_batch_size keeps the step), "
			"model.seq_len or model.dim%s", !strcmp(r.device, "cpu") ? "; on a CPU start from "
			"trainer --config trainer/configs/demo-cpu.conf" : "");
		dataset_release(&r.data);
		json_decref(cli.meta.code);
		free(cli.kv);
		return EXIT_USAGE;
	}
	r.m.total_seconds = run_elapsed(&r);
	if (exit_code == EXIT_OK)
		print_summary(&r);
	else
		report_failure(&r);
	if (write_record(&r, &cli) && exit_code == EXIT_OK)
		exit_code = EXIT_FAILURE_RT;
	dataset_release(&r.data);
	json_decref(cli.meta.code);
	free(cli.kv);
	return exit_code;
}
