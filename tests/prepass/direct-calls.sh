# SPDX-License-Identifier: GPL-2.0-or-later
# Direct calls: no directive, except where the target prints them as
# indirect branches (-fno-plt), which then carry .kcfi_call_direct.
. "$top_srcdir/tests/prepass/lib.sh"

only_indirect() {
	compiled "$1" &&
	equal 1 "$(count '\.kcfi_call [0-9]' "$1")" "checked calls" &&
	equal 0 "$(count '\.kcfi_call_direct' "$1")" "direct-call directives"
}
got_direct() {
	compiled "$1" &&
	equal 1 "$(count '\.kcfi_call [0-9]' "$1")" "checked calls" &&
	has '(call|jmp)[[:space:]]+\*ext_fn@GOTPCREL' "$1" &&
	[ "$(count '\.kcfi_call_direct' "$1")" -ge "$(count '(call|jmp)[[:space:]]+\*[a-z_]+@GOTPCREL' "$1")" ]
}
for o in $OPT_LEVELS; do
	kcc "$T/d$o.s" "$SRC/direct-calls.c" $o
	check "direct calls carry nothing at $o" only_indirect "$T/d$o.s"
	kcc "$T/pic$o.s" "$SRC/direct-calls.c" $o -fpic
	check "direct calls carry nothing with -fpic at $o" only_indirect "$T/pic$o.s"
	kcc "$T/np$o.s" "$SRC/direct-calls.c" $o -fno-plt -fpic
	check "GOT calls are .kcfi_call_direct with -fno-plt -fpic at $o" got_direct "$T/np$o.s"
	kcc "$T/npn$o.s" "$SRC/direct-calls.c" $o -fno-plt -fno-pic
	check "GOT calls are .kcfi_call_direct with -fno-plt at $o" got_direct "$T/npn$o.s"
done
# __builtin_apply calls a pointer no C type describes: a hard error.
printf 'void relay (void (*fn) (), void *args) { __builtin_apply (fn, args, 64); }\n' >"$T/apply.c"
refused() {
	! kcc "$T/apply.s" "$T/apply.c" "$@" &&
	grep -q "apply.c:1:.*error: kcfi: cannot tell the type" "$T/apply.s.err"
}
for o in $OPT_LEVELS; do
	check "an untyped indirect call is an error at $o" refused $o
done
finish
