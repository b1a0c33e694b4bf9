/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench/callcost.sh's driver, built with plain gcc: runs the loops of
 * loops.c as built by the four compilers in turns (the order rotating every
 * round), REPS rounds of n calls each, timing each loop with the TSC, and
 * prints for every loop and variant the minimum and the median TSC ticks
 * per call, then the TSC frequency it measured against CLOCK_MONOTONIC.
 * Usage: callcost [REPS [N]] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#define DECL(v) \
	long mono_##v(long); long mega_##v(long, const unsigned char *); \
	long early_##v(long); void setup_##v(void);
DECL(gcc) DECL(kcfigcc) DECL(clang) DECL(clangcfi)

struct variant {
	const char *name;
	long (*mono)(long);
	long (*mega)(long, const unsigned char *);
	long (*early)(long);
	void (*setup)(void);
};
#define VAR(v, s) { s, mono_##v, mega_##v, early_##v, setup_##v }
static const struct variant vars[] = {
	VAR(gcc, "gcc"), VAR(kcfigcc, "kcfi-gcc"), VAR(clang, "clang"), VAR(clangcfi, "clang-cfi"),
};
#define NV 4
#define NL 3
static const char *const loops[NL] = { "mono", "mega", "early" };
static unsigned char idx[4096];
static volatile long sink;

static inline unsigned long long ticks(void)
{
	unsigned int aux;
	_mm_lfence();
	return __rdtscp(&aux);
}

static double run(const struct variant *v, int loop, long n)
{
	unsigned long long t0 = ticks();
	switch (loop) {
	case 0: sink = v->mono(n); break;
	case 1: sink = v->mega(n, idx); break;
	default: sink = v->early(n); break;
	}
	return (double)(ticks() - t0) / n;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double tsc_hz(void)
{
	struct timespec a, b;
	unsigned long long t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = ticks();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 2e8);
	t1 = ticks();
	return (t1 - t0) / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 51;
	long n = argc > 2 ? atol(argv[2]) : 1L << 20;
	unsigned int seed = 12345;
	double *t;
	int r, i, l;
	if (reps < 1 || n < 1)
		return 2;
	t = malloc(sizeof(*t) * NV * NL * reps);
	if (!t)
		return 1;
	for (i = 0; i < 4096; i++) {
		seed = seed * 1103515245u + 12345u;
		idx[i] = (seed >> 16) & 63;
	}
	for (i = 0; i < NV; i++) {
		vars[i].setup();
		for (l = 0; l < NL; l++)
			run(&vars[i], l, n / 8);	/* warm up */
	}
	for (r = 0; r < reps; r++)
		for (l = 0; l < NL; l++)
			for (i = 0; i < NV; i++) {
				int v = (i + r) % NV;
				t[(v * NL + l) * reps + r] = run(&vars[v], l, n);
			}
	for (l = 0; l < NL; l++)
		for (i = 0; i < NV; i++) {
			double *s = &t[(i * NL + l) * reps];
			qsort(s, reps, sizeof(*s), cmp_d);
			printf("%s %s min %.3f median %.3f\n", loops[l], vars[i].name, s[0], s[reps / 2]);
		}
	printf("tsc-hz %.0f\n", tsc_hz());
	return 0;
}
