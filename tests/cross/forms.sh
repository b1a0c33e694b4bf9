# SPDX-License-Identifier: GPL-2.0-or-later
# Hand-written assembly through kcfi-as for aarch64 and riscv64: branch
# classification, the strict and the lenient next-instruction rules
# (doc/directives.md 3.1), the reservation check (3.3), riscv's NOP size
# from -march, .attribute arch and .option, and real GCC shapes that need
# the lenient rule (aarch64 TLS descriptor calls, x86_64 TLS GD with -fno-plt
# and -mtls-dialect=gnu2).
. "$top_srcdir/tests/cross/lib.sh"
CROSS_ARCHES="aarch64 riscv64 arm"
pick_triples norun

A64='	.kcfi_version 1, "aarch64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0'
RV='	.kcfi_version 1, "riscv64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=1'
ARM='	.kcfi_version 1, "arm-linux-gnueabihf", ptr=32, long=32, char=unsigned, prefix=0'
TY='	.kcfi_type 1, "void (int)"'

# as_ok TRIPLE NAME [AS-FLAGS...] < input: kcfi-as accepts it; its output
# is in $T/NAME.out.s.
as_ok() {
	a_t=$1 a_n=$2
	shift 2
	cat >"$T/$a_n.s"
	"$KCFI_AS" --kcfi-real-as="$(command -v "$a_t-as")" --kcfi-save="$T/$a_n.out.s" "$@" \
		-o "$T/$a_n.o" "$T/$a_n.s" >"$T/$a_n.err" 2>&1 || { cat "$T/$a_n.err"; false; }
}
# as_refuses TRIPLE NAME PATTERN < input: kcfi-as refuses it, saying PATTERN.
as_refuses() {
	cat >"$T/$2.s"
	! "$KCFI_AS" --kcfi-real-as="$(command -v "$1-as")" -o "$T/$2.o" "$T/$2.s" >"$T/$2.err" 2>&1 &&
		grep -q "error: .*$3" "$T/$2.err" || { cat "$T/$2.err"; false; }
}
saved() { grep -qE -- "$2" "$T/$1.out.s" || { echo "no /$2/ in:"; cat "$T/$1.out.s"; false; }; }

for t in $TS; do
	case $t in
	aarch64-*)
		check "$t: lenient .kcfi_branch_nocall over a compressed jump table" as_ok "$t" table <<END
$A64
	.text
f:
#APP
	.kcfi_branch_nocall
#NO_APP
	ldrb	w1, [x1,w0,uxtw]
	adr	x0, .Lrtx4
	add	x1, x0, w1, sxtb #2
	br	x1
.Lrtx4:
	ret
END
		check "$t: lenient .kcfi_call_direct over a TLS descriptor call" as_ok "$t" tlsdesc <<END
$A64
	.text
f:
#APP
	.kcfi_call_direct
