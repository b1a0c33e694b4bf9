# SPDX-License-Identifier: GPL-2.0-or-later
# Jump tables and computed gotos get .kcfi_branch_nocall; nothing else does.
. "$top_srcdir/tests/prepass/lib.sh"

jumps() {
	s=$1
	compiled "$s" &&
	[ "$(body_count '\.kcfi_branch_nocall' threaded "$s")" -ge 1 ] &&
	equal 0 "$(body_count '\.kcfi_' loop_only "$s")" "directives in loop_only" &&
	equal 0 "$(count '\.kcfi_call' "$s")" "call directives"
}
for o in $OPT_LEVELS; do
	kcc "$T/j$o.s" "$SRC/jumps.c" $o
	check "computed goto at $o" jumps "$T/j$o.s"
done
table() {	# FILE: dense_switch jumps through an annotated table
	body dense_switch "$1" | grep -A3 '\.kcfi_branch_nocall' |
		grep -qE '^[[:space:]]*(notrack[[:space:]]+)?jmp[[:space:]]*\*'
}
for o in -O2 -O3; do
	check "dense switch jumps through an annotated table at $o" table "$T/j$o.s"
done
for o in -O0 -O2; do
	kcc "$T/eh$o.s" "$SRC/jumps.c" $o -fcf-protection=full
	check "eh_return's indirect return at $o" sh -c \
		"sed -n '/^unwind_to:/,/\.size/p' '$T/eh$o.s' | grep -A2 kcfi_branch_nocall | grep -q 'jmp[[:space:]]*\*%rcx'"
done
kcc "$T/nt.s" "$SRC/jumps.c" -O2 -fno-jump-tables
check "-fno-jump-tables: no table, no directive" \
	equal 0 "$(body_count '\.kcfi_branch_nocall' dense_switch "$T/nt.s")"
check "-fno-jump-tables keeps the contract" compiled "$T/nt.s"
finish
