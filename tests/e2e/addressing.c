/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Indirect calls whose target is a memory operand of every shape: struct
   members at several offsets, array elements, a global table, a nested
   member.  kcfi-as loads each into %r11 before checking; running proves
   the load and the offsets right.  */

struct ops
{
  int (*one) (int);
  int (*two) (int, int);
  void (*none) (void);
  long (*many) (void *, void *, void *, void *, void *, void *);
  int data;
};

struct outer { long pad; struct ops inner; };

static int calls;
static int h_one (int x) { calls++; return x * 2; }
static int h_two (int x, int y) { calls++; return x + y; }
static void h_none (void) { calls++; }
static long
h_many (void *a, void *b, void *c, void *d, void *e, void *f)
{
  calls++;
  return (a != 0) + (b != 0) + (c != 0) + (d != 0) + (e != 0) + (f != 0);
}

__attribute__ ((noinline)) int
via_members (struct ops *t)
{
  int r = 0;
  for (int i = 0; i < 4; i++)
    {
      r += t->one (10);
      r += t->two (5, 7);
      t->none ();
      r += (int) t->many (t, t, t, t, t, &r);
    }
  return r;
}

typedef int (*one_fn) (int);

__attribute__ ((noinline)) int
via_array (one_fn *v, int i)
{
  return v[i] (21);
}

static struct ops table = { h_one, h_two, h_none, h_many, 0 };

__attribute__ ((noinline)) int
via_global (void)
{
  return table.one (20) + table.two (3, 4);
}

__attribute__ ((noinline)) int
via_nested (struct outer *o)
{
  return o->inner.one (15);
}

int
main (void)
{
  struct ops local = { h_one, h_two, h_none, h_many, 1 };
  one_fn v[3] = { h_one, h_one, h_one };
  struct outer o = { 0, local };
  int r = via_members (&local) + via_array (v, 2) + via_global ()
	  + via_nested (&o);
  /* 4 * (20 + 12 + 6) + 42 + 47 + 30 */
  return !(r == 271 && calls == 16 + 1 + 2 + 1);
}