#NO_APP
	adrp	x0, :tlsdesc:tv
	ldr	x2, [x0, #:tlsdesc_lo12:tv]
	add	x0, x0, :tlsdesc_lo12:tv
	.tlsdesccall	tv
	blr	x2
	ret
END
		check "$t: .kcfi_call stays strict" as_refuses "$t" strict 'must annotate' <<END
$A64
$TY
	.text
f:
	.kcfi_call 1 ; ; ; ; ;
	mov	x16, x1
	blr	x16
END
		check "$t: the lenient rule ends after four statements" as_refuses "$t" far 'no branch within 4' <<END
$A64
	.text
f:
	.kcfi_branch_nocall
	nop
	nop
	nop
	nop
	nop
	br	x1
END
		check "$t: a short reservation is refused" as_refuses "$t" short 'reserves 5 statements, the aarch64 check needs 6' <<END
$A64
$TY
	.text
f:
	.kcfi_call 1 ; ; ; ;
	blr	x3
END
		check "$t: an unannotated blr is refused" as_refuses "$t" bare 'without a kcfi annotation' <<END
$A64
	.text
f:
	blr	x3
END
		check "$t: ret, b.cond, cbz, tbz and bl need nothing" as_ok "$t" direct <<END
$A64
	.text
f:
	cbz	x0, 1f
	tbnz	w1, #3, 1f
	b.ne	1f
	bgt	1f
	bl	g
	bic	x0, x0, x1
	bls	1f
1:	ret
END
		# GCC prints its nested-function trampoline template as text: data
		# that is copied to the stack, so its br passes untouched; the
		# next label ends the template and branches are checked again.
		check "$t: GCC's trampoline template passes untouched" as_ok "$t" tramp <<END
$A64
	.text
	.align	3
.LTRAMP0:
	hint	34 // bti c
	ldr	x17, .+20
	ldr	x18, .+24
	br	x17
END
		check "$t: the template's br gets no check" sh -c \
			"grep -q '^	br	x17' $T/tramp.out.s && ! grep -q 'brk' $T/tramp.out.s"
		check "$t: the next label ends the trampoline template" as_refuses "$t" tramp-end \
			"without a kcfi annotation" <<END
$A64
	.text
.LTRAMP0:
	br	x17
f:
	br	x1
END
		check "$t: x17 target assembles" as_ok "$t" x17 <<END
$A64
$TY
	.text
f:
	.kcfi_call 1 ; ; ; ; ;
	br	x17
END
		check "$t: x17 target: ldur w16, expected id in w9, brk #0x8131" sh -c \
			"grep -q 'ldur	w16, \[x17, #-4\]' $T/x17.out.s && grep -q 'movk	w9, #' $T/x17.out.s &&
			 grep -q 'cmp	w16, w9' $T/x17.out.s && grep -q 'brk	#0x8131' $T/x17.out.s"
		;;
	riscv64-*)
		for m in "rv64gc 2" "rv64imac_zicsr 2" "rv64g 4" "rv64i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0 4" "rv64imafd_zca 2"; do
			set -- $m
			# no assembling: binutils 2.40 does not know zca yet
			as_ok "$t" "march-$1" --kcfi-no-assemble -march="$1" <<END
$RV
$TY
	.text
f:
	.kcfi_call 1 ; ; ; ;
	jalr	a5
END
			check "$t: -march=$1 gives NOPs of $2 bytes" saved "march-$1" "lw	t1, -$(( $2 + 4 ))\\(a5\\)"
		done
		# --kcfi-no-assemble: gas takes .attribute arch only before code
		as_ok "$t" option --kcfi-no-assemble <<END
	.option norvc
$RV
$TY
	.text
f:
	.kcfi_call 1 ; ; ; ;
	jalr	a5
	.option push
	.option arch, +c
	.kcfi_call 1 ; ; ; ;
	jalr	a4
	.option pop
	.kcfi_call 1 ; ; ; ;
	jalr	a3
	.attribute arch, "rv64i2p1_m2p0_c2p0"
	.kcfi_call 1 ; ; ; ;
	jalr	a2
END
		check "$t: .option norvc before .kcfi_version counts" saved option 'lw	t1, -8\(a5\)'
		check "$t: .option push; .option arch, +c" saved option 'lw	t1, -6\(a4\)'
		check "$t: .option pop" saved option 'lw	t1, -8\(a3\)'
		check "$t: .attribute arch" saved option 'lw	t1, -6\(a2\)'
		as_ok "$t" scratch <<END
$RV
	.kcfi_type 1, "void (int)"
	.kcfi_type 2, "int (void)"
	.text
f:
	.kcfi_call 1 ; ; ; ;
	jalr	t1
	.kcfi_call 2 ; ; ; ;
	jr	t2
	.kcfi_call 1 ; ; ; ;
	jalr	t0, 0(a5)
END
		# beq's rs1 is always the expected id (Linux reports it as the
		# expected type), rs2 the id loaded from the target.
		check "$t: target t1: beq t2 (expected id, rs1), t3 (loaded id, rs2)" \
			saved scratch '^	beq	t2, t3, \.Lkcfi0_call$'
		check "$t: target t1 moves the loaded id to t3" saved scratch '^	lw	t3, -6\(t1\)$'
		check "$t: target t2 moves the expected id to t3" saved scratch '^	beq	t3, t1, \.Lkcfi1_call$'
		check "$t: ... built in t3" saved scratch '^	lui	t3, '
		check "$t: another target keeps beq t2, t1" saved scratch '^	beq	t2, t1, \.Lkcfi2_call$'
		check "$t: a tail call is a 32-bit jalr zero" saved scratch '\.insn	i 0x67, 0, zero, t2, 0'
		check "$t: another link register is kept" saved scratch 'jalr	t0, 0\(a5\)'
		# An id whose upper 20 bits round to zero (Clang would read a stale
		# t2 there): find such a type by brute force, with an independent
		# FNV-1a, and see t2 built from zero and the program assemble.
		if ${CC:-cc} -O2 -o "$T/small" "$X/small-id.c" && set -- $("$T/small") && [ -n "${2:-}" ]; then
			check "$t: an id with no upper part ($2) is built from zero" as_ok "$t" small <<END
