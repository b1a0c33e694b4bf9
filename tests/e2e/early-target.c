/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checked calls whose target is set among other work: the plugin moves the
 * insn that sets the target's register above the argument set-up
 * (prepass/early-target.cc), and must leave it below anything it may not
 * pass: a store that may alias its load, an asm, a write of its address. */
struct ops {
	long (*three)(long, long, long);
	long (*one)(long);
	long seen;
};

/* The arguments are shuffled and computed: work the load can go above. */
long shuffle(struct ops *o, long a, long b)
{
	return o->three(b, a + 3, 7) + 1;
}

/* The target comes from a register another argument needs moved. */
long copied(long (*f)(long, long, long), long a, long b)
{
	return f(b, a, a + b) * 2;
}

/* *p may be o->one: the load must stay below the store. */
long after_store(struct ops *o, long (**p)(long), long (*f)(long), long v)
{
	*p = f;
	return o->one(v + 5);
}

/* A load passes no volatile access (READ_ONCE). */
long after_volatile(struct ops *o, long v)
{
	long seen = *(volatile long *)&o->seen;
	return o->one(v + seen);
}

/* Nothing passes an asm. */
long after_asm(struct ops *o, long v)
{
	long w = v * 3;
	__asm__ volatile("nop; nop; nop" ::: "memory");
	return o->one(w);
}

/* The address of the target is computed right before: the load stays below. */
long indexed(struct ops *tab, long i, long v)
{
	return tab[i + 1].one(v - 1);
}

#ifdef EARLY_TARGET_MAIN
static long add3(long a, long b, long c) { return 100 * a + 10 * b + c; }
static long neg(long v) { return -v; }
static long twice(long v) { return 2 * v; }

int main(void)
{
	struct ops o[3] = { { add3, neg, 0 }, { add3, twice, 0 }, { add3, neg, 0 } };
	if (shuffle(&o[0], 1, 2) != 200 + 40 + 7 + 1)
		return 1;
	if (copied(add3, 1, 2) != 2 * (200 + 10 + 3))
		return 2;
	/* The store replaces the target: the call must see the new one. */
	if (after_store(&o[0], &o[0].one, twice, 4) != 2 * (4 + 5))
		return 3;
	o[1].seen = 3;
	if (after_volatile(&o[1], 4) != 14)
		return 6;
	if (after_asm(&o[1], 4) != 24)
		return 4;
	if (indexed(o, 1, 8) != -7 || indexed(o, 0, 8) != 14)
		return 5;
	return 0;
}
#endif
