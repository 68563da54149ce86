/* hw.c — the GPU table; see hw.h.
 *
 * A name is cut into tokens (runs of letters and digits, any case:
 * "NVIDIA A100-SXM4-80GB" -> NVIDIA A100 SXM4 80GB) and a row matches when
 * every one of its tokens is among them, as a whole token: "A10" never
 * matches A100 or A10G. Of the rows that match, the one with the most
 * tokens wins, so "RTX 4080 SUPER" beats "RTX 4080" and "H100 NVL" beats
 * "H100"; every variant whose peak or memory differs is a row of its own,
 * and tests/unit/test_hw.c checks that no spelling it knows ties.
 *
 * A class is one peak: parts whose peak differs (H100 SXM / PCIe / NVL,
 * RTX 4080 / 4080 SUPER) are classes of their own, as a 5-minute result is
 * comparable only on like hardware; memory sizes of one chip (A100 40 and
 * 80 GB, RTX 4060 Ti 8 and 16 GB) share a class and get their memory from
 * the name ("80GB"), which decides the tier.
 *
 * Peaks are dense (no 2:4 sparsity) BF16 tensor TFLOPS from the vendor's
 * data sheet or architecture whitepaper, per GPU as the driver reports
 * one; the source of each family is written above it. Memory is GB per
 * GPU as sold (the driver's MiB count is about that times 1024), the
 * largest the class is sold with where there are several (GH200 96/144,
 * RTX 4060 Ti 8/16, …): the name or the record's gpu_mem_mb says which,
 * and without them the memory check (hw_over_memory) must not flag a run
 * of the larger part. 0 means unknown, never a guess. Laptop, mobile and Max-Q parts are other
 * products under the same names and are not matched. */
#include <strings.h>
#include "hw.h"
#include "util.h"

enum { HW_APPLE = 1 }; /* matched only when no other vendor is named */

struct hw_row {
	const char *tokens; /* space-separated, upper case; all must be in the name */
	const char *cls;
	double mem_gb;
	double tflops;
	unsigned flags;
};

