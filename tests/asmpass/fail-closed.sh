#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every fail-closed error (README "It fails closed", doc/directives.md 1-3): a hand-written .s gives
# "file:line: error: ..." and a non-zero exit, and no object survives.
. "$top_srcdir/tests/lib.sh"

V='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'

# expect_error NAME LINE PATTERN: the input is on stdin.
expect_error() {
	name=$1 line=$2 pattern=$3
	cat >"$T/$name.s"
	echo stale >"$T/$name.o"
	if "$KCFI_AS" -o "$T/$name.o" "$T/$name.s" >"$T/$name.err" 2>&1; then
		fail "$name: accepted"; return
	fi
	if ! grep -q "^$T/$name.s:$line:\([0-9]*:\)\{0,1\} error: .*$pattern" "$T/$name.err"; then
		fail "$name: expected '$name.s:$line: error: ...$pattern', got:"
		sed 's/^/    /' "$T/$name.err"; return
	fi
	if [ -e "$T/$name.o" ]; then
		fail "$name: an object file was left behind"; return
	fi
	pass "$name"
}

expect_error unannotated-call 4 'without a kcfi annotation' <<END
$V
	.text
f:
	call	*%rax
	ret
END

expect_error unannotated-memory-jump 4 'without a kcfi annotation' <<END
$V
	.text
f:
	jmp	*8(%rdi)
END

expect_error unannotated-thunk 4 'without a kcfi annotation' <<END
$V
	.text
f:
	call	__x86_indirect_thunk_rax
END

expect_error call-then-direct 5 'must annotate an indirect branch' <<END
$V
	.kcfi_type 1, "void (void)"
f:
	.kcfi_call 1
	call	g
END

expect_error call-at-eof 4 'no branch follows' <<END
$V
	.kcfi_type 1, "void (void)"
f:
	.kcfi_call 1
END

expect_error call-then-label 5 "label 'g' between" <<END
$V
	.kcfi_type 1, "void (void)"
f:
	.kcfi_call 1
g:
	call	*%rax
END

expect_error call-then-directive 5 "directive '.p2align' between" <<END
$V
	.kcfi_type 1, "void (void)"
f:
	.kcfi_call 1
	.p2align 4
	call	*%rax
END

expect_error two-annotations 5 'between .kcfi_call' <<END
$V
	.kcfi_type 1, "void (void)"
f:
	.kcfi_call 1
	.kcfi_call_unchecked
	call	*%rax
END

expect_error nocall-before-call 4 'must annotate an indirect jump' <<END
$V
f:
	.kcfi_branch_nocall
	call	*%rax
END

expect_error unknown-version 1 'unsupported .kcfi_version' <<END
	.kcfi_version 2, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0
END

expect_error unknown-key 1 'unknown .kcfi_version key' <<END
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0, colour=red
END

expect_error missing-key 1 'needs ptr=, long=, char= and prefix=' <<END
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64
END

expect_error unknown-target 1 'no KCFI backend for target "sparc64-linux-gnu"' <<END
	.kcfi_version 1, "sparc64-linux-gnu", ptr=64, long=64, char=signed, prefix=0
END

expect_error x32 1 'no KCFI backend' <<END
	.kcfi_version 1, "x86_64-linux-gnux32", ptr=32, long=32, char=signed, prefix=0
END

expect_error unknown-directive 2 'unknown kcfi directive' <<END
$V
	.kcfi_frobnicate 1
END

expect_error before-version 1 'before .kcfi_version' <<END
	.kcfi_type 1, "void (void)"
$V
END

expect_error bad-prototype 2 'error' <<END
$V
	.kcfi_type 1, "void (int"
END

expect_error not-a-function 2 'function type' <<END
$V
	.kcfi_type 1, "int"
END

expect_error conversion-kind 2 "unknown kind 'frob'" <<END
$V
	.kcfi_conversion f, "int (long)", "void (*)(long)", "a.c", 3, "g", frob
END

expect_error conversion-not-pointer 2 'no pointer to a function' <<END
$V
	.kcfi_conversion f, "int (long)", "long", "a.c", 3, "g", cast
