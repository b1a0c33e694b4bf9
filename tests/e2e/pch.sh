#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A precompiled header changes nothing: through kcfi-gcc, the same unit with
# the header from a PCH and parsed from source gives identical rewritten
# assembly (so identical ids in preambles and checks) and identical code.
. "$top_srcdir/tests/e2e/lib.sh"

mkdir -p "$T/pch" "$T/src"
cat >"$T/src/api.h" <<'H'
struct pair { long first, second; };
typedef struct { unsigned char bytes[4]; } quad_t;
typedef int (*combine_fn) (int, int);
typedef long (*pair_fn) (const struct pair *);
typedef void (*quad_fn) (quad_t *);
static inline int apply (combine_fn f, int a, int b) { return f (a, b); }
H
cp "$T/src/api.h" "$T/pch/api.h"
cat >"$T/unit.c" <<'C'
#include "api.h"
int mix (int a, int b) { return a * 31 + b; }
long total (const struct pair *p) { return p->first + p->second; }
void zero (quad_t *q) { q->bytes[0] = 0; }
volatile combine_fn use_mix = mix;
volatile pair_fn use_total = total;
volatile quad_fn use_zero = zero;
long
drive (struct pair *p, quad_t *q)
{
  use_zero (q);
  return apply (use_mix, 1, 2) + use_total (p);
}
C
for o in $OPT_LEVELS; do
	(cd "$T/pch" && "$KCFI_GCC" -fsanitize=kcfi $o -x c-header -o api.h.gch api.h) ||
		{ fail "the PCH builds at $o"; continue; }
	kgcc $o -H -Winvalid-pch -I"$T/pch" -Wa,--kcfi-save="$T/with.s" -c -o "$T/with.o" "$T/unit.c"
	check "the PCH is used at $o" grep -q '^! .*api\.h\.gch' "$T/kgcc.err"
	kgcc $o -I"$T/src" -Wa,--kcfi-save="$T/without.s" -c -o "$T/without.o" "$T/unit.c"
	# Line markers name the compiler's temporary .s: not content.
	grep -v '^# [0-9]* "' "$T/with.s" >"$T/with.t"
	grep -v '^# [0-9]* "' "$T/without.s" >"$T/without.t"
	check "PCH or not: identical rewritten assembly at $o" cmp "$T/with.t" "$T/without.t"
	check "PCH or not: identical objects at $o" cmp "$T/with.o" "$T/without.o"
	checked() {
		decoded "$T/with.o" && equal 3 "$(n_traps "$T/with.o")" "checks" &&
		[ -n "$(preamble "$T/with.o" mix)" ] && [ -n "$(preamble "$T/with.o" zero)" ]
	}
	check "the unit is instrumented at $o" checked
done
finish
