#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# (Re)generate the seed corpus of asm-fuzz in DIR (tests/fuzz/asm-corpus):
#   asm-seeds.sh BUILDDIR DIR
#  gen-<arch>-<src>-<level>  the plugin's real -S output for the C sources of
#                            tests/prepass/ (raw mode: carries its own
#                            .kcfi_version), for every arch whose plugin is built
#  hand-*                    small hand-written inputs for the paths real
#                            output seldom takes (behind the harness header)
# Each seed starts with the harness's mode byte (see asm-fuzz.c).  Seeds
# larger than 64 KiB (the campaign's -max_len) are left out.
set -eu
build=$1 dir=$2
src=$(cd "$(dirname "$0")/../prepass" && pwd)
mkdir -p "$dir"
rm -f "$dir"/gen-* "$dir"/hand-*
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for triple in x86_64-linux-gnu i686-linux-gnu aarch64-linux-gnu riscv64-linux-gnu arm-linux-gnueabihf; do
	[ -f "$build/prepass/plugins/$triple/kcfi.so" ] || continue
	arch=${triple%%-*}
	cc=gcc
	[ "$arch" = x86_64 ] || cc=$triple-gcc
	for c in "$src"/*.c; do
		b=$(basename "$c" .c)
		for o in -O0 -O2; do
			KCFI_CC=$cc "$build/kcfi-gcc" -fsanitize=kcfi $o -fsanitize-kcfi-annotated-asm -S -w -o "$tmp/x.s" "$c" \
				2>/dev/null || continue
			[ "$(wc -c <"$tmp/x.s")" -le 65535 ] || continue
			{ printf '\200'; cat "$tmp/x.s"; } >"$dir/gen-$arch-$b$o"
		done
	done
done

# hand NAME MODE: the seed is MODE (octal escape) then stdin.  The backend
# bits of MODE index asm-fuzz.c's registry order (asmpass/arch.c):
# 0 x86_64, 1 i386, 2 aarch64, 3 riscv64, 4 arm (bit 6 set: 0100), and
# 5 (0101) x86_64 again, with --kcfi-cs-prefix.
hand() { { printf "$2"; cat; } >"$dir/hand-$1"; }
hand call-reg '\000' <<'E'
	.kcfi_type 1, "int (int)"
	.kcfi_func f, 1
	.p2align 4
	.globl f
	.type f, @function
f:
#APP
	.kcfi_call 1
#NO_APP
	call	*%rax
#APP
	.kcfi_call 1 ; ; ; ; ; ; ; ;
#NO_APP
	jmp	*8(%rdi)
E
hand prefix '\014' <<'E'
	.kcfi_type 3, "void (struct s *, ...)"
	.kcfi_func g, 3
	.section .text.g,"ax",@progbits
	.p2align 5
	.weak g
.LPFE1:
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
g:
	ret
E
hand extern-quoted '\020' <<'E'
	.kcfi_type 7, "long (unsigned char, _Bool (*)(void))"
	.kcfi_extern "a b", 7
	.kcfi_extern ab.c, 7
	.kcfi_func "x y", 7
"x y":
	ret
E
hand thunk-cs '\101' <<'E'
	.kcfi_type 1, "void (void)"
f:
#APP
	.kcfi_call 1
#NO_APP
	cs
	call	__x86_indirect_thunk_r10
#APP
	.kcfi_branch_nocall
#NO_APP
	notrack jmp	*%rax
E
hand nosan-direct '\000' <<'E'
	.kcfi_type 2, "int ()"
f:
	.kcfi_call 2
	call *(%rax)
	.kcfi_call_unchecked
	.loc 1 2 3
	.cfi_remember_state
	call *%r11
	.kcfi_call_direct
	call *g@GOTPCREL(%rip)
#APP
	call *%rax
	jmp *%rbx
#NO_APP
E
hand aarch64 '\002' <<'E'
	.kcfi_type 1, "int (int)"
	.kcfi_func f, 1
	.align 2
f:
	.kcfi_call 1 ; ; ; ; ; ;
	blr	x1
	.kcfi_call 1 ; ; ; ; ; ;
	br	x16
	.kcfi_call_unchecked
	blr	x17
	.kcfi_branch_nocall
	br	x9
E
hand i386 '\005' <<'E'
	.kcfi_type 1, "int (int)"
	.kcfi_func f, 1
	.p2align 4
	.globl f
.LPFE1:
	nop
f:
#APP
	.kcfi_call 1, arg=eax ; ;
#NO_APP
	call	*%ecx
#APP
	.kcfi_call 1
#NO_APP
	jmp	*8(%esp)
	.kcfi_branch_nocall
	jmp	*.L4(,%eax,4)
E
hand arm '\100' <<'E'
	.kcfi_type 1, "int (int)"
	.syntax unified
	.thumb
	.kcfi_func f, 1
	.align 1
	.thumb_func
f:
	.kcfi_call 1 ; ; ; ; ; ; ; ; ; ; ;
	.thumb
	.syntax unified
	blx	r3
	.kcfi_call 1 ; ; ; ; ; ; ; ; ; ; ;
	bx	ip
	.arm
	.kcfi_call 1 ; ; ; ; ; ; ; ; ; ; ;
	blx	ip
	.kcfi_branch_nocall
	ldr	pc, [pc, r3, lsl #2]
	bx	lr
E
hand riscv64 '\003' <<'E'
	.kcfi_type 1, "int (int)"
	.kcfi_func f, 1
	.align 1
f:
	.kcfi_call 1 ; ; ; ; ; ;
	jalr	a5
	.kcfi_call 1 ; ; ; ; ; ;
	jr	t1
	.kcfi_branch_nocall
	jr	a4
	jr	ra
E
hand raw-version '\200' <<'E'
	.kcfi_version 1, "x86_64-linux-gnu", ptr=32, long=32, char=unsigned, prefix=255
	.kcfi_require_plugin
	.kcfi_type 1048575, "_Complex double (__int128, _Float16, char [static 3])"
	.kcfi_extern h, 1048575
E
hand plain '\200' <<'E'
	.text
	.globl main
main:
	call *%rax
	jmp *%rbx
	.string "# .kcfi_call 1"
E
printf '\000\t.kcfi_type 1, "void (void)"\r\n\t.kcfi_func f, 1\r\nf:\r\n\t.kcfi_call 1\r\n\tcall\t*%%rax\r\n' >"$dir/hand-crlf"
printf '\000\t.kcfi_type 1, "void (void)"\n\t.kcfi_call 1\n\tcall *%%r\000ax\n' >"$dir/hand-nul"
printf '\000\t.kcfi_type 1, "void (void)\n\t.kcfi_call 4294967296\n' >"$dir/hand-unterminated"
printf '\000\t.kcfi_type 1, "void (void)"\n\t.kcfi_call 1' >"$dir/hand-call-at-eof"
printf '\200\t.kcfi_version 2, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0\n' \
	>"$dir/hand-version-2"
ls "$dir" | wc -l
