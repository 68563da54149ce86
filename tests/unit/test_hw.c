/* test_hw.c — common/hw.c: GPU names to class, memory and peak.
 * Test plan: every row of the table is found by at least one real spelling
 * (as nvidia-smi, torch.cuda.get_device_name, rocminfo or macOS print it;
 * the list below), and a row nobody spells fails the test; each spelling
 * gives one class and no other row ties with it; near misses (A10 / A100 /
 * A10G, RTX 4080 / 4080 SUPER, H100 / H100 NVL / PCIe, Tesla M4 / Apple
 * M4) stay apart; laptop parts and strangers are unknown; memory from the
 * name beats the class's; the memory check flags only a peak above the
 * card. */
#include "hw.h"
#include "util.h"
#include "check.h"

static const struct { const char *name, *cls; double mem_gb; } spellings[] = {
	{ "NVIDIA H100 80GB HBM3", "H100", 80 },
	{ "NVIDIA H100 SXM5 80GB", "H100", 80 },
	{ "NVIDIA H100", "H100", 80 },
	{ "NVIDIA H100 PCIe", "H100 PCIe", 80 },
	{ "NVIDIA H100 NVL", "H100 NVL", 94 },
	{ "NVIDIA H800", "H800", 80 },
	{ "NVIDIA H800 PCIe", "H800 PCIe", 80 },
	{ "NVIDIA H200", "H200", 141 },
	{ "NVIDIA H200 NVL", "H200 NVL", 141 },
	{ "NVIDIA GH200 480GB", "GH200", 480 }, /* the name counts Grace's memory too */
	{ "NVIDIA GH200 144G HBM3e", "GH200", 144 },
	{ "NVIDIA H20", "H20", 141 },
	{ "NVIDIA B100", "B100", 192 },
	{ "NVIDIA B200", "B200", 192 },
	{ "NVIDIA B300 SXM6 AC", "B300", 288 },
	{ "NVIDIA GB200", "GB200", 186 },
	{ "NVIDIA GB300", "GB300", 288 },
	{ "NVIDIA A100-SXM4-80GB", "A100", 80 },
	{ "NVIDIA A100-SXM4-40GB", "A100", 40 },
	{ "NVIDIA A100-PCIE-40GB", "A100", 40 },
	{ "NVIDIA A100 80GB PCIe", "A100", 80 },
	{ "NVIDIA A800-SXM4-80GB", "A800", 80 },
	{ "NVIDIA A30", "A30", 24 },
	{ "NVIDIA A40", "A40", 48 },
	{ "NVIDIA A10", "A10", 24 },
	{ "NVIDIA A10G", "A10G", 24 },
	{ "NVIDIA A16", "A16", 16 },
	{ "NVIDIA A2", "A2", 16 },
	{ "NVIDIA L4", "L4", 24 },
	{ "NVIDIA L40", "L40", 48 },
	{ "NVIDIA L40S", "L40S", 48 },
	{ "NVIDIA RTX A6000", "RTX A6000", 48 },
	{ "NVIDIA RTX A5000", "RTX A5000", 24 },
	{ "NVIDIA RTX A4000", "RTX A4000", 16 },
	{ "NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada", 48 },
	{ "Quadro RTX 5000", "Quadro RTX 5000", 16 },
	{ "Quadro RTX 6000", "Quadro RTX 6000", 24 },
	{ "Quadro RTX 8000", "Quadro RTX 8000", 48 },
	{ "Tesla V100-SXM2-16GB", "V100", 16 },
	{ "Tesla V100-SXM2-32GB", "V100", 32 },
	{ "Tesla V100-PCIE-32GB", "V100 PCIe", 32 },
	{ "Tesla V100S-PCIE-32GB", "V100S", 32 },
	{ "Tesla T4", "T4", 16 },
	{ "NVIDIA GeForce RTX 2060", "RTX 2060", 12 },
	{ "NVIDIA GeForce RTX 2060 SUPER", "RTX 2060 SUPER", 8 },
	{ "GeForce RTX 2070", "RTX 2070", 8 },
	{ "NVIDIA GeForce RTX 2070 SUPER", "RTX 2070 SUPER", 8 },
	{ "NVIDIA GeForce RTX 2080", "RTX 2080", 8 },
	{ "NVIDIA GeForce RTX 2080 SUPER", "RTX 2080 SUPER", 8 },
	{ "NVIDIA GeForce RTX 2080 Ti", "RTX 2080 Ti", 11 },
	{ "GeForce RTX 2080 Ti", "RTX 2080 Ti", 11 },
	{ "NVIDIA GeForce RTX 3060", "RTX 3060", 12 },
	{ "NVIDIA GeForce RTX 3060 Ti", "RTX 3060 Ti", 8 },
	{ "NVIDIA GeForce RTX 3070", "RTX 3070", 8 },
	{ "NVIDIA GeForce RTX 3070 Ti", "RTX 3070 Ti", 8 },
	{ "NVIDIA GeForce RTX 3080", "RTX 3080", 12 },
	{ "NVIDIA GeForce RTX 3080 Ti", "RTX 3080 Ti", 12 },
	{ "NVIDIA GeForce RTX 3090", "RTX 3090", 24 },
	{ "NVIDIA GeForce RTX 3090 Ti", "RTX 3090 Ti", 24 },
	{ "NVIDIA GeForce RTX 4060", "RTX 4060", 8 },
	{ "NVIDIA GeForce RTX 4060 Ti", "RTX 4060 Ti", 16 },
	{ "NVIDIA GeForce RTX 4060 Ti 8GB", "RTX 4060 Ti", 8 },
	{ "NVIDIA GeForce RTX 4070", "RTX 4070", 12 },
	{ "NVIDIA GeForce RTX 4070 SUPER", "RTX 4070 SUPER", 12 },
	{ "NVIDIA GeForce RTX 4070 Ti", "RTX 4070 Ti", 12 },
	{ "NVIDIA GeForce RTX 4070 Ti SUPER", "RTX 4070 Ti SUPER", 16 },
	{ "NVIDIA GeForce RTX 4080", "RTX 4080", 16 },
	{ "NVIDIA GeForce RTX 4080 SUPER", "RTX 4080 SUPER", 16 },
	{ "NVIDIA GeForce RTX 4090", "RTX 4090", 24 },
	{ "rtx 4090", "RTX 4090", 24 },
	{ "NVIDIA GeForce RTX 4090 D", "RTX 4090 D", 24 },
	{ "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX PRO 6000 Blackwell", 96 },
	{ "NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX PRO 6000 Blackwell", 96 },
	{ "NVIDIA L20", "L20", 48 },
	{ "NVIDIA GB10", "GB10", 128 },
	{ "NVIDIA DGX Spark", "GB10", 128 },
	{ "AMD Radeon RX 7900 XTX", "RX 7900 XTX", 24 },
	{ "Radeon RX 7900 XT", "RX 7900 XT", 20 },
	{ "AMD Radeon PRO W7900", "Radeon PRO W7900", 48 },
	{ "NVIDIA GeForce RTX 5060", "RTX 5060", 8 },
	{ "NVIDIA GeForce RTX 5060 Ti", "RTX 5060 Ti", 16 },
	{ "NVIDIA GeForce RTX 5070", "RTX 5070", 12 },
	{ "NVIDIA GeForce RTX 5070 Ti", "RTX 5070 Ti", 16 },
	{ "NVIDIA GeForce RTX 5080", "RTX 5080", 16 },
	{ "NVIDIA GeForce RTX 5090", "RTX 5090", 32 },
	{ "AMD Instinct MI210", "MI210", 64 },
	{ "AMD Instinct MI250", "MI250", 64 },
	{ "AMD Instinct MI250X", "MI250X", 64 },
	{ "AMD Instinct MI250X/MI250", "MI250X", 64 }, /* gfx90a's marketing name: the faster part wins */
	{ "AMD Instinct MI300X", "MI300X", 192 },
	{ "AMD Instinct MI300X VF", "MI300X", 192 },
	{ "AMD Instinct MI300A", "MI300A", 128 },
	{ "AMD Instinct MI325X", "MI325X", 256 },
	{ "AMD Instinct MI350X", "MI350X", 288 },
	{ "AMD Instinct MI355X", "MI355X", 288 },
	{ "Apple M1", "Apple M1", 0 },
	{ "Apple M1 Pro", "Apple M1 Pro", 0 },
	{ "Apple M1 Max", "Apple M1 Max", 0 },
	{ "Apple M1 Ultra", "Apple M1 Ultra", 0 },
	{ "Apple M2", "Apple M2", 0 },
	{ "Apple M2 Pro", "Apple M2 Pro", 0 },
	{ "Apple M2 Max", "Apple M2 Max", 0 },
	{ "Apple M2 Ultra", "Apple M2 Ultra", 0 },
	{ "Apple M3", "Apple M3", 0 },
	{ "Apple M3 Pro", "Apple M3 Pro", 0 },
	{ "Apple M3 Max", "Apple M3 Max", 0 },
	{ "Apple M3 Ultra", "Apple M3 Ultra", 0 },
	{ "Apple M4", "Apple M4", 0 },
	{ "Apple M4 Pro", "Apple M4 Pro", 0 },
	{ "Apple M4 Max", "Apple M4 Max", 0 },
	{ "M3 Max (MPS)", "Apple M3 Max", 0 },
	{ "Apple M2 Max 96GB", "Apple M2 Max", 96 },
};

