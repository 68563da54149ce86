/* kernels.cu — the kernel harness: every op of kernels/ checked against its
 * CPU reference (trainer/ops.h, the ground truth) on fresh random inputs
 * with poisoned outputs, then timed at the trainer's default shape, with
 * the copy-bandwidth and GEMM ceilings measured in the same run. Prints one
 * table; exit 1 when a check fails. Built and run by bench/kernels.sh.
 * Tolerances (relative L2 error, ||gpu - cpu|| / ||cpu||):
 *   fp32 outputs of fp32 arithmetic          1e-5 (summation order only)
 *   bf16 outputs, or bf16 operands           1e-2 (bf16 has 8 bits: 2^-8 = 3.9e-3 per element)
 *   chains of bf16 GEMMs (attention bwd)     2e-2
 *   Muon (5 Newton-Schulz steps in bf16)     5e-2 */
#include <string>
#include "kernels_common.cuh"
extern "C" {
#include "ops.h"
}

static int failures;
static ceilings ceil_;

/* One row of the table. */
struct row {
	std::string op; /* copied: some callers build the name in a local buffer */
	std::string shape;
	double err, tol, ms, gbytes, gflop;
};
static std::vector<row> rows;

static void add(const char *op, const char *shape, double err, double tol, double ms, double gbytes,
		double gflop)
{
	rows.push_back({ op, shape, err, tol, ms, gbytes, gflop });
	if (!(err <= tol))
		failures++;
	/* a trail on stderr, so a run cut short still says how far it got */
	fprintf(stderr, "# %s %s: %s\n", op, shape, ms > 0 ? "timed" : err <= tol ? "ok" : "FAIL");
}

static void print_table(void)
{
	cudaDeviceProp p;
	CU(cudaGetDeviceProperties(&p, 0));
	printf("\nkernel harness on %s: checks on fresh random inputs into NaN-poisoned outputs; "
	       "timings: median of 20 runs (10 for attention) after 3 warm-ups, no cache flush "
	       "(every timed op's data is larger than the %d MB L2)\n", p.name, p.l2CacheSize >> 20);
	printf("ceilings measured now: copy %.0f GB/s (read+write), cuBLASLt bf16 GEMM 8192^3 %.0f TFLOP/s\n\n",
	       ceil_.gbs, ceil_.tflops);
	printf("| op | shape | rel err | tol | check | time us | rate | of ceiling |\n");
	printf("|---|---|---|---|---|---|---|---|\n");
	for (const row &r : rows) {
		char err[16] = "-", tol[16] = "-", check[8] = "-", t[16] = "-", rate[32] = "-", frac[16] = "-";
		if (r.ms <= 0) { /* a check row */
			snprintf(err, sizeof err, "%.2e", r.err);
			snprintf(tol, sizeof tol, "%.0e", r.tol);
			snprintf(check, sizeof check, "%s", r.err <= r.tol ? "ok" : "FAIL");
		} else { /* a timing row: GFLOP / ms = TFLOP/s, GB / ms * 1e3 = GB/s */
			double v = r.gflop > 0 ? r.gflop / r.ms : r.gbytes / r.ms * 1e3;
			double c = r.gflop > 0 ? ceil_.tflops : ceil_.gbs;
			snprintf(t, sizeof t, "%.1f", r.ms * 1e3);
			snprintf(rate, sizeof rate, "%.0f %s", v, r.gflop > 0 ? "TFLOP/s" : "GB/s");
			snprintf(frac, sizeof frac, "%.0f%%", 100 * v / c);
		}
		printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", r.op.c_str(), r.shape.c_str(), err, tol, check, t, rate,
		       frac);
	}
	printf("\n%d of %zu checks failed\n", failures, rows.size());
}

/* Default shape of the issue: B 64, T 2048, C 512, H 4 x D 128, F 2048, V 256. */
enum { TB = 64, TT = 2048, TC = 512, TH = 4, TD = 128, TF = 2048, TV = 256 };
static const long TN = (long)TB * TT;

/* ---- embedding -------------------------------------------------------------- */

static void check_embedding(void)
{
	int B = 8, T = 2048, C = TC, V = TV, N = B * T;
	std::vector<int> tok = randint(N, V);
	std::vector<float> wte = randn((size_t)V * C, 1.0, false), dx = randn((size_t)N * C, 1.0, false);
	std::vector<float> dwte0 = randn((size_t)V * C, 1.0, false);
	int32_t *dtok = dup(tok);
	float *dwte = dup(wte), *x = dpoison<float>((size_t)N * C), *ddx = dup(dx), *dg = dup(dwte0);
	OK(embedding_forward(x, dtok, dwte, N, C, 0));
	std::vector<float> ref((size_t)N * C), gref = dwte0;
	encoder_forward(ref.data(), tok.data(), wte.data(), B, T, C);
	add("embedding fwd", "8x2048x512", rel_err(down(x, ref.size()), ref), 1e-5, 0, 0, 0);
	OK(embedding_backward(dg, dtok, ddx, N, C, V, 0));
	encoder_backward(gref.data(), dx.data(), tok.data(), B, T, C);
	add("embedding bwd (+=)", "8x2048x512", rel_err(down(dg, gref.size()), gref), 1e-5, 0, 0, 0);
	CU(cudaFree(dtok)); CU(cudaFree(dwte)); CU(cudaFree(x)); CU(cudaFree(ddx)); CU(cudaFree(dg));
}

static void time_embedding(void)
{
	int32_t *tok = dup(randint(TN, TV));
	float *wte = dup(randn((size_t)TV * TC, 1, false)), *x = dpoison<float>(TN * TC);
	float *dx = dup(randn(TN * TC, 1, false)), *dw = dpoison<float>((size_t)TV * TC);
	CU(cudaMemset(dw, 0, sizeof(float) * TV * TC));
	double ms = time_ms([&] { OK(embedding_forward(x, tok, wte, TN, TC, 0)); });
	/* the 256-row table stays in L2: count the output and the token ids */
	add("embedding fwd", "64x2048x512", 0, 1, ms, TN * (TC * 4.0 + 4) / 1e9, 0);
	ms = time_ms([&] { OK(embedding_backward(dw, tok, dx, TN, TC, TV, 0)); });
	add("embedding bwd", "64x2048x512", 0, 1, ms, TN * (TC * 4.0 + 4) / 1e9, 0);
	CU(cudaFree(tok)); CU(cudaFree(wte)); CU(cudaFree(x)); CU(cudaFree(dx)); CU(cudaFree(dw));
}

/* ---- rmsnorm ---------------------------------------------------------------------- */

static void check_rmsnorm(void)
{
	int N = 4096, C = TC;
	std::vector<float> x = randn((size_t)N * C, 1, false), y = randn((size_t)N * C);
	float *dxs = dup(x), *rstd = dpoison<float>(N);
	bf16 *dy = dup(to_bf16(y)), *out = dpoison<bf16>((size_t)N * C);
	OK(rmsnorm_forward(out, rstd, dxs, dy, N, C, 1e-6f, 0));
	std::vector<float> xs(x), ref((size_t)N * C), rref(N);
	for (size_t i = 0; i < xs.size(); i++)
		xs[i] += y[i];
	rmsnorm_forward(ref.data(), rref.data(), xs.data(), N, C);
	add("rmsnorm fwd: x+=y", "4096x512", rel_err(down(dxs, xs.size()), xs), 1e-6, 0, 0, 0);
	add("rmsnorm fwd: out", "4096x512", rel_err(down_bf16(out, ref.size()), ref), 1e-2, 0, 0, 0);
	add("rmsnorm fwd: rstd", "4096x512", rel_err(down(rstd, N), rref), 1e-5, 0, 0, 0);
	/* backward: CPU from the fp32 input, GPU from the bf16 output */
	std::vector<float> dout = randn((size_t)N * C), dx0 = randn((size_t)N * C, 1, false);
	std::vector<float> dref(dx0);
	rmsnorm_backward(dref.data(), dout.data(), xs.data(), rref.data(), N, C);
	float *ddx = dup(dx0);
	bf16 *ddout = dup(to_bf16(dout)), *dxb = dpoison<bf16>((size_t)N * C);
	OK(rmsnorm_backward(ddx, dxb, ddout, out, rstd, N, C, 1, 0));
	add("rmsnorm bwd (+=)", "4096x512", rel_err(down(ddx, dref.size()), dref), 1e-2, 0, 0, 0);
	add("rmsnorm bwd: bf16 copy", "4096x512", rel_err(down_bf16(dxb, dref.size()), dref), 1e-2, 0, 0, 0);
	CU(cudaFree(dxs)); CU(cudaFree(rstd)); CU(cudaFree(dy)); CU(cudaFree(out));
	CU(cudaFree(ddx)); CU(cudaFree(ddout)); CU(cudaFree(dxb));
}

static void time_rmsnorm(void)
{
	float *x = dup(randn(TN * TC, 1, false)), *rstd = dpoison<float>(TN), *dx = dup(randn(TN * TC, 1, false));
	bf16 *y = dup(to_bf16(randn(TN * TC, 0.01))), *out = dpoison<bf16>(TN * TC);
	bf16 *dout = dup(to_bf16(randn(TN * TC))), *dxb = dpoison<bf16>(TN * TC);
	double ms = time_ms([&] { OK(rmsnorm_forward(out, rstd, x, y, TN, TC, 1e-6f, 0)); });
	add("rmsnorm fwd (+residual)", "131072x512", 0, 1, ms, TN * TC * 12.0 / 1e9, 0);
	ms = time_ms([&] { OK(rmsnorm_backward(dx, dxb, dout, out, rstd, TN, TC, 1, 0)); });
	add("rmsnorm bwd (+=)", "131072x512", 0, 1, ms, TN * TC * 14.0 / 1e9, 0);
	CU(cudaFree(x)); CU(cudaFree(rstd)); CU(cudaFree(dx)); CU(cudaFree(y)); CU(cudaFree(out));
	CU(cudaFree(dout)); CU(cudaFree(dxb));
}

/* ---- rotary (+ qk-norm + head split) ------------------------------------------------ */

/* (B,T,H,D) <-> (B,H,T,D) on the host */
static std::vector<float> bthd_to_bhtd(const std::vector<float> &a, int B, int T, int H, int D)
{
	std::vector<float> o(a.size());
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++)
			for (int h = 0; h < H; h++)
				memcpy(&o[(((size_t)b * H + h) * T + t) * D], &a[(((size_t)b * T + t) * H + h) * D],
				       D * sizeof(float));
	return o;
}

static std::vector<float> bhtd_to_bthd(const std::vector<float> &a, int B, int T, int H, int D)
{
	std::vector<float> o(a.size());
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++)
			for (int h = 0; h < H; h++)
				memcpy(&o[(((size_t)b * T + t) * H + h) * D], &a[(((size_t)b * H + h) * T + t) * D],
				       D * sizeof(float));
	return o;
}

