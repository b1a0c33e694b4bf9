/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Top-level qualifiers of parameters are not part of a function's type, and
   array parameters decay: calls through pointers written without them run.
   A qualifier below the top level is part of the type: the last call traps.  */
#include <stdio.h>

struct cell { int v; };
typedef struct { int v; } box_t;

static int by_const (int *const p) { return *p; }
static int by_restrict (int *restrict p) { return *p; }
static int by_volatile (int *volatile p) { return *p; }
static int by_array (int p[const 1]) { return p[0]; }
static int by_const_target (const int *const p) { return *p; }
static int by_cell (struct cell *const c) { return c->v; }
static int by_box (const box_t b) { return b.v; }
static int by_box_ptr (box_t *const b) { return b->v; }

int (*volatile plain) (int *);
int (*volatile to_const) (const int *);
int (*volatile to_cell) (struct cell *);
int (*volatile to_box) (box_t);
int (*volatile to_box_ptr) (box_t *);

int
main (void)
{
  int v = 5, sum = 0;
  struct cell c = { 5 };
  box_t b = { 5 };

  plain = by_const, sum += plain (&v);
  plain = by_restrict, sum += plain (&v);
  plain = by_volatile, sum += plain (&v);
  plain = by_array, sum += plain (&v);
  to_const = by_const_target, sum += to_const (&v);
  to_cell = by_cell, sum += to_cell (&c);
  to_box = by_box, sum += to_box (b);
  to_box_ptr = by_box_ptr, sum += to_box_ptr (&b);
  printf ("qualified calls ran: %d\n", sum);
  fflush (stdout);
  /* int (const int *) is not int (int *).  */
  plain = (int (*) (int *)) by_const_target;
  return plain (&v) == 5 ? 2 : 3;
}
