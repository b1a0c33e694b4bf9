/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The caller unit: every call goes through a volatile pointer, so each one
   stays indirect and checked against the pointer's type.  */
#include "compat.h"

volatile unary_fn via_add_one, via_scale;
volatile binary_fn via_sum, via_product;
volatile load_fn via_load;
volatile measure_fn via_measure;

int
run_calls (void)
{
  int seven = 7;
  struct span s = { "kcfi", 0 };

  via_add_one = add_one;
  via_sum = sum;
  via_scale = scale;
  via_product = product;
  via_load = load;
  via_measure = measure;

  if (via_add_one (6) != 7 || via_sum (3, 4) != 7 || via_product (7, 1) != 7
      || via_load (&seven) != 7 || via_measure ("seven!!", &s) != 7
      || s.len != 7)
    return 1;
  /* Last: under COMPAT_MISMATCH this is where the program must die.  */
  return via_scale (1) != 7;
}
