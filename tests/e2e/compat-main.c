/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit holding main: it only hands over to the caller unit.  */
#include <stdio.h>
#include "compat.h"

int
main (void)
{
  int bad = run_calls ();
  puts (bad ? "wrong results" : "all calls returned");
  return bad;
}
