/* matmul.cu — every GEMM of the GPU path: linear layers through cuBLASLt
 * (mm), attention and Newton-Schulz through strided-batched cuBLAS
 * (mm_batched). Callers think row-major (PyTorch's y = x W^T); cuBLAS is
 * column-major, so each call computes out^T = op(B)^T op(A)^T, which reads
 * the same memory with A and B swapped. No kernels of our own here.
 * Algorithm choice per shape (impl.compile_mode): heuristic = cuBLASLt's
 * first candidate; autotune = up to MM_TUNE_CANDIDATES candidates timed on
 * the call's own operands at the shape's first use (the first step), the
 * fastest kept in the shape's plan. */
#include <stdlib.h>
#include "kernels.h"
#include "cuda_check.h"

#define MM_WORKSPACE (32u << 20) /* cuBLASLt's recommended size on Hopper */
#define MM_MAX_PLANS 64
#define MM_TUNE_CANDIDATES 16
#define MM_TUNE_REPS 3

/* One shape's descriptors and the heuristic's first algorithm, so the
 * per-step GEMMs skip descriptor creation and the heuristic query. */
struct mm_plan {
	int M, N, K, ta, tb, out_f32, accumulate;
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t la, lb, lc;
	cublasLtMatmulAlgo_t algo;
	int candidates, chosen;     /* autotune: how many were timed, which won */
	float ms_first, ms_chosen;  /* their times (ms; heuristic's first, winner) */
};

int mm_init(mm_ctx *m)
{
	m->plans = (struct mm_plan *)calloc(MM_MAX_PLANS, sizeof(struct mm_plan));
	m->nplans = 0;
	m->autotune = 0;
	m->workspace_size = MM_WORKSPACE;
	if (!m->plans)
		return -1;
	CUBLAS_CHECK(cublasLtCreate(&m->lt));
	CUDA_CHECK(cudaMalloc(&m->workspace, m->workspace_size));
	return 0;
}

void mm_release(mm_ctx *m)
{
	for (int i = 0; i < m->nplans; i++) {
		struct mm_plan *p = &m->plans[i];
		cublasLtMatrixLayoutDestroy(p->la);
		cublasLtMatrixLayoutDestroy(p->lb);
		cublasLtMatrixLayoutDestroy(p->lc);
		cublasLtMatmulDescDestroy(p->op);
	}
	free(m->plans);
	m->plans = NULL;
	m->nplans = 0;
	if (m->workspace)
		cudaFree(m->workspace);
	if (m->lt)
		cublasLtDestroy(m->lt);
	m->workspace = NULL;
	m->lt = NULL;
}

/* Column-major view: first operand is B (N,K after op), second is A. */
static int plan_build(mm_ctx *m, struct mm_plan *p)
{
	cublasOperation_t opa = p->tb ? CUBLAS_OP_T : CUBLAS_OP_N;
	cublasOperation_t opb = p->ta ? CUBLAS_OP_T : CUBLAS_OP_N;
	cudaDataType_t ct = p->out_f32 ? CUDA_R_32F : CUDA_R_16BF;
	CUBLAS_CHECK(cublasLtMatmulDescCreate(&p->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
	CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof(opa)));
	CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof(opb)));
	/* stored shapes, column-major: B is (N,K) or (K,N); A is (K,M) or (M,K) */
	CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p->la, CUDA_R_16BF, p->tb ? p->K : p->N,
						p->tb ? p->N : p->K, p->tb ? p->K : p->N));
	CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p->lb, CUDA_R_16BF, p->ta ? p->M : p->K,
						p->ta ? p->K : p->M, p->ta ? p->M : p->K));
	CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p->lc, ct, p->N, p->M, p->N));

	return 0;
}

