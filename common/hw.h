/* hw.h — GPU names to hardware class, VRAM tier and peak throughput.
 * One table (hw.c) serves the ledger's tags and the trainer's MFU, so the
 * two cannot disagree. Low-level: no SQLite, jansson or CUDA. */
#ifndef RL_HW_H
#define RL_HW_H

typedef struct hw_info {
	const char *cls;        /* "H100", "RTX 3090", …; NULL when unknown */
	double mem_gb;          /* memory of the class (the largest where it is sold
	                         * with several), 0 when unknown (Apple) */
	double peak_bf16_tflops;/* dense bf16 tensor peak, 0 = unknown */
} hw_info;

/* Look up a GPU name such as "NVIDIA H100 80GB HBM3". Returns 0 and fills
 * *out when the name matches a known class, -1 otherwise (out->cls NULL).
 * Matching is by whole tokens, the most specific row winning (hw.c). */
int hw_lookup(const char *gpu_name, hw_info *out);

/* How many rows match name equally well (the test that the table is
 * unambiguous: 1 for a known name, 0 for an unknown one). */
int hw_lookup_ties(const char *name);

/* Row i of the table (for tests and listings); -1 past the end. */
int hw_table_entry(int i, hw_info *out);

/* Class for tagging: the known class, else the trimmed name itself, else
 * "unknown" for NULL/empty. Writes into buf and returns it. */
const char *hw_class(const char *gpu_name, char *buf, unsigned n);

/* VRAM tier from memory in GB (autoresearch@home tiers):
 * small <= 16, medium <= 24, large <= 48, xl > 48; NULL when mem_gb <= 0. */
const char *hw_vram_tier(double mem_gb);

/* Memory in GB for tiering: gpu_mem_mb when > 0, else parsed from the name
 * ("… 80GB …"), else the class's typical memory; 0 when unknown. */
double hw_mem_gb(const char *gpu_name, double gpu_mem_mb);

/* The card's memory in MiB (hw_mem_gb x 1024) when peak_mb is above it, else
 * 0 (also when the card's memory is unknown): a peak no card of that name
 * can hold says the GPU name, or the measurement, is wrong. */
double hw_over_memory(const char *gpu_name, double gpu_mem_mb, double peak_mb);

#endif
