/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One union of pointers, three types, three calls that tail merging would
   fold into one: each must be checked against its own type, so correctly
   typed targets run.  */
#include <stdio.h>

union conv
{
  int (*as_int) (int *);
  int (*as_uint) (unsigned int *);
  int (*as_ulong) (unsigned long *);
};

enum kind { K_INT, K_UINT, K_ULONG };

__attribute__ ((noipa)) int
convert (enum kind k, union conv c, void *p)
{
  switch (k)
    {
    case K_INT: return c.as_int ((int *) p);
    case K_UINT: return c.as_uint ((unsigned int *) p);
    case K_ULONG: return c.as_ulong ((unsigned long *) p);
    }
  return -1;
}

static int from_int (int *p) { return *p + 1; }
static int from_uint (unsigned int *p) { return (int) *p + 2; }
static int from_ulong (unsigned long *p) { return (int) *p + 3; }

int
main (void)
{
  int i = 10;
  unsigned int u = 10;
  unsigned long l = 10;
  union conv c;

  c.as_int = from_int;
  if (convert (K_INT, c, &i) != 11)
    return 1;
  c.as_uint = from_uint;
  if (convert (K_UINT, c, &u) != 12)
    return 2;
  c.as_ulong = from_ulong;
  if (convert (K_ULONG, c, &l) != 13)
    return 3;
  puts ("typed calls ran");
  fflush (stdout);
  /* The wrong member for the target: must trap.  */
  c.as_ulong = (int (*) (unsigned long *)) from_int;
  return convert (K_ULONG, c, &l) == 13 ? 4 : 5;
}