/* part p (0 q, 1 k, 2 v) of an (N,3C) tensor as (N,C), and the number of
 * finite elements in it (a part a kernel must leave alone stays poisoned) */
static std::vector<float> qkv_part(const std::vector<float> &a, long N, int C, int p)
{
	std::vector<float> o((size_t)N * C);
	for (long n = 0; n < N; n++)
		memcpy(&o[n * C], &a[(n * 3 + p) * C], C * sizeof(float));
	return o;
}

static double finite_count(const std::vector<float> &a)
{
	double n = 0;
	for (float x : a)
		n += isfinite(x);
	return n;
}

/* the packed pair (flash attention's layout): q, k rotated in place in
 * qkv, v left as it was; the backward writes dqkv's q and k parts only.
 * Same arithmetic as the heads-major kernels on the same bf16 values, so
 * the same bits: compared with them exactly (tol 0), and with the CPU. */
static void check_rotary_packed(const char *shape, const std::vector<float> &qkv,
				const std::vector<float> *nrm, const bf16 *q, const bf16 *k, const float *rq,
				const float *rk, const bf16 *dout, bf16 *const *dg, const float *dcs, int B, int T,
				int H, int D)
{
	int C = H * D, N = B * T;
	size_t NC = (size_t)N * C, NH = (size_t)N * H;
	char op[80];
	bf16 *pk = dup(to_bf16(qkv)), *pdout = dpoison<bf16>(3 * NC);
	float *prq = dpoison<float>(NH), *prk = dpoison<float>(NH);
	OK(rotary_forward_packed(pk, prq, prk, dcs, B, T, H, D, 1, 1e-6f, 0));
	std::vector<float> got = down_bf16(pk, 3 * NC);
	const bf16 *hm[2] = { q, k };
	for (int p = 0; p < 2; p++) {
		snprintf(op, sizeof op, "rotary packed fwd: %s vs cpu", p ? "k" : "q");
		add(op, shape, rel_err(qkv_part(got, N, C, p), nrm[p]), 1e-2, 0, 0, 0);
		snprintf(op, sizeof op, "rotary packed fwd: %s vs heads-major (exact)", p ? "k" : "q");
		add(op, shape, rel_err(bthd_to_bhtd(qkv_part(got, N, C, p), B, T, H, D), down_bf16(hm[p], NC)), 0, 0, 0, 0);
	}
	add("rotary packed fwd: v part unchanged (exact)", shape,
	    rel_err(qkv_part(got, N, C, 2), qkv_part(qkv, N, C, 2)), 0, 0, 0, 0);
	add("rotary packed fwd: rstd q, k vs heads-major (exact)", shape,
	    rel_err(down(prq, NH), down(rq, NH)) + rel_err(down(prk, NH), down(rk, NH)), 0, 0, 0, 0);
	OK(rotary_backward_packed(pdout, dg[0], dg[1], pk, prq, prk, dcs, B, T, H, D, 1, 0));
	std::vector<float> pd = down_bf16(pdout, 3 * NC), hd = down_bf16(dout, 3 * NC);
	add("rotary packed bwd: dq, dk vs heads-major (exact)", shape,
	    rel_err(qkv_part(pd, N, C, 0), qkv_part(hd, N, C, 0)) +
		    rel_err(qkv_part(pd, N, C, 1), qkv_part(hd, N, C, 1)),
	    0, 0, 0, 0);
	add("rotary packed bwd: v part not written (finite elements)", shape,
	    finite_count(qkv_part(pd, N, C, 2)), 0, 0, 0, 0);
	CU(cudaFree(pk)); CU(cudaFree(pdout)); CU(cudaFree(prq)); CU(cudaFree(prk));
}

/* simple: the warp-per-row kernels instead of the 16-byte ones */
static void check_rotary(int H, int D, int simple)
{
	int B = 4, T = 512, C = H * D, N = B * T;
	char shape[48];
	snprintf(shape, sizeof shape, "4x512x%dx%d%s", H, D, simple ? " simple" : "");
	rotary_simple = simple;
	size_t NC = (size_t)N * C;
	std::vector<float> qkv = randn(3 * NC);
	std::vector<float> cs((size_t)T * D);
	rotary_table(cs.data(), T, D);
	float *dcs = dup(cs), *rq = dpoison<float>((size_t)N * H), *rk = dpoison<float>((size_t)N * H);
	bf16 *dqkv = dup(to_bf16(qkv)), *q = dpoison<bf16>(NC), *k = dpoison<bf16>(NC), *v = dpoison<bf16>(NC);
	OK(rotary_forward(q, k, v, rq, rk, dqkv, dcs, B, T, H, D, 1, 1e-6f, 0));
	/* CPU: split, rmsnorm per head, rotate */
	std::vector<float> raw[3], nrm[3], rstd[2];
	for (int p = 0; p < 3; p++) {
		raw[p].resize(NC);
		for (long n = 0; n < N; n++)
			memcpy(&raw[p][n * C], &qkv[n * 3 * C + p * C], C * sizeof(float));
	}
	for (int p = 0; p < 2; p++) {
		nrm[p].resize(NC);
		rstd[p].resize((size_t)N * H);
		rmsnorm_forward(nrm[p].data(), rstd[p].data(), raw[p].data(), N * H, D);
		rotary_forward(nrm[p].data(), nrm[p].data(), B, T, H, D);
	}
	add("rotary+qknorm fwd: q", shape, rel_err(down_bf16(q, NC), bthd_to_bhtd(nrm[0], B, T, H, D)), 1e-2, 0, 0, 0);
	add("rotary+qknorm fwd: k", shape, rel_err(down_bf16(k, NC), bthd_to_bhtd(nrm[1], B, T, H, D)), 1e-2, 0, 0, 0);
	add("rotary fwd: v (copy)", shape, rel_err(down_bf16(v, NC), bthd_to_bhtd(raw[2], B, T, H, D)), 0, 0, 0, 0);
	/* backward: inverse rotation, then the per-head rmsnorm backward */
	std::vector<float> g[3], ref(3 * NC);
	bf16 *dg[3];
	for (int p = 0; p < 3; p++) {
		g[p] = randn(NC);
		dg[p] = dup(to_bf16(bthd_to_bhtd(g[p], B, T, H, D)));
	}
	bf16 *dout = dpoison<bf16>(3 * NC);
	OK(rotary_backward(dout, dg[0], dg[1], dg[2], q, k, rq, rk, dcs, B, T, H, D, 1, 0));
	for (int p = 0; p < 3; p++) {
		std::vector<float> d(NC, 0.f);
		if (p < 2) {
			rotary_backward(g[p].data(), g[p].data(), B, T, H, D);
			rmsnorm_backward(d.data(), g[p].data(), raw[p].data(), rstd[p].data(), N * H, D);
		} else {
			d = g[p];
		}
		for (long n = 0; n < N; n++)
			memcpy(&ref[n * 3 * C + p * C], &d[n * C], C * sizeof(float));
	}
	add("rotary+qknorm bwd", shape, rel_err(down_bf16(dout, 3 * NC), ref), 1e-2, 0, 0, 0);
	check_rotary_packed(shape, qkv, nrm, q, k, rq, rk, dout, dg, dcs, B, T, H, D);
	CU(cudaFree(dcs)); CU(cudaFree(rq)); CU(cudaFree(rk)); CU(cudaFree(dqkv)); CU(cudaFree(q));
	CU(cudaFree(k)); CU(cudaFree(v)); CU(cudaFree(dout));
	for (int p = 0; p < 3; p++)
		CU(cudaFree(dg[p]));
	rotary_simple = 0;
}

static void time_rotary(int simple)
{
	rotary_simple = simple;
	size_t NC = TN * TC;
	std::vector<float> cs((size_t)TT * TD);
	rotary_table(cs.data(), TT, TD);
	float *dcs = dup(cs), *rq = dpoison<float>(TN * TH), *rk = dpoison<float>(TN * TH);
	bf16 *qkv = dup(to_bf16(randn(3 * NC))), *o = dpoison<bf16>(3 * NC), *g = dup(to_bf16(randn(3 * NC)));
	bf16 *q = o, *k = o + NC, *v = o + 2 * NC;
	double ms = time_ms([&] { OK(rotary_forward(q, k, v, rq, rk, qkv, dcs, TB, TT, TH, TD, 1, 1e-6f, 0)); });
	add(simple ? "rotary+qknorm fwd (simple)" : "rotary+qknorm fwd", "64x2048x4x128", 0, 1, ms, NC * 12.0 / 1e9, 0);
	ms = time_ms([&] { OK(rotary_backward(qkv, g, g + NC, g + 2 * NC, q, k, rq, rk, dcs, TB, TT, TH, TD, 1, 0)); });
	add(simple ? "rotary+qknorm bwd (simple)" : "rotary+qknorm bwd", "64x2048x4x128", 0, 1, ms, NC * 16.0 / 1e9, 0);
	/* packed (flash's layout): q, k in place, no v copy; bwd writes dqkv's q, k parts */
	ms = time_ms([&] { OK(rotary_forward_packed(qkv, rq, rk, dcs, TB, TT, TH, TD, 1, 1e-6f, 0)); });
	add(simple ? "rotary+qknorm packed fwd (simple)" : "rotary+qknorm packed fwd", "64x2048x4x128", 0, 1, ms,
	    NC * 8.0 / 1e9, 0);
	ms = time_ms([&] { OK(rotary_backward_packed(o, g, g + NC, qkv, rq, rk, dcs, TB, TT, TH, TD, 1, 0)); });
	add(simple ? "rotary+qknorm packed bwd (simple)" : "rotary+qknorm packed bwd", "64x2048x4x128", 0, 1, ms,
	    NC * 12.0 / 1e9, 0);
	CU(cudaFree(dcs)); CU(cudaFree(rq)); CU(cudaFree(rk)); CU(cudaFree(qkv)); CU(cudaFree(o)); CU(cudaFree(g));
	rotary_simple = 0;
}

/* ---- attention ---------------------------------------------------------------------- */

