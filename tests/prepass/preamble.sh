# SPDX-License-Identifier: GPL-2.0-or-later
# Who gets a preamble, who gets .kcfi_extern.
. "$top_srcdir/tests/prepass/lib.sh"

preamble() {
	s=$1
	compiled "$s" &&
	# public, address-taken static, cold, renamed, main: with an id
	id=$(func_id pub_fn "$s") && [ -n "$id" ] &&
	equal "void (int)" "$(tag "$id" "$s")" "type of pub_fn" &&
	equal "$id" "$(func_id st_taken "$s")" "id of st_taken" &&
	has '\.kcfi_func cold_fn, [0-9]+$' "$s" &&
	has '\.kcfi_func custom_sym, [0-9]+$' "$s" &&
	lacks '\*custom_sym|kcfi_func renamed' "$s" &&
	has '\.kcfi_func main, [0-9]+$' "$s" &&
	has '\.kcfi_func splitter, [0-9]+$' "$s" &&
	# a static that is only called, and nocf_check: no id
	has '\.kcfi_func st_plain[.a-z0-9]*$' "$s" &&
	lacks '\.kcfi_func st_plain.*,' "$s" &&
	has '\.kcfi_func nocf_fn$' "$s" &&
	# .cold parts are not functions
	lacks '\.kcfi_func [^ ]*\.cold' "$s" &&
	# address-taken declarations only
	id=$(sed -n 's/.*\.kcfi_extern ext_taken, \([0-9]*\)$/\1/p' "$s") &&
	equal "void (void)" "$(tag "$id" "$s")" "type of ext_taken" &&
	equal 1 "$(count '\.kcfi_extern' "$s")" ".kcfi_extern lines"
}

for o in $OPT_LEVELS; do
	kcc "$T/p$o.s" "$SRC/preamble.c" $o
	check "preambles and externs at $o" preamble "$T/p$o.s"
done
kcc "$T/cold.s" "$SRC/preamble.c" -O2 -freorder-blocks-and-partition
check "a .cold part exists and has no preamble" \
	sh -c "grep -q '^splitter.cold:' '$T/cold.s' && ! grep -q 'kcfi_func splitter.cold' '$T/cold.s'"
# Without -fcf-protection stock GCC drops nocf_check with a warning.
kcc "$T/cet.s" "$SRC/preamble.c" -O2 -fcf-protection=branch
check "nocf_check with -fcf-protection" preamble "$T/cet.s"
finish
