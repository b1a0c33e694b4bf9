/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The calling unit: every call here goes through a pointer. */
#include "units.h"

UNITS_OPAQUE int call_unary(unary_fn f, int v) { return f(v) + 1; }
UNITS_OPAQUE int tail_unary(unary_fn f, int v) { return f(v); }
UNITS_OPAQUE int call_binary(binary_fn f, int a, int b) { return f(a, b) * 2; }
UNITS_OPAQUE int call_load(load_fn f, int *p) { return f(p) - 1; }
UNITS_OPAQUE unsigned long call_measure(measure_fn f, const char *s, struct span *sp)
{
	return f(s, sp) + 1;
}
UNITS_OPAQUE void call_tick(tick_fn f) { f(); }

UNITS_OPAQUE int via_union(int kind, union any_load u, void *arg)
{
	switch (kind) {
	case 0:
		return u.as_int(arg);
	case 1:
		return u.as_uint(arg);
	default:
		return u.as_ulong(arg);
	}
}

/* Every call with the right target: the sum proves each one ran. */
int run_calls(void)
{
	static const char text[] = "kcfi";
	struct span sp = { 0, 0 };
	int i = 41;
	unsigned u = 5;
	unsigned long ul = 7;
	union any_load a;
	int r = 0;

	r += call_unary(add_one, 1);		/* 3 */
	r += tail_unary(scale, 2);		/* 6 */
	r += call_binary(sum, 3, 4);		/* 14 */
	r += call_load(load, &i);		/* 40 */
	r += (int)call_measure(measure, text, &sp);	/* 5 */
	call_tick(tick);
	r += ticks;				/* 1 */
	a.as_int = load_int;
	r += via_union(0, a, &i);		/* 41 */
	a.as_uint = load_uint;
	r += via_union(1, a, &u);		/* 5 */
	a.as_ulong = load_ulong;
	r += via_union(2, a, &ul);		/* 7 */
	return r;				/* 122 */
}