static void check_attention(cublasHandle_t h)
{
	int B = 2, T = 256, H = TH, D = TD, C = H * D, N = B * T;
	size_t NC = (size_t)N * C, BHTT = (size_t)B * H * T * T;
	std::vector<float> q = randn(NC), k = randn(NC), v = randn(NC); /* (B,H,T,D) */
	bf16 *dq = dup(to_bf16(q)), *dk = dup(to_bf16(k)), *dv = dup(to_bf16(v));
	bf16 *P = dpoison<bf16>(BHTT), *o = dpoison<bf16>(NC), *att = dpoison<bf16>(NC);
	float *S = dpoison<float>(BHTT);
	OK(attention_forward(h, att, P, S, o, dq, dk, dv, B, T, H, D, 0));
	std::vector<float> qc = bhtd_to_bthd(q, B, T, H, D), kc = bhtd_to_bthd(k, B, T, H, D);
	std::vector<float> vc = bhtd_to_bthd(v, B, T, H, D), out(NC), A(BHTT);
	attention_forward(out.data(), A.data(), qc.data(), kc.data(), vc.data(), B, T, H, D);
	add("attention fwd: out", "2x256x4x128", rel_err(down_bf16(att, NC), out), 1e-2, 0, 0, 0);
	add("attention fwd: probs", "2x256x4x128", rel_err(down_bf16(P, BHTT), A), 1e-2, 0, 0, 0);
	std::vector<float> datt = randn(NC), gq(NC, 0.f), gk(NC, 0.f), gv(NC, 0.f), scratch(BHTT);
	attention_backward(gq.data(), gk.data(), gv.data(), scratch.data(), datt.data(), qc.data(),
			   kc.data(), vc.data(), A.data(), B, T, H, D);
	bf16 *ddatt = dup(to_bf16(datt)), *oq = dpoison<bf16>(NC), *ok = dpoison<bf16>(NC), *ov = dpoison<bf16>(NC);
	OK(attention_backward(h, oq, ok, ov, P, S, o, ddatt, dq, dk, dv, B, T, H, D, 0));
	add("attention bwd: dq", "2x256x4x128", rel_err(down_bf16(oq, NC), bthd_to_bhtd(gq, B, T, H, D)), 2e-2, 0, 0, 0);
	add("attention bwd: dk", "2x256x4x128", rel_err(down_bf16(ok, NC), bthd_to_bhtd(gk, B, T, H, D)), 2e-2, 0, 0, 0);
	add("attention bwd: dv", "2x256x4x128", rel_err(down_bf16(ov, NC), bthd_to_bhtd(gv, B, T, H, D)), 2e-2, 0, 0, 0);
	bf16 *bufs[] = { dq, dk, dv, P, o, att, ddatt, oq, ok, ov };
	for (bf16 *b : bufs)
		CU(cudaFree(b));
	CU(cudaFree(S));
}

/* impl.attention=flash: against the CPU reference and against the naive
 * GPU path, on fresh random inputs, at head size D and a T that is several
 * tiles long (so masked diagonal and full off-diagonal tiles both run). */
static const char *flash_family_name = "flash";
static int flash_family_atomic; /* the fused backward: dQ summed by L2 reductions, in no fixed order */

static float *dzero_f32(size_t n)
{
	float *p;
	CU(cudaMalloc(&p, n * sizeof(float)));
	CU(cudaMemset(p, 0, n * sizeof(float)));
	return p;
}

/* The fused backward's contract: dq_acc is left all zero. */
static void check_acc_zero(const char *shape, const float *acc, size_t n)
{
	if (!flash_family_atomic)
		return;
	std::vector<float> left = down(acc, n);
	long nonzero = 0;
	for (float x : left)
		nonzero += x != 0.f;
	add((std::string(flash_family_name) + " bwd: dq_acc left all zero (nonzero count)").c_str(), shape,
	    (double)nonzero, 0, 0, 0, 0);
}

/* The layout the trainer uses: q, k, v read from one (N,3C) tensor
 * (ld = 3C), dv written into the v part of another. The same arithmetic
 * on other addresses as the heads-major run (ld = 0) checked against the
 * CPU just before, so the same bits: compared exactly (tol 0); dqkv's q
 * and k parts must stay unwritten (poisoned). */
static void check_flash_packed(const char *shape, const std::vector<float> &q, const std::vector<float> &k,
			       const std::vector<float> &v, const std::vector<float> &att_hm,
			       const std::vector<float> &lse_hm, bf16 *const *grads_hm, const bf16 *ddatt, int B,
			       int T, int H, int D)
{
	int C = H * D, N = B * T;
	size_t NC = (size_t)N * C, BHT = (size_t)B * H * T;
	const std::vector<float> *parts[3] = { &q, &k, &v };
	std::vector<float> packed(3 * NC);
	for (int p = 0; p < 3; p++) {
		std::vector<float> tm = bhtd_to_bthd(*parts[p], B, T, H, D);
		for (long n = 0; n < N; n++)
			memcpy(&packed[(n * 3 + p) * C], &tm[n * C], C * sizeof(float));
	}
	bf16 *qkv = dup(to_bf16(packed)), *att = dpoison<bf16>(NC), *dqkv = dpoison<bf16>(3 * NC);
	bf16 *gq = dpoison<bf16>(NC), *gk = dpoison<bf16>(NC);
	float *lse = dpoison<float>(BHT), *dsum = dpoison<float>(BHT), *acc = dzero_f32(NC);
	OK(flash_attention_forward(att, lse, qkv, qkv + C, qkv + 2 * C, 3 * C, B, T, H, D, 0));
	OK(flash_attention_backward(gq, gk, dqkv + 2 * C, dsum, acc, att, ddatt, lse, qkv, qkv + C, qkv + 2 * C,
				    3 * C, B, T, H, D, 0));
	std::vector<float> dp = down_bf16(dqkv, 3 * NC);
	double fwd = rel_err(down_bf16(att, NC), att_hm) + rel_err(down(lse, BHT), lse_hm);
	double bwd = rel_err(down_bf16(gq, NC), down_bf16(grads_hm[0], NC)) +
		     rel_err(down_bf16(gk, NC), down_bf16(grads_hm[1], NC)) +
		     rel_err(bthd_to_bhtd(qkv_part(dp, N, C, 2), B, T, H, D), down_bf16(grads_hm[2], NC));
	char op[96];
	snprintf(op, sizeof op, "%s packed qkv fwd: out, lse vs heads-major (exact)", flash_family_name);
	add(op, shape, fwd, 0, 0, 0, 0);
	/* the fused backward sums dQ by L2 reductions, in no fixed order: the
	 * same values to fp32 rounding, so dq may differ in a last bf16 bit */
	snprintf(op, sizeof op, "%s packed qkv bwd: dq, dk, dv vs heads-major (%s)", flash_family_name,
		 flash_family_atomic ? "1e-3: dq summed in no fixed order" : "exact");
	add(op, shape, bwd, flash_family_atomic ? 1e-3 : 0, 0, 0, 0);
	check_acc_zero(shape, acc, NC);
	snprintf(op, sizeof op, "%s packed qkv bwd: dqkv q, k parts not written", flash_family_name);
	add(op, shape, finite_count(qkv_part(dp, N, C, 0)) + finite_count(qkv_part(dp, N, C, 1)), 0, 0, 0, 0);
	bf16 *bufs[] = { qkv, att, dqkv, gq, gk };
	for (bf16 *b : bufs)
		CU(cudaFree(b));
	CU(cudaFree(lse)); CU(cudaFree(dsum)); CU(cudaFree(acc));
}

/* The inputs of impl.rotary=epilogue's backward on the trainer's packed
 * layout: q and k normalised and rotated by rotary_forward_packed (so
 * that rstd and the rotated values are a forward's), flash's forward on
 * them, a random output gradient g; dq, dk for the unfused path. */
struct rot_case {
	int B, T, H, D, C;
	size_t NC, BHT;
	float *cs, *rq, *rk, *lse, *dsum, *acc;
	bf16 *qkv, *att, *g, *dq, *dk;
};

static rot_case rot_case_make(int B, int T, int H, int D)
{
	rot_case r;
	r.B = B; r.T = T; r.H = H; r.D = D; r.C = H * D;
	r.NC = (size_t)B * T * r.C;
	r.BHT = (size_t)B * H * T;
	std::vector<float> cs((size_t)T * D);
	rotary_table(cs.data(), T, D);
	r.cs = dup(cs);
	r.rq = dpoison<float>(r.BHT); r.rk = dpoison<float>(r.BHT);
	r.lse = dpoison<float>(r.BHT); r.dsum = dpoison<float>(r.BHT); r.acc = dzero_f32(r.NC);
	r.qkv = dup(to_bf16(randn(3 * r.NC)));
	r.att = dpoison<bf16>(r.NC);
	r.g = dup(to_bf16(randn(r.NC)));
	r.dq = dpoison<bf16>(r.NC); r.dk = dpoison<bf16>(r.NC);
	OK(rotary_forward_packed(r.qkv, r.rq, r.rk, r.cs, B, T, H, D, 1, 1e-6f, 0));
	OK(flash_attention_forward(r.att, r.lse, r.qkv, r.qkv + r.C, r.qkv + 2 * r.C, 3 * r.C, B, T, H, D, 0));
	return r;
}

/* impl.rotary=kernel's backward into dqkv: the fused attention backward
 * (dv into dqkv's v part), then rotary_backward_packed */
static void rot_case_unfused(const rot_case &r, bf16 *dqkv, int qk_norm)
{
	int C = r.C;
	OK(flash_attention_backward(r.dq, r.dk, dqkv + 2 * C, r.dsum, r.acc, r.att, r.g, r.lse, r.qkv, r.qkv + C,
				    r.qkv + 2 * C, 3 * C, r.B, r.T, r.H, r.D, 0));
	OK(rotary_backward_packed(dqkv, r.dq, r.dk, r.qkv, r.rq, r.rk, r.cs, r.B, r.T, r.H, r.D, qk_norm, 0));
}

/* impl.rotary=epilogue's: the rotary backward on the fused backward's way out */
static void rot_case_fused(const rot_case &r, bf16 *dqkv, int qk_norm)
{
	struct flash_rotary rot = { r.rq, r.rk, r.cs, qk_norm };
	OK(flash_attention_backward_rotary(dqkv, r.dsum, r.acc, r.att, r.g, r.lse, r.qkv, &rot, r.B, r.T, r.H, r.D,
					   0));
}

static void rot_case_free(rot_case &r)
{
	bf16 *bufs[] = { r.qkv, r.att, r.g, r.dq, r.dk };
	for (bf16 *b : bufs)
		CU(cudaFree(b));
	float *fbufs[] = { r.cs, r.rq, r.rk, r.lse, r.dsum, r.acc };
	for (float *b : fbufs)
		CU(cudaFree(b));
}

/* impl.rotary=epilogue's backward (flash_attention_backward_rotary)
 * against the fused backward followed by rotary_backward_packed on the
 * same inputs, with and without QK-norm: dqkv's k and v parts the same
 * bits (tol 0: one formula, rotary.cuh, on the same bf16 values), its q
 * part within 1e-3 (dQ is summed in no fixed order, as between two runs
 * of the fused backward). */
