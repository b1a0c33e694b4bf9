#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# __builtin_eh_return under -mfunction-return=thunk-extern -fcf-protection:
# GCC 12 leaves through "jmp __x86_return_thunk_rcx", an indirect jump that
# is not a call.  It takes .kcfi_branch_nocall, passes unchanged, and like
# any indirect branch is refused without one or under .kcfi_call.
. "$top_srcdir/tests/lib.sh"

V='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
body() {	# DIRECTIVE-LINE INSN
	printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\nunwind:\n%s\n\t%s\n\tret\n' "$V" "$1" "$2"
}
for reg in rcx rax r11; do
	body '	.kcfi_branch_nocall' "jmp	__x86_return_thunk_$reg" >"$T/ok.s"
	check "nocall + jmp __x86_return_thunk_$reg is accepted unchanged" sh -c \
		"'$KCFI_AS' --kcfi-save='$T/ok.out' -o '$T/ok.o' '$T/ok.s' && grep -q '^	jmp	__x86_return_thunk_$reg\$' '$T/ok.out' && ! grep -q ud2 '$T/ok.out'"
done
body '' 'jmp	__x86_return_thunk_rcx' >"$T/bare.s"
check "without an annotation it is refused" sh -c \
	"! '$KCFI_AS' -o '$T/bare.o' '$T/bare.s' 2>'$T/bare.err' && grep -q 'bare.s:6: error: an indirect jump .*without a kcfi annotation' '$T/bare.err'"
body '	.kcfi_call 1' 'jmp	__x86_return_thunk_rcx' >"$T/call.s"
check "under .kcfi_call it is refused" sh -c \
	"! '$KCFI_AS' -o '$T/call.o' '$T/call.s' 2>'$T/call.err' && grep -q 'call.s:6: error: .*indirect return' '$T/call.err'"
body '' 'jmp	__x86_return_thunk' >"$T/plain.s"
check "the plain return thunk is a return, not an indirect branch" \
	"$KCFI_AS" -o "$T/plain.o" "$T/plain.s"

# What GCC writes, through kcfi-gcc, at every level.
[ -f "${KCFI_PLUGIN:-}" ] || finish
for o in $OPT_LEVELS; do
	check "eh_return with return thunks and CET builds at $o" sh -c \
		"'$KCFI_GCC' -fsanitize=kcfi $o -mfunction-return=thunk-extern -mindirect-branch=thunk-extern -fcf-protection=full -c -o '$T/j.o' '$top_srcdir/tests/prepass/jumps.c' && objdump -dr '$T/j.o' | grep -q 'R_X86_64_PLT32[[:space:]]*__x86_return_thunk_rcx'"
done
finish
