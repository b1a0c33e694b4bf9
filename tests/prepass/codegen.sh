# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin adds directives, never instructions: functions without
# indirect calls compile to exactly what plain gcc makes.
. "$top_srcdir/tests/prepass/lib.sh"

strip_kcfi() { grep -vE '^[[:space:]]*(#APP|#NO_APP|\.kcfi_)' "$1"; }
functions() { sed -n 's/^[[:space:]]*\.type[[:space:]]*\([^,]*\), @function$/\1/p' "$1"; }

# The plugin keeps ICF from folding functions of different types (and
# nocf_check ones), which shifts the numbers in .LFBn/.LFEn: not code.
renumber() { sed -E 's/\.LF([BE])[0-9]+/.LF\1#/g'; }

same_functions() {	# PLAIN.s PLUGIN.s: every function without an indirect call
	strip_kcfi "$2" >"$2.stripped"
	for f in $(functions "$1"); do
		body "$f" "$1" | grep -qE '(call|jmp)[a-z]*[[:space:]]+\*' && continue
		body "$f" "$1" | renumber >"$1.$f"
		body "$f" "$2.stripped" | renumber >"$2.$f"
		diff -u "$1.$f" "$2.$f" || return 1
	done
}
for c in codegen.c jumps.c preamble.c union-calls.c direct-calls.c; do
	for o in $OPT_LEVELS "-O2 -fpic" "-O2 -fno-plt -fpic"; do
		$CC -S $o -o "$T/plain.s" "$SRC/$c" 2>/dev/null
		kcc "$T/kcfi.s" "$SRC/$c" $o
		check "$c $o: same code" same_functions "$T/plain.s" "$T/kcfi.s"
	done
done
# Whole-file identity where nothing is called indirectly.
for o in $OPT_LEVELS; do
	$CC -S $o -o "$T/plain.s" "$SRC/codegen.c"
	kcc "$T/kcfi.s" "$SRC/codegen.c" $o
	strip_kcfi "$T/kcfi.s" >"$T/kcfi.stripped"
	check "codegen.c $o: same file" diff -u "$T/plain.s" "$T/kcfi.stripped"
done
finish
