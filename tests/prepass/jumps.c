/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Indirect jumps that are not calls: a jump table and computed gotos.
   Conditional and plain jumps and returns carry nothing.  */

extern int leaf (int);

int
dense_switch (int k)
{
  switch (k)
    {
    case 0: return leaf (11);
    case 1: return leaf (23) + 1;
    case 2: return leaf (35) * 2;
    case 3: return leaf (47) - 3;
    case 4: return leaf (59) ^ 4;
    case 5: return leaf (61) | 5;
    case 6: return leaf (73) & 6;
    case 7: return leaf (85) + 7;
    default: return 0;
    }
}

int
threaded (const unsigned char *code)
{
  static void *const ops[] = { &&op_add, &&op_dbl, &&op_end };
  int acc = 0;
  goto *ops[*code++];
op_add:
  acc += 1;
  goto *ops[*code++];
op_dbl:
  acc *= 2;
  goto *ops[*code++];
op_end:
  return acc;
}

int
loop_only (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += leaf (i) > 0 ? i : -i;
  return s;
}

/* Under CET the x86 epilogue of __builtin_eh_return cannot use ret: it
   pops the handler and jumps to it.  */
void
unwind_to (long offset, void *handler)
{
  __builtin_unwind_init ();
  __builtin_eh_return (offset, handler);
}
