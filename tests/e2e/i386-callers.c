/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The indirect calls (tests/e2e/i386.sh); GCC -m32 makes most of them
 * through memory ("call *4(%eax)", "jmp *(%eax)"). */
#include "i386.h"

int call_reg(int_fn f, int x) { return f(x) + 1; }
int tail_reg(int_fn f, int x) { return f(x); }
long call_mem(struct ops *o, long x) { return o->l(x, "42") + 1; }
int tail_mem(struct ops *o, int x) { return o->i(x); }
unsigned long call_size(struct ops *o, unsigned long *v, __SIZE_TYPE__ n) { return o->s(v, n) * 3; }
long call_global(long x) { return global_long(x, "7") - 1; }
int call_conv(struct ops *o) { return o->f(9, 2) * 100 + o->st(9, 3) * 10 + o->r2(9, 4); }
