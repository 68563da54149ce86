/* model.c — the GPT on the CPU: parameter and activation layout, weight
 * initialisation, forward and backward (model.h). Composes the ops of
 * ops.h and adds nothing numerical of its own beyond residual sums. */
#include <errno.h>
#include "config.h"
#include "model.h"
#include "ops.h"
#include "rng.h"
#include "util.h"

void model_dims_from_config(struct model_dims *d, const struct config *c)
{
	d->V = c->vocab_size;
	d->C = c->dim;
	d->L = c->depth;
	d->NH = c->heads;
	d->HS = c->heads > 0 ? c->dim / c->heads : 0;
	d->F = (int)lround(c->mlp_ratio * c->dim);
	d->T = c->seq_len;
	d->qk_norm = c->qk_norm;
	d->softcap = (float)c->softcap;
}

/* Overflow-checked size arithmetic: a huge config must end as oom, not as
 * a wrapped-around small allocation. */
static int mul_ok(size_t *acc, size_t a, size_t b)
{
	return !__builtin_mul_overflow(a, b, acc);
}

static int add_tensor(struct param_layout *pl, int i, const char *name, int rows, int cols,
		      enum param_group g)
{
	struct param_tensor *t = &pl->t[i];
	size_t n;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->rows = rows;
	t->cols = cols;
	t->group = g;
	t->offset = pl->total;
	if (!mul_ok(&n, (size_t)rows, (size_t)cols) || __builtin_add_overflow(pl->total, n, &pl->total))
		return -1;
	return 0;
}