static void check_flash_rotary(int B, int T, int H, int D)
{
	rot_case rc = rot_case_make(B, T, H, D);
	int N = B * T, C = rc.C;
	size_t NC = rc.NC;
	char shape[32], op[160];
	snprintf(shape, sizeof shape, "%dx%dx%dx%d", B, T, H, D);
	for (int qk_norm = 1; qk_norm >= 0; qk_norm--) {
		bf16 *ref = dpoison<bf16>(3 * NC), *got = dpoison<bf16>(3 * NC);
		rot_case_unfused(rc, ref, qk_norm);
		rot_case_fused(rc, got, qk_norm);
		std::vector<float> r = down_bf16(ref, 3 * NC), x = down_bf16(got, 3 * NC);
		const char *qn = qk_norm ? "QK-norm" : "no QK-norm";
		snprintf(op, sizeof op, "%s bwd + rotary on the way out, %s: dqkv q part vs + rotary_backward_packed "
			 "(1e-3: dq summed in no fixed order)", flash_family_name, qn);
		add(op, shape, rel_err(qkv_part(x, N, C, 0), qkv_part(r, N, C, 0)), 1e-3, 0, 0, 0);
		for (int p = 1; p < 3; p++) {
			snprintf(op, sizeof op, "%s bwd + rotary on the way out, %s: dqkv %s part vs + "
				 "rotary_backward_packed (exact)", flash_family_name, qn, p == 1 ? "k" : "v");
			add(op, shape, rel_err(qkv_part(x, N, C, p), qkv_part(r, N, C, p)), 0, 0, 0, 0);
		}
		check_acc_zero(shape, rc.acc, NC);
		CU(cudaFree(ref)); CU(cudaFree(got));
	}
	rot_case_free(rc);
}

static void check_flash(cublasHandle_t h, int H, int D)
{
	int B = 2, T = 256, C = H * D, N = B * T;
	size_t NC = (size_t)N * C, BHTT = (size_t)B * H * T * T, BHT = (size_t)B * H * T;
	char shape[32];
	snprintf(shape, sizeof shape, "2x256x%dx%d", H, D);
	std::string fwd_cpu = std::string(flash_family_name) + " fwd: out vs cpu";
	std::string fwd_naive = std::string(flash_family_name) + " fwd: out vs naive gpu";
	std::vector<float> q = randn(NC), k = randn(NC), v = randn(NC); /* (B,H,T,D) */
	bf16 *dq = dup(to_bf16(q)), *dk = dup(to_bf16(k)), *dv = dup(to_bf16(v));
	bf16 *att = dpoison<bf16>(NC), *natt = dpoison<bf16>(NC), *P = dpoison<bf16>(BHTT), *o = dpoison<bf16>(NC);
	float *S = dpoison<float>(BHTT), *lse = dpoison<float>(BHT), *dsum = dpoison<float>(BHT);
	OK(flash_attention_forward(att, lse, dq, dk, dv, 0, B, T, H, D, 0));
	OK(attention_forward(h, natt, P, S, o, dq, dk, dv, B, T, H, D, 0));
	std::vector<float> qc = bhtd_to_bthd(q, B, T, H, D), kc = bhtd_to_bthd(k, B, T, H, D);
	std::vector<float> vc = bhtd_to_bthd(v, B, T, H, D), out(NC), A(BHTT);
	attention_forward(out.data(), A.data(), qc.data(), kc.data(), vc.data(), B, T, H, D);
	std::vector<float> fo = down_bf16(att, NC);
	add(fwd_cpu.c_str(), shape, rel_err(fo, out), 1e-2, 0, 0, 0);
	add(fwd_naive.c_str(), shape, rel_err(fo, down_bf16(natt, NC)), 1e-2, 0, 0, 0);
	std::vector<float> datt = randn(NC), gq(NC, 0.f), gk(NC, 0.f), gv(NC, 0.f), scratch(BHTT);
	attention_backward(gq.data(), gk.data(), gv.data(), scratch.data(), datt.data(), qc.data(),
			   kc.data(), vc.data(), A.data(), B, T, H, D);
	bf16 *ddatt = dup(to_bf16(datt)), *oq = dpoison<bf16>(NC), *ok = dpoison<bf16>(NC), *ov = dpoison<bf16>(NC);
	bf16 *nq = dpoison<bf16>(NC), *nk = dpoison<bf16>(NC), *nv = dpoison<bf16>(NC);
	float *acc = dzero_f32(NC);
	OK(flash_attention_backward(oq, ok, ov, dsum, acc, att, ddatt, lse, dq, dk, dv, 0, B, T, H, D, 0));
	check_acc_zero(shape, acc, NC);
	CU(cudaFree(acc));
	OK(attention_backward(h, nq, nk, nv, P, S, o, ddatt, dq, dk, dv, B, T, H, D, 0));
	const char *names[3] = { "dq", "dk", "dv" };
	bf16 *fl[3] = { oq, ok, ov }, *nv3[3] = { nq, nk, nv };
	std::vector<float> *ref[3] = { &gq, &gk, &gv };
	for (int i = 0; i < 3; i++) {
		char op[64];
		std::vector<float> f = down_bf16(fl[i], NC);
		snprintf(op, sizeof op, "%s bwd: %s vs cpu", flash_family_name, names[i]);
		add(op, shape, rel_err(f, bthd_to_bhtd(*ref[i], B, T, H, D)), 2e-2, 0, 0, 0);
		snprintf(op, sizeof op, "%s bwd: %s vs naive gpu", flash_family_name, names[i]);
		add(op, shape, rel_err(f, down_bf16(nv3[i], NC)), 2e-2, 0, 0, 0);
	}
	check_flash_packed(shape, q, k, v, fo, down(lse, BHT), fl, ddatt, B, T, H, D);
	bf16 *bufs[] = { dq, dk, dv, att, natt, P, o, ddatt, oq, ok, ov, nq, nk, nv };
	for (bf16 *b : bufs)
		CU(cudaFree(b));
	CU(cudaFree(S)); CU(cudaFree(lse)); CU(cudaFree(dsum));
}

/* The backward of impl.rotary=kernel against impl.rotary=epilogue at the
 * model's shape, on the packed layout the trainer uses: the fused
 * backward then rotary_backward_packed, or the fused backward with the
 * rotary backward on its way out. */
static void time_flash_rotary(void)
{
	rot_case rc = rot_case_make(TB, TT, TH, TD);
	bf16 *dqkv = dpoison<bf16>(3 * rc.NC);
	double ms = time_ms([&] { rot_case_unfused(rc, dqkv, 1); }, 10);
	add((std::string(flash_family_name) + " bwd, then rotary_backward_packed").c_str(), "64x2048x4x128", 0, 1, ms,
	    0, 0);
	ms = time_ms([&] { rot_case_fused(rc, dqkv, 1); }, 10);
	add((std::string(flash_family_name) + " bwd with the rotary backward on its way out").c_str(), "64x2048x4x128",
	    0, 1, ms, 0, 0);
	CU(cudaFree(dqkv));
	rot_case_free(rc);
}

static void time_flash(void)
{
	size_t NC = TN * TC, BHT = (size_t)TB * TH * TT;
	bf16 *q = dup(to_bf16(randn(NC))), *k = dup(to_bf16(randn(NC))), *v = dup(to_bf16(randn(NC)));
	bf16 *att = dpoison<bf16>(NC), *g = dup(to_bf16(randn(NC)));
	bf16 *gq = dpoison<bf16>(NC), *gk = dpoison<bf16>(NC), *gv = dpoison<bf16>(NC);
	float *lse = dpoison<float>(BHT), *dsum = dpoison<float>(BHT), *acc = dzero_f32(NC);
	/* causal: half the square; forward 2 GEMMs, backward 5 (S, dP, dV, dK, dQ) */
	double half = (double)TB * TH * TT * TT / 2, flop_f = 4.0 * half * TD / 1e9;
	auto fwd_bwd = [&] {
		OK(flash_attention_forward(att, lse, q, k, v, 0, TB, TT, TH, TD, 0));
		OK(flash_attention_backward(gq, gk, gv, dsum, acc, att, g, lse, q, k, v, 0, TB, TT, TH, TD, 0));
	};
	double ms = time_ms([&] { OK(flash_attention_forward(att, lse, q, k, v, 0, TB, TT, TH, TD, 0)); }, 10);
	add((std::string(flash_family_name) + " fwd (causal FLOPs)").c_str(), "64x2048x4x128", 0, 1, ms, 0, flop_f);
	ms = time_ms(fwd_bwd, 10);
	add((std::string(flash_family_name) + " fwd+bwd (causal FLOPs, S recomputed twice)").c_str(), "64x2048x4x128", 0,
	    1, ms, 0, flop_f * (1 + 3.5));
	if (flash_family_atomic) { /* where the fused backward's time goes: timing-only variants */
		const char *what[6] = { "", " dQ staged, not reduced (timing only)", " no dQ at all (timing only)",
					" dS^T stores and barrier, no dQ product (timing only)",
					" dS^T stored before the dK product (variant 4)",
					" dQ issued before dK is waited for (variant 5)" };
		for (int d = 1; d <= 5; d++) {
			flash_fq_diagnostic(d);
			ms = time_ms(fwd_bwd, 10);
			add((std::string(flash_family_name) + " fwd+bwd," + what[d]).c_str(), "64x2048x4x128", 0, 1, ms, 0,
			    flop_f * (1 + 3.5));
		}
		flash_fq_diagnostic(0);
		CU(cudaMemset(acc, 0, NC * sizeof(float))); /* the variants leave it as they please */
		time_flash_rotary();
	}
	bf16 *bufs[] = { q, k, v, att, g, gq, gk, gv };
	for (bf16 *b : bufs)
		CU(cudaFree(b));
	CU(cudaFree(lse)); CU(cudaFree(dsum)); CU(cudaFree(acc));
}

/* The fused backward at the model's shape (64 x 2048, 4 heads of 128:
 * 2.2 GB of reductions, every block's walk of up to 32 query tiles)
 * against family 12's two kernels on the same fresh inputs: dq, dk, dv
 * within 1e-3 (dQ's sums and dsum's run in another order), dq_acc left
 * zero, and a second run and the correct variants against the first
 * (the spread the reductions' order gives). */
