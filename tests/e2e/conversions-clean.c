// SPDX-License-Identifier: GPL-2.0-or-later
/* Conversions that keep the type id (tests/e2e/conversions.sh): nothing
 * to warn about, nothing for kcfi-audit --mismatches. */
typedef long mylong;
typedef int (*il_fn)(mylong);
int f(long a) { return (int)a; }
extern int g(long);
int (*fp)(long) = f;
il_fn kept = (il_fn)f;
const void *vp = (const void *)f;
union u { int (*a)(long); il_fn b; } uu = { .a = f };
int call(long x)
{
	int (*h)(mylong) = (int (*)(long))g;
	return kept(x) + h(x) + uu.b(x) + ((il_fn)(void *)f)(x);
}
/* A call of an internal function, which has no function to convert (the C
 * front end folds __builtin_mul_overflow into one: Linux's size_mul). */
int mul(unsigned long a, unsigned long b, unsigned long *r)
{
	return __builtin_mul_overflow(a, b, r);
}
