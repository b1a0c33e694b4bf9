// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/prepass/ipa-ra.sh: callers that can keep their arguments in
   call-clobbered registers across a call only if they know which registers
   the callee clobbers (-fipa-ra).  */
__attribute__ ((noinline)) static long leaf (long x) { return x * 3 + 1; }

long keep (long a, long b, long c) { return leaf (a) + b + c; }

/* Its own optimize attribute: compiling it switches the options away from
   the unit's and back.  */
__attribute__ ((optimize ("O2"))) long switched (long a) { return leaf (a) + 1; }

long keep_after (long a, long b, long c) { return leaf (a) - b - c; }

#ifdef TRACED
/* Nops after its entry: a patched entry may call anything.  */
__attribute__ ((noinline, patchable_function_entry (13, 11))) static long
traced (long x) { return x * 5 + 2; }

long keep_traced (long a, long b, long c) { return traced (a) + b + c; }
#endif
