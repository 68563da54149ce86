/* hw.c — the GPU table; see hw.h.
 * Peak figures are vendor datasheet dense BF16 tensor-core numbers (no
 * sparsity); where a part comes in SXM and PCIe forms the name decides. */
#include <strings.h>
#include "hw.h"
#include "util.h"

struct hw_row {
	const char *needle; /* substring matched case-insensitively, first hit wins */
	const char *cls;
	double mem_gb;
	double tflops;
};

/* Order matters: more specific needles first ("H100 PCIe" before "H100"). */
static const struct hw_row table[] = {
	{ "GH200", "GH200", 96, 989 },
	{ "H200", "H200", 141, 989 },
	{ "H100 PCIe", "H100", 80, 756 },
	{ "H100 NVL", "H100", 94, 835 },
	{ "H100", "H100", 80, 989 },
	{ "H800", "H800", 80, 989 },
	{ "GB200", "GB200", 186, 2500 },
	{ "B200", "B200", 180, 2250 },
	{ "B100", "B100", 192, 1750 },
	{ "A100", "A100", 80, 312 },
	{ "A800", "A800", 80, 312 },
	{ "A10G", "A10G", 24, 70 },
	{ "A6000", "RTX A6000", 48, 155 },
	{ "A5000", "RTX A5000", 24, 111 },
	{ "A4000", "RTX A4000", 16, 76 },
	{ "A40", "A40", 48, 150 },
	{ "A30", "A30", 24, 165 },
	{ "A10", "A10", 24, 125 },
	{ "L40S", "L40S", 48, 362 },
	{ "L40", "L40", 48, 181 },
	{ "L4", "L4", 24, 121 },
	{ "T4", "T4", 16, 65 },
	{ "V100", "V100", 32, 125 },
	{ "RTX 5090", "RTX 5090", 32, 209 },
	{ "RTX 4090", "RTX 4090", 24, 165 },
	{ "RTX 4080", "RTX 4080", 16, 97 },
	{ "RTX 3090", "RTX 3090", 24, 71 },
	{ "RTX 3080", "RTX 3080", 10, 59 },
	{ "Quadro RTX 5000", "Quadro RTX 5000", 16, 89 },
	{ "RTX 6000 Ada", "RTX 6000 Ada", 48, 364 },
	{ "MI300X", "MI300X", 192, 1307 },
	{ "MI250", "MI250", 128, 362 },
	{ "Apple M4", "Apple M4", 0, 0 },
	{ "Apple M3", "Apple M3", 0, 0 },
	{ "Apple M2", "Apple M2", 0, 0 },
	{ "Apple M1", "Apple M1", 0, 0 },
	{ " M4 ", "Apple M4", 0, 0 },
};

static int contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

int hw_lookup(const char *name, hw_info *out)
{
	out->cls = NULL;
	out->mem_gb = 0;
	out->peak_bf16_tflops = 0;
	if (!name || !*name)
		return -1;
	/* Pad so " M4 " can match "Apple M4 Max" style names at the ends too. */
	char padded[256];
	snprintf(padded, sizeof(padded), " %s ", name);
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		if (contains_ci(padded, table[i].needle)) {
			out->cls = table[i].cls;
			out->mem_gb = table[i].mem_gb;
			out->peak_bf16_tflops = table[i].tflops;
			return 0;
		}
	}
	return -1;
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