int param_layout_init(struct param_layout *pl, const struct model_dims *d)
{
	static const char *const names[LP_COUNT] = { "wq", "wk", "wv", "wo", "wfc", "wproj" };
	int C = d->C, F = d->F, bad = 0;
	memset(pl, 0, sizeof(*pl));
	pl->ntensors = 2 + LP_COUNT * d->L;
	pl->t = calloc((size_t)pl->ntensors, sizeof(*pl->t));
	if (!pl->t) {
		errno = ENOMEM;
		return -1;
	}
	bad |= add_tensor(pl, 0, "wte", d->V, C, PG_EMBEDDING);
	for (int l = 0; l < d->L; l++)
		for (int w = 0; w < LP_COUNT; w++) {
			char name[24];
			int rows = w == LP_WFC ? F : C, cols = w == LP_WPROJ ? F : C;
			snprintf(name, sizeof(name), "h%d.%s", l, names[w]);
			bad |= add_tensor(pl, 1 + l * LP_COUNT + w, name, rows, cols, PG_MATRIX);
		}
	bad |= add_tensor(pl, pl->ntensors - 1, "lm_head", d->V, C, PG_UNEMBEDDING);
	pl->wte = pl->t[0].offset;
	pl->lm_head = pl->t[pl->ntensors - 1].offset;
	if (bad) {
		param_layout_release(pl);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void param_layout_release(struct param_layout *pl)
{
	free(pl->t);
	memset(pl, 0, sizeof(*pl));
}

/* Walks the activation layout of model.h: with base NULL it only counts
 * (returns the total in floats, 0 on overflow); with a base it assigns. */
struct carver {
	float *base;
	size_t used;
	int overflow;
};

static float *carve(struct carver *cv, size_t a, size_t b, size_t c)
{
	size_t n;
	if (!mul_ok(&n, a, b) || !mul_ok(&n, n, c) || __builtin_add_overflow(cv->used, n, &cv->used)) {
		cv->overflow = 1;
		return NULL;
	}
	return cv->base ? cv->base + (cv->used - n) : NULL;
}

static void layout_acts(struct model *m, struct carver *cv)
{
	const struct model_dims *d = &m->d;
	size_t BT = (size_t)m->B * d->T, C = d->C, F = d->F;
	struct acts *a = &m->a;
	for (int l = 0; l < d->L; l++) {
		struct layer_acts *la = &a->layer[l];
		la->x_in = carve(cv, BT, C, 1);
		la->ln1 = carve(cv, BT, C, 1);
		la->ln1_rstd = carve(cv, BT, 1, 1);
		la->q_raw = carve(cv, BT, C, 1);
		la->k_raw = carve(cv, BT, C, 1);
		la->q_rstd = carve(cv, BT, d->NH, 1);
		la->k_rstd = carve(cv, BT, d->NH, 1);
		la->q = carve(cv, BT, C, 1);
		la->k = carve(cv, BT, C, 1);
		la->v = carve(cv, BT, C, 1);
		la->att = carve(cv, (size_t)m->B * d->NH, d->T, d->T);
		la->atty = carve(cv, BT, C, 1);
		la->x_mid = carve(cv, BT, C, 1);
		la->ln2 = carve(cv, BT, C, 1);
		la->ln2_rstd = carve(cv, BT, 1, 1);
		la->fc = carve(cv, BT, F, 1);
		la->act = carve(cv, BT, F, 1);
	}
	a->x_out = carve(cv, BT, C, 1);
	a->lnf = carve(cv, BT, C, 1);
	a->lnf_rstd = carve(cv, BT, 1, 1);
	a->logits = carve(cv, BT, d->V, 1);
	a->probs = carve(cv, BT, d->V, 1);
	a->losses = carve(cv, BT, 1, 1);
	a->dres = carve(cv, BT, C, 1);
	a->dx = carve(cv, BT, C, 1);
	a->dq = carve(cv, BT, C, 1);
	a->dk = carve(cv, BT, C, 1);
	a->dv = carve(cv, BT, C, 1);
	a->dqn = carve(cv, BT, C, 1);
	a->dkn = carve(cv, BT, C, 1);
	a->datt = carve(cv, (size_t)m->B * d->NH, d->T, d->T);
	a->datty = carve(cv, BT, C, 1);
	a->dfc = carve(cv, BT, F, 1);
	a->dact = carve(cv, BT, F, 1);
	a->dlogits = a->probs; /* softcap_xent_backward may overwrite probs */
}

/* malloc of n floats with overflow check; NULL on failure. */
static float *alloc_floats(size_t n)
{
	size_t bytes;
	if (!n || !mul_ok(&bytes, n, sizeof(float)))
		return NULL;
	return malloc(bytes);
}

int model_init(struct model *m, const struct model_dims *d, int B)
{
	struct carver cv = { NULL, 0, 0 };
	memset(m, 0, sizeof(*m));
	m->d = *d;
	m->B = B;
	if (param_layout_init(&m->pl, d))
		goto oom;
	m->a.layer = calloc((size_t)d->L, sizeof(*m->a.layer));
	size_t bt;
	if (!m->a.layer || !mul_ok(&bt, (size_t)B, (size_t)d->T))
		goto oom;
	layout_acts(m, &cv);
	m->params = alloc_floats(m->pl.total);
	m->grads = alloc_floats(m->pl.total);
	m->act_mem = cv.overflow ? NULL : alloc_floats(cv.used);
	m->inputs = malloc(bt * sizeof(int));
	m->targets = malloc(bt * sizeof(int));
	if (!m->params || !m->grads || !m->act_mem || !m->inputs || !m->targets)
		goto oom;
	cv = (struct carver){ m->act_mem, 0, 0 };
	layout_acts(m, &cv);
	memset(m->params, 0, m->pl.total * sizeof(float));
	model_zero_grad(m);
	return 0;
oom:
	model_release(m);
	errno = ENOMEM;
	return -1;
}

size_t model_bytes_needed(const struct model_dims *d, int B)
{
	struct model m;
	struct carver cv = { NULL, 0, 0 };
	size_t total = SIZE_MAX;
	memset(&m, 0, sizeof(m));
	m.d = *d;
	m.B = B;
	m.a.layer = calloc((size_t)d->L, sizeof(*m.a.layer));
	if (!m.a.layer || param_layout_init(&m.pl, d))
		goto out;
	layout_acts(&m, &cv);
	size_t floats, bt;
	if (cv.overflow || __builtin_add_overflow(cv.used, 2 * m.pl.total, &floats) ||
	    !mul_ok(&bt, (size_t)B, (size_t)d->T) || !mul_ok(&total, floats, sizeof(float)) ||
	    __builtin_add_overflow(total, 2 * bt * sizeof(int), &total))
		total = SIZE_MAX;
out:
	free(m.a.layer);
	param_layout_release(&m.pl);
	return total;
}

void model_release(struct model *m)
{
	free(m->params);
	free(m->grads);
	free(m->act_mem);
	free(m->inputs);
	free(m->targets);
	free(m->a.layer);
	param_layout_release(&m->pl);
	memset(m, 0, sizeof(*m));
}

size_t model_num_params(const struct model *m)
{
	return m->pl.total;
}

double model_flops_per_token(const struct model_dims *d)
{
	double C = d->C, matrix = d->L * (4.0 * C * C + 2.0 * C * d->F) + (double)d->V * C;
	return 6.0 * matrix + 12.0 * d->L * (double)d->T * C;
}

void model_init_weights(struct model *m, uint64_t seed)
{
	uint64_t s = seed;
	for (int i = 0; i < m->pl.ntensors; i++) {
		const struct param_tensor *t = &m->pl.t[i];
		float *p = m->params + t->offset;
		size_t n = (size_t)t->rows * t->cols;
		int zero = str_ends_with(t->name, ".wo") || str_ends_with(t->name, ".wproj");
		double bound = sqrt(3.0 / t->cols);
		for (size_t j = 0; j < n; j++) {
			if (t->group == PG_EMBEDDING)
				p[j] = (float)rng_gauss(&s);
			else if (t->group == PG_UNEMBEDDING)
				p[j] = (float)(0.001 * rng_gauss(&s));
			else
				p[j] = zero ? 0.0f : (float)((2.0 * rng_uniform(&s) - 1.0) * bound);
		}
	}
}

void model_zero_grad(struct model *m)
{
	memset(m->grads, 0, m->pl.total * sizeof(float));
}

static void add_into(float *x, const float *y, size_t n)
{
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++)
		x[i] += y[i];
}

static void zero(float *x, size_t n)
{
	memset(x, 0, n * sizeof(float));
}

/* One block: x_in -> out (= the next layer's x_in or x_out). */
static void block_forward(struct model *m, int l, float *out, int B, int T)
{
	const struct model_dims *d = &m->d;
	struct layer_acts *la = &m->a.layer[l];
	int N = B * T, C = d->C;
	const float *P = m->params;
	#define W(which) (P + param_offset(&m->pl, l, which))
	rmsnorm_forward(la->ln1, la->ln1_rstd, la->x_in, N, C);
	matmul_forward(la->q_raw, la->ln1, W(LP_WQ), N, C, C);
	matmul_forward(la->k_raw, la->ln1, W(LP_WK), N, C, C);
	matmul_forward(la->v, la->ln1, W(LP_WV), N, C, C);
	const float *q = la->q_raw, *k = la->k_raw;
	if (d->qk_norm) {
		rmsnorm_forward(la->q, la->q_rstd, la->q_raw, N * d->NH, d->HS);
		rmsnorm_forward(la->k, la->k_rstd, la->k_raw, N * d->NH, d->HS);
		q = la->q;
		k = la->k;
	}
	rotary_forward(la->q, q, B, T, d->NH, d->HS);
	rotary_forward(la->k, k, B, T, d->NH, d->HS);
	attention_forward(la->atty, la->att, la->q, la->k, la->v, B, T, d->NH, d->HS);
	matmul_forward(la->x_mid, la->atty, W(LP_WO), N, C, C);
	add_into(la->x_mid, la->x_in, (size_t)N * C);
	rmsnorm_forward(la->ln2, la->ln2_rstd, la->x_mid, N, C);
	matmul_forward(la->fc, la->ln2, W(LP_WFC), N, C, d->F);
	relu2_forward(la->act, la->fc, (size_t)N * d->F);
	matmul_forward(out, la->act, W(LP_WPROJ), N, d->F, C);
	add_into(out, la->x_mid, (size_t)N * C);
	#undef W
}

float model_forward(struct model *m, const int *inputs, const int *targets, int B, int T)
{
	const struct model_dims *d = &m->d;
	struct acts *a = &m->a;
	int N = B * T;
	m->cur_B = B;
	m->cur_T = T;
	memcpy(m->inputs, inputs, sizeof(int) * N);
	if (targets)
		memcpy(m->targets, targets, sizeof(int) * N);
	encoder_forward(a->layer[0].x_in, inputs, m->params + m->pl.wte, B, T, d->C);
	for (int l = 0; l < d->L; l++)
		block_forward(m, l, l + 1 < d->L ? a->layer[l + 1].x_in : a->x_out, B, T);
	rmsnorm_forward(a->lnf, a->lnf_rstd, a->x_out, N, d->C);
	matmul_forward(a->logits, a->lnf, m->params + m->pl.lm_head, N, d->C, d->V);
	softcap_xent_forward(a->losses, a->probs, a->logits, targets ? m->targets : NULL, d->softcap,
			     N, d->V);
	if (!targets)
		return m->loss = NAN;
	double sum = 0.0; /* fixed order: deterministic */
	for (int i = 0; i < N; i++)
		sum += a->losses[i];
	return m->loss = (float)(sum / N);
}

/* One block backward: a->dres holds d loss / d(block output) on entry and
 * d loss / d(x_in) on return. */
static void block_backward(struct model *m, int l, int B, int T)
{
	const struct model_dims *d = &m->d;
	struct layer_acts *la = &m->a.layer[l];
	struct acts *a = &m->a;
	size_t N = (size_t)B * T, C = d->C, F = d->F;
	const float *P = m->params;
	float *G = m->grads;
	#define W(which) (P + param_offset(&m->pl, l, which))
	#define DW(which) (G + param_offset(&m->pl, l, which))
	/* MLP: out = x_mid + relu2(rmsnorm(x_mid) Wfc^T) Wproj^T */
	zero(a->dact, N * F);
	matmul_backward(a->dact, DW(LP_WPROJ), a->dres, la->act, W(LP_WPROJ), N, F, C);
	zero(a->dfc, N * F);
	relu2_backward(a->dfc, a->dact, la->fc, N * F);
	zero(a->dx, N * C);
	matmul_backward(a->dx, DW(LP_WFC), a->dfc, la->ln2, W(LP_WFC), N, C, F);
	rmsnorm_backward(a->dres, a->dx, la->x_mid, la->ln2_rstd, N, C);
	/* attention: x_mid = x_in + attn(rmsnorm(x_in)) Wo^T */
	zero(a->datty, N * C);
	matmul_backward(a->datty, DW(LP_WO), a->dres, la->atty, W(LP_WO), N, C, C);
	zero(a->dq, N * C);
	zero(a->dk, N * C);
	zero(a->dv, N * C);
	attention_backward(a->dq, a->dk, a->dv, a->datt, a->datty, la->q, la->k, la->v, la->att,
			   B, T, d->NH, d->HS);
	rotary_backward(a->dq, a->dq, B, T, d->NH, d->HS);
	rotary_backward(a->dk, a->dk, B, T, d->NH, d->HS);
	float *dq = a->dq, *dk = a->dk;
	if (d->qk_norm) {
		zero(a->dqn, N * C);
		zero(a->dkn, N * C);
		rmsnorm_backward(a->dqn, a->dq, la->q_raw, la->q_rstd, N * d->NH, d->HS);
		rmsnorm_backward(a->dkn, a->dk, la->k_raw, la->k_rstd, N * d->NH, d->HS);
		dq = a->dqn;
		dk = a->dkn;
	}
	zero(a->dx, N * C);
	matmul_backward(a->dx, DW(LP_WQ), dq, la->ln1, W(LP_WQ), N, C, C);
	matmul_backward(a->dx, DW(LP_WK), dk, la->ln1, W(LP_WK), N, C, C);
	matmul_backward(a->dx, DW(LP_WV), a->dv, la->ln1, W(LP_WV), N, C, C);
	rmsnorm_backward(a->dres, a->dx, la->x_in, la->ln1_rstd, N, C);
	#undef W
	#undef DW
}

void model_backward(struct model *m, float scale)
{
	const struct model_dims *d = &m->d;
	struct acts *a = &m->a;
	int B = m->cur_B, T = m->cur_T, N = B * T;
	softcap_xent_backward(a->dlogits, a->probs, a->logits, m->targets, d->softcap,
			      scale / N, N, d->V);
	zero(a->dx, (size_t)N * d->C);
	matmul_backward(a->dx, m->grads + m->pl.lm_head, a->dlogits, a->lnf,
			m->params + m->pl.lm_head, N, d->C, d->V);
	zero(a->dres, (size_t)N * d->C);
	rmsnorm_backward(a->dres, a->dx, a->x_out, a->lnf_rstd, N, d->C);
	for (int l = d->L - 1; l >= 0; l--)
		block_backward(m, l, B, T);
	encoder_backward(m->grads + m->pl.wte, a->dres, m->inputs, B, T, d->C);
}