/* Names that must not be taken for a table row. */
static const char *const strangers[] = {
	"NVIDIA GeForce RTX 4090 Laptop GPU", /* 16 GB, other clocks */
	"NVIDIA GeForce RTX 3080 Ti Laptop GPU",
	"NVIDIA GeForce RTX 2080 with Max-Q Design",
	"Tesla M4",         /* Maxwell, not Apple */
	"Tesla M40 24GB",
	"NVIDIA RTX A1000", /* no row: not A10 */
	"NVIDIA A100X",     /* a converged card, no row: not A100 */
	"NVIDIA GeForce GTX 1080 Ti",
	"NVIDIA GeForce RTX 5090 D",  /* a variant word its row lacks: not the RTX 5090 */
	"NVIDIA GeForce RTX 4080 Ti", /* never sold: not the RTX 4080 */
	"AMD Radeon RX 7900 GRE",
	"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", /* 300 W, other clocks */
	"Intel(R) Data Center GPU Max 1550",
	"Mystery GPU 9000",
	"",
};

static void test_spellings(void)
{
	char id[64];
	for (size_t i = 0; i < ARRAY_SIZE(spellings); i++) {
		hw_info hi;
		char buf[64];
		snprintf(id, sizeof(id), "hw-name-%zu", i + 1);
		int found = hw_lookup(spellings[i].name, &hi) == 0;
		if (!CHECK(id, found && !strcmp(hi.cls, spellings[i].cls)))
			printf("#   '%s' -> '%s', expected '%s'\n", spellings[i].name, found ? hi.cls : "(unknown)",
			       spellings[i].cls);
		snprintf(id, sizeof(id), "hw-mem-%zu", i + 1);
		if (!CHECK(id, hw_mem_gb(spellings[i].name, 0) == spellings[i].mem_gb))
			printf("#   '%s': %g GB, expected %g\n", spellings[i].name, hw_mem_gb(spellings[i].name, 0),
			       spellings[i].mem_gb);
		snprintf(id, sizeof(id), "hw-class-%zu", i + 1);
		CHECK(id, !strcmp(hw_class(spellings[i].name, buf, sizeof(buf)), spellings[i].cls));
		snprintf(id, sizeof(id), "hw-tie-%zu", i + 1);
		CHECK(id, hw_lookup_ties(spellings[i].name) == 1);
	}
}

