/* optim_ops.c — the per-tensor optimiser steps of ops.h: AdamW and Muon
 * (Newton–Schulz orthogonalised Nesterov momentum). Plain C + OpenMP. The
 * model-level grouping and learning rates are in optim.c. */
#include "ops.h"
#include "util.h"

void adamw_step(float *p, const float *g, float *m, float *v, size_t n, float lr,
		float beta1, float beta2, float eps, float wd, int t)
{
	float c1 = 1.0f - powf(beta1, (float)t), c2 = 1.0f - powf(beta2, (float)t);
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++) {
		m[i] = beta1 * m[i] + (1.0f - beta1) * g[i];
		v[i] = beta2 * v[i] + (1.0f - beta2) * g[i] * g[i];
		float mh = m[i] / c1, vh = v[i] / c2;
		p[i] -= lr * (wd * p[i] + mh / (sqrtf(vh) + eps));
	}
}

/* out (n,n) = x (n,k) · x^T. Symmetric, so only j >= i is computed and
 * mirrored; rows are dealt round-robin (chunk 1) to balance the triangle. */
static void gram(float *out, const float *x, int n, int k)
{
	#pragma omp parallel for schedule(static, 1)
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++) {
			float s = 0.0f;
			#pragma omp simd reduction(+:s)
			for (int c = 0; c < k; c++)
				s += x[(size_t)i * k + c] * x[(size_t)j * k + c];
			out[(size_t)i * n + j] = s;
			out[(size_t)j * n + i] = s;
		}
}

/* out (n,k) = a (n,n) · x (n,k) */
static void mul_square(float *out, const float *a, const float *x, int n, int k)
{
	#pragma omp parallel for schedule(static)
	for (int i = 0; i < n; i++) {
		float *o = out + (size_t)i * k;
		for (int c = 0; c < k; c++)
			o[c] = 0.0f;
		for (int j = 0; j < n; j++) {
			float aij = a[(size_t)i * n + j];
			#pragma omp simd
			for (int c = 0; c < k; c++)
				o[c] += aij * x[(size_t)j * k + c];
		}
	}
}

size_t newton_schulz_scratch_floats(int rows, int cols)
{
	size_t n = rows < cols ? rows : cols, k = rows < cols ? cols : rows;
	return 3 * n * n + 2 * n * k;
}

size_t muon_scratch_floats(int rows, int cols)
{
	return (size_t)rows * cols + newton_schulz_scratch_floats(rows, cols);
}

/* Quintic Newton–Schulz with the coefficients (3.4445, -4.7750, 2.0315)
 * used by Muon: pushes singular values towards ~1 in 5 steps without an SVD.
 * Works on the wide orientation (n <= k) so the Gram matrix is n x n. */
void newton_schulz5(float *x, int rows, int cols, float *scratch)
{
	const float a = 3.4445f, b = -4.7750f, c = 2.0315f;
	int tr = rows > cols, n = tr ? cols : rows, k = tr ? rows : cols;
	float *A = scratch, *AA = A + (size_t)n * n, *Bm = AA + (size_t)n * n;
	float *X = Bm + (size_t)n * n, *Y = X + (size_t)n * k;
	double ss = 0.0;
	for (size_t i = 0; i < (size_t)rows * cols; i++)
		ss += (double)x[i] * x[i];
	float inv = (float)(1.0 / (sqrt(ss) + 1e-7));
	for (int r = 0; r < rows; r++)
		for (int q = 0; q < cols; q++)
			X[tr ? (size_t)q * k + r : (size_t)r * k + q] = x[(size_t)r * cols + q] * inv;
	for (int it = 0; it < 5; it++) {
		gram(A, X, n, k);
		gram(AA, A, n, n); /* A is symmetric, so A·A = A·A^T */
		for (size_t i = 0; i < (size_t)n * n; i++)
			Bm[i] = b * A[i] + c * AA[i];
		mul_square(Y, Bm, X, n, k);
		for (size_t i = 0; i < (size_t)n * k; i++)
			X[i] = a * X[i] + Y[i];
	}
	for (int r = 0; r < rows; r++)
		for (int q = 0; q < cols; q++)
			x[(size_t)r * cols + q] = X[tr ? (size_t)q * k + r : (size_t)r * k + q];
}

void muon_step(float *p, const float *g, float *mom, int rows, int cols, float lr,
	       float mu, float wd, float *scratch)
{
	size_t n = (size_t)rows * cols;
	float *u = scratch;
	float *ns = scratch + n;
	for (size_t i = 0; i < n; i++) {
		mom[i] = mu * mom[i] + g[i];
		u[i] = g[i] + mu * mom[i];
	}
	newton_schulz5(u, rows, cols, ns);
	float s = lr * sqrtf(rows > cols ? (float)rows / cols : 1.0f);
	for (size_t i = 0; i < n; i++)
		p[i] -= lr * wd * p[i] + s * u[i];
}
