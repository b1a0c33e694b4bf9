# SPDX-License-Identifier: GPL-2.0-or-later
# Identical bodies that check different types stay apart.
. "$top_srcdir/tests/prepass/lib.sh"

own_check() {	# FUNCTION TYPE FILE
	id=$(body "$1" "$3" | sed -n 's/^[[:space:]]*\.kcfi_call \([0-9]*\).*/\1/p')
	equal "$2" "$(tag "$id" "$3")" "type checked in $1"
}
apart() {
	compiled "$1" &&
	own_check via_int "int (int *)" "$1" &&
	own_check via_uint "int (unsigned int *)" "$1" &&
	lacks 'jmp[[:space:]]+use_int|\.set[[:space:]]+use_uint' "$1"
}
for o in -O2 -O3 -Os "-O2 -fipa-icf -fno-inline"; do
	kcc "$T/i$o.s" "$SRC/icf.c" $o
	check "ICF keeps differently typed bodies at $o" apart "$T/i$o.s"
done
# The scenario is only worth something while stock GCC folds it.
$CC -O2 -S -o "$T/stock.s" "$SRC/icf.c"
check "stock GCC folds the pair (else this test proves nothing)" \
	sh -c "! grep -q '^via_uint:' '$T/stock.s'"
finish