/* Rows whose vendor publishes no dense BF16 peak (hw.c says why): MFU
 * stays unknown on them, never a guess. */
static const char *const no_peak[] = { "GB10", "RX 7900 XTX", "RX 7900 XT", "Radeon PRO W7900" };

/* Every row is some spelling's answer: a row nobody can reach is dead, and
 * one reached by a spelling not listed here has not been looked at. */
static void test_every_row_spelled(void)
{
	hw_info row;
	char id[64];
	for (int i = 0; hw_table_entry(i, &row) == 0; i++) {
		int spelled = 0;
		for (size_t k = 0; k < ARRAY_SIZE(spellings) && !spelled; k++)
			spelled = !strcmp(spellings[k].cls, row.cls);
		snprintf(id, sizeof(id), "hw-row-%d", i + 1);
		if (!CHECK(id, spelled))
			printf("#   row '%s' has no real spelling in test_hw.c\n", row.cls);
		snprintf(id, sizeof(id), "hw-row-peak-%d", i + 1);
		/* Apple publishes neither peak nor memory; the parts named in
		 * no_peak publish no BF16 peak but their memory; every other row
		 * has both */
		int apple = !strncmp(row.cls, "Apple ", 6), unknown_peak = 0;
		for (size_t k = 0; k < ARRAY_SIZE(no_peak); k++)
			unknown_peak |= !strcmp(no_peak[k], row.cls);
		if (!CHECK(id, apple ? row.peak_bf16_tflops == 0 && row.mem_gb == 0
				     : row.mem_gb > 0 && (unknown_peak ? row.peak_bf16_tflops == 0 : row.peak_bf16_tflops > 0)))
			printf("#   row '%s': peak %g, memory %g\n", row.cls, row.peak_bf16_tflops, row.mem_gb);
	}
	CHECK("hw-rows", hw_table_entry(0, &row) == 0 && hw_table_entry(-1, &row) == -1);
}

