/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Indirect calls in tail position: three become jumps unless
   -fno-optimize-sibling-calls, one never does.  Each is checked.  */

typedef long (*step_fn) (long);
typedef void (*hook_fn) (void);

struct stage { step_fn step; hook_fn done; };

long twice (long v) { return 2 * v; }
void nothing (void) { }

volatile struct stage pipeline = { twice, nothing };

__attribute__ ((noinline)) long run_step (long v) { return pipeline.step (v); }	/* tail: memory */
__attribute__ ((noinline)) long run_given (step_fn f, long v) { return f (v); }	/* tail: register */
__attribute__ ((noinline)) void run_done (void) { pipeline.done (); }		/* tail: memory */
__attribute__ ((noinline)) long
run_and_add (step_fn f, long v) { return f (v) + 1; } /* never a tail */

int
main (void)
{
  run_done ();
  return !(run_step (3) == 6 && run_given (twice, 4) == 8
	   && run_and_add (twice, 5) == 11);
}
