/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit --explain (tests/audit/explain.sh): each indirect call here
 * reaches a function of another type, by one of the ways C allows: a cast
 * in a static initializer of an ops table, a pointer through void *, and a
 * union.  The calls are in functions of their own (noipa: no inlining, no
 * propagation of the table), so each check traps where the test says. */
struct ops {
	void (*put)(int *);
	long (*get)(long, unsigned long);
};

volatile int calls;	/* after each call: no sibcall, a return address */

union fp {
	void (*v)(int *);
	int (*i)(long);
};

int add_one(long x)
{
	return (int)x + 1;
}

static long get_two(long a, int b)
{
	return a + b;
}

static unsigned char last(const char *s, ...)
{
	return (unsigned char)s[0];
}

struct ops table = {
	.put = (void (*)(int *))add_one,
	.get = (long (*)(long, unsigned long))get_two,
};

__attribute__((noipa)) void call_put(struct ops *o, int *p)
{
	o->put(p); /* CALL put */
	calls++;
}

__attribute__((noipa)) long call_get(struct ops *o)
{
	long r = o->get(1, 2); /* CALL get */
	calls++;
	return r;
}

__attribute__((noipa)) void call_void(void *f, int *q)
{
	((void (*)(int *))f)(q); /* CALL void */
	calls++;
}

__attribute__((noipa)) void call_union(union fp *u, int *q)
{
	u->v(q); /* CALL union */
	calls++;
}

int main(int argc, char **argv)
{
	union fp u;
	int x = 0;
	u.i = add_one;
	if (argc > 5) {
		call_put(&table, &x);
		call_get(&table);
		call_void((void *)last, &x);
		call_union(&u, &x);
	}
	return argv[0][0] == 0;
}
