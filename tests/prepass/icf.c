/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IPA-ICF must not fold bodies that check different types: stock GCC 12
   makes via_uint an alias of via_int and use_uint a wrapper of use_int,
   so the unsigned path would check the int type.  */

extern void *target;

static __attribute__ ((noinline)) int
via_int (int *p)
{
  return ((int (*) (int *)) target) (p) + 1;
}

static __attribute__ ((noinline)) int
via_uint (unsigned int *p)
{
  return ((int (*) (unsigned int *)) target) (p) + 1;
}

int use_int (int *p) { return via_int (p); }
int use_uint (unsigned int *p) { return via_uint (p); }
