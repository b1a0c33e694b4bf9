/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target unit: each function here is called from the caller unit through
   a pointer, so each carries a preamble with its own type's id.  */
#include "compat.h"

int add_one (int v) { return v + 1; }
int sum (int a, int b) { return a + b; }
int scale (SCALE_ARG v) { return (int) v * 7; }
int product (int a, int b) { return a * b; }
int load (int *const p) { return *p; }

unsigned long
measure (const char *text, struct span *out)
{
  unsigned long n = 0;
  while (text[n])
    n++;
  out->text = text;
  out->len = n;
  return n;
}
