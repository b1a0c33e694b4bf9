/* SPDX-License-Identifier: GPL-2.0-or-later */
/* GNU C nested functions under -fsanitize=kcfi (tests/e2e/nested.sh).
   -DREFUSE: the places marked REFUSED take a nested function's address,
   which is a stack trampoline with no type id; each must be an error.
   Otherwise: direct calls, and the no_sanitize("kcfi") opt-out, run.  */
#include <stdio.h>

static int __attribute__((noipa)) checked_apply(int (*fp)(int), int x)
{
	return fp(x);
}

#ifdef REFUSE
int passed_on(int k)
{
	int add_k(int x) { return x + k; }
	return checked_apply(add_k, 1);			/* REFUSED add_k passed_on */
}

int stored(int k)
{
	int times_k(int x) { return x * k; }
	int (*fp)(int);
	fp = times_k;					/* REFUSED times_k stored */
	return fp(3);
}

int from_sibling(int k)
{
	int minus_k(int x) { return x - k; }
	int twice(int x) { return checked_apply(minus_k, x) * 2; }	/* REFUSED minus_k twice */
	return twice(10);
}
#else
/* Direct calls need no trampoline: they build and run.  */
int direct(int k)
{
	int add_k(int x) { return x + k; }
	int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
	int both(int x) { return add_k(fact(x)); }
	return add_k(1) + (&add_k)(2) + both(4);
}

/* The opt-out: the function that takes the address vouches that every
   call through the pointer is unchecked.  */
static int __attribute__((noipa, no_sanitize("kcfi"))) unchecked_apply(int (*fp)(int), int x)
{
	return fp(x);
}

int __attribute__((no_sanitize("kcfi"))) opted_out(int k)
{
	int add_k(int x) { return x + k; }
	int (*volatile fp)(int) = add_k;
	return fp(1) + unchecked_apply(add_k, 2);
}

/* Ordinary functions keep their checks next to all this.  */
static int square(int x) { return x * x; }

int main(int argc, char **argv)
{
	(void) argv;
	printf("direct %d\n", direct(argc + 9));
	printf("opted_out %d\n", opted_out(argc + 99));
	printf("checked %d\n", checked_apply(square, argc + 6));
	return 0;
}
#endif
