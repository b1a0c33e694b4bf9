/* SPDX-License-Identifier: GPL-2.0-or-later */
/* no_sanitize("kcfi") at run time: the body a call is written in decides,
   also after inlining.  A target of the wrong type goes through the exempt
   calls and stops at the first checked one.  */
#include <stdio.h>

static int hits;

/* The wrong type for every caller below: they expect void (int).  */
__attribute__ ((noinline)) static long
counts (long v)
{
  hits += (int) v;
  return hits;
}

__attribute__ ((noinline, no_sanitize ("kcfi"))) void
exempt (void (*cb) (int))
{
  cb (1);
}

__attribute__ ((always_inline, no_sanitize ("kcfi"))) static inline void
exempt_body (void (*cb) (int))
{
  cb (10);
}

__attribute__ ((noinline)) void
checked_host_of_exempt (void (*cb) (int))
{
  exempt_body (cb);
}

__attribute__ ((always_inline)) static inline void
checked_body (void (*cb) (int))
{
  cb (100);
}

__attribute__ ((noinline, no_sanitize ("kcfi"))) void
exempt_host_of_checked (void (*cb) (int))
{
  checked_body (cb);
}

void (*volatile wrong) (int) = (void (*) (int)) counts;

int
main (void)
{
  exempt (wrong);
  checked_host_of_exempt (wrong);
  printf ("exempt calls ran: %d\n", hits);
  fflush (stdout);
  exempt_host_of_checked (wrong);	/* the inlined call is checked: trap */
  printf ("NOT caught: %d\n", hits);
  return 0;
}
