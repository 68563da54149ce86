/* cupti_trace.c — where a step's wall time goes between and inside the
 * kernels, measured in the running program rather than under ncu's
 * serialised replay. Built as a shared library and loaded by the CUDA
 * driver through CUDA_INJECTION64_PATH (no change to the program traced):
 *   CUDA_INJECTION64_PATH=build/libcupti_trace.so RL_CUPTI_OUT=trace.txt \
 *       build/bench_kernels_model bench 8 512 4 adamw 20 flash
 * It records every kernel, memcpy and memset with CUPTI's activity API
 * (start and end on the GPU's clock, in ns; the concurrent-kernel kind,
 * which does not serialise kernels) and writes one line each at exit:
 *   K start end name    M start end bytes copykind    S start end bytes
 * (copykind: CUpti_ActivityMemcpyKind, 2 = device to host)
 * bench/cupti_steps.py turns the file into per-step kernel time, idle
 * time between kernels and the largest gaps. Built by bench/kernels.sh. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cupti.h>

#define BUF_BYTES (8u << 20)

static FILE *out;

static void check(CUptiResult r, const char *what, int line)
{
	const char *msg = "?";
	if (r == CUPTI_SUCCESS)
		return;
	cuptiGetResultString(r, &msg);
	fprintf(stderr, "cupti_trace: %s:%d: %s: %s\n", __FILE__, line, what, msg);
}
#define CK(call) check((call), #call, __LINE__)

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
	/* CUPTI wants 8-byte aligned buffers */
	*buf = aligned_alloc(8, BUF_BYTES);
	*size = *buf ? BUF_BYTES : 0;
	*max_records = 0;
}

static void write_record(const CUpti_Activity *rec)
{
	switch (rec->kind) {
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
	case CUPTI_ACTIVITY_KIND_KERNEL: {
		const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
		fprintf(out, "K %llu %llu %s\n", (unsigned long long)k->start,
			(unsigned long long)k->end, k->name ? k->name : "?");
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY: {
		const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)rec;
		fprintf(out, "M %llu %llu %llu %u\n", (unsigned long long)m->start,
			(unsigned long long)m->end, (unsigned long long)m->bytes, (unsigned)m->copyKind);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMSET: {
		const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)rec;
		fprintf(out, "S %llu %llu %llu\n", (unsigned long long)m->start,
			(unsigned long long)m->end, (unsigned long long)m->bytes);
		break;
	}
	default:
		break;
	}
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
				      size_t valid)
{
	CUpti_Activity *rec = NULL;
	while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS)
		if (out)
			write_record(rec);
	size_t dropped = 0;
	if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped)
		fprintf(stderr, "cupti_trace: %zu records dropped\n", dropped);
	free(buf);
}

static void flush_at_exit(void)
{
	CK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
	if (out)
		fclose(out);
	out = NULL;
}

/* Called by the CUDA driver when it loads this library. */
int InitializeInjection(void)
{
	const char *path = getenv("RL_CUPTI_OUT");
	out = fopen(path && *path ? path : "cupti_trace.txt", "w");
	if (!out) {
		perror("cupti_trace: RL_CUPTI_OUT");
		return 0;
	}
	CK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
	CK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
	CK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
	CK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET));
	atexit(flush_at_exit);
	return 1;
}
