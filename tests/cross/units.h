/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Three units that see each other only through this header: the callers
 * (units-caller.c), the targets (units-targets.c) and main (units-main.c).
 * Any of the first two may come from kcfi-gcc or from Clang.  With
 * UNITS_MISMATCH the targets define scale() with another parameter type than
 * the callers believe, as a stale header would. */
#ifndef UNITS_H
#define UNITS_H

struct span { const char *text; unsigned long len; };

typedef int (*unary_fn)(int);
typedef int (*binary_fn)(int, int);
typedef int (*load_fn)(int *);
typedef unsigned long (*measure_fn)(const char *, struct span *);
typedef void (*tick_fn)(void);

/* Three pointer types in one union: stock GCC merges the three calls of
 * via_union() into one, which would leave one check for three types. */
union any_load {
	int (*as_int)(int *);
	int (*as_uint)(unsigned *);
	int (*as_ulong)(unsigned long *);
};

#ifdef UNITS_MISMATCH
#define SCALE_ARG long
#else
#define SCALE_ARG int
#endif

#if defined(__clang__)
#define UNITS_OPAQUE __attribute__((noinline))
#else
#define UNITS_OPAQUE __attribute__((noipa))
#endif

/* units-targets.c */
extern int add_one(int);
extern int sum(int, int);
extern int scale(SCALE_ARG);
extern int load(int *const);	/* the parameter's own const is not in the type */
extern unsigned long measure(const char *, struct span *);
extern void tick(void);
extern int ticks;
extern int load_int(int *);
extern int load_uint(unsigned *);
extern int load_ulong(unsigned long *);

/* units-caller.c */
int call_unary(unary_fn f, int v);		/* a call that returns here */
int tail_unary(unary_fn f, int v);		/* a sibcall */
int call_binary(binary_fn f, int a, int b);
int call_load(load_fn f, int *p);
unsigned long call_measure(measure_fn f, const char *s, struct span *sp);
void call_tick(tick_fn f);
int via_union(int kind, union any_load u, void *arg);
int run_calls(void);

#endif
