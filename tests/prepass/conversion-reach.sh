#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# .kcfi_conversion only from code the unit can contain (issue 44): no
# record of any kind from static inline functions nobody calls, records
# from functions emitted, inlined or only cloned, from every variable
# (conversion-reach.c's R markers), at -O0 (nothing inlined), -O2, -Os.
. "$top_srcdir/tests/prepass/lib.sh"
C=$SRC/conversion-reach.c

# The records the markers ask for: "LINE KIND:FN", sorted.
grep -n '/\* R ' "$C" | sed 's|^\([0-9]*\):.*/\* R \(.*\) \*/$|\1 \2|' |
while read -r line rest; do
	for r in $rest; do echo "$line $r"; done
done | sort >"$T/want"
[ -s "$T/want" ] || fail "no markers read from $C"

# records FILE.s: its .kcfi_conversion lines as "LINE KIND:FN", sorted.
records() {
	sed -n 's/^[[:space:]]*\.kcfi_conversion \([^,]*\), .*, \([0-9]*\), "[^"]*", \([^ ]*\)$/\2 \3:\1/p' "$1" | sort
}
# label NAME FILE.s: the unit defines NAME.
label() { grep -q "^$1:" "$2"; }

for o in -O0 -O2 -Os; do
	s=$T/r$o.s
	kcc "$s" "$C" $o
	check "$o: compiles" compiled "$s"
	records "$s" >"$T/got$o"
	check "$o: records from reached code only, decl at its first reached place" \
		diff "$T/want" "$T/got$o"
done
# The cases are what they say: the inlined function and the variables are
# not output, the cloned function only as its clone.
for o in -O2 -Os; do
	s=$T/r$o.s
	check "$o: inlined, ops and nobody are not output" \
		sh -c "! grep -qE '^(inlined|ops|nobody):' '$s'"
	check "$o: kept is output" label kept "$s"
done
check "-O2: cloned is output only as a clone" \
	sh -c "grep -q '^cloned\.[a-z]*\.[0-9]*:' '$T/r-O2.s' && ! grep -q '^cloned:' '$T/r-O2.s'"
check "-O0: nothing is inlined: inlined is output" label inlined "$T/r-O0.s"
finish