static const struct hw_row table[] = {
	/* NVIDIA Hopper: H100 Tensor Core GPU data sheet (SXM 1,979, PCIe
	 * 1,513, NVL 1,671 TFLOPS BF16 "with sparsity", halved here); H200 and
	 * H200 NVL data sheet (1,979 / 1,671 sparse); GH200 data sheet (1,979
	 * sparse, 96 GB HBM3); H800/H20 from NVIDIA's China-market specs (H20:
	 * 148 dense BF16, 96 GB). */
	{ "H100", "H100", 80, 989.4, 0 },
	{ "H100 PCIE", "H100 PCIe", 80, 756.5, 0 },
	{ "H100 NVL", "H100 NVL", 94, 835.5, 0 },
	{ "H800", "H800", 80, 989.4, 0 },
	{ "H800 PCIE", "H800 PCIe", 80, 756.5, 0 },
	{ "H200", "H200", 141, 989.4, 0 },
	{ "H200 NVL", "H200 NVL", 141, 835.5, 0 },
	{ "GH200", "GH200", 144, 989.4, 0 },
	{ "H20", "H20", 141, 148, 0 },
	/* NVIDIA Blackwell: HGX B200 / HGX B300 data sheets (36 PFLOPS FP16/BF16
	 * sparse for 8 GPUs: 2.25 dense each; 180-192 and 288 GB), GB200 NVL72 and
	 * GB300 NVL72 (360 PFLOPS sparse for 72 GPUs: 2.5 dense each; 186 and
	 * 288 GB a GPU), B100 (3.5 PFLOPS sparse, 192 GB). */
	{ "B100", "B100", 192, 1750, 0 },
	{ "B200", "B200", 192, 2250, 0 },
	{ "B300", "B300", 288, 2250, 0 },
	{ "GB200", "GB200", 186, 2500, 0 },
	{ "GB300", "GB300", 288, 2500, 0 },
	/* NVIDIA Ampere data center: A100 data sheet (312 dense BF16, 40 or 80
	 * GB: the name says which), A30 (165), A10 (125), A40 (149.7), A2 (18),
	 * A16 (4 GPUs of 16 GB on a board, 4 x 17.9 FP16/BF16 dense: one GPU is
	 * what the driver reports). A10G is AWS's part with no NVIDIA data sheet:
	 * 70 is the figure AWS and its resellers quote. A800 as A100. */
	{ "A100", "A100", 80, 312, 0 },
	{ "A800", "A800", 80, 312, 0 },
	{ "A30", "A30", 24, 165, 0 },
	{ "A40", "A40", 48, 149.7, 0 },
	{ "A10", "A10", 24, 125, 0 },
	{ "A10G", "A10G", 24, 70, 0 },
	{ "A16", "A16", 16, 17.9, 0 },
	{ "A2", "A2", 16, 18, 0 },
	/* NVIDIA Ada data center: L4, L40, L40S data sheets (dense BF16 121,
	 * 181.05, 362.05; the sheets print 242, 362.1, 733 with sparsity). */
	{ "L4", "L4", 24, 121, 0 },
	{ "L40", "L40", 48, 181.05, 0 },
	{ "L40S", "L40S", 48, 362.05, 0 },
	/* L20 (China market, AD102 with 11,776 CUDA cores at 2.52 GHz): twice
	 * its FP32 boost rate, as the L40's 181.05 is twice its own */
	{ "L20", "L20", 48, 118.7, 0 },
	/* GB10, the DGX Spark's chip: 128 GB shared with the CPU; NVIDIA
	 * publishes only an FP4 figure, so its BF16 peak stays unknown */
	{ "GB10", "GB10", 128, 0, 0 },
	{ "DGX SPARK", "GB10", 128, 0, 0 },
	/* NVIDIA workstation: RTX A6000/A5000/A4000 data sheets (309.7, 222.2,
	 * 153.4 sparse tensor TFLOPS, halved); RTX 6000 Ada (Ada whitepaper,
	 * 364.2 dense FP16/BF16 with FP32 accumulate). Turing Quadros have no
	 * BF16 tensor cores: their figure is the FP16 tensor peak (Turing
	 * whitepaper), as for V100 and T4 below. */
	{ "A6000", "RTX A6000", 48, 154.8, 0 },
	{ "A5000", "RTX A5000", 24, 111.1, 0 },
	{ "A4000", "RTX A4000", 16, 76.7, 0 },
	{ "RTX 6000 ADA", "RTX 6000 Ada", 48, 364.2, 0 },
	/* RTX PRO 6000 Blackwell (Workstation and Server Edition; the Max-Q
	 * part is another product): NVIDIA's 4 PFLOPS FP4 with sparsity is
	 * 503.8 dense BF16 with FP32 accumulate, 96 GB */
	{ "RTX PRO 6000 BLACKWELL", "RTX PRO 6000 Blackwell", 96, 503.8, 0 },
	{ "QUADRO RTX 5000", "Quadro RTX 5000", 16, 89.2, 0 },
	{ "QUADRO RTX 6000", "Quadro RTX 6000", 24, 130.5, 0 },
	{ "QUADRO RTX 8000", "Quadro RTX 8000", 48, 130.5, 0 },
	/* Volta and Turing data center (V100 data sheet: SXM2 125, PCIe 112,
	 * V100S 130; T4 data sheet 65): FP16 tensor peaks, no BF16 on these. */
	{ "V100", "V100", 32, 125, 0 },
	{ "V100 PCIE", "V100 PCIe", 32, 112, 0 },
	{ "V100S", "V100S", 32, 130, 0 },
	{ "T4", "T4", 16, 65, 0 },
	/* GeForce RTX 20 (Turing whitepaper, appendix): no BF16 tensor cores;
	 * the figure is FP16 tensor with FP32 accumulate, which GeForce runs at
	 * half the FP16-accumulate rate (2080 Ti: 107.6 -> 53.8). */
	{ "RTX 2060", "RTX 2060", 12, 25.8, 0 },
	{ "RTX 2060 SUPER", "RTX 2060 SUPER", 8, 28.7, 0 },
	{ "RTX 2070", "RTX 2070", 8, 29.9, 0 },
	{ "RTX 2070 SUPER", "RTX 2070 SUPER", 8, 36.3, 0 },
	{ "RTX 2080", "RTX 2080", 8, 40.3, 0 },
	{ "RTX 2080 SUPER", "RTX 2080 SUPER", 8, 44.6, 0 },
	{ "RTX 2080 TI", "RTX 2080 Ti", 11, 53.8, 0 },
	/* GeForce RTX 30 (Ampere GA102 whitepaper, appendix: RTX 3090 BF16
	 * with FP32 accumulate 71 dense): on GeForce Ampere that rate is twice
	 * the FP32 boost rate, which gives the others from NVIDIA's spec pages. */
	{ "RTX 3060", "RTX 3060", 12, 25.5, 0 },
	{ "RTX 3060 TI", "RTX 3060 Ti", 8, 32.4, 0 },
	{ "RTX 3070", "RTX 3070", 8, 40.6, 0 },
	{ "RTX 3070 TI", "RTX 3070 Ti", 8, 43.5, 0 },
	{ "RTX 3080", "RTX 3080", 12, 59.5, 0 },
	{ "RTX 3080 TI", "RTX 3080 Ti", 12, 68.2, 0 },
	{ "RTX 3090", "RTX 3090", 24, 71, 0 },
	{ "RTX 3090 TI", "RTX 3090 Ti", 24, 80, 0 },
	/* GeForce RTX 40 (Ada whitepaper, appendix: RTX 4090 165.2, RTX 4080
	 * 97.5 BF16 dense with FP32 accumulate; again twice the FP32 boost rate,
	 * which gives the others from NVIDIA's spec pages). */
	{ "RTX 4060", "RTX 4060", 8, 30.2, 0 },
	{ "RTX 4060 TI", "RTX 4060 Ti", 16, 44.1, 0 },
	{ "RTX 4070", "RTX 4070", 12, 58.3, 0 },
	{ "RTX 4070 SUPER", "RTX 4070 SUPER", 12, 71, 0 },
	{ "RTX 4070 TI", "RTX 4070 Ti", 12, 80.2, 0 },
	{ "RTX 4070 TI SUPER", "RTX 4070 Ti SUPER", 16, 88.2, 0 },
	{ "RTX 4080", "RTX 4080", 16, 97.5, 0 },
	{ "RTX 4080 SUPER", "RTX 4080 SUPER", 16, 104.4, 0 },
	{ "RTX 4090", "RTX 4090", 24, 165.2, 0 },
	/* the China-market 4090 D: 14,592 CUDA cores at 2.52 GHz boost */
	{ "RTX 4090 D", "RTX 4090 D", 24, 147.1, 0 },
	/* GeForce RTX 50 (RTX Blackwell whitepaper, appendix: RTX 5090 209.5
	 * BF16 dense with FP32 accumulate; twice the FP32 boost rate for the
	 * others, from NVIDIA's spec pages). */
	{ "RTX 5060", "RTX 5060", 8, 38.4, 0 },
	{ "RTX 5060 TI", "RTX 5060 Ti", 16, 47.4, 0 },
	{ "RTX 5070", "RTX 5070", 12, 61.7, 0 },
	{ "RTX 5070 TI", "RTX 5070 Ti", 16, 87.9, 0 },
	{ "RTX 5080", "RTX 5080", 16, 112.6, 0 },
	{ "RTX 5090", "RTX 5090", 32, 209.5, 0 },
	/* AMD Instinct data sheets (dense; CDNA 2 has no sparsity): MI210 181;
	 * MI250 362.1 and MI250X 383 for the module, whose two dies ROCm reports
	 * as two GPUs of 64 GB each, so half of each here; MI300X 1,307.4
	 * (192 GB), MI300A 980.6 (128 GB shared), MI325X 1,307.4 (256 GB),
	 * MI350X 2.3 and MI355X 2.5 PFLOPS (288 GB). */
	{ "MI210", "MI210", 64, 181, 0 },
	{ "MI250", "MI250", 64, 181, 0 },
	{ "MI250X", "MI250X", 64, 191.5, 0 },
	/* ROCm's marketing name of gfx90a, "AMD Instinct MI250X/MI250", names
	 * both parts; it is read as the MI250X, whose peak is 6% above the
	 * MI250's, and said so in docs/ingest.md */
	{ "MI250X MI250", "MI250X", 64, 191.5, 0 },
	{ "MI300X", "MI300X", 192, 1307.4, 0 },
	{ "MI300A", "MI300A", 128, 980.6, 0 },
	{ "MI325X", "MI325X", 256, 1307.4, 0 },
	{ "MI350X", "MI350X", 288, 2306.9, 0 },
	{ "MI355X", "MI355X", 288, 2516.6, 0 },
	/* AMD Radeon (ROCm runs autoresearch on them): memory from AMD's spec
	 * pages; RDNA 3's matrix peak for BF16 with FP32 accumulate is not
	 * published as such, so it stays unknown */
	{ "RX 7900 XTX", "RX 7900 XTX", 24, 0, 0 },
	{ "RX 7900 XT", "RX 7900 XT", 20, 0, 0 },
	{ "W7900", "Radeon PRO W7900", 48, 0, 0 },
	/* Apple silicon: Apple publishes no BF16 matrix peak, and memory is
	 * unified and chosen at purchase, so both stay unknown (0): the tier
	 * then comes from the record's gpu_mem_mb or is left empty. There is no
	 * M4 Ultra. */
	{ "M1", "Apple M1", 0, 0, HW_APPLE },
	{ "M1 PRO", "Apple M1 Pro", 0, 0, HW_APPLE },
	{ "M1 MAX", "Apple M1 Max", 0, 0, HW_APPLE },
	{ "M1 ULTRA", "Apple M1 Ultra", 0, 0, HW_APPLE },
	{ "M2", "Apple M2", 0, 0, HW_APPLE },
	{ "M2 PRO", "Apple M2 Pro", 0, 0, HW_APPLE },
	{ "M2 MAX", "Apple M2 Max", 0, 0, HW_APPLE },
	{ "M2 ULTRA", "Apple M2 Ultra", 0, 0, HW_APPLE },
	{ "M3", "Apple M3", 0, 0, HW_APPLE },
	{ "M3 PRO", "Apple M3 Pro", 0, 0, HW_APPLE },
	{ "M3 MAX", "Apple M3 Max", 0, 0, HW_APPLE },
	{ "M3 ULTRA", "Apple M3 Ultra", 0, 0, HW_APPLE },
	{ "M4", "Apple M4", 0, 0, HW_APPLE },
	{ "M4 PRO", "Apple M4 Pro", 0, 0, HW_APPLE },
	{ "M4 MAX", "Apple M4 Max", 0, 0, HW_APPLE },
};

