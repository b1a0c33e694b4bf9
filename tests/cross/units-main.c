/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scenarios, by argv[1]:
 *   all     every call with its right target; prints "all calls returned"
 *   call    an int (int) call that returns, to sum (int (int, int))
 *   tail    the same as a sibcall
 *   union   via_union's int (int *) call to load_uint (int (unsigned *))
 * Before a call that must trap it prints "target=0x..." (the address the
 * trap report must name). */
#include <stdio.h>
#include <string.h>

#include "units.h"

/* volatile: no unit may see which function a pointer holds */
static unary_fn volatile bad_unary;
static int (*volatile bad_load)(unsigned *);

int main(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : "all";
	if (!strcmp(s, "all")) {
		int r = run_calls();
		if (r != 122) {
			printf("wrong result %d\n", r);
			return 1;
		}
		printf("all calls returned\n");
		return 0;
	}
	if (!strcmp(s, "call") || !strcmp(s, "tail")) {
		bad_unary = (unary_fn)(void *)sum;
		printf("target=%p\n", (void *)bad_unary);
		fflush(stdout);
		return s[0] == 'c' ? call_unary(bad_unary, 1) : tail_unary(bad_unary, 1);
	}
	if (!strcmp(s, "union")) {
		unsigned v = 3;
		union any_load a;
		bad_load = load_uint;
		a.as_uint = bad_load;
		printf("target=%p\n", (void *)a.as_uint);
		fflush(stdout);
		return via_union(0, a, &v);
	}
	return 2;
}
