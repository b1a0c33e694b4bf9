/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clang 22's -fsanitize-cfi-icall-generalize-pointers: a pointer parameter
   counts as void *, keeping its pointee's qualifiers.  A call through
   void (*)(char *) of a void (int *) function passes; through
   void (*)(const char *) it does not (const void * is another type).  The
   anonymous tags behind the pointers are never mangled, so Clang gives the
   by-value one after them the number $_0, as it would alone.  */
#include <stdio.h>

typedef struct { int a; } *anon_p;
typedef const struct { int b; } anon_c;

static int takes_int (int *p) { return p ? 1 : 2; }
static int takes_anon (anon_p p, anon_c v) { return p ? v.b : v.b + 1; }

int (*volatile to_char) (char *);
int (*volatile to_const) (const char *);
int (*volatile to_anon) (anon_p, anon_c);

int
main (int argc, char **argv)
{
  anon_c v = { 3 };
  int sum = 0;
  to_char = (int (*) (char *)) takes_int, sum += to_char (0);
  to_anon = takes_anon, sum += to_anon (0, v);
  printf ("generalized calls ran: %d\n", sum);
  fflush (stdout);
  if (argc > 1)
    {
      to_const = (int (*) (const char *)) takes_int;
      return to_const (0);
    }
  return 0;
}
