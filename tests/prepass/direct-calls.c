/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Direct calls of every kind carry no directive, unless the target prints
   them as indirect branches (-fno-plt): then .kcfi_call_direct.  */

extern void ext_fn (int);
extern void weak_fn (int) __attribute__ ((weak));
void own_fn (int x) { __asm__ volatile ("" : : "r" (x) : "memory"); }
extern void alias_fn (int) __attribute__ ((alias ("own_fn")));
__attribute__ ((noinline)) static void
local_fn (int x)
{
  __asm__ volatile ("" : : "r" (x) : "memory");
}

void
dispatch (int sel, void (*fp) (int), int x)
{
  if (sel == 1)
    ext_fn (x);
  if (sel == 2)
    weak_fn (x);
  if (sel == 3)
    alias_fn (x);
  if (sel == 4)
    local_fn (x);
  if (sel == 5)
    fp (x);
  ext_fn (x + 1);
}
