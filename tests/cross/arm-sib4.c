/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sibcall through ip that passes four arguments in r0-r3: the check
 * saves r3 around its compare (ip is the target), so r3 still holds the
 * fourth argument when bx ip reads it.  Linux's ioremap() is such a call. */
#include <stdio.h>

typedef int (*fn4)(int, int, int, int);

static int sum4(int a, int b, int c, int d)
{
	return a + 10 * b + 100 * c + 1000 * d;
}

/* The pointer arrives in memory (fifth argument), so GCC loads it into
 * the last free register, ip, and tail-calls through it. */
__attribute__((noinline)) int tail4(int a, int b, int c, int d, fn4 f)
{
	return f(a, b, c, d);
}

fn4 volatile target = sum4;

int main(void)
{
	printf("%d\n", tail4(1, 2, 3, 4, target));
	return 0;
}
