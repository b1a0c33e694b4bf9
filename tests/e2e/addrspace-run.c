/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86 named address spaces in function types: a pointer into %gs
   (__seg_gs) is a different pointer type from a generic one, and Clang
   gives the function types different ids (U5AS256).  Calls through
   pointers of the right type run (the pointers are never dereferenced);
   the argument picks a call through the generic type, which traps.  */
#include <stdio.h>

static int gs_count (const __seg_gs int *p, int n) { return p ? n : n + 1; }
static int fs_count (__seg_fs int *p, int n) { return p ? n : n + 2; }
static int plain_count (const int *p, int n) { return p ? n : n + 3; }

int (*volatile to_gs) (const __seg_gs int *, int);
int (*volatile to_fs) (__seg_fs int *, int);
int (*volatile to_plain) (const int *, int);

int
main (int argc, char **argv)
{
  int sum = 0;
  to_gs = gs_count, sum += to_gs (0, 1);
  to_fs = fs_count, sum += to_fs (0, 1);
  to_plain = plain_count, sum += to_plain (0, 1);
  printf ("address-space calls ran: %d\n", sum);
  fflush (stdout);
  if (argc > 1)
    {
      to_plain = (int (*) (const int *, int)) gs_count;
      return to_plain (0, 1);
    }
  return 0;
}
