/* optim.c — the model-level optimiser of optim.h: groups, learning rates,
 * clipping. The per-tensor arithmetic is in optim_ops.c (ops.h). */
#include <errno.h>
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
	o->scratch = scratch ? calloc(scratch, sizeof(float)) : NULL;
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
	for (int i = 0; i < m->pl.ntensors; i++) {
		const struct param_tensor *t = &m->pl.t[i];
		float lr = (float)(group_lr(c, t->group) * lr_mult);
		/* weight decay on the block matrices only, as autoresearch does */
		float wd = t->group == PG_MATRIX ? (float)c->weight_decay : 0.0f;
		float *p = m->params + t->offset;
		const float *g = m->grads + t->offset;
		if (o->muon && t->group == PG_MATRIX)
			muon_step(p, g, o->mom + t->offset, t->rows, t->cols, lr,
				  (float)c->muon_momentum, wd, o->scratch);
		else
			adamw_step(p, g, o->m + t->offset, o->v + t->offset,
				   (size_t)t->rows * t->cols, lr, (float)c->beta1, (float)c->beta2,
				   ADAM_EPS, wd, o->t);
	}
	return norm;
}