$RV
	.kcfi_type 1, "void (struct $1 *)"
	.text
f:
	.kcfi_call 1 ; ; ; ;
	jalr	a5
END
			lo=$(( $2 >= 2048 ? $2 - 4294967296 : $2 ))
			check "$t: ... as addi t2, zero, $lo" saved small "^	addi	t2, zero, $lo\$"
		else
			fail "$t: no type with a small id found"
		fi
		check "$t: ret and jr ra need nothing, jr a5 does" as_refuses "$t" ret 'jr	a5.*without a kcfi annotation' <<END
$RV
	.text
f:
	ret
	jr	ra
	beqz	a0, 1f
	call	g
	tail	g
1:	jr	a5
END
		check "$t: a short reservation is refused" as_refuses "$t" short 'reserves 1 statements, the riscv64 check needs 5' <<END
$RV
$TY
	.text
f:
	.kcfi_call 1
	jalr	a5
END
		;;
	arm-*)
		# Thumb-2 and ARM state: GCC's jump tables under the lenient rule
		# (Thumb casesi has its bounds check's bhi before the tbb), what
		# GCC prints after every asm text (.thumb/.arm, .syntax unified)
		# between .kcfi_call and the branch, returns, and what is refused.
		for st in thumb arm; do
			check "$t $st: .kcfi_call with ASM_APP_OFF's restatement before the branch" as_ok "$t" app-$st <<END
$ARM
$TY
	.syntax unified
	.$st
	.text
f:
	.syntax unified
	.kcfi_call 1 ; ; ; ; ; ; ; ; ;
	.$st
	.syntax unified
	blx	r3
	pop	{r4, pc}
END
			check "$t $st: the check is the $st form" saved app-$st \
				"$( [ $st = thumb ] && echo 'bkpt	#0x83' || echo 'bkpt	#0x83e3')"
		done
		check "$t: cbz needs nothing; lenient .kcfi_branch_nocall over Thumb-2 casesi (cmp; bhi; tbb)" as_ok "$t" tbb <<END
$ARM
	.syntax unified
	.thumb
	.text
f:
	cbz	r0, .L10
	.kcfi_branch_nocall
	.thumb
	.syntax unified
	cmp	r0, #5
	bhi	.L10
	tbb	[pc, r0]
.L10:
	bx	lr
END
		check "$t: lenient .kcfi_branch_nocall over ARM casesi (cmp; addls pc)" as_ok "$t" addls <<END
$ARM
	.syntax unified
	.arm
	.text
f:
	.syntax divided
	.kcfi_branch_nocall
	.arm
	.syntax unified
	cmp	r0, #5
	addls	pc, pc, r0, asl #2
	b	.L10
.L10:
	bx	lr
END
		check "$t: returns need nothing" as_ok "$t" returns <<END
$ARM
	.syntax unified
	.text
f:
	bx	lr
	BXNE	LR
	pop	{r4, pc}
	ldmfd	sp!, {r4, pc}
	ldr	pc, [sp], #4
	mov	pc, lr
	bl	g
	blx	g
	bls	1f
	ble	1f
1:	b	f
END
		for sp in 'blx	r3' 'BX	R2' 'bx	ip' 'ldr	pc, [r3]' 'mov	pc, r1' 'tbh	[pc, r1, lsl #1]' 'ldm	r0, {r1, pc}'; do
			# .text first: GCC's "\t.syntax unified" followed by an
			# indented line is file-scope asm (doc/design.md 5).
			check "$t: '$sp' without an annotation is refused" as_refuses "$t" bare \
				"without a kcfi annotation" <<END
$ARM
	.text
	.syntax unified
f:
	$sp
END
		done
		for sp in 'blxne	r3|conditional indirect branch' 'bx	pc|switches state' 'blx	lr|overwrites its own target' \
			'ldr	pc, [r3]|writes pc from data' 'tbb	[pc, r0]|jump table' 'bxj	r2|Jazelle'; do
			check "$t: '${sp%%|*}' under .kcfi_call is refused" as_refuses "$t" refused "${sp#*|}" <<END
