/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The other unit of retpoline-run.c: its check calls the same %r11 thunk.  */
typedef long (*step_fn) (long);

__attribute__ ((noinline)) long
peer_apply (step_fn f, long v)
{
  return f (v);
}
