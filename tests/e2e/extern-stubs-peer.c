/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Another unit, or a shared library, handing out libc's addresses
 * (tests/e2e/extern-stubs.sh). */
#include <stdlib.h>
#include <string.h>

typedef void free_fn(void *);
typedef int cmp_fn(const char *, const char *);

/* A function of the program's own, whose address the other unit takes
 * knowing only its declaration. */
int peer_twice(int x)
{
	return 2 * x;
}

int (*peer_twice_addr(void))(int)
{
	int (*volatile f)(int) = peer_twice;
	return f;
}

int peer_thrice(int x)
{
	return 3 * x;
}

int (*peer_thrice_addr(void))(int)
{
	int (*volatile f)(int) = peer_thrice;
	return f;
}

free_fn *peer_free(void)
{
	free_fn *volatile f = free;
	return f;
}

cmp_fn *peer_strcmp(void)
{
	cmp_fn *volatile f = strcmp;
	return f;
}