END

expect_error conversion-bad-type 2 'error' <<END
$V
	.kcfi_conversion f, "int (long", "void (*)(long)", "a.c", 3, "g", cast
END

expect_error conversion-short 2 "expected ','" <<END
$V
	.kcfi_conversion f, "int (long)", "void (*)(long)", "a.c", 3
END

# -Werror=kcfi-cast: the error is at the C line, and no object survives.
cat >"$T/cast.s" <<END
$V
	.kcfi_conversion f, "int (long)", "void (*)(long)", "a.c", 3, "g", cast
	.kcfi_conversion f, "int (long)", "int (*)(long)", "a.c", 4, "g", cast
END
echo stale >"$T/cast.o"
"$KCFI_AS" --kcfi-warn-cast=error -o "$T/cast.o" "$T/cast.s" >"$T/cast.err" 2>&1
check "--kcfi-warn-cast=error: fails" test $? -ne 0
check "--kcfi-warn-cast=error: no object" test ! -e "$T/cast.o"
check "--kcfi-warn-cast=error: the message, only where the ids differ" test \
	"$(cat "$T/cast.err")" = "a.c:3: error: converting 'f' (int (long)) to 'void (*)(long)' changes its KCFI type id [-Werror=kcfi-cast]"
check "without --kcfi-warn-cast: assembles, silent" sh -c \
	"'$KCFI_AS' -o '$T/cast.o' '$T/cast.s' >'$T/cast.err' 2>&1 && test ! -s '$T/cast.err'"

# A union store: a record, but no warning or error, whatever the option.
cat >"$T/union.s" <<END
$V
	.kcfi_conversion f, "int (long)", "void (*)(long)", "a.c", 5, "g", union
END
"$KCFI_AS" --kcfi-warn-cast=error -o "$T/union.o" "$T/union.s" >"$T/union.err" 2>&1
check "--kcfi-warn-cast=error, kind union: assembles, silent" sh -c \
	"test $? -eq 0 && test -f '$T/union.o' && test ! -s '$T/union.err'"
"$KCFI_AS" -o "$T/nounion.o" "$T/union.s" 2>/dev/null
check "kind union: the record is written either way" cmp "$T/union.o" "$T/nounion.o"
if [ -x "$top_builddir/kcfi-audit" ]; then
	check "kind union: the record, as kcfi-audit --mismatches --union-stores reads it" test \
		"$("$top_builddir/kcfi-audit" --mismatches --union-stores "$T/union.o" | head -1)" = \
		"a.c:5: union: 'f' int (long) as void (long) [in g]"
fi

expect_error undefined-type 3 'type 7, which no .kcfi_type defined' <<END
$V
f:
	.kcfi_call 7
	call	*%rax
END

expect_error redefined-type 3 'redefined as a different type (first defined at line 2)' <<END
$V
	.kcfi_type 1, "void (void)"
	.kcfi_type 1, "void (int)"
END

# The same type spelt another way is the same definition.
printf '%s\n\t.kcfi_type 1, "void (int, unsigned)"\n\t.kcfi_type 1, "void (signed int, unsigned int)"\n' "$V" >"$T/respelt.s"
check "a type redefined in another spelling is accepted" "$KCFI_AS" -o "$T/respelt.o" "$T/respelt.s"

expect_error func-without-definition 3 'the input ends before its definition' <<END
$V
	.kcfi_type 1, "void (void)"
	.kcfi_func f, 1
	.text
END

expect_error func-then-code 5 "instruction 'ret' before the label of f" <<END
$V
	.kcfi_type 1, "void (void)"
	.kcfi_func f, 1
	.text
	ret
f:
END

expect_error func-twice 4 'was not followed by its definition' <<END
$V
	.kcfi_type 1, "void (void)"
	.kcfi_func f, 1
	.kcfi_func g, 1
END

expect_error prefix-mismatch 7 'has 0 patchable prefix NOPs, but callers .* assume 2' <<END
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=2
	.kcfi_type 1, "void (void)"
	.kcfi_func f, 1
	.text
	.p2align 4
	.globl f