/* The heuristic's candidates for p, best first: up to want; 0 found fails. */
static int plan_candidates(mm_ctx *m, struct mm_plan *p, cublasLtMatmulHeuristicResult_t *res, int want,
			   int *found)
{
	cublasLtMatmulPreference_t pref;
	CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
	cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(
		pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &m->workspace_size, sizeof(m->workspace_size));
	if (st == CUBLAS_STATUS_SUCCESS)
		st = cublasLtMatmulAlgoGetHeuristic(m->lt, p->op, p->la, p->lb, p->lc, p->lc, pref, want,
						    res, found);
	cublasLtMatmulPreferenceDestroy(pref);
	CUBLAS_CHECK(st);
	if (!*found) {
		fprintf(stderr, "trainer: cublasLt: no algorithm for %dx%dx%d (ta %d tb %d)\n", p->M, p->N,
			p->K, p->ta, p->tb);
		return -1;
	}
	return 0;
}

/* Mean time (ms) of MM_TUNE_REPS runs of one candidate after a warm-up;
 * INFINITY when cuBLASLt refuses it for these operands. */
static int time_candidate(mm_ctx *m, struct mm_plan *p, const cublasLtMatmulAlgo_t *algo, const bf16 *A,
			  const bf16 *B, void *dst, float alpha, float beta, cudaEvent_t e[2],
			  cudaStream_t s, float *ms)
{
	float total = 0.f;
	*ms = INFINITY;
	for (int r = 0; r <= MM_TUNE_REPS; r++) {
		float t;
		CUDA_CHECK(cudaEventRecord(e[0], s));
		if (cublasLtMatmul(m->lt, p->op, &alpha, B, p->la, A, p->lb, &beta, dst, p->lc, dst, p->lc, algo,
				   m->workspace, m->workspace_size, s) != CUBLAS_STATUS_SUCCESS)
			return 0; /* not usable here: skip it */
		CUDA_CHECK(cudaEventRecord(e[1], s));
		CUDA_CHECK(cudaEventSynchronize(e[1]));
		CUDA_CHECK(cudaEventElapsedTime(&t, e[0], e[1]));
		if (r > 0)
			total += t;
	}
	*ms = total / MM_TUNE_REPS;
	return 0;
}

/* Time the candidates on the call's own operands and keep the fastest. An
 * accumulating GEMM (beta != 0) runs on a scratch output, so the real
 * accumulator is untouched; an overwriting one writes out, which the real
 * call then overwrites. */
static int plan_autotune(mm_ctx *m, struct mm_plan *p, const bf16 *A, const bf16 *B, void *out,
			 float alpha, float beta, cudaStream_t s)
{
	cublasLtMatmulHeuristicResult_t res[MM_TUNE_CANDIDATES];
	cudaEvent_t e[2] = { NULL, NULL };
	void *scratch = NULL, *dst = out;
	int found = 0, rc = -1;
	if (plan_candidates(m, p, res, MM_TUNE_CANDIDATES, &found))
		return -1;
	if (beta != 0.f) {
		size_t bytes = (size_t)p->M * p->N * (p->out_f32 ? sizeof(float) : sizeof(bf16));
		CUDA_CHECK(cudaMalloc(&scratch, bytes));
		dst = scratch;
	}
	if (cudaEventCreate(&e[0]) == cudaSuccess && cudaEventCreate(&e[1]) == cudaSuccess) {
		float best = INFINITY;
		p->chosen = -1;
		rc = 0;
		for (int i = 0; i < found && !rc; i++) {
			float ms;
			rc = time_candidate(m, p, &res[i].algo, A, B, dst, alpha, beta, e, s, &ms);
			if (i == 0)
				p->ms_first = ms;
			if (!rc && ms < best) {
				best = ms;
				p->chosen = i;
			}
		}
		if (!rc && p->chosen < 0) {
			fprintf(stderr, "trainer: cublasLt: no candidate ran for %dx%dx%d\n", p->M, p->N, p->K);
			rc = -1;
		}
		if (!rc) {
			p->algo = res[p->chosen].algo;
			p->candidates = found;
			p->ms_chosen = best;
		}
	} else {
		fprintf(stderr, "trainer: cuda: cannot create timing events\n");
	}
	for (int i = 0; i < 2; i++)
		if (e[i])
			cudaEventDestroy(e[i]);
	if (scratch)
		CUDA_CHECK(cudaFree(scratch));
	if (!rc)
		trace_note("gemm %dx%dx%d ta %d tb %d %s%s: autotune timed %d candidates: heuristic's "
			   "first %.1f us, chosen #%d %.1f us", p->M, p->N, p->K, p->ta, p->tb,
			   p->out_f32 ? "f32" : "bf16", p->accumulate ? " +=" : "", p->candidates,
			   p->ms_first * 1e3, p->chosen, p->ms_chosen * 1e3);
	return rc;
}

