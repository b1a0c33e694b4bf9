# SPDX-License-Identifier: GPL-2.0-or-later
# Under -mindirect-branch=thunk-extern (a retpoline kernel) every checked
# call must go through the __x86_indirect_thunk_*: that is how Linux finds
# the call sites whose ids it re-randomizes for FineIBT.  The plugin drops
# indirect_branch("keep") (Linux's __noinitretpoline), as Clang ignores it.
. "$top_srcdir/tests/prepass/lib.sh"

FLAGS="-mindirect-branch=thunk-extern -mindirect-branch-register"
THUNK='^[[:space:]]*(call|jmp)[[:space:]]+__x86_indirect_thunk_'
PLAIN='^[[:space:]]*(call|jmp)[[:space:]]+\*'
thunked() {	# FILE.s FUNCTION: its indirect branches all use the thunk
	equal 0 "$(body_count "$PLAIN" "$2" "$1")" "plain indirect branches in $2" &&
	[ "$(body_count "$THUNK" "$2" "$1")" -ge 1 ] ||
		{ echo "$2 has no thunk call"; false; }
}
# The scenario is real: without the plugin GCC keeps these calls plain.
$CC -O2 $FLAGS -S -o "$T/plain.s" "$SRC/indirect-branch.c"
check "plain gcc honours keep" has "$PLAIN" "$T/plain.s"
for o in $OPT_LEVELS; do
	kcc "$T/k$o.s" "$SRC/indirect-branch.c" $o $FLAGS
	check "$o: compiles quietly" compiled "$T/k$o.s"
	for f in setup_call setup_tail setup_unchecked ordinary_call; do
		check "$o: $f goes through the thunk" thunked "$T/k$o.s" "$f"
	done
	check "$o: setup_unchecked stays unchecked" \
		equal 0 "$(body_count '\.kcfi_call [0-9]' setup_unchecked "$T/k$o.s")"
done
# Other values of the attribute are GCC's business.
printf 'extern void (*h)(void);\n__attribute__((indirect_branch("thunk-inline"))) void f(void) { h(); }\n' >"$T/inline.c"
kcc "$T/inline.s" "$T/inline.c" -O2 $FLAGS
check "thunk-inline is left alone" lacks "$THUNK" "$T/inline.s"
finish
