/* optim.h — the model-level optimiser: AdamW for the embedding and the
 * head, AdamW or Muon for the block matrices (optim.matrix_optimizer), one
 * learning rate per group times the schedule's multiplier, optional global
 * gradient-norm clipping. The per-tensor steps are in ops.h. */
#ifndef RL_TRAINER_OPTIM_H
#define RL_TRAINER_OPTIM_H
#include "config.h"
#include "model.h"

struct optim {
	float *m, *v;      /* AdamW moments (all parameters; unused for Muon ones) */
	float *mom;        /* Muon momentum */
	float *scratch;    /* Newton–Schulz workspace, one slice per thread */
	size_t scratch_per_thread;
	int nthreads;      /* OpenMP threads at init: Muon gives each a matrix */
	int t;             /* steps taken */
	int muon;
};

/* 0 = ok; -1 with errno = ENOMEM. */
int optim_init(struct optim *o, const struct model *m, const struct config *c);
void optim_release(struct optim *o);
/* Global L2 norm of the gradients (computed in double, fixed order). */
double grad_norm(const struct model *m);
/* One step with every group's LR multiplied by lr_mult. Returns the
 * gradient norm before clipping. */
double optim_step(struct optim *o, struct model *m, const struct config *c, double lr_mult);

#endif
