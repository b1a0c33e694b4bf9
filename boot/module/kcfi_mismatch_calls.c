// SPDX-License-Identifier: GPL-2.0-only
/*
 * The permissive rows' second test module: four deliberate KCFI type
 * mismatches, one of each kind a real kernel bug takes, each called once
 * from the module's init.  A permissive kernel (CONFIG_CFI_PERMISSIVE=y)
 * reports each one and goes on; boot/mismatch-judge.sh then runs
 * kcfi-audit --explain on the console and requires, per kind, the caller,
 * the target, the difference of the two prototypes and the line to fix.
 * Strict rows never load it.
 *
 * The judge finds its places by the marker comments: MISMATCH: <kind> on
 * the line where the function's address takes the wrong type (the line to
 * fix), CALL: <kind> on the indirect call, TARGET: <kind> on the target's
 * definition (kcfi_mismatch_decl.c for the decl kind).
 *
 * Every target is harmless when called with the caller's prototype: it
 * reads no argument as a pointer, and what it returns is ignored or is in
 * a register the caller does not read.  Every call stays indirect: the
 * pointer passes through OPTIMIZER_HIDE_VAR, so GCC cannot call the known
 * target directly.  The callers are noipa: no clone (.constprop, .isra)
 * renames them in the reports.  Each call is followed by a barrier(): no
 * call is a sibling call (a jmp), which would leave its caller out of the
 * call trace that names it under x86 FineIBT.
 */
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>

#define KCFI_MM_CALLER noinline __attribute__((__noipa__))

/* static-init: a cast in a static ops table's initializer. */
static int kcfi_mm_init_target(long v)	/* TARGET: static-init */
{
	return (int)(v & 1);
}

struct kcfi_mm_ops {
	void (*run)(int *);
};

static const struct kcfi_mm_ops kcfi_mm_ops = {
	.run = (void (*)(int *))kcfi_mm_init_target,	/* MISMATCH: static-init */
};

static KCFI_MM_CALLER void kcfi_mm_call_static_init(int *arg)
{
	void (*run)(int *) = kcfi_mm_ops.run;

	OPTIMIZER_HIDE_VAR(run);
	run(arg);	/* CALL: static-init */
	barrier();
}

/* void*: the address kept as void * and cast back to another type. */
static int kcfi_mm_void_target(char *s)	/* TARGET: void* */
{
	return s != NULL;
}

static KCFI_MM_CALLER int kcfi_mm_call_void(const char *s)
{
	void *slot = (void *)kcfi_mm_void_target;
	int (*fn)(const char *);
	int r;

	fn = (int (*)(const char *))slot;	/* MISMATCH: void* */
	OPTIMIZER_HIDE_VAR(fn);
	r = fn(s);	/* CALL: void* */
	barrier();
	return r;
}

/* union: stored through one member, called through another. */
static void kcfi_mm_union_target(unsigned int v)	/* TARGET: union */
{
	barrier_data(&v);
}

union kcfi_mm_handler {
	void (*take_int)(int);
	void (*take_uint)(unsigned int);
};

static union kcfi_mm_handler kcfi_mm_handler;

static KCFI_MM_CALLER void kcfi_mm_call_union(int v)
{
	void (*fn)(int);

	kcfi_mm_handler.take_uint = kcfi_mm_union_target;	/* MISMATCH: union */
	fn = kcfi_mm_handler.take_int;
	OPTIMIZER_HIDE_VAR(fn);
	fn(v);	/* CALL: union */
	barrier();
}

/* decl: declared here with two parameters, defined in
 * kcfi_mismatch_decl.c with one. */
int kcfi_mm_decl_target(int *p, int extra);

static KCFI_MM_CALLER int kcfi_mm_call_decl(int *p)
{
	int (*fn)(int *, int) = kcfi_mm_decl_target;	/* MISMATCH: decl */
	int r;

	OPTIMIZER_HIDE_VAR(fn);
	r = fn(p, 1);	/* CALL: decl */
	barrier();
	return r;
}

static int __init kcfi_mismatch_init(void)
{
	int x = 0;

	pr_info("kcfi_mismatch: making 4 mismatched indirect calls\n");
	kcfi_mm_call_static_init(&x);
	kcfi_mm_call_void("kcfi");
	kcfi_mm_call_union(-1);
	kcfi_mm_call_decl(&x);
	pr_info("kcfi_mismatch: survived 4 mismatched indirect calls\n");
	return 0;
}

module_init(kcfi_mismatch_init);
MODULE_DESCRIPTION("kcfi-as boot test: deliberate KCFI type mismatches for kcfi-audit --explain");
MODULE_LICENSE("GPL");
