/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tests/e2e/i386.sh's driver: "all" makes every call with matching types
 * and prints "all calls returned"; any other argument makes one call
 * through a pointer of the wrong type, which a check stops with SIGTRAP
 * (int3) before it prints "returned". */
#include "i386.h"

int printf(const char *, ...);
int strcmp(const char *, const char *);

/* Pointers the compiler cannot see through. */
static int_fn volatile wrong_int = (int_fn)add;

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "all";
	unsigned long v[3] = { 1, 2, 3 };
	if (!strcmp(what, "all")) {
		int ok = call_reg(twice, 20) == 41 && tail_reg(twice, 21) == 42 &&
			 call_mem(&good_ops, 1) == 143 && tail_mem(&good_ops, 5) == 10 &&
			 call_size(&good_ops, v, 3) == 18 && call_global(3) == 36 &&
			 call_conv(&good_ops) == 765;
		printf(ok ? "all calls returned\n" : "wrong results\n");
		return !ok;
	}
	if (!strcmp(what, "call-reg"))
		call_reg(wrong_int, 1);
	else if (!strcmp(what, "tail-reg"))
		tail_reg(wrong_int, 1);
	else if (!strcmp(what, "call-mem"))
		call_mem(&bad_ops, 1);
	else if (!strcmp(what, "tail-mem"))
		tail_mem(&bad_ops, 1);
	else if (!strcmp(what, "conv"))
		call_conv(&bad_ops);
	else if (!strcmp(what, "size"))
		call_size(&bad_ops, v, 3);
	else if (!strcmp(what, "global")) {
		global_long = (long_fn)add;
		call_global(1);
	} else {
		printf("unknown scenario %s\n", what);
		return 2;
	}
	printf("returned\n");
	return 0;
}