f:
	ret
END

expect_error lto-without-plugin 2 'without the kcfi plugin' <<END
#APP
	.kcfi_require_plugin
#NO_APP
	.text
f:
	ret
END

expect_error shared-line 5 'shares its line' <<END
$V
	.kcfi_type 1, "void (void)"
f:
	.kcfi_call 1
	call	*%rax; nop
END

expect_error intel-syntax 2 'AT&T syntax only' <<END
$V
	.intel_syntax noprefix
END

# The stub key (doc/extern-stubs.md): only "stub", and only last.
expect_error extern-bad-key 2 'unknown .kcfi_extern key' <<END
$V
	.kcfi_extern free, 1, stubs
END
expect_error func-bad-key 2 'unknown .kcfi_func key' <<END
$V
	.kcfi_func f, 1, alias
END
expect_error func-key-then-id 2 'unexpected text after the directive' <<END
$V
	.kcfi_func f, stub, 1
END
expect_error stub-with-prefix 3 'extern stubs cannot be combined with patchable prefix NOPs' <<END
$(printf '%s\n' "$V" | sed 's/prefix=0/prefix=2/')
	.kcfi_type 1, "void (void *)"
	.kcfi_extern free, 1, stub
END

expect_error trailing-garbage 2 'unexpected text after the directive' <<END
$V
	.kcfi_call_unchecked 3
END

expect_error id-out-of-range 2 'number out of range' <<END
$V
	.kcfi_type 99999999999, "void (void)"
END

# Inline assembly is the author's business, as with Clang: it passes.
cat >"$T/app.s" <<END
$V
	.text
f:
#APP
	call	*%rax
#NO_APP
	ret
END
check "inline asm indirect call passes" "$KCFI_AS" -o "$T/app.o" "$T/app.s"

# arm prints no #APP: an asm statement is what lies between GCC's line
# markers "@ N "file" 1" and "@ 0 "" 2" (doc/design.md, "Inline
# assembly").  Anything else in that shape is a comment, and a marker
# that would nest or close nothing cannot end a block early.
VA='	.kcfi_version 1, "arm-linux-gnueabihf", ptr=32, long=32, char=unsigned, prefix=0'
cat >"$T/arm-app.s" <<END
$VA
	.text
	.syntax unified
	.thumb
f:
	.syntax unified
@ 3 "a.c" 1
	blx r3
@ 0 "" 2
@ 4 "a.c" 1
	bx r4
@ 9 "b.h" 1
	mov pc, r5
@ 0 "" 2
	.thumb
	.syntax unified
	bx	lr
END
sed 1d "$T/arm-app.s" >"$T/arm-app.s.body"
check "arm: inline asm between line markers passes, byte for byte" sh -c \
	"cd '$T' && '$KCFI_AS' --kcfi-no-assemble --kcfi-save=arm-app.out arm-app.s &&
	 grep -v -e '^\.Lkcfi_exempt[0-9]*:\$' -e '^# [0-9]' arm-app.out |
	 awk '/^	\.pushsection	\.debug,/ { r = 1 } !r { print } /^	\.popsection/ { r = 0 }' |
	 cmp - arm-app.s.body"
expect_error arm-app-is-a-comment 5 "indirect call 'blx r3' without a kcfi annotation" <<END
$VA
	.text
f:
#APP
	blx r3
#NO_APP
END
expect_error arm-marker-shapes 7 "indirect call 'blx r3' without a kcfi annotation" <<END
$VA
	.text
f:
@ 0 "" 2
@ 3 "a.c" 2
@ 0 "a.c" 1
	blx r3
END
expect_error arm-no-nesting 9 "indirect jump 'bx r5' without a kcfi annotation" <<END
$VA
	.text
f:
@ 3 "a.c" 1
	blx r3
@ 4 "a.c" 1
	bx r4
@ 0 "" 2
	bx r5
