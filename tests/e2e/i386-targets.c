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

struct ops good_ops = { twice, parse, total };
/* Each member of the wrong type: what an attacker's overwrite looks like. */
struct ops bad_ops = { (int_fn)add, (long_fn)twice, (size_fn)parse };
long_fn global_long = parse;