static void check_flash_fused_model_shape(void)
{
	size_t NC = TN * TC, BHT = (size_t)TB * TH * TT;
	bf16 *q = dup(to_bf16(randn(NC))), *k = dup(to_bf16(randn(NC))), *v = dup(to_bf16(randn(NC)));
	bf16 *att = dpoison<bf16>(NC), *g = dup(to_bf16(randn(NC)));
	float *lse = dpoison<float>(BHT), *dsum = dpoison<float>(BHT), *acc = dzero_f32(NC);
	bf16 *ref[3], *got[3];
	for (int i = 0; i < 3; i++) {
		ref[i] = dpoison<bf16>(NC);
		got[i] = dpoison<bf16>(NC);
	}
	flash_select_kernels(FLASH_WGMMA_PPQ128KV);
	OK(flash_attention_forward(att, lse, q, k, v, 0, TB, TT, TH, TD, 0));
	OK(flash_attention_backward(ref[0], ref[1], ref[2], dsum, NULL, att, g, lse, q, k, v, 0, TB, TT, TH, TD, 0));
	flash_select_kernels(FLASH_WGMMA_FUSEDQ);
	std::vector<float> first[3];
	const char *names[3] = { "dq", "dk", "dv" };
	for (int run = 0; run < 4; run++) {
		flash_fq_diagnostic(run < 2 ? 0 : run + 2); /* runs 3, 4: the correct variants 4 and 5 */
		OK(flash_attention_backward(got[0], got[1], got[2], dsum, acc, att, g, lse, q, k, v, 0, TB, TT, TH, TD,
					    0));
		for (int i = 0; i < 3; i++) {
			std::vector<float> x = down_bf16(got[i], NC);
			char op[160];
			if (run == 0) {
				snprintf(op, sizeof op, "%s bwd: %s vs family 12 (1e-3)", flash_family_name, names[i]);
				add(op, "64x2048x4x128", rel_err(x, down_bf16(ref[i], NC)), 1e-3, 0, 0, 0);
				first[i] = x;
			} else {
				snprintf(op, sizeof op, "%s bwd: %s %s vs run 1 (1e-3)", flash_family_name, names[i],
					 run == 1 ? "run 2" : run == 2 ? "variant 4" : "variant 5");
				add(op, "64x2048x4x128", rel_err(x, first[i]), 1e-3, 0, 0, 0);
			}
		}
		check_acc_zero("64x2048x4x128", acc, NC);
	}
	flash_fq_diagnostic(0);
	bf16 *bufs[] = { q, k, v, att, g, ref[0], ref[1], ref[2], got[0], got[1], got[2] };
	for (bf16 *b : bufs)
		CU(cudaFree(b));
	CU(cudaFree(lse)); CU(cudaFree(dsum)); CU(cudaFree(acc));
}

static void time_attention(cublasHandle_t h)
{
	size_t NC = TN * TC, BHTT = (size_t)TB * TH * TT * TT;
	bf16 *q = dup(to_bf16(randn(NC))), *k = dup(to_bf16(randn(NC))), *v = dup(to_bf16(randn(NC)));
	bf16 *P = dpoison<bf16>(BHTT), *o = dpoison<bf16>(NC), *att = dpoison<bf16>(NC), *g = dup(to_bf16(randn(NC)));
	bf16 *gq = dpoison<bf16>(NC), *gk = dpoison<bf16>(NC), *gv = dpoison<bf16>(NC);
	float *S = dpoison<float>(BHTT);
	double tt = (double)TB * TH * TT * TT, flop_f = 4.0 * tt * TD / 1e9;
	double ms = time_ms([&] { OK(attention_forward(h, att, P, S, o, q, k, v, TB, TT, TH, TD, 0)); }, 10);
	add("attention fwd (GEMMs+softmax)", "64x2048x4x128", 0, 1, ms, 0, flop_f);
	ms = time_ms([&] { OK(causal_softmax_forward(P, S, (long)TB * TH * TT, TT, 0.088f, 0)); }, 10);
	add("causal softmax fwd", "64x4x2048x2048", 0, 1, ms, tt * (2.0 + 2.0) / 1e9, 0);
	ms = time_ms([&] {
		OK(attention_forward(h, att, P, S, o, q, k, v, TB, TT, TH, TD, 0));
		OK(attention_backward(h, gq, gk, gv, P, S, o, g, q, k, v, TB, TT, TH, TD, 0));
	}, 10);
	add("attention fwd+bwd", "64x2048x4x128", 0, 1, ms, 0, 3 * flop_f);
	ms = time_ms([&] { OK(causal_softmax_backward(P, S, (long)TB * TH * TT, TT, 0.088f, 0)); }, 10);
	add("causal softmax bwd", "64x4x2048x2048", 0, 1, ms, tt * (1.0 + 2.0 + 2.0) / 1e9, 0);
	bf16 *bufs[] = { q, k, v, P, o, att, g, gq, gk, gv };
	for (bf16 *b : bufs)
		CU(cudaFree(b));
	CU(cudaFree(S));
}

/* ---- relu2, cross-entropy --------------------------------------------------------------- */

static void check_relu2(void)
{
	size_t n = (size_t)1 << 20;
	std::vector<float> u = randn(n), da = randn(n), ref(n), dref(n, 0.f);
	bf16 *du_ = dup(to_bf16(u)), *a = dpoison<bf16>(n), *dda = dup(to_bf16(da)), *du = dpoison<bf16>(n);
	OK(relu2_forward(a, du_, (long)n, 0));
	relu2_forward(ref.data(), u.data(), n);
	add("relu2 fwd", "1M", rel_err(down_bf16(a, n), ref), 1e-2, 0, 0, 0);
	OK(relu2_backward(du, dda, du_, (long)n, 0));
	relu2_backward(dref.data(), da.data(), u.data(), n);
	add("relu2 bwd", "1M", rel_err(down_bf16(du, n), dref), 1e-2, 0, 0, 0);
	CU(cudaFree(du_)); CU(cudaFree(a)); CU(cudaFree(dda)); CU(cudaFree(du));
	size_t nf = TN * TF;
	bf16 *U = dup(to_bf16(randn(nf))), *A = dpoison<bf16>(nf), *G = dup(to_bf16(randn(nf)));
	double ms = time_ms([&] { OK(relu2_forward(A, U, (long)nf, 0)); });
	add("relu2 fwd", "131072x2048", 0, 1, ms, nf * 4.0 / 1e9, 0);
	ms = time_ms([&] { OK(relu2_backward(A, G, U, (long)nf, 0)); });
	add("relu2 bwd", "131072x2048", 0, 1, ms, nf * 6.0 / 1e9, 0);
	CU(cudaFree(U)); CU(cudaFree(A)); CU(cudaFree(G));
}

static void check_xent(void)
{
	int N = 8192, V = TV;
	float cap = 15.f;
	std::vector<float> z = randn((size_t)N * V, 8.0, false), loss(N), probs((size_t)N * V), dref((size_t)N * V);
	std::vector<int> t = randint(N, V);
	float *dz = dup(z), *dl = dpoison<float>(N);
	int32_t *dt = dup(t);
	bf16 *dg = dpoison<bf16>((size_t)N * V);
	OK(crossentropy_forward_backward(dl, dg, dz, dt, N, V, cap, 1.0f / N, NULL, 0));
	softcap_xent_forward(loss.data(), probs.data(), z.data(), t.data(), cap, N, V);
	softcap_xent_backward(dref.data(), probs.data(), z.data(), t.data(), cap, 1.0f / N, N, V);
	add("softcap xent: losses", "8192x256", rel_err(down(dl, N), loss), 1e-5, 0, 0, 0);
	add("softcap xent: dlogits", "8192x256", rel_err(down_bf16(dg, (size_t)N * V), dref), 1e-2, 0, 0, 0);
	/* impl.fused_xent=false: the four kernels, on fresh poison */
	float *xs = dpoison<float>(2 * (size_t)N * V);
	CU(cudaMemset(dl, 0xFF, N * sizeof(float)));
	CU(cudaMemset(dg, 0xFF, (size_t)N * V * sizeof(bf16)));
	OK(crossentropy_forward_backward(dl, dg, dz, dt, N, V, cap, 1.0f / N, xs, 0));
	add("xent unfused: losses", "8192x256", rel_err(down(dl, N), loss), 1e-5, 0, 0, 0);
	add("xent unfused: dlogits", "8192x256", rel_err(down_bf16(dg, (size_t)N * V), dref), 1e-2, 0, 0, 0);
	CU(cudaFree(xs));
	CU(cudaFree(dz)); CU(cudaFree(dl)); CU(cudaFree(dt)); CU(cudaFree(dg));
	float *L = dup(randn(TN * TV, 8, false)), *lo = dpoison<float>(TN);
	int32_t *T = dup(randint(TN, TV));
	bf16 *G = dpoison<bf16>(TN * TV);
	double ms = time_ms([&] { OK(crossentropy_forward_backward(lo, G, L, T, TN, TV, cap, 1.f, NULL, 0)); });
	add("softcap xent fwd+grad", "131072x256", 0, 1, ms, TN * (TV * 6.0 + 8) / 1e9, 0);
	float *XS = dpoison<float>(2 * (size_t)TN * TV);
	ms = time_ms([&] { OK(crossentropy_forward_backward(lo, G, L, T, TN, TV, cap, 1.f, XS, 0)); });
	add("xent unfused fwd+grad (4 kernels)", "131072x256", 0, 1, ms, TN * (TV * 6.0 + 8) / 1e9, 0);
	CU(cudaFree(XS));
	CU(cudaFree(L)); CU(cudaFree(lo)); CU(cudaFree(T)); CU(cudaFree(G));
}

/* ---- optimisers --------------------------------------------------------------------------- */