static int plan_choose(mm_ctx *m, struct mm_plan *p, const bf16 *A, const bf16 *B, void *out, float alpha,
		       float beta, cudaStream_t s)
{
	cublasLtMatmulHeuristicResult_t res;
	int found = 0;
	if (m->autotune) {
		trace_kernel("gemm_autotune");
		return plan_autotune(m, p, A, B, out, alpha, beta, s);
	}
	if (plan_candidates(m, p, &res, 1, &found))
		return -1;
	p->algo = res.algo;
	trace_note("gemm %dx%dx%d ta %d tb %d %s%s: heuristic's first candidate", p->M, p->N, p->K,
		   p->ta, p->tb, p->out_f32 ? "f32" : "bf16", p->accumulate ? " +=" : "");
	return 0;
}

static struct mm_plan *plan_get(mm_ctx *m, int M, int N, int K, int ta, int tb, int out_f32, int acc,
				const bf16 *A, const bf16 *B, void *out, float alpha, float beta,
				cudaStream_t s)
{
	for (int i = 0; i < m->nplans; i++) {
		struct mm_plan *p = &m->plans[i];
		if (p->M == M && p->N == N && p->K == K && p->ta == ta && p->tb == tb &&
		    p->out_f32 == out_f32 && p->accumulate == acc)
			return p;
	}
	if (m->nplans == MM_MAX_PLANS) {
		fprintf(stderr, "trainer: cublasLt: more than %d GEMM shapes\n", MM_MAX_PLANS);
		return NULL;
	}
	struct mm_plan *p = &m->plans[m->nplans];
	*p = (struct mm_plan){ M, N, K, ta, tb, out_f32, acc };
	if (plan_build(m, p) || plan_choose(m, p, A, B, out, alpha, beta, s))
		return NULL;
	m->nplans++;
	return p;
}

int mm(mm_ctx *m, void *out, int out_f32, const bf16 *A, int ta, const bf16 *B, int tb,
       int M, int N, int K, float alpha, float beta, cudaStream_t s)
{
	struct mm_plan *p = plan_get(m, M, N, K, ta, tb, out_f32, beta != 0.f, A, B, out, alpha, beta, s);
	if (!p)
		return -1;
	trace_kernel("gemm_lt");
	CUBLAS_CHECK(cublasLtMatmul(m->lt, p->op, &alpha, B, p->la, A, p->lb, &beta, out, p->lc, out,
				    p->lc, &p->algo, m->workspace, m->workspace_size, s));
	return 0;
}

int mm_batched(cublasHandle_t h, void *out, int out_f32, long ldo, long sO,
	       const bf16 *A, int ta, long lda, long sA, const bf16 *B, int tb, long ldb, long sB,
	       int M, int N, int K, float alpha, float beta, int batch)
{
	trace_kernel("gemm_batched");
	CUBLAS_CHECK(cublasGemmStridedBatchedEx(
		h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, &alpha,
		B, CUDA_R_16BF, (int)ldb, sB, A, CUDA_R_16BF, (int)lda, sA, &beta,
		out, out_f32 ? CUDA_R_32F : CUDA_R_16BF, (int)ldo, sO, batch,
		CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
	return 0;
}
