/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One pointer value, three function types: each call must keep its own
   check.  GIMPLE tail merging and RTL cross-jumping would fold the three
   identical-looking tail calls into one.  */

union handler
{
  int (*on_int) (int *);
  int (*on_uint) (unsigned int *);
  int (*on_ulong) (unsigned long *);
};

enum width { W_INT, W_UINT, W_ULONG };

int
convert (enum width w, union handler h, void *arg)
{
  switch (w)
    {
    case W_INT: return h.on_int ((int *) arg);
    case W_UINT: return h.on_uint ((unsigned int *) arg);
    case W_ULONG: return h.on_ulong ((unsigned long *) arg);
    }
  return -1;
}
