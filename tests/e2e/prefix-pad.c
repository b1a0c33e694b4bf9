/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Functions with and without a preamble, in .text and in another section,
   for the padding kcfi-as puts before -fpatchable-function-entry's NOPs.  */

__attribute__ ((noinline)) static int twice (int x) { return x * 2; }
int typed_a (int x) { return twice (x) + 1; }
__attribute__ ((noinline)) static int thrice (int x) { return x * 3; }
int typed_b (int x) { return thrice (x) + twice (x); }

__attribute__ ((section (".text.other"), noinline)) static int other_local (int x) { return x - 7; }
__attribute__ ((section (".text.other"))) int other_typed (int x) { return other_local (x) * 5; }

int (*volatile pick) (int) = typed_a;