static void test_strangers(void)
{
	char id[64];
	for (size_t i = 0; i < ARRAY_SIZE(strangers); i++) {
		hw_info hi;
		snprintf(id, sizeof(id), "hw-unknown-%zu", i + 1);
		if (!CHECK(id, hw_lookup(strangers[i], &hi) == -1 && !hi.cls && hi.peak_bf16_tflops == 0))
			printf("#   '%s' -> '%s'\n", strangers[i], hi.cls);
	}
	hw_info hi;
	CHECK("hw-unknown-null", hw_lookup(NULL, &hi) == -1);
}

/* Pairs whose names overlap but whose peaks or memory differ. */
static void test_near_misses(void)
{
	static const char *const pairs[][2] = {
		{ "NVIDIA A10", "NVIDIA A100-SXM4-80GB" }, { "NVIDIA A10", "NVIDIA A10G" },
		{ "NVIDIA GeForce RTX 4080", "NVIDIA GeForce RTX 4080 SUPER" },
		{ "NVIDIA GeForce RTX 4070 Ti", "NVIDIA GeForce RTX 4070 Ti SUPER" },
		{ "NVIDIA GeForce RTX 4070 SUPER", "NVIDIA GeForce RTX 4070 Ti SUPER" },
		{ "NVIDIA H100 80GB HBM3", "NVIDIA H100 NVL" }, { "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe" },
		{ "NVIDIA H200", "NVIDIA GH200 480GB" }, { "NVIDIA B200", "NVIDIA GB200" },
		{ "NVIDIA L40", "NVIDIA L40S" }, { "NVIDIA L4", "NVIDIA L40" },
		{ "NVIDIA H20", "NVIDIA H200" }, { "AMD Instinct MI250", "AMD Instinct MI250X" },
		{ "NVIDIA RTX 6000 Ada Generation", "Quadro RTX 6000" }, { "Apple M3", "Apple M3 Max" },
		{ "Tesla V100-SXM2-32GB", "Tesla V100S-PCIE-32GB" }, { "NVIDIA A2", "NVIDIA A30" },
	};
	char id[64];
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		hw_info a, b;
		snprintf(id, sizeof(id), "hw-apart-%zu", i + 1);
		int ok = hw_lookup(pairs[i][0], &a) == 0 && hw_lookup(pairs[i][1], &b) == 0 &&
			 strcmp(a.cls, b.cls) &&
			 (a.peak_bf16_tflops != b.peak_bf16_tflops || a.mem_gb != b.mem_gb ||
			  a.peak_bf16_tflops == 0); /* Apple: both unknown, classes apart */
		if (!CHECK(id, ok))
			printf("#   '%s' and '%s' are not kept apart\n", pairs[i][0], pairs[i][1]);
	}
}

