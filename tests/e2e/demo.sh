#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's demo at every level: the matched indirect call runs; the
# mismatched one (an int (int *) function called through a void (*)(int *))
# dies of SIGILL at a ud2 that .kcfi_traps lists, behind the 12 bytes Linux
# decodes, with the id of the pointer's type.
. "$top_srcdir/tests/e2e/lib.sh"

H=$(id FvPiE)			# void (int *)
for o in $OPT_LEVELS; do
	exe=$T/demo$o
	if ! kgcc $o -o "$exe" "$top_srcdir/demo/demo.c"; then
		fail "demo builds at $o"; continue
	fi
	if ! run_to_sigill "$exe"; then
		fail "demo at $o dies of SIGILL"; continue
	fi
	pass "demo at $o dies of SIGILL"
	check "the matched call ran first at $o" grep -q '^matched call: .*events = 1' "$T/run.out"
	check "nothing ran past the mismatched call at $o" sh -c "! grep -q 'NOT caught' '$T/run.out'"
	vaddr=$(sed -n 's/^sigill vaddr=\(0x[0-9a-f]*\) .*/\1/p' "$T/sigill.txt")
	bytes=$(sed -n 's/.* bytes=\([0-9a-f]*\)$/\1/p' "$T/sigill.txt")
	kcfi_trap_addrs "$exe" >"$T/traps.txt"
	check "the faulting ud2 at $vaddr is listed in .kcfi_traps at $o" \
		grep -qx "$vaddr" "$T/traps.txt"
	check "the 12 bytes before it check $H at -4 at $o" \
		trap_bytes_ok "$bytes" "$H" 0
	# Only dispatch() calls indirectly: one trap, and kcfi-elfcheck agrees.
	check "one trap in the program, decodable, at $o" sh -c \
		"'$ELFCHECK' '$exe' >'$exe.chk' && [ \$(grep -c '^trap .*type=$H target=r[a-z0-9]* disp=-4' '$exe.chk') -eq 1 ] && [ \$(wc -l <'$T/traps.txt') -eq 1 ]"
done
finish
