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
#include "opts.h"
#include "prepare.h"
#include "record.h"
#include "run.h"
#include "runrec.h"
#include "sb.h"
#include "utf8.h"
#include "util.h"

/* The trainer's options (common/opts.h): --help, the man page and the
 * completion come from this table; the variables are config.c's. */
enum { O_CONFIG = 1, O_RECORD, O_NO_RECORD, O_AGENT, O_CAMPAIGN, O_PARENT, O_DESCRIPTION,
       O_LIST_VARIABLES };
static const struct opt trainer_opts[] = {
	{ .name = "--config", .id = O_CONFIG, .type = OPT_STRING, .value = "FILE", .flags = OPT_FILE,
	  .help = "'key = value' lines, applied before key=value arguments" },
	{ .name = "--record", .id = O_RECORD, .type = OPT_STRING, .value = "FILE", .flags = OPT_FILE,
	  .help = "append the run record here (default runs.jsonl)" },
	{ .name = "--no-record", .id = O_NO_RECORD, .help = "do not write a record" },
	{ .name = "--agent", .id = O_AGENT, .type = OPT_STRING, .value = "A", .help = "recorded as given" },
	{ .name = "--campaign", .id = O_CAMPAIGN, .type = OPT_STRING, .value = "C", .help = "recorded as given" },
	{ .name = "--parent", .id = O_PARENT, .type = OPT_STRING, .value = "RUN", .help = "recorded as given" },
	{ .name = "--description", .id = O_DESCRIPTION, .type = OPT_STRING, .value = "TEXT",
	  .help = "recorded as given" },
	{ .name = "--list-variables", .id = O_LIST_VARIABLES,
	  .help = "print every variable: key, default, kind (math|impl), help" },
};
static const struct opt_group trainer_group = { NULL, NULL, trainer_opts, ARRAY_SIZE(trainer_opts) };

static const struct opt_cmd trainer_top = {
	.args = "[key=value …]",
	.about = "Train a byte-level GPT for train.time_budget_s seconds, evaluate val_bpb on the\n"
		 "held-out split, print the autoresearch-style '---' summary on stdout and append a\n"
		 "runrec/1 record to the record file, however the run ends (and a 'running' one as\n"
		 "training starts, which the final one supersedes). Progress goes to stderr.\n"
		 "key=value sets a variable (trainer --list-variables shows them all).\n"
		 "Data: trainer prepare-data [--out DIR] … SOURCE… (trainer prepare-data --help).\n",
	.notes = "Exit status: 0 ok; 2 usage error, no record written (unknown key, bad value,\n"
		 "train.device=cuda without a usable GPU, an impl.* value the device does not\n"
		 "implement, a model that does not fit); 3 the run ended as crash, oom, nan,\n"
		 "timeout or killed (the record says which).\n",
	.groups = { &trainer_group },
};

static struct opt_prog trainer_prog = {
	.name = "trainer",
	.man_name = "runledger train",
	.summary = "train a byte-level GPT and write one run record however the run ends",
	.top = &trainer_top,
};

/* "model.depth= model.dim= …": what the completion offers as arguments. */
static void set_completion_words(void)
{
	sb w = SB_INIT;
	for (size_t i = 0; i < cfg_nkeys; i++)
		sb_addf(&w, "%s%s=", i ? " " : "", cfg_keys[i].key);
	trainer_prog.arg_words = sb_detach(&w);
}

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
	const char **text[] = { [O_AGENT] = &cli->meta.agent, [O_CAMPAIGN] = &cli->meta.campaign,
				[O_PARENT] = &cli->meta.parent, [O_DESCRIPTION] = &cli->meta.description };
	struct opt_parser p;
	int r;
	cli->record = "runs.jsonl";
	cli->kv = xcalloc((size_t)argc, sizeof(char *));
	if (wants_help(argc, argv)) {
		opts_print_help(stdout, &trainer_prog, NULL);
		return EXIT_OK;
	}
	opts_begin(&p, &trainer_prog, NULL, argc, argv);
	while ((r = opts_next(&p)) != OPTS_END) {
		switch (r) {
		case OPTS_ERROR:
			return EXIT_USAGE;
		case OPTS_ARG:
			if (!strchr(p.val, '=')) {
				rl_error("'%s' is not an option or key=value", p.val);
				rl_hint("trainer --help");
				return EXIT_USAGE;
			}
			cli->kv[cli->nkv++] = (char *)p.val;
			break;
		case O_LIST_VARIABLES:
			config_list_variables(stdout);
			return EXIT_OK;
		case O_NO_RECORD: cli->record = NULL; break;
		case O_CONFIG: cli->config_file = p.val; break;
		case O_RECORD: cli->record = p.val; break;
		default: /* text that goes into the record, which is JSON */
			if (!utf8_valid(p.val, strlen(p.val))) {
				rl_error("%s: the value is not valid UTF-8 text", p.opt->name);
				rl_hint("run records are JSON; give %s in UTF-8", p.opt->name);
				return EXIT_USAGE;
			}
			*text[r] = p.val;
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
	set_completion_words();
	if ((rc = opts_special(&trainer_prog, argc, argv)) >= 0)
		return rc; /* --version, --help-man, --help-completion */
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
	if (resolve_config(&r, &cli)) { /* config.c said what and gave its one hint */
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
