/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Built with -fpatchable-function-entry=N,M: the checks load the id from
   f-(M+4), where the preamble put it, so matched calls run.  */

typedef int (*op_fn) (int, int);

int add (int a, int b) { return a + b; }
static int sub (int a, int b) { return a - b; }
void idle (void) { }

op_fn volatile ops[2] = { add, sub };
void (*volatile idler) (void) = idle;

int
main (void)
{
  idler ();
  return !(ops[0] (40, 2) == 42 && ops[1] (44, 2) == 42);
}
