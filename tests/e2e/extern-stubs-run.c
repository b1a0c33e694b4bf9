/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Library functions reached through pointers (tests/e2e/extern-stubs.sh).
 * argv[1] picks what to do; the program prints what it saw. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *alloc_fn(size_t, size_t);
typedef void free_fn(void *);
typedef int cmp_fn(const char *, const char *);
typedef int bad_fn(int);

/* The addresses of libc's functions as another unit sees them, or a
 * shared library (extern-stubs-peer.c). */
free_fn *peer_free(void);
cmp_fn *peer_strcmp(void);
int peer_twice(int);
int (*peer_twice_addr(void))(int);
/* A body for inlining only (as glibc's headers have some): the symbol is
 * the peer's. */
extern inline __attribute__((gnu_inline)) int peer_thrice(int x)
{
	return x + x + x;
}
int (*peer_thrice_addr(void))(int);

/* A table in static data, as libiberty's hash tables keep calloc/free. */
static struct {
	alloc_fn *alloc;
	free_fn *release;
} table = { calloc, free };

/* The address of abs under another name, through asm(). */
extern int absolute(int) __asm__("abs");
/* A weak declaration nothing defines: its address stays null. */
extern void nowhere(void) __attribute__((weak));

static int calls(void)
{
	cmp_fn *volatile cmp = strcmp;
	int (*volatile ab)(int) = absolute;
	int (*volatile tw)(int) = peer_twice;
	char *p = table.alloc(4, 4);
	int ok = p && !p[15] && cmp("a", "b") < 0 && ab(-3) == 3 && tw(21) == 42;
	table.release(p);
	return ok;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "calls";
	if (!strcmp(what, "calls")) {
		printf("calls: %s\n", calls() ? "ok" : "WRONG");
		return 0;
	}
	if (!strcmp(what, "wrong-type")) {
		bad_fn *volatile bad = (bad_fn *)(void *)free;
		return bad(1);
	}
	if (!strcmp(what, "equal")) {
		free_fn *volatile mine = free;
		printf("units: %s\n", mine == peer_free() ? "equal" : "different");
		printf("table: %s\n", mine == table.release ? "equal" : "different");
		printf("dlsym: %s\n", (void *)mine == dlsym(RTLD_DEFAULT, "free") ? "equal" : "different");
		printf("weak: %s\n", nowhere ? "non-null" : "null");
		int (*volatile own)(int) = peer_twice;
		printf("program's own: %s\n", own == peer_twice_addr() ? "equal" : "different");
		int (*volatile inl)(int) = peer_thrice;
		printf("extern inline: %s, %d\n", inl == peer_thrice_addr() ? "equal" : "different", inl(5));
		return 0;
	}
	if (!strcmp(what, "peer-call")) {
		/* A pointer made elsewhere (the peer unit or library), called here. */
		printf("peer strcmp: %s\n", peer_strcmp()("b", "a") > 0 ? "ok" : "WRONG");
		return 0;
	}
	return 2;
}
