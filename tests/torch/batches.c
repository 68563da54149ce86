/* batches.c — prints what the trainer's own data and schedule code gives
 * for a small case, for tests/t-trainer-torch-budget.sh to compare with
 * bench/torch/train.py's copy of it: the batch windows of seed 42
 * (trainer/loop.c's seeding, trainer/data.c's draws), the validation
 * windows, and the LR multiplier of the default schedule.
 *   batches DATA_DIR B T STEPS */
#include <stdio.h>
#include <stdlib.h>
#include "config.h"
#include "data.h"
#include "run.h"

static void print_rows(const char *what, const int *x, int B, int T)
{
	for (int b = 0; b < B; b++) {
		printf("%s", what);
		for (int t = 0; t < T; t++)
			printf(" %d", x[b * T + t]);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	struct dataset ds;
	struct config c;
	if (argc != 5) {
		fprintf(stderr, "usage: batches DATA_DIR B T STEPS\n");
		return 2;
	}
	int B = atoi(argv[2]), T = atoi(argv[3]), steps = atoi(argv[4]);
	if (dataset_load(&ds, argv[1])) {
		fprintf(stderr, "batches: %s\n", ds.error);
		return 1;
	}
	config_defaults(&c);
	uint64_t rng = (uint64_t)c.seed * 0x2545F4914F6CDD1Dull + 1; /* batch_plan_init */
	int *in = malloc(sizeof(int) * B * T), *tg = malloc(sizeof(int) * B * T);
	if (!in || !tg)
		return 1;
	for (int s = 0; s < steps; s++) {
		data_train_batch(&ds, &rng, B, T, in, tg);
		print_rows("train-in", in, B, T);
		print_rows("train-tg", tg, B, T);
	}
	long nb = data_val_batches(&ds, B, T, c.eval_tokens);
	printf("val-batches %ld\n", nb);
	for (long i = 0; i < nb && i < 2; i++) {
		data_val_batch(&ds, i, B, T, in, tg);
		print_rows("val-in", in, B, T);
		print_rows("val-tg", tg, B, T);
	}
	for (int k = 0; k <= 20; k++)
		printf("lr %.2f %.9f\n", k / 20.0, lr_multiplier(&c, k / 20.0));
	free(in);
	free(tg);
	dataset_release(&ds);
	return 0;
}
