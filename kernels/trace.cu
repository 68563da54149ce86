/* trace.cu — which kernels the GPU path launched, for tests and the
 * performance notes: with RL_TRAINER_TRACE_KERNELS=1 in the environment
 * every launcher counts its host-side launches by name, and
 * trace_report() prints one "trace: kernel NAME COUNT" line each, in the
 * order first seen, plus the notes (GEMM algorithm choices, graph
 * capture). Kernels replayed inside a CUDA graph are not host launches:
 * the graph's own launches are counted as "graph_launch". Off (one
 * branch per launch) when the variable is unset. Host code only. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"

#define TRACE_MAX_NAMES 96
#define TRACE_MAX_NOTES 128

static int trace_state = -1; /* -1 unknown, 0 off, 1 on */
static struct { const char *name; long count; } names[TRACE_MAX_NAMES];
static int nnames;
static char *notes[TRACE_MAX_NOTES];
static int nnotes;

int trace_enabled(void)
{
	if (trace_state < 0) {
		const char *s = getenv("RL_TRAINER_TRACE_KERNELS");
		trace_state = s && *s && strcmp(s, "0");
	}
	return trace_state;
}

void trace_kernel(const char *name)
{
	if (!trace_enabled())
		return;
	for (int i = 0; i < nnames; i++)
		if (names[i].name == name || !strcmp(names[i].name, name)) {
			names[i].count++;
			return;
		}
	if (nnames < TRACE_MAX_NAMES) {
		names[nnames].name = name;
		names[nnames++].count = 1;
	}
}

void trace_note(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	if (!trace_enabled() || nnotes == TRACE_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	notes[nnotes++] = strdup(buf);
}

void trace_report(FILE *f)
{
	if (!trace_enabled())
		return;
	for (int i = 0; i < nnotes; i++)
		fprintf(f, "trace: note %s\n", notes[i]);
	for (int i = 0; i < nnames; i++)
		fprintf(f, "trace: kernel %s %ld\n", names[i].name, names[i].count);
	fflush(f);
}