#define MAX_TOKENS 24
#define TOKEN_LEN 24

struct tokens {
	char t[MAX_TOKENS][TOKEN_LEN];
	int n;
};

/* Runs of letters and digits, upper-cased; longer ones are cut (no table
 * token is that long, so a cut one never matches). */
static void tokenize(const char *s, struct tokens *tk)
{
	tk->n = 0;
	while (*s && tk->n < MAX_TOKENS) {
		while (*s && !isalnum((unsigned char)*s))
			s++;
		if (!*s)
			break;
		int len = 0;
		for (; isalnum((unsigned char)*s); s++)
			if (len < TOKEN_LEN - 1)
				tk->t[tk->n][len++] = (char)toupper((unsigned char)*s);
		tk->t[tk->n++][len] = '\0';
	}
}

static int has_token(const struct tokens *tk, const char *w, size_t n)
{
	for (int i = 0; i < tk->n; i++)
		if (strlen(tk->t[i]) == n && !memcmp(tk->t[i], w, n))
			return 1;
	return 0;
}

/* How many tokens the row has when all of them are in the name, else 0. */
static int row_score(const struct hw_row *r, const struct tokens *tk)
{
	int score = 0;
	for (const char *p = r->tokens; *p;) {
		size_t n = strcspn(p, " ");
		if (!has_token(tk, p, n))
			return 0;
		score++;
		p += n + (p[n] == ' ');
	}
	return score;
}

