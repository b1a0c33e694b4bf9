/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checked calls whose targets are loaded just before the call: behind a
 * retpoline, x86_64's check reads the target from %r11, and the plugin
 * (-fplugin-arg-kcfi-call-reg) has GCC load it there directly. */
struct ops {
	long (*get)(long);
	void (*put)(long, long);
};
struct ops *cur;
long (*hook)(long);

/* Four checked calls, every target loaded from memory: a member, a global,
 * a member again after other calls, and a tail call. */
long loads(struct ops *o, long x)
{
	long a = o->get(x);
	long b = hook(a);
	o->put(a, b);
	return cur->get(b);
}

/* The target arrives in %rdi, which the call's own argument needs. */
long param(long (*f)(long), long x)
{
	return f(x) + 1;
}

#ifdef CALL_REG_MAIN
static long sum;
static long twice(long v) { return 2 * v; }
static long plus3(long v) { return v + 3; }
static void put(long a, long b) { sum = a + b; }
static struct ops ops = { twice, put };

int main(void)
{
	cur = &ops;
	hook = plus3;
	/* twice(5) = 10, plus3(10) = 13, sum = 23, twice(13) = 26 */
	if (loads(&ops, 5) != 26 || sum != 23)
		return 1;
	return param(plus3, 1) == 5 ? 0 : 2;
}
#endif