$ARM
$TY
	.syntax unified
	.text
f:
	.kcfi_call 1 ; ; ; ; ; ; ; ; ;
	${sp%%|*}
END
		done
		# GCC's Thumb-2 PIC jump table (-fpic, as the kernel's decompressor
		# is built): five instructions between the mark and its bx.
		check "$t: the Thumb-2 PIC jump table passes as a jump table" as_ok "$t" casesi-pic <<END
$ARM
	.syntax unified
	.text
	.thumb
	.thumb_func
f:
	.kcfi_branch_nocall
	.thumb
	.syntax unified
	cmp	r0, #1
	bhi	2f
	adr	r3, 1f
	ldr	r0, [r3, r0, lsl #2]
	add	r3, r3, r0
	bx	r3
	.p2align 2
1:
	.word	(3f-1b)+1
	.word	(2f-1b)+1
2:	bx	lr
3:	bx	lr
END
		check "$t: ... but a sixth instruction before the branch is not skipped" as_refuses "$t" casesi-far "no branch within 5 statements" <<END
$ARM
	.syntax unified
	.text
	.thumb
	.thumb_func
f:
	.kcfi_branch_nocall
	cmp	r0, #1
	bhi	2f
	nop
	adr	r3, 1f
	ldr	r0, [r3, r0, lsl #2]
	add	r3, r3, r0
	bx	r3
	.p2align 2
1:
2:	bx	lr
END
		check "$t: a 16-aligned function keeps its alignment, its id right below it" as_ok "$t" align16 <<END
$ARM
$TY
	.syntax unified
	.text
	nop
	.kcfi_func f, 1
	.align	4
	.global	f
	.type	f, %function
f:
	bx	lr
END
		# GCC's .align 4 puts the padding at 16, the id at 28, f at 32
		check "$t: ... f at 32, the word of void (int) at 28" sh -c \
			"'$t-nm' '$T/align16.o' | grep -q '^00000020 T f\$' &&
			 [ \"\$('$t-objdump' -s -j .text '$T/align16.o' | awk '\$1 == \"0010\" { print \$5 }')\" = \
			   \"\$(printf %08x $(fnv1a _ZTSFviE) | sed 's/\\(..\\)\\(..\\)\\(..\\)\\(..\\)/\\4\\3\\2\\1/')\" ]"
		check "$t: a short reservation is refused" as_refuses "$t" short "needs 10" <<END
$ARM
$TY
	.syntax unified
	.text
f:
	.kcfi_call 1 ; ; ; ; ; ; ; ;
	blx	r3
END
		check "$t: .syntax divided is refused" as_refuses "$t" divided "syntax divided" <<END
$ARM
$TY
	.syntax divided
	.arm
	.text
f:
	.kcfi_call 1 ; ; ; ; ; ; ; ; ;
	blx	r3
END
		check "$t: patchable prefix NOPs are refused" as_refuses "$t" prefix "not supported on arm" <<END
$(echo "$ARM" | sed 's/prefix=0/prefix=2/')
$TY
	.syntax unified
	.text
f:
	.kcfi_call 1 ; ; ; ; ; ; ; ; ;
	blx	r3
END
		;;
	esac
done

# x86_64 shapes that need the lenient rule, from GCC itself.
printf 'extern __thread int tv;\nint *f(void) { return &tv; }\n' >"$T/tls.c"
case ${NATIVE_TRIPLE:-} in
x86_64-*)
	check "x86_64: TLS GD with -fno-plt (data16; .byte; rex64; call *)" \
		"$KCFI_GCC" -fsanitize=kcfi -O2 -fpic -fno-plt -c -o "$T/tls1.o" "$T/tls.c"
	check "x86_64: TLS descriptors (-mtls-dialect=gnu2)" \
		"$KCFI_GCC" -fsanitize=kcfi -O2 -fpic -mtls-dialect=gnu2 -c -o "$T/tls2.o" "$T/tls.c"
	;;
esac
for t in $TS; do
	check "$t: TLS access with -fpic" kx "$t" -O2 -fpic -c -o "$T/tls-$t.o" "$T/tls.c"
done
finish
