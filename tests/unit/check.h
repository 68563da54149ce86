/* check.h — assertions for C unit tests. Each CHECK prints "ok ID - expr"
 * or "not ok ID - expr (file:line)"; main returns check_status(). */
#ifndef RL_CHECK_H
#define RL_CHECK_H
#include <stdio.h>

static int check_failures;

static inline int check_report(const char *id, const char *what, int cond, const char *file, int line)
{
	if (cond) {
		printf("ok %s - %s\n", id, what);
	} else {
		printf("not ok %s - %s (%s:%d)\n", id, what, file, line);
		check_failures++;
	}
	return cond;
}

#define CHECK(id, cond) check_report((id), #cond, !!(cond), __FILE__, __LINE__)
/* Approximate equality with the tolerance stated at the call site. */
#define CHECK_NEAR(id, a, b, tol)                                                       \
	do {                                                                            \
		double ca_ = (a), cb_ = (b);                                            \
		if (!check_report((id), #a " ~ " #b, fabs(ca_ - cb_) <= (tol), __FILE__, __LINE__)) \
			printf("#   %.10g vs %.10g (tol %g)\n", ca_, cb_, (double)(tol)); \
	} while (0)

static inline int check_status(void) { return check_failures ? 1 : 0; }
#endif
