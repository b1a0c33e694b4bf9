/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tests/e2e/i386.sh: a program in three units, each of which may come from
 * kcfi-gcc -m32, i686-linux-gnu-kcfi-gcc or clang-22 -m32.  No libc header:
 * the native gcc -m32 may have no 32-bit headers (Debian's multilib
 * packages conflict with the cross compilers). */
typedef int (*int_fn)(int);
typedef long (*long_fn)(long, const char *);
typedef unsigned long (*size_fn)(unsigned long *, __SIZE_TYPE__);
/* i386's calling conventions: fastcall and stdcall are part of the type
 * (Clang mangles them), regparm is not; fastcall passes in %ecx and %edx,
 * regparm(2) in %eax and %edx, so a check loads a target from memory into
 * another register. */
typedef int (__attribute__((fastcall)) *fast_fn)(int, int);
typedef int (__attribute__((stdcall)) *std_fn)(int, int);
typedef int (__attribute__((regparm(2))) *reg2_fn)(int, int);

struct ops {
	int_fn i;
	long_fn l;
	size_fn s;
	fast_fn f;
	std_fn st;
	reg2_fn r2;
};

/* i386-targets.c */
int twice(int);
int add(int, int);
long parse(long, const char *);
unsigned long total(unsigned long *, __SIZE_TYPE__);
int __attribute__((fastcall)) fsub(int, int);
int __attribute__((stdcall)) ssub(int, int);
int __attribute__((regparm(2))) rsub(int, int);
extern struct ops good_ops, bad_ops;
extern long_fn volatile global_long;	/* opaque even to -flto */

/* i386-callers.c: the indirect calls, through a register, through memory
 * (a struct member, a global) and as sibcalls. */
int call_reg(int_fn f, int x);
int tail_reg(int_fn f, int x);
long call_mem(struct ops *o, long x);
int tail_mem(struct ops *o, int x);
unsigned long call_size(struct ops *o, unsigned long *v, __SIZE_TYPE__ n);
long call_global(long x);
int call_conv(struct ops *o);