static int names_vendor(const struct tokens *tk)
{
	static const char *const vendors[] = { "NVIDIA", "GEFORCE", "TESLA", "QUADRO", "AMD",
					       "RADEON", "INSTINCT", "INTEL" };
	for (size_t i = 0; i < ARRAY_SIZE(vendors); i++)
		if (has_token(tk, vendors[i], strlen(vendors[i])))
			return 1;
	return 0;
}

/* A laptop or Max-Q GPU shares the desktop part's name but not its memory
 * or clocks. */
static int other_product(const struct tokens *tk)
{
	if (has_token(tk, "LAPTOP", 6) || has_token(tk, "MOBILE", 6) || has_token(tk, "MAXQ", 4))
		return 1;
	for (int i = 0; i + 1 < tk->n; i++)
		if (!strcmp(tk->t[i], "MAX") && !strcmp(tk->t[i + 1], "Q"))
			return 1;
	return 0;
}

static void fill(const struct hw_row *r, hw_info *out)
{
	out->cls = r->cls;
	out->mem_gb = r->mem_gb;
	out->peak_bf16_tflops = r->tflops;
}

/* A name's variant word (the "D" of an RTX 4090 D, a SUPER, a Ti, an XT)
 * that its best row lacks: another product than the row, with its own
 * peak, which must not take the row's class. */
