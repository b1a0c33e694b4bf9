/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The functions called through pointers (tests/e2e/i386.sh). */
#include "i386.h"

int twice(int x) { return 2 * x; }
int add(int x, int y) { return x + y; }
long parse(long base, const char *s)
{
	while (*s >= '0' && *s <= '9')
		base = base * 10 + (*s++ - '0');
	return base;
}
unsigned long total(unsigned long *v, __SIZE_TYPE__ n)
{
	unsigned long t = 0;
	while (n--)
		t += *v++;
	return t;
}

int __attribute__((fastcall)) fsub(int x, int y) { return x - y; }
int __attribute__((stdcall)) ssub(int x, int y) { return x - y; }
int __attribute__((regparm(2))) rsub(int x, int y) { return x - y; }

struct ops good_ops = { twice, parse, total, fsub, ssub, rsub };
/* Each member of the wrong type: what an attacker's overwrite looks like.
 * fastcall's is the same function as stdcall, only the convention differs. */
struct ops bad_ops = { (int_fn)add, (long_fn)twice, (size_fn)parse, (fast_fn)ssub,
		       (std_fn)fsub, (reg2_fn)add };
long_fn volatile global_long = parse;
