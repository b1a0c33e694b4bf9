# SPDX-License-Identifier: GPL-2.0-or-later
# Calls through the members of one union keep three checks of three types.
. "$top_srcdir/tests/prepass/lib.sh"

three_calls() {
	compiled "$1" &&
	equal 3 "$(count '\.kcfi_call [0-9]' "$1")" "checked calls" &&
	equal 3 "$(count '(call|jmp)[a-z]*[[:space:]]+\*' "$1")" "indirect branches" &&
	equal "int (int *)
int (unsigned int *)
int (unsigned long *)" "$(call_tags "$1" | sort)" "call types"
}
for o in $OPT_LEVELS "-O2 -fno-optimize-sibling-calls"; do
	kcc "$T/u$o.s" "$SRC/union-calls.c" $o
	check "union calls at $o" three_calls "$T/u$o.s"
done
# The scenario is only worth something while stock GCC merges the calls.
$CC -O2 -S -o "$T/stock.s" "$SRC/union-calls.c"
check "stock GCC merges the three calls (else this proves nothing)" \
	equal 1 "$(count '(call|jmp)[a-z]*[[:space:]]+\*' "$T/stock.s")"
finish
