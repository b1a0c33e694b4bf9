/* SPDX-License-Identifier: GPL-2.0-or-later */
/* indirect-call N: N calls through a function pointer, for what one KCFI
 * check costs (bench/indirect-call.sh).  The pointer is read through a
 * volatile object each time, so no compiler can turn the call direct. */
#include <stdlib.h>

__attribute__((noinline)) int step(int x)
{
	return x + 1;
}

int (*volatile target)(int) = step;

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int acc = 0;
	for (long i = 0; i < n; i++)
		acc = target(acc);
	return acc == (int)n ? 0 : 1;
}