END
# Asm text without line markers (file-scope asm): GCC's ASM_APP_ON,
# "\t.syntax unified", then anything but what follows it in a function's
# declaration ("\t.thumb"...), up to ASM_APP_OFF ("\t.thumb", then
# "\t.syntax unified").
cat >"$T/arm-filescope.s" <<END
$VA
	.text
	.syntax unified
	.globl top
top: blx r3
	bx lr
	.thumb
	.syntax unified
	.global	f
	.syntax unified
	.thumb
	.thumb_func
	.type	f, %function
f:
	bx	lr
	.size	f, .-f
	.syntax divided
	blx r4
END
check "arm: file-scope asm passes, recorded from its first line to ASM_APP_OFF" sh -c \
	"cd '$T' && '$KCFI_AS' --kcfi-no-assemble --kcfi-save=arm-filescope.out arm-filescope.s &&
	 grep -v '^# [0-9]' arm-filescope.out | tr '\\n' '|' |
	 grep -q '	\.syntax unified|\.Lkcfi_exempt0:|	\.globl top|top: blx r3|	bx lr|	\.thumb|\.Lkcfi_exempt1:|[^|]*|	\.balign	8|	\.long	\.Lkcfi_exempt0, 0, \.Lkcfi_exempt1, 0, 1, 0|	\.popsection|	\.syntax unified|	\.global	f|	\.syntax unified|	\.thumb|' &&
	 grep -q '^	\.syntax divided\$' arm-filescope.out && grep -A2 '^	\.syntax divided\$' arm-filescope.out | grep -q '^\.Lkcfi_exempt[0-9]*:\$'"
# Thumb-1 (ARMv4T to ARMv6, the M-profile baselines): the check's 32-bit
# Thumb instructions do not exist there.  GCC names the architecture in
# .arch even under -mcpu, and restates the state after the .kcfi_call.
thumb1() {
	cat <<END
	.arch $1
$VA
	.kcfi_type 1, "void (int)"
	.text
	.kcfi_func f, 1
	.syntax unified
	.code	16
	.thumb_func
	.type	f, %function
f:
	push	{r4, lr}
	.syntax divided
	.kcfi_call 1, arg=r0 ; ; ; ; ; ; ; ; ;
	.thumb
	.syntax unified
	blx	r3
	pop	{r4, pc}
	.size	f, .-f
END
}
for a in armv6 armv5te armv6-m armv6kz+fp armv8-m.base; do
	thumb1 "$a" | expect_error "arm-thumb1-$a" 16 "Thumb-1 only; compile with -marm"
done
for a in armv6t2 armv7-a armv8-m.main armv8-a; do
	thumb1 "$a" > "$T/thumb2-$a.s"
	check "arm: .arch $a has Thumb-2, the check is written" sh -c \
		"'$KCFI_AS' --kcfi-no-assemble --kcfi-save='$T/thumb2-$a.out' '$T/thumb2-$a.s' &&
		 grep -q '^	beq.w	' '$T/thumb2-$a.out' &&
		 { ! command -v arm-linux-gnueabihf-as >/dev/null ||
		   arm-linux-gnueabihf-as -o '$T/thumb2-$a.o' '$T/thumb2-$a.out'; }"
done
expect_error arm-declaration-is-not-asm 8 "indirect jump 'bx r3' without a kcfi annotation" <<END
$VA
	.text
	.syntax unified
	.thumb
	.thumb_func
	.type	f, %function
f:
	bx r3
END
# GCC starts asm text with a tab: a label right after it is its own code.
expect_error arm-label-is-not-asm 5 "indirect call 'blx r3' without a kcfi annotation" <<END
$VA
	.syntax unified
f:
	.text
	blx r3
END
expect_error arm-app-off-ends-it 8 "indirect call 'blx r4' without a kcfi annotation" <<END
$VA
	.text
	.syntax unified
	blx r3
	.thumb
	.syntax unified
	.align	1
	blx r4
END
expect_error arm-app-unclosed 4 "no line marker '@ 0 \"\" 2' ends it" <<END
$VA
	.text
f:
@ 3 "a.c" 1
	blx r3
END

finish
