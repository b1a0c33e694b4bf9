/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measured loops of bench/callcost.sh, compiled once by each compiler
 * (gcc, kcfi-gcc, clang-19, clang-19 -fsanitize=kcfi) with -DV=<variant>,
 * which names every symbol apart so that the four objects link into one
 * program and run side by side.  Each loop makes n indirect calls:
 *   mono:  always the same target, held in a register (a pointer the
 *          compiler cannot see through, read once before the loop);
 *   mega:  one of 64 targets, picked by a random index table;
 *   early: the target loaded from an object right before the call
 *          (ops = objs[i]->ops; ops->fn(...)), the dependent loads
 *          prepass/early-target.cc schedules early. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define N(x) CAT(x, V)

typedef long fn_t(long, long);

struct ops {
	long pad;
	fn_t *fn;
};
struct obj {
	long state;
	const struct ops *ops;
};

#define T(k) __attribute__((noinline)) long N(t##k)(long x, long y) { return x + y + k; }
#define T8(k) T(k##0) T(k##1) T(k##2) T(k##3) T(k##4) T(k##5) T(k##6) T(k##7)
T8(1) T8(2) T8(3) T8(4) T8(5) T8(6) T8(7) T8(8)

#define R(k) N(t##k),
#define R8(k) R(k##0) R(k##1) R(k##2) R(k##3) R(k##4) R(k##5) R(k##6) R(k##7)
fn_t *const N(table)[64] = { R8(1) R8(2) R8(3) R8(4) R8(5) R8(6) R8(7) R8(8) };

/* Read through a volatile object: the compilers cannot devirtualize. */
fn_t *volatile N(mono_target) = N(t10);

long N(mono)(long n)
{
	fn_t *f = N(mono_target);
	long acc = 0;
	for (long i = 0; i < n; i++)
		acc = f(acc, i);
	return acc;
}

/* idx: 4096 indices into the table (bench/callcost/main.c fills it). */
long N(mega)(long n, const unsigned char *idx)
{
	fn_t *const *volatile tp = N(table);
	fn_t *const *t = tp;
	long acc = 0;
	for (long i = 0; i < n; i++)
		acc = t[idx[i & 4095]](acc, i);
	return acc;
}

static const struct ops N(the_ops) = { 0, N(t20) };
static struct obj N(objs)[256];
struct obj *volatile N(objs_p) = N(objs);

void N(setup)(void)
{
	for (int i = 0; i < 256; i++)
		N(objs)[i].ops = &N(the_ops);
}

long N(early)(long n)
{
	struct obj *o = N(objs_p);
	long acc = 0;
	for (long i = 0; i < n; i++) {
		struct obj *p = &o[i & 255];
		acc = p->ops->fn(acc * 3 + p->state, i ^ acc);
	}
	return acc;
}
