/* optim.c — the model-level optimiser of optim.h: groups, learning rates,
 * clipping. The per-tensor arithmetic is in optim_ops.c (ops.h). */
#include <errno.h>
#include <omp.h>
#include "ops.h"
#include "optim.h"
#include "util.h"

#define ADAM_EPS 1e-8f

int optim_init(struct optim *o, const struct model *m, const struct config *c)
{
	size_t n = model_num_params(m), scratch = 0;
	memset(o, 0, sizeof(*o));
	o->muon = !strcmp(c->matrix_optimizer, "muon");
	for (int i = 0; i < m->pl.ntensors; i++) {
		const struct param_tensor *t = &m->pl.t[i];
		size_t s = muon_scratch_floats(t->rows, t->cols);
		if (o->muon && t->group == PG_MATRIX && s > scratch)
			scratch = s;
	}
	o->m = calloc(n, sizeof(float));
	o->v = calloc(n, sizeof(float));
	o->mom = o->muon ? calloc(n, sizeof(float)) : NULL;
	o->nthreads = omp_get_max_threads();
	o->scratch_per_thread = scratch;
	o->scratch = scratch ? calloc(scratch * (size_t)o->nthreads, sizeof(float)) : NULL;
	if (!o->m || !o->v || (o->muon && (!o->mom || !o->scratch))) {
		optim_release(o);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void optim_release(struct optim *o)
{
	free(o->m);
	free(o->v);
	free(o->mom);
	free(o->scratch);
	memset(o, 0, sizeof(*o));
}

double grad_norm(const struct model *m)
{
	double ss = 0.0;
	for (size_t i = 0; i < model_num_params(m); i++)
		ss += (double)m->grads[i] * m->grads[i];
	return sqrt(ss);
}

static double group_lr(const struct config *c, enum param_group g)
{
	switch (g) {
	case PG_EMBEDDING: return c->embedding_lr;
	case PG_UNEMBEDDING: return c->unembedding_lr;
	default: return c->matrix_lr;
	}
}

double optim_step(struct optim *o, struct model *m, const struct config *c, double lr_mult)
{
	double norm = grad_norm(m);
	if (c->grad_clip > 0 && norm > c->grad_clip) {
		float k = (float)(c->grad_clip / norm);
		for (size_t i = 0; i < model_num_params(m); i++)
			m->grads[i] *= k;
	}
	o->t++;
	/* Muon: one matrix per thread (Newton–Schulz on small matrices is too
	 * fine-grained to split: hundreds of fork/joins a step, which stall
	 * badly when the cores are shared). Each matrix is still computed by
	 * one thread in a fixed order, so results do not depend on threads. */
	if (o->muon) {
		#pragma omp parallel num_threads(o->nthreads)
		{
			float *scratch = o->scratch + o->scratch_per_thread * (size_t)omp_get_thread_num();
			#pragma omp for schedule(dynamic, 1)
			for (int i = 0; i < m->pl.ntensors; i++) {
				const struct param_tensor *t = &m->pl.t[i];
				if (t->group != PG_MATRIX)
					continue;
				muon_step(m->params + t->offset, m->grads + t->offset, o->mom + t->offset,
					  t->rows, t->cols, (float)(c->matrix_lr * lr_mult),
					  (float)c->muon_momentum, (float)c->weight_decay, scratch);
			}
		}
	}
	for (int i = 0; i < m->pl.ntensors; i++) {
		const struct param_tensor *t = &m->pl.t[i];
		if (o->muon && t->group == PG_MATRIX)
			continue;
		/* weight decay on the block matrices only, as autoresearch does */
		float wd = t->group == PG_MATRIX ? (float)c->weight_decay : 0.0f;
		adamw_step(m->params + t->offset, m->grads + t->offset, o->m + t->offset,
			   o->v + t->offset, (size_t)t->rows * t->cols,
			   (float)(group_lr(c, t->group) * lr_mult), (float)c->beta1, (float)c->beta2,
			   ADAM_EPS, wd, o->t);
	}
	return norm;
}