static void check_adamw(void)
{
	size_t n = (size_t)1 << 22;
	std::vector<float> p = randn(n, 0.02, false), g = randn(n, 1e-3, false), m = randn(n, 1e-3, false);
	std::vector<float> v(n);
	for (size_t i = 0; i < n; i++)
		v[i] = 1e-6f * (float)rng_uniform(&bench_seed);
	struct opt_sched hs, *sc = dpoison<struct opt_sched>(1);
	opt_sched_fill(&hs, 1.0f, 0.8f, 0.95f, 7);
	CU(cudaMemcpy(sc, &hs, sizeof(hs), cudaMemcpyHostToDevice));
	std::vector<float> p_in(p), m_in(m), v_in(v);
	adamw_step(p.data(), g.data(), m.data(), v.data(), n, 0.004f, 0.8f, 0.95f, 1e-8f, 0.2f, 7);
	for (int fused = 1; fused >= 0; fused--) { /* impl.fused_adamw true, then false */
		float *dp = dup(p_in), *dg = dup(g), *dm = dup(m_in), *dv = dup(v_in);
		bf16 *pb = dpoison<bf16>(n);
		OK(adamw_update(dp, pb, dg, dm, dv, (long)n, 0.004f, 0.8f, 0.95f, 1e-8f, 0.2f, sc, fused, 0));
		add(fused ? "adamw: p" : "adamw unfused: p", "4M", rel_err(down(dp, n), p), 1e-5, 0, 0, 0);
		add(fused ? "adamw: m, v" : "adamw unfused: m, v", "4M",
		    std::max(rel_err(down(dm, n), m), rel_err(down(dv, n), v)), 1e-5, 0, 0, 0);
		add(fused ? "adamw: bf16 copy" : "adamw unfused: bf16 copy", "4M", rel_err(down_bf16(pb, n), p),
		    1e-2, 0, 0, 0);
		CU(cudaFree(dp)); CU(cudaFree(dg)); CU(cudaFree(dm)); CU(cudaFree(dv)); CU(cudaFree(pb));
	}
	size_t N = 25 * ((size_t)1 << 20); /* about the default model's parameters */
	float *P = dup(randn(N, 0.02, false)), *G = dup(randn(N, 1e-3, false));
	float *M = dpoison<float>(N), *Vv = dpoison<float>(N);
	CU(cudaMemset(M, 0, N * 4));
	CU(cudaMemset(Vv, 0, N * 4));
	bf16 *PB = dpoison<bf16>(N);
	double ms = time_ms([&] { OK(adamw_update(P, PB, G, M, Vv, (long)N, 1e-4f, 0.8f, 0.95f, 1e-8f, 0.f, sc, 1, 0)); });
	add("adamw", "25M params", 0, 1, ms, N * 30.0 / 1e9, 0);
	ms = time_ms([&] { OK(adamw_update(P, PB, G, M, Vv, (long)N, 1e-4f, 0.8f, 0.95f, 1e-8f, 0.f, sc, 0, 0)); });
	add("adamw unfused (3 kernels)", "25M params", 0, 1, ms, N * 30.0 / 1e9, 0);
	CU(cudaFree(sc));
	CU(cudaFree(P)); CU(cudaFree(G)); CU(cudaFree(M)); CU(cudaFree(Vv)); CU(cudaFree(PB));
}

/* One matrix; the check compares the update p_new - p_old with the CPU's. */
static void check_muon(cublasHandle_t h, int R, int Cc, const char *shape)
{
	size_t n = (size_t)R * Cc;
	std::vector<float> p = randn(n, 0.02, false), g = randn(n, 1e-3, false), mom = randn(n, 1e-3, false);
	std::vector<float> p0(p), scratch(muon_scratch_floats(R, Cc));
	float *dp = dup(p), *dg = dup(g), *dm = dup(mom), *norm;
	CU(cudaMalloc(&norm, sizeof(float)));
	bf16 *pb = dpoison<bf16>(n), *sc = dpoison<bf16>(muon_scratch_elems(R, Cc));
	struct opt_sched hs, *sd = dpoison<struct opt_sched>(1);
	opt_sched_fill(&hs, 1.0f, 0.8f, 0.95f, 1);
	CU(cudaMemcpy(sd, &hs, sizeof(hs), cudaMemcpyHostToDevice));
	OK(muon_update(h, dp, pb, dg, dm, R, Cc, 0.04f, 0.95f, 0.2f, sd, sc, norm, 0));
	muon_step(p.data(), g.data(), mom.data(), R, Cc, 0.04f, 0.95f, 0.2f, scratch.data());
	std::vector<float> gp = down(dp, n), du(n), cu(n);
	for (size_t i = 0; i < n; i++) {
		du[i] = gp[i] - p0[i];
		cu[i] = p[i] - p0[i];
	}
	char op[64];
	snprintf(op, sizeof op, "muon update (NS5 bf16)");
	add(op, shape, rel_err(du, cu), 5e-2, 0, 0, 0);
	add("muon momentum", shape, rel_err(down(dm, n), mom), 1e-5, 0, 0, 0);
	/* time at this shape: 5 x (gram + square + product) GEMMs */
	double nn = std::min(R, Cc), kk = std::max(R, Cc);
	double flop = 5 * (2 * nn * nn * kk + 2 * nn * nn * nn + 2 * nn * nn * kk) / 1e9;
	double ms = time_ms([&] { OK(muon_update(h, dp, pb, dg, dm, R, Cc, 1e-6f, 0.95f, 0.f, sd, sc, norm, 0)); });
	add("muon step (one matrix)", shape, 0, 1, ms, 0, flop);
	CU(cudaFree(sd));
	CU(cudaFree(dp)); CU(cudaFree(dg)); CU(cudaFree(dm)); CU(cudaFree(norm)); CU(cudaFree(pb)); CU(cudaFree(sc));
}

/* ---- GEMMs (cuBLASLt) ------------------------------------------------------------------------ */

static void check_matmul(mm_ctx *m)
{
	int N = 2048, C = TC, OC = 3 * TC;
	std::vector<float> x = randn((size_t)N * C), w = randn((size_t)OC * C, 0.05), ref((size_t)N * OC);
	bf16 *dx = dup(to_bf16(x)), *dw = dup(to_bf16(w)), *out = dpoison<bf16>((size_t)N * OC);
	OK(mm(m, out, 0, dx, 0, dw, 1, N, OC, C, 1.f, 0.f, 0));
	matmul_forward(ref.data(), x.data(), w.data(), N, C, OC);
	add("matmul x W^T (bf16 out)", "2048x512 -> 1536", rel_err(down_bf16(out, ref.size()), ref), 1e-2, 0, 0, 0);
	/* dW += dy^T x in fp32, the weight-gradient form */
	std::vector<float> dy = randn((size_t)N * OC), dw0 = randn((size_t)OC * C, 1, false), dref(dw0);
	std::vector<float> dxref((size_t)N * C, 0.f);
	matmul_backward(dxref.data(), dref.data(), dy.data(), x.data(), w.data(), N, C, OC);
	bf16 *ddy = dup(to_bf16(dy)), *ddx = dpoison<bf16>((size_t)N * C);
	float *ddw = dup(dw0);
	OK(mm(m, ddw, 1, ddy, 1, dx, 0, OC, C, N, 1.f, 1.f, 0));
	OK(mm(m, ddx, 0, ddy, 0, dw, 0, N, C, OC, 1.f, 0.f, 0));
	add("matmul dW += dy^T x (fp32)", "2048x1536x512", rel_err(down(ddw, dref.size()), dref), 1e-2, 0, 0, 0);
	add("matmul dx = dy W", "2048x1536x512", rel_err(down_bf16(ddx, dxref.size()), dxref), 1e-2, 0, 0, 0);
	CU(cudaFree(dx)); CU(cudaFree(dw)); CU(cudaFree(out)); CU(cudaFree(ddy)); CU(cudaFree(ddx)); CU(cudaFree(ddw));
	/* the trainer's largest GEMM shapes */
	bf16 *X = dup(to_bf16(randn(TN * TC))), *Wt = dup(to_bf16(randn((size_t)TF * TC, 0.05)));
	bf16 *Y = dpoison<bf16>(TN * TF);
	double ms = time_ms([&] { OK(mm(m, Y, 0, X, 0, Wt, 1, TN, TF, TC, 1.f, 0.f, 0)); });
	add("matmul fc fwd", "131072x512 -> 2048", 0, 1, ms, 0, 2.0 * TN * TF * TC / 1e9);
	float *DW = dpoison<float>((size_t)TF * TC);
	CU(cudaMemset(DW, 0, sizeof(float) * TF * TC));
	ms = time_ms([&] { OK(mm(m, DW, 1, Y, 1, X, 0, TF, TC, TN, 1.f, 1.f, 0)); });
	add("matmul fc dW (fp32 +=)", "2048x512, K=131072", 0, 1, ms, 0, 2.0 * TN * TF * TC / 1e9);
	CU(cudaFree(X)); CU(cudaFree(Wt)); CU(cudaFree(Y)); CU(cudaFree(DW));
}

/* ---- our own Hopper GEMM (gemm_wgmma.cu) -------------------------------------------------------- */

/* B^T of a (K, N) row-major matrix: (N, K), the layout matmul_forward takes. */
static std::vector<float> transpose(const std::vector<float> &b, int K, int N)
{
	std::vector<float> t((size_t)N * K);
	for (int k = 0; k < K; k++)
		for (int n = 0; n < N; n++)
			t[(size_t)n * K + k] = b[(size_t)k * N + n];
	return t;
}

/* One shape, both layouts of B, every epilogue, against the CPU product of
 * the same bf16-rounded operands. K = 320 is 5 slices of 64 through 4
 * stages: every stage is refilled, the barriers' parity flips. */
static void check_gemm_shape(int M, int N, int K)
{
	char shape[64];
	snprintf(shape, sizeof shape, "%dx%d, K=%d", M, N, K);
	std::vector<float> a = randn((size_t)M * K), w = randn((size_t)N * K, 0.05), h = randn((size_t)M * N);
	std::vector<float> ref((size_t)M * N), sref((size_t)M * N), dref((size_t)M * N, 0.f);
	matmul_forward(ref.data(), a.data(), w.data(), M, K, N);
	relu2_forward(sref.data(), ref.data(), ref.size());
	relu2_backward(dref.data(), ref.data(), h.data(), ref.size()); /* (A B) * 2 relu(h) */
	bf16 *dA = dup(to_bf16(a)), *dW = dup(to_bf16(w)), *dWt = dup(to_bf16(transpose(w, N, K)));
	bf16 *dH = dup(to_bf16(h)), *o0 = dpoison<bf16>(ref.size()), *o1 = dpoison<bf16>(ref.size());
	for (int tb = 1; tb >= 0; tb--) {
		/* tb = 1: W as stored (N, K); tb = 0: its transpose, (K, N) */
		const bf16 *B = tb ? dW : dWt;
		std::string lay = tb ? "x W^T" : "x W";
		OK(gemm_wgmma(o0, NULL, NULL, dA, B, tb, M, N, K, GEMM_STORE, 0));
		add(("gemm_wgmma " + lay).c_str(), shape, rel_err(down_bf16(o0, ref.size()), ref), 1e-2, 0, 0, 0);
		CU(cudaMemset(o0, 0xff, ref.size() * sizeof(bf16)));
		OK(gemm_wgmma(o0, o1, NULL, dA, B, tb, M, N, K, GEMM_RELU2, 0));
		add(("gemm_wgmma " + lay + " relu2: H").c_str(), shape, rel_err(down_bf16(o0, ref.size()), ref), 1e-2,
		    0, 0, 0);
		add(("gemm_wgmma " + lay + " relu2: relu(H)^2").c_str(), shape,
		    rel_err(down_bf16(o1, ref.size()), sref), 1e-2, 0, 0, 0);
		CU(cudaMemset(o0, 0xff, ref.size() * sizeof(bf16)));
		OK(gemm_wgmma(o0, NULL, dH, dA, B, tb, M, N, K, GEMM_DRELU2, 0));
		add(("gemm_wgmma " + lay + " drelu2").c_str(), shape, rel_err(down_bf16(o0, ref.size()), dref), 1e-2,
		    0, 0, 0);
	}
	CU(cudaFree(dA)); CU(cudaFree(dW)); CU(cudaFree(dWt)); CU(cudaFree(dH)); CU(cudaFree(o0)); CU(cudaFree(o1));
}

