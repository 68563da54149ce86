/* matmul.cu — every GEMM of the GPU path: linear layers through cuBLASLt
 * (mm), attention and Newton-Schulz through strided-batched cuBLAS
 * (mm_batched). Callers think row-major (PyTorch's y = x W^T); cuBLAS is
 * column-major, so each call computes out^T = op(B)^T op(A)^T, which reads
 * the same memory with A and B swapped. No kernels of our own here. */
#include <stdlib.h>
#include "kernels.h"
#include "cuda_check.h"

#define MM_WORKSPACE (32u << 20) /* cuBLASLt's recommended size on Hopper */
#define MM_MAX_PLANS 64

/* One shape's descriptors and the heuristic's first algorithm, so the
 * per-step GEMMs skip descriptor creation and the heuristic query. */
struct mm_plan {
	int M, N, K, ta, tb, out_f32, accumulate;
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t la, lb, lc;
	cublasLtMatmulAlgo_t algo;
};

int mm_init(mm_ctx *m)
{
	m->plans = (struct mm_plan *)calloc(MM_MAX_PLANS, sizeof(struct mm_plan));
	m->nplans = 0;
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

	cublasLtMatmulPreference_t pref;
	cublasLtMatmulHeuristicResult_t res;
	int found = 0;
	CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
	CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
							  &m->workspace_size, sizeof(m->workspace_size)));
	cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(m->lt, p->op, p->la, p->lb, p->lc, p->lc,
							  pref, 1, &res, &found);
	cublasLtMatmulPreferenceDestroy(pref);
	CUBLAS_CHECK(st);
	if (!found) {
		fprintf(stderr, "trainer: cublasLt: no algorithm for %dx%dx%d (ta %d tb %d)\n", p->M, p->N,
			p->K, p->ta, p->tb);
		return -1;
	}
	p->algo = res.algo;
	return 0;
}

static struct mm_plan *plan_get(mm_ctx *m, int M, int N, int K, int ta, int tb, int out_f32, int acc)
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
	if (plan_build(m, p))
		return NULL;
	m->nplans++;
	return p;
}

int mm(mm_ctx *m, void *out, int out_f32, const bf16 *A, int ta, const bf16 *B, int tb,
       int M, int N, int K, float alpha, float beta, cudaStream_t s)
{
	struct mm_plan *p = plan_get(m, M, N, K, ta, tb, out_f32, beta != 0.f);
	if (!p)
		return -1;
	CUBLAS_CHECK(cublasLtMatmul(m->lt, p->op, &alpha, B, p->la, A, p->lb, &beta, out, p->lc, out,
				    p->lc, &p->algo, m->workspace, m->workspace_size, s));
	return 0;
}

int mm_batched(cublasHandle_t h, void *out, int out_f32, long ldo, long sO,
	       const bf16 *A, int ta, long lda, long sA, const bf16 *B, int tb, long ldb, long sB,
	       int M, int N, int K, float alpha, float beta, int batch)
{
	CUBLAS_CHECK(cublasGemmStridedBatchedEx(
		h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, &alpha,
		B, CUDA_R_16BF, (int)ldb, sB, A, CUDA_R_16BF, (int)lda, sA, &beta,
		out, out_f32 ? CUDA_R_32F : CUDA_R_16BF, (int)ldo, sO, batch,
		CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
	return 0;
}
