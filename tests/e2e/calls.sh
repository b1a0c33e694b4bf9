#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Call sites in the objects kcfi-gcc writes: one check per call of the
# right type where the optimizers would merge or share them, none for direct
# calls, each check immediately in front of its transfer, tail calls checked
# as jumps, memory operands of every shape loaded into %r11.
. "$top_srcdir/tests/e2e/lib.sh"

obj() {	# NAME SRC FLAGS...: compile SRC to $T/NAME.o and decode it
	n=$1 src=$2
	shift 2
	kgcc "$@" -c -o "$T/$n.o" "$src" && decoded "$T/$n.o"
}
tag() { echo "$1" | tr -d ' =-'; }

# Tail merge: three calls through one union, three types, three checks.
I=$(id FiPiE) U=$(id FiPjE) L=$(id FiPmE)
three() {
	equal 3 "$(n_traps "$1")" "checks" &&
	equal 1 "$(n_traps "$1" "$I")" "checks of int (int *)" &&
	equal 1 "$(n_traps "$1" "$U")" "checks of int (unsigned int *)" &&
	equal 1 "$(n_traps "$1" "$L")" "checks of int (unsigned long *)" &&
	adjacent "$1"
}
for o in $OPT_LEVELS "-O2 -fno-optimize-sibling-calls"; do
	n=merge$(tag "$o")
	obj "$n" "$PRE/union-calls.c" $o && check "tail merge keeps three checks at $o" three "$T/$n.o" ||
		fail "union-calls.c at $o"
	if kgcc $o -o "$T/$n" "$E2E/tail-merge-run.c" && run_to_sigill "$T/$n"; then
		check "tail merge, run: the typed calls ran at $o" grep -qx 'typed calls ran' "$T/run.out"
		check "tail merge, run: the wrong member traps at $o" listed_trap "$T/$n" "$L"
	else
		fail "tail-merge-run.c runs to its trap at $o"
	fi
done

# Call sharing: two types inlined into one function; each keeps its checks.
A=$(id FiP4nodeP4itemiE) B=$(id FiP4nodePK4blobiE)
sharing() {
	[ "$(n_traps "$1" "$A")" -ge 1 ] && [ "$(n_traps "$1" "$B")" -ge 1 ] &&
	equal "$(n_traps "$1")" "$(( $(n_traps "$1" "$A") + $(n_traps "$1" "$B") ))" "checks of other types" &&
	adjacent "$1"
}
for o in $OPT_LEVELS; do
	n=share$(tag "$o")
	obj "$n" "$PRE/shared-calls.c" $o && check "call sharing: one check per type at $o" sharing "$T/$n.o" ||
		fail "shared-calls.c at $o"
done

# Direct calls (plain, weak, alias, static; PLT and GOT): no check at all;
# the one call through a pointer: one.
one() { equal 1 "$(n_traps "$1")" "checks" && equal 1 "$(n_traps "$1" "$(id FviE)")" "checks of void (int)" && adjacent "$1"; }
for o in $OPT_LEVELS; do
	for f in "" "-fpic" "-fpic -fno-plt"; do
		n=direct$(tag "$o$f")
		obj "$n" "$PRE/direct-calls.c" $o $f && check "direct calls unchecked at $o $f" one "$T/$n.o" ||
			fail "direct-calls.c at $o $f"
	done
done

# Tail calls: jumps when GCC makes sibling calls, calls otherwise; both checked.
transfers() {	# OBJ JUMPS CALLS
	adjacent "$1" &&
	equal "$2" "$(grep -c '^jmp' "$1.after")" "checked jumps" &&
	equal "$3" "$(grep -c '^call' "$1.after")" "checked calls"
}
for o in $OPT_LEVELS "-O2 -fno-optimize-sibling-calls"; do
	case $o in -O0|*-fno-optimize-sibling-calls) want="0 4" ;; *) want="3 1" ;; esac
	n=tail$(tag "$o")
	obj "$n" "$E2E/tail-calls.c" $o && check "tail calls at $o: $want" transfers "$T/$n.o" $want ||
		fail "tail-calls.c at $o"
	kgcc $o -o "$T/$n" "$E2E/tail-calls.c" && check "tail calls run at $o" "$T/$n"
done

# Complex addressing: every memory operand is loaded into %r11 and checked
# there (at -O0 GCC loads every pointer into a register itself, and the
# check then reads that register: never %r10 or %r12, doc/abi.md 1).
loads() {
	s=$1
	equal 0 "$(grep '^trap ' "$s.chk" | grep -c 'target=r1[02] ')" "checks on %r10/%r12" &&
	# a check reads %r11 exactly where kcfi-as loaded or moved the target there
	equal "$(grep -cE '^	movq	(([^%]|%[fg]s:)[^,]*|%r1[02]), %r11$' "$s.kcfi.s")" \
		"$(grep '^trap ' "$s.chk" | grep -c 'target=r11 ')" "checks on %r11" &&
	[ "$(n_traps "$s")" -ge 6 ] && adjacent "$s" &&
	# the original memory operand survives as the load's source
	{ [ "$2" = -O0 ] || grep -qE 'movq[[:space:]]+[^,]*\(%r[a-z0-9]+[^,]*\), %r11' "$s.kcfi.s"; }
}
for o in $OPT_LEVELS; do
	n=addr$(tag "$o")
	obj "$n" "$E2E/addressing.c" $o -Wa,--kcfi-save="$T/$n.o.kcfi.s" &&
	check "complex addressing goes through %r11 at $o" loads "$T/$n.o" $o ||
		fail "addressing.c at $o"
	kgcc $o -o "$T/$n" "$E2E/addressing.c" && check "complex addressing runs at $o" "$T/$n"
done
finish