/* The two MLP products at a model's shape, ours against cuBLASLt and
 * cuBLASLt + relu2.cu, and ours against cuBLASLt's result at that size. */
static void time_gemm_shape(mm_ctx *m, long M, int C, int F)
{
	char shape[64];
	snprintf(shape, sizeof shape, "%ldx%d -> %d", M, C, F);
	double flop = 2.0 * M * C * F / 1e9;
	bf16 *X = dup(to_bf16(randn((size_t)M * C))), *Wfc = dup(to_bf16(randn((size_t)F * C, 0.05)));
	bf16 *Wp = dup(to_bf16(randn((size_t)C * F, 0.05))), *H = dpoison<bf16>((size_t)M * F);
	bf16 *S = dpoison<bf16>((size_t)M * F), *R = dpoison<bf16>((size_t)M * F);
	/* fc forward: H = X Wfc^T (tb = 1), then relu^2 */
	OK(mm(m, R, 0, X, 0, Wfc, 1, M, F, C, 1.f, 0.f, 0));
	OK(gemm_wgmma(H, NULL, NULL, X, Wfc, 1, M, F, C, GEMM_STORE, 0));
	std::vector<float> r = down_bf16(R, (size_t)M * F), o = down_bf16(H, (size_t)M * F);
	add("gemm_wgmma x W^T against cuBLASLt", shape, rel_err(o, r), 1e-2, 0, 0, 0);
	double ms = time_ms([&] { OK(mm(m, H, 0, X, 0, Wfc, 1, M, F, C, 1.f, 0.f, 0)); });
	add("fc fwd: cuBLASLt", shape, 0, 1, ms, 0, flop);
	ms = time_ms([&] { OK(gemm_wgmma(H, NULL, NULL, X, Wfc, 1, M, F, C, GEMM_STORE, 0)); });
	add("fc fwd: gemm_wgmma", shape, 0, 1, ms, 0, flop);
	ms = time_ms([&] {
		OK(mm(m, H, 0, X, 0, Wfc, 1, M, F, C, 1.f, 0.f, 0));
		OK(relu2_forward(S, H, M * F, 0));
	});
	add("fc fwd + relu2: cuBLASLt, relu2_forward", shape, 0, 1, ms, 0, flop);
	ms = time_ms([&] { OK(gemm_wgmma(H, S, NULL, X, Wfc, 1, M, F, C, GEMM_RELU2, 0)); });
	add("fc fwd + relu2: gemm_wgmma relu2 epilogue", shape, 0, 1, ms, 0, flop);
	/* the fused outputs against the unfused path's (R, then relu2 into R2): each block walks ~8 rows of
	 * tiles here, every tile's stores deferred under the next one's products */
	bf16 *R2 = dpoison<bf16>((size_t)M * F);
	OK(mm(m, R, 0, X, 0, Wfc, 1, M, F, C, 1.f, 0.f, 0));
	OK(relu2_forward(R2, R, M * F, 0));
	add("gemm_wgmma relu2: H against cuBLASLt", shape,
	    rel_err(down_bf16(H, (size_t)M * F), down_bf16(R, (size_t)M * F)), 1e-2, 0, 0, 0);
	add("gemm_wgmma relu2: relu(H)^2 against cuBLASLt, relu2_forward", shape,
	    rel_err(down_bf16(S, (size_t)M * F), down_bf16(R2, (size_t)M * F)), 1e-2, 0, 0, 0);
	/* projection's input gradient: dA = dY Wproj (tb = 0), then * 2 relu(H) */
	OK(mm(m, R, 0, X, 0, Wp, 0, M, F, C, 1.f, 0.f, 0));
	OK(gemm_wgmma(S, NULL, NULL, X, Wp, 0, M, F, C, GEMM_STORE, 0));
	r = down_bf16(R, (size_t)M * F);
	o = down_bf16(S, (size_t)M * F);
	add("gemm_wgmma x W against cuBLASLt", shape, rel_err(o, r), 1e-2, 0, 0, 0);
	ms = time_ms([&] { OK(mm(m, S, 0, X, 0, Wp, 0, M, F, C, 1.f, 0.f, 0)); });
	add("proj dX: cuBLASLt", shape, 0, 1, ms, 0, flop);
	ms = time_ms([&] { OK(gemm_wgmma(S, NULL, NULL, X, Wp, 0, M, F, C, GEMM_STORE, 0)); });
	add("proj dX: gemm_wgmma", shape, 0, 1, ms, 0, flop);
	ms = time_ms([&] {
		OK(mm(m, S, 0, X, 0, Wp, 0, M, F, C, 1.f, 0.f, 0));
		OK(relu2_backward(S, S, H, M * F, 0));
	});
	add("proj dX + relu2 bwd: cuBLASLt, relu2_backward", shape, 0, 1, ms, 0, flop);
	ms = time_ms([&] { OK(gemm_wgmma(S, NULL, H, X, Wp, 0, M, F, C, GEMM_DRELU2, 0)); });
	add("proj dX + relu2 bwd: gemm_wgmma drelu2 epilogue", shape, 0, 1, ms, 0, flop);
	OK(mm(m, R, 0, X, 0, Wp, 0, M, F, C, 1.f, 0.f, 0));
	OK(relu2_backward(R2, R, H, M * F, 0));
	add("gemm_wgmma drelu2 against cuBLASLt, relu2_backward", shape,
	    rel_err(down_bf16(S, (size_t)M * F), down_bf16(R2, (size_t)M * F)), 1e-2, 0, 0, 0);
	CU(cudaFree(R2));
	CU(cudaFree(X)); CU(cudaFree(Wfc)); CU(cudaFree(Wp)); CU(cudaFree(H)); CU(cudaFree(S)); CU(cudaFree(R));
}

/* The products of width C still on cuBLASLt in the trainer (attention's
 * output projection and the MLP's projection forward, the input
 * gradients of the QKV, output and fc products), ours (plain store)
 * against cuBLASLt at a model's shape: whether moving them pays. */
static void time_gemm_narrow(mm_ctx *m, long M, int C, int F)
{
	const struct { const char *what; int K, tb; } p[] = {
		{ "attn out proj fwd (x Wo^T)", C, 1 }, { "MLP proj fwd (a Wproj^T)", F, 1 },
		{ "QKV dX (dqkv Wqkv)", 3 * C, 0 },     { "out proj dX (dy Wo)", C, 0 },
		{ "fc dX (dfc Wfc)", F, 0 } };
	for (auto q : p) {
		char shape[64], op[96];
		snprintf(shape, sizeof shape, "%ldx%d -> %d", M, q.K, C);
		double flop = 2.0 * M * C * q.K / 1e9;
		bf16 *X = dup(to_bf16(randn((size_t)M * q.K))), *W = dup(to_bf16(randn((size_t)C * q.K, 0.05)));
		bf16 *O = dpoison<bf16>((size_t)M * C), *R = dpoison<bf16>((size_t)M * C);
		OK(mm(m, R, 0, X, 0, W, q.tb, M, C, q.K, 1.f, 0.f, 0));
		OK(gemm_wgmma(O, NULL, NULL, X, W, q.tb, M, C, q.K, GEMM_STORE, 0));
		snprintf(op, sizeof op, "%s: gemm_wgmma against cuBLASLt", q.what);
		add(op, shape, rel_err(down_bf16(O, (size_t)M * C), down_bf16(R, (size_t)M * C)), 1e-2, 0, 0, 0);
		snprintf(op, sizeof op, "%s: cuBLASLt", q.what);
		add(op, shape, 0, 1, time_ms([&] { OK(mm(m, R, 0, X, 0, W, q.tb, M, C, q.K, 1.f, 0.f, 0)); }), 0, flop);
		snprintf(op, sizeof op, "%s: gemm_wgmma", q.what);
		add(op, shape, 0, 1, time_ms([&] { OK(gemm_wgmma(O, NULL, NULL, X, W, q.tb, M, C, q.K, GEMM_STORE, 0)); }),
		    0, flop);
		CU(cudaFree(X)); CU(cudaFree(W)); CU(cudaFree(O)); CU(cudaFree(R));
	}
}

/* The QKV projection with rotary in the epilogue (gemm_wgmma_qkv_rotary)
 * against cuBLASLt's product + rotary_forward_packed on the same inputs:
 * the same bf16 product and the same per-element arithmetic, so equal
 * up to the rms's summation order (ours sums a thread's 32 values, then
 * the quad's 4; rotary.cu 16, then 8 lanes): rstd to ~1e-7, the outputs
 * to a bf16 rounding flip here and there. Timed at the model's shapes. */
static void check_gemm_rotary(mm_ctx *m, int B, int T, int H, int qk_norm, int timed)
{
	const int D = 128, C = H * D;
	long M = (long)B * T;
	size_t NQ = (size_t)M * 3 * C, NH = (size_t)M * H;
	char shape[80];
	snprintf(shape, sizeof shape, "B=%d T=%d H=%d D=128%s", B, T, H, qk_norm ? "" : ", no qk-norm");
	std::vector<float> cs((size_t)T * D);
	rotary_table(cs.data(), T, D);
	float *dcs = dup(cs), *rq = dpoison<float>(NH), *rk = dpoison<float>(NH), *fq = dpoison<float>(NH),
	      *fk = dpoison<float>(NH);
	bf16 *X = dup(to_bf16(randn((size_t)M * C))), *W = dup(to_bf16(randn((size_t)3 * C * C, 0.05)));
	bf16 *ref = dpoison<bf16>(NQ), *out = dpoison<bf16>(NQ);
	if (!qk_norm) { /* nothing writes the rstd then: make both equal */
		CU(cudaMemset(rq, 0, NH * sizeof(float))); CU(cudaMemset(rk, 0, NH * sizeof(float)));
		CU(cudaMemset(fq, 0, NH * sizeof(float))); CU(cudaMemset(fk, 0, NH * sizeof(float)));
	}
	auto unfused = [&] {
		OK(mm(m, ref, 0, X, 0, W, 1, M, 3 * C, C, 1.f, 0.f, 0));
		OK(rotary_forward_packed(ref, rq, rk, dcs, B, T, H, D, qk_norm, 1e-6f, 0));
	};
	gemm_rotary r = { fq, fk, dcs, T, H, qk_norm, 1e-6f };
	auto fused = [&] { OK(gemm_wgmma_qkv_rotary(out, X, W, M, C, &r, 0)); };
	unfused();
	fused();
	std::vector<float> a = down_bf16(out, NQ), b = down_bf16(ref, NQ);
	add("gemm_wgmma rotary: qkv against cuBLASLt, rotary_forward_packed", shape, rel_err(a, b), 2e-3, 0, 0, 0);
	add("gemm_wgmma rotary: rstd q, k against rotary_forward_packed", shape,
	    rel_err(down(fq, NH), down(rq, NH)) + rel_err(down(fk, NH), down(rk, NH)), 1e-6, 0, 0, 0);
	if (timed) {
		double flop = 2.0 * M * 3 * C * C / 1e9;
		add("qkv: cuBLASLt", shape, 0, 1,
		    time_ms([&] { OK(mm(m, ref, 0, X, 0, W, 1, M, 3 * C, C, 1.f, 0.f, 0)); }), 0, flop);
		add("qkv: gemm_wgmma", shape, 0, 1,
		    time_ms([&] { OK(gemm_wgmma(out, NULL, NULL, X, W, 1, M, 3 * C, C, GEMM_STORE, 0)); }), 0, flop);
		add("qkv + rotary: cuBLASLt, rotary_forward_packed", shape, 0, 1, time_ms(unfused), 0, flop);
		add("qkv + rotary: gemm_wgmma rotary epilogue", shape, 0, 1, time_ms(fused), 0, flop);
	}
	CU(cudaFree(dcs)); CU(cudaFree(rq)); CU(cudaFree(rk)); CU(cudaFree(fq)); CU(cudaFree(fk));
	CU(cudaFree(X)); CU(cudaFree(W)); CU(cudaFree(ref)); CU(cudaFree(out));
}

