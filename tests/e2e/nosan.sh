#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# no_sanitize("kcfi"): the calls written in such a body are unchecked, also
# where it is inlined; calls inlined from a checked body stay checked.  The
# functions themselves keep their preambles.
. "$top_srcdir/tests/e2e/lib.sh"

# -ffunction-sections puts each function's traps in its own section.
where() {
	s=$1
	decoded "$s" &&
	equal 2 "$(n_traps "$s")" "checks" &&
	grep -q '^trap \.text\.plain_host+' "$s.chk" &&
	grep -q '^trap \.text\.exempt_host_of_plain+' "$s.chk" &&
	[ -n "$(preamble "$s" exempt_host)" ] && [ -n "$(preamble "$s" plain_host_of_exempt)" ] &&
	adjacent "$s"
}
for o in $OPT_LEVELS; do
	kgcc $o -ffunction-sections -Wall -Wextra -c -o "$T/i$o.o" "$top_srcdir/tests/prepass/nosan-inline.c" &&
	check "checks only where no_sanitize does not reach at $o" where "$T/i$o.o" ||
		fail "nosan-inline.c builds at $o"
	check "no_sanitize(\"kcfi\") draws no warning at $o" sh -c "test ! -s '$T/kgcc.err'"

	exe=$T/run$o
	if kgcc $o -o "$exe" "$E2E/nosan-run.c" && run_to_sigill "$exe"; then
		check "exempt calls (also inlined) ran at $o" grep -qx 'exempt calls ran: 11' "$T/run.out"
		check "the checked call inlined into an exempt host traps at $o" listed_trap "$exe" "$(id FviE)"
	else
		fail "nosan-run.c runs to its trap at $o"
	fi
done
finish