static int names_other_variant(const struct hw_row *r, const struct tokens *tk)
{
	static const char *const variants[] = { "D", "SUPER", "TI", "XT", "XTX", "GRE" };
	struct tokens row;
	tokenize(r->tokens, &row);
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		size_t n = strlen(variants[i]);
		if (has_token(tk, variants[i], n) && !has_token(&row, variants[i], n))
			return 1;
	}
	return 0;
}

/* The best-scoring row for name, NULL when none; *ties counts the rows
 * with that score (1 unless the table has a gap a test should find). */
static const struct hw_row *best_row(const char *name, int *ties)
{
	*ties = 0;
	if (!name || !*name)
		return NULL;
	struct tokens tk;
	tokenize(name, &tk);
	if (other_product(&tk))
		return NULL;
	int vendor = names_vendor(&tk), best = 0;
	const struct hw_row *hit = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		if ((table[i].flags & HW_APPLE) && vendor)
			continue;
		int s = row_score(&table[i], &tk);
		if (s > best) {
			best = s;
			hit = &table[i];
			*ties = 1;
		} else if (s && s == best) {
			++*ties;
		}
	}
	return hit && names_other_variant(hit, &tk) ? NULL : hit;
}

int hw_lookup(const char *name, hw_info *out)
{
	out->cls = NULL;
	out->mem_gb = 0;
	out->peak_bf16_tflops = 0;
	int ties;
	const struct hw_row *hit = best_row(name, &ties);
	if (!hit)
		return -1;
	fill(hit, out);
	return 0;
}

int hw_lookup_ties(const char *name)
{
	int ties;
	best_row(name, &ties);
	return ties;
}

int hw_table_entry(int i, hw_info *out)
{
	if (i < 0 || (size_t)i >= ARRAY_SIZE(table))
		return -1;
	fill(&table[i], out);
	return 0;
}

const char *hw_class(const char *name, char *buf, unsigned n)
{
	hw_info hi;
	if (hw_lookup(name, &hi) == 0) {
		snprintf(buf, n, "%s", hi.cls);
		return buf;
	}
	if (!name)
		name = "";
	while (isspace((unsigned char)*name))
		name++;
	snprintf(buf, n, "%s", *name ? name : "unknown");
	size_t len = strlen(buf);
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return buf;
}

const char *hw_vram_tier(double gb)
{
	if (gb <= 0)
		return NULL;
	if (gb <= 16)
		return "small";
	if (gb <= 24)
		return "medium";
	if (gb <= 48)
		return "large";
	return "xl";
}

double hw_mem_gb(const char *name, double mem_mb)
{
	if (mem_mb > 0)
		return mem_mb / 1024.0;
	if (name) {
		for (const char *p = name; *p; p++) {
			if (isdigit((unsigned char)*p) && (p == name || !isalnum((unsigned char)p[-1]))) {
				char *end;
				double v = strtod(p, &end);
				if (strncasecmp(end, "GB", 2) == 0 || strncasecmp(end, " GB", 3) == 0)
					return v;
			}
		}
	}
	hw_info hi;
	if (hw_lookup(name, &hi) == 0)
		return hi.mem_gb;
	return 0;
}

double hw_over_memory(const char *name, double mem_mb, double peak_mb)
{
	double card_mb = hw_mem_gb(name, mem_mb) * 1024.0;
	return card_mb > 0 && isfinite(peak_mb) && peak_mb > card_mb ? card_mb : 0;
}