/* One launch of each of our kernels and of cuBLASLt's product at the
 * depth-8 fc shape, for ncu (bench_kernels gemm profile). */
static void gemm_profile(mm_ctx *m)
{
	long M = TN;
	int C = TC, F = TF;
	bf16 *X = dup(to_bf16(randn((size_t)M * C))), *Wfc = dup(to_bf16(randn((size_t)F * C, 0.05)));
	bf16 *Wp = dup(to_bf16(randn((size_t)C * F, 0.05))), *H = dpoison<bf16>((size_t)M * F);
	bf16 *S = dpoison<bf16>((size_t)M * F), *D = dpoison<bf16>((size_t)M * F);
	OK(mm(m, H, 0, X, 0, Wfc, 1, M, F, C, 1.f, 0.f, 0));
	OK(gemm_wgmma(H, NULL, NULL, X, Wfc, 1, M, F, C, GEMM_STORE, 0));
	OK(gemm_wgmma(H, S, NULL, X, Wfc, 1, M, F, C, GEMM_RELU2, 0));
	OK(gemm_wgmma(D, NULL, H, X, Wp, 0, M, F, C, GEMM_DRELU2, 0));
	CU(cudaDeviceSynchronize());
	CU(cudaFree(X)); CU(cudaFree(Wfc)); CU(cudaFree(Wp)); CU(cudaFree(H)); CU(cudaFree(S)); CU(cudaFree(D));
}

static void gemm_checks(mm_ctx *m, int timed)
{
	if (!hopper_sm_count()) {
		fprintf(stderr, "# gemm_wgmma: not this device (compute capability 9.0 only): skipped\n");
		return;
	}
	check_gemm_shape(256, 512, 320);
	check_gemm_shape(512, 2048, 512);
	check_gemm_shape(384, 768, 768);
	check_gemm_shape(4096, 2048, 320); /* 256 tiles: blocks walk several, stages wrap across tiles */
	/* 144 tiles: 12 blocks walk two, the first tile's stores spread over the second's 8 (12) slices */
	check_gemm_shape(2304, 2048, 512);
	check_gemm_shape(2304, 2048, 768);
	check_gemm_rotary(m, 16, 256, 4, 1, 0);  /* 192 tiles (4 of 6 a row rotated), positions wrap every 2 tiles */
	check_gemm_rotary(m, 2, 2048, 6, 1, 0);  /* H = 6: a tile's heads 2, 3 of q; 288 tiles */
	check_gemm_rotary(m, 4, 1024, 4, 0, 0);  /* no QK-norm: rotation only */
	if (!timed)
		return;
	time_gemm_shape(m, TN, TC, TF);
	time_gemm_shape(m, TN, 768, 3072);
	time_gemm_narrow(m, TN, TC, TF);
	check_gemm_rotary(m, TN / 2048, 2048, 4, 1, 1); /* the depth-8 and depth-12 model shapes */
	check_gemm_rotary(m, TN / 2048, 2048, 6, 1, 1);
}

/* every flash kernel family (or those named in only, ",N,M,"): mma.sync,
 * wgmma with one or two warpgroups a block, forward two and backward one,
 * the warp-specialised ping-pong forward (64-key tiles in 2 or 3 stages,
 * 128-key tiles) with the one-warpgroup backward, then with the dQ and
 * dK/dV kernels warp-specialised too; checks only or also timed */
static void flash_families(cublasHandle_t h, int timed, const char *only)
{
	const struct { int family; const char *name; } fam[] = { { FLASH_MMA_SYNC, "flash mma.sync" },
								  { FLASH_WGMMA_NARROW, "flash wgmma 1wg" },
								  { FLASH_WGMMA_WIDE, "flash wgmma 2wg" },
								  { FLASH_WGMMA, "flash wgmma fwd 2wg bwd 1wg" },
								  { FLASH_WGMMA_PP, "flash wgmma fwd ping-pong bwd 1wg" },
								  { FLASH_WGMMA_PP3, "flash wgmma fwd ping-pong 3 stages bwd 1wg" },
								  { FLASH_WGMMA_PPN, "flash wgmma fwd ping-pong 128-key tiles bwd 1wg" },
								  { FLASH_WGMMA_PPQ, "flash wgmma fwd ping-pong 128-key, dQ ping-pong, dK/dV 1wg" },
								  { FLASH_WGMMA_PPQR, "flash wgmma fwd ping-pong 128-key, dQ ping-pong dO regs, dK/dV 1wg" },
								  { FLASH_WGMMA_PPQKV, "flash wgmma fwd ping-pong 128-key, dQ ping-pong, dK/dV producer" },
								  { FLASH_WGMMA_PPQKV_NT, "flash wgmma fwd ping-pong 128-key, dQ producer no turns, dK/dV producer" },
								  { FLASH_WGMMA_PPQKV3, "flash wgmma fwd ping-pong 128-key, dQ ping-pong, dK/dV producer 3 stages" },
								  { FLASH_WGMMA_PPQ128KV, "flash wgmma fwd ping-pong 128-key, dQ producer 128-key, dK/dV producer" },
								  { FLASH_WGMMA_FUSEDQ, "flash wgmma fused bwd (dQ by columns, bulk-reduced)" } };
	for (auto f : fam) {
		if (only && !strstr(only, (std::string(",") + std::to_string(f.family) + ",").c_str()))
			continue;
		flash_select_kernels(f.family);
		flash_family_name = f.name;
		flash_family_atomic = f.family == FLASH_WGMMA_FUSEDQ;
		check_flash(h, TH, TD);
		check_flash(h, 2, 64);
		if (flash_family_atomic) {
			/* its correct variant 5 (differs at head size 128) against the CPU too */
			std::string v5 = std::string(f.name) + ", variant 5";
			flash_family_name = v5.c_str();
			flash_fq_diagnostic(5);
			check_flash(h, TH, TD);
			flash_fq_diagnostic(0);
			flash_family_name = f.name;
			check_flash_fused_model_shape();
			flash_select_kernels(f.family);
			check_flash_rotary(2, 256, TH, TD);
			check_flash_rotary(2, 256, 2, 64);
			check_flash_rotary(TB, TT, TH, TD); /* the model's shape: every block's whole walk */
		}
		if (timed)
			time_flash();
	}
	flash_select_kernels(-1);
	flash_family_atomic = 0;
}

/* bench_kernels: every check and timing; bench_kernels gemm [time]: the
 * own GEMM's checks (with time: its timings against cuBLASLt at both
 * benchmark shapes; profile: one launch of each at the fc shape, for ncu); bench_kernels flash [time [N,M,...]]: the flash and rotary checks alone (small shapes: fast enough
 * for compute-sanitizer), with the flash timings at the default shape;
 * N,M,...: of those flash kernel families only (kernels.h's FLASH_*). */
int main(int argc, char **argv)
{
	mm_ctx m;
	cublasHandle_t h;
	OK(mm_init(&m));
	DIE_IF(cublasCreate(&h) != CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
	if (argc == 3 && !strcmp(argv[1], "gemm") && !strcmp(argv[2], "profile")) {
		gemm_profile(&m);
		cublasDestroy(h);
		mm_release(&m);
		return 0;
	}
	if (argc >= 2 && argc <= 3 && !strcmp(argv[1], "gemm")) {
		int timed = argc == 3 && !strcmp(argv[2], "time");
		if (timed)
			ceil_ = measure_ceilings(&m);
		gemm_checks(&m, timed);
		print_table();
		cublasDestroy(h);
		mm_release(&m);
		return failures ? 1 : 0;
	}
	if (argc >= 2 && argc <= 4 && !strcmp(argv[1], "flash")) {
		int timed = argc >= 3 && !strcmp(argv[2], "time");
		/* a third word N,M,...: only those families (",N,M,..," to match whole numbers) */
		std::string only = argc == 4 ? "," + std::string(argv[3]) + "," : "";
		if (timed)
			ceil_ = measure_ceilings(&m);
		check_rotary(TH, TD, 0);
		check_rotary(TH, TD, 1);
		check_rotary(2, 24, 0);
		flash_families(h, timed, argc == 4 ? only.c_str() : NULL);
		print_table();
		cublasDestroy(h);
		mm_release(&m);
		return failures ? 1 : 0;
	}
	ceil_ = measure_ceilings(&m);
	check_matmul(&m);
	gemm_checks(&m, 1);
	check_embedding();
	time_embedding();
	check_rmsnorm();
	time_rmsnorm();
	check_rotary(TH, TD, 0);
	check_rotary(TH, TD, 1);
	check_rotary(8, 64, 0);
	check_rotary(2, 24, 0); /* D/16 not whole: the simple kernels */
	time_rotary(1);
	time_rotary(0);
	check_attention(h);
	time_attention(h);
	flash_families(h, 1, NULL);
	check_relu2();
	check_xent();
	check_adamw();
	check_muon(h, 512, 512, "512x512");
	check_muon(h, 2048, 512, "2048x512 (tall)");
	check_muon(h, 512, 2048, "512x2048 (wide)");
	print_table();
	cublasDestroy(h);
	mm_release(&m);
	return failures ? 1 : 0;
}
