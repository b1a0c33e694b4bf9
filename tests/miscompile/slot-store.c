// SPDX-License-Identifier: GPL-2.0-or-later
/* Issue 41 part A: the load of a checked call's target must stay below a
 * store that writes it.  slots[1] = g writes the slot p points at (i = 1),
 * through a different base than the load's (p is laundered through a
 * volatile, so no optimizer knows it is &slots[1]).  Where sched2 did not
 * run (-O1, -Og, -fno-schedule-insns2) the alias oracle's table was stale
 * and prepass/early-target.cc hoisted the load above the store: the call
 * went to one() (prints 11) or through a wild pointer (x86_64 with
 * -funroll-loops -mindirect-branch=thunk -mindirect-branch-register died
 * of SIGSEGV).  Plain gcc prints 12 at every level. */
#include <stdio.h>
typedef long (*fn_t)(long);
long one(long x) { return 1; }
long two(long x) { return 2; }
volatile long sink;
__attribute__((noinline)) long call_slot(fn_t g, long i)
{
  fn_t slots[4] = { one, one, one, one };
  fn_t *volatile laundered = &slots[i & 3];
  fn_t *p = laundered;
  sink = (long)p;
  slots[1] = g;
  return (*p)(i) + 10;
}
int main(void) { printf("%ld\n", call_slot(two, 1)); return 0; }