static void test_figures(void)
{
	hw_info hi;
	/* spot checks against the data sheets' dense figures */
	CHECK("hw-peak-1", hw_lookup("NVIDIA H100 80GB HBM3", &hi) == 0 && hi.peak_bf16_tflops == 989.4);
	CHECK("hw-peak-2", hw_lookup("NVIDIA H100 PCIe", &hi) == 0 && hi.peak_bf16_tflops == 756.5);
	CHECK("hw-peak-3", hw_lookup("NVIDIA A100-SXM4-40GB", &hi) == 0 && hi.peak_bf16_tflops == 312);
	CHECK("hw-peak-4", hw_lookup("NVIDIA GeForce RTX 4090", &hi) == 0 && hi.peak_bf16_tflops == 165.2);
	CHECK("hw-peak-5", hw_lookup("AMD Instinct MI300X", &hi) == 0 && hi.peak_bf16_tflops == 1307.4);
	CHECK("hw-peak-6", hw_lookup("Apple M3 Max", &hi) == 0 && hi.peak_bf16_tflops == 0);
	/* tiers follow the memory: the name's, else the record's, else the class's */
	CHECK("hw-tier-1", !strcmp(hw_vram_tier(hw_mem_gb("NVIDIA A100-SXM4-40GB", 0)), "large"));
	CHECK("hw-tier-2", !strcmp(hw_vram_tier(hw_mem_gb("NVIDIA A100-SXM4-80GB", 0)), "xl"));
	CHECK("hw-tier-3", !strcmp(hw_vram_tier(hw_mem_gb("NVIDIA GeForce RTX 4080 SUPER", 0)), "small"));
	CHECK("hw-tier-4", hw_vram_tier(hw_mem_gb("Apple M4 Pro", 0)) == NULL);
	CHECK("hw-tier-5", !strcmp(hw_vram_tier(hw_mem_gb("Apple M4 Pro", 24576)), "medium"));
}

static void test_over_memory(void)
{
	/* 80 GB card: 81,920 MiB; a peak above is flagged, at or below is not */
	CHECK("hw-over-1", hw_over_memory("NVIDIA H100 80GB HBM3", 0, 92160) == 81920);
	CHECK("hw-over-2", hw_over_memory("NVIDIA H100 80GB HBM3", 0, 81920) == 0);
	CHECK("hw-over-3", hw_over_memory("NVIDIA H100 80GB HBM3", 0, 45000) == 0);
	/* the record's own memory wins over the name */
	CHECK("hw-over-4", hw_over_memory("NVIDIA H100 80GB HBM3", 40960, 45000) == 40960);
	/* a 24 GB card with 30 GB: the wrong GPU name, most likely */
	CHECK("hw-over-5", hw_over_memory("NVIDIA GeForce RTX 4090", 0, 30720) == 24576);
	/* the larger part of a class is never flagged by the class's memory */
	CHECK("hw-over-6", hw_over_memory("NVIDIA GeForce RTX 4060 Ti", 0, 14000) == 0);
	/* unknown memory, unknown name, no peak: nothing to say */
	CHECK("hw-over-7", hw_over_memory("Apple M3 Max", 0, 90000) == 0);
	CHECK("hw-over-8", hw_over_memory("Mystery GPU", 0, 90000) == 0);
	CHECK("hw-over-9", hw_over_memory("NVIDIA H100", 0, NAN) == 0);
}

int main(void)
{
	test_spellings();
	test_every_row_spelled();
	test_strangers();
	test_near_misses();
	test_figures();
	test_over_memory();
	return check_status();
}
