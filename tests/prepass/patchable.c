/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A patchable_function_entry attribute whose prefix differs from the TU's
   would move this function's entry away from where callers check.  */

__attribute__ ((patchable_function_entry (4, 2))) int
moved_entry (void)
{
  return 42;
}
