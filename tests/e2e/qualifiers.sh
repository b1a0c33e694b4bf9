#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Parameter qualifiers at run time: top-level ones (const, restrict,
# volatile, [const N]) and typedef'd anonymous structs do not change a type
# id, so calls through pointers without them run; a const pointee does, so
# that call traps, at the check of int (int *).
. "$top_srcdir/tests/e2e/lib.sh"

for o in $OPT_LEVELS; do
	exe=$T/q$o
	if kgcc $o -o "$exe" "$E2E/qualifiers-run.c" && run_to_sigill "$exe"; then
		check "eight qualified calls ran at $o" grep -qx 'qualified calls ran: 40' "$T/run.out"
		check "the const pointee mismatch traps at $o" listed_trap "$exe" "$(id FiPiE)"
	else
		fail "qualifiers-run.c runs to its trap at $o"
	fi
done
finish
