/* ingest_check.c — what ingest says about a new run's hardware: a GPU
 * name the table (common/hw.c) does not know, once per name and file at
 * the first row naming it; a peak memory above the card's, at the first
 * such row of each GPU and as a count at the end of the file. Warns only:
 * the record is stored as it came. Runs on the storing thread in input
 * order (ingest_finish, new runs only), so "first" is the first in the file.
 * Also a val_bpb above the uniform bound (a diverged run), first and count. */
#include "ingest.h"
#include "hw.h"
#include "runrec.h"
#include "termtext.h"
#include "util.h"

/* What the table says of the last few GPU names: a file names one or a
 * few, and a lookup tokenises the name and scores every row (~1-2 µs),
 * too much to pay on each of 10^6 records. Main thread only. */
#define MEMO_N 8
static struct gpu_memo {
	char *name;
	int known;
	double name_mb; /* the card's memory by its name (hw_mem_gb), MiB; 0 unknown */
	char cls[64];
} memo[MEMO_N];
static int memo_next;

static const struct gpu_memo *gpu_facts(const char *name)
{
	for (int i = 0; i < MEMO_N; i++)
		if (memo[i].name && !strcmp(memo[i].name, name))
			return &memo[i];
	struct gpu_memo *m = &memo[memo_next++ % MEMO_N];
	hw_info hi;
	free(m->name);
	m->name = xstrdup(name);
	m->known = hw_lookup(name, &hi) == 0;
	m->name_mb = hw_mem_gb(name, 0) * 1024.0;
	hw_class(name, m->cls, sizeof(m->cls));
	return m;
}

static void warn_unknown(struct ingest_file *f, long line, const char *name)
{
	sb key = SB_INIT;
	sb_addf(&key, "gpu:%s", name);
	if (ingest_warn_once(f, key.buf)) {
		sb shown = SB_INIT; /* the name is input: no control characters on the terminal */
		term_escape(&shown, name, 0);
		rl_warn("ingest: %s:%ld: GPU '%s' is not in the hardware table: its runs get the class '%s', "
			"a VRAM tier only from hardware.gpu_mem_mb, and no peak for MFU (said once per GPU name)",
			f->name, line, shown.buf, shown.buf);
		sb_release(&shown);
		rl_hint("check the spelling (as nvidia-smi prints it, e.g. 'NVIDIA H100 80GB HBM3'); "
			"the known GPUs are listed in common/hw.c");
	}
	sb_release(&key);
}

static void warn_over(struct ingest_file *f, long line, const struct gpu_memo *g, double peak_mb,
		      double card_mb)
{
	f->vram_over++;
	sb key = SB_INIT;
	sb_addf(&key, "vram:%s", g->cls);
	if (ingest_warn_once(f, key.buf)) {
		sb shown = SB_INIT;
		term_escape(&shown, g->name, 0);
		rl_warn("ingest: %s:%ld: peak memory %.1f GB (metrics.peak_vram_mb %.0f) is more than the "
			"%.0f GB of one %s: the GPU name or the measurement is wrong",
			f->name, line, peak_mb / 1024.0, peak_mb, card_mb / 1024.0, shown.buf);
		sb_release(&shown);
		rl_hint("check the GPU (--hardware, the gpu column); 'ledger show' marks such runs with "
			"ledger.peak_vram_above_card");
	}
	sb_release(&key);
}

void ingest_check_hardware(struct ingest_file *f, long line, const json_t *rec)
{
	const json_t *hw = json_object_get(rec, "hardware");
	const char *name = json_string_value(json_object_get(hw, "gpu_name"));
	if (!name || !*name)
		return; /* a CPU run, or no word on the hardware */
	const struct gpu_memo *g = gpu_facts(name);
	if (!g->known)
		warn_unknown(f, line, name);
	double peak = runrec_metric(rec, "peak_vram_mb");
	if (!isfinite(peak))
		return;
	double card = runrec_num(hw, "gpu_mem_mb");
	card = card > 0 ? card : g->name_mb;
	if (card > 0 && peak > card)
		warn_over(f, line, g, peak, card);
}

void ingest_check_measurement(struct ingest_file *f, long line, const json_t *rec)
{
	const char *status = runrec_str(rec, "status");
	double bpb = runrec_metric(rec, "val_bpb");
	if (!status || strcmp(status, "ok") || !runrec_bpb_diverged(bpb))
		return;
	if (!f->diverged++) {
		rl_warn("ingest: %s:%ld: val_bpb %g is above %g bits per byte, worse than a uniform guess "
			"over the 256 byte values: the run is taken as diverged, not as a measurement (it "
			"enters no frontier; the record keeps the value)", f->name, line, bpb,
			RUNREC_BPB_UNIFORM);
		rl_hint("'ledger show' marks such runs with ledger.val_bpb_diverged");
	}
}

void ingest_check_done(struct ingest_file *f)
{
	if (f->diverged > 1)
		rl_warn("ingest: %s: %ld runs in all have a val_bpb above %g bits per byte (the first is "
			"named above)", f->name, f->diverged, RUNREC_BPB_UNIFORM);
	if (f->vram_over > 1)
		rl_warn("ingest: %s: %ld rows in all have a peak memory above their GPU's (the first for "
			"each GPU is named above)", f->name, f->vram_over);
}
