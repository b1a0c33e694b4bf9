/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Indirect calls under retpolines: plain and tail calls, through a register
   and through memory, a jump table, a no_sanitize call, and a call in
   another unit (retpoline-peer.c).  With an argument ("tail" or "plain"),
   a void (int *) function is called through a long (*)(long).  */

typedef long (*step_fn) (long);
typedef void (*hook_fn) (int *);

long peer_apply (step_fn f, long v);

long twice (long v) { return 2 * v; }
void count (int *n) { ++*n; }

struct stage { step_fn step; hook_fn hook; };
volatile struct stage stage = { twice, count };
void *volatile wrong = (void *) count;

__attribute__ ((noinline)) long tail_reg (step_fn f, long v) { return f (v); }
__attribute__ ((noinline)) long tail_mem (long v) { return stage.step (v); }
__attribute__ ((noinline)) long plain (step_fn f, long v) { return f (v) + 1; }
__attribute__ ((noinline, no_sanitize ("kcfi"))) long
unchecked (step_fn f, long v) { return f (v) + 2; }

__attribute__ ((noinline)) long
pick (int k, long v)
{
  switch (k)		/* a jump table at -O2 */
    {
    case 0: return v;
    case 1: return v + 11;
    case 2: return v * 3;
    case 3: return v - 7;
    case 4: return v << 2;
    case 5: return v ^ 5;
    case 6: return v + 100;
    default: return 0;
    }
}

int
main (int argc, char **argv)
{
  int n = 0;
  stage.hook (&n);
  if (argc > 1 && argv[1][0] == 't')
    return (int) tail_reg ((step_fn) wrong, 1);
  if (argc > 1)
    return (int) plain ((step_fn) wrong, 1);
  long r = tail_reg (twice, 1) + tail_mem (2) + plain (twice, 3)
	   + unchecked (twice, 4) + pick (3, 20) + pick (6, 1) + peer_apply (twice, 6);
  /* 2 + 4 + 7 + 10 + 13 + 101 + 12 */
  return !(n == 1 && r == 149);
}
