/* rng.h — the trainer's one random number generator (splitmix64): weight
 * initialisation and batch sampling. Header-only, no state beyond the
 * caller's uint64_t, so a run is reproducible from train.seed alone. */
#ifndef RL_TRAINER_RNG_H
#define RL_TRAINER_RNG_H
#include <math.h>
#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1): 53 random bits, offset by half a step so log() is safe. */
static inline double rng_uniform(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal (Box–Muller, one value per call). */
static inline double rng_gauss(uint64_t *s)
{
	double u1 = rng_uniform(s), u2 = rng_uniform(s);
	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

#endif
