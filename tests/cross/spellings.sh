#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# aarch64, riscv64 and arm: every spelling GNU as accepts for an indirect branch
# (issue 14, item 12; tests/asmpass/spellings.sh is the x86_64 side).  The
# cross assembler is the oracle: what it makes of a spelling decides the
# register the check must load the type id through and the branch that
# must follow the check.  Unannotated, each spelling is refused; spellings
# no check can keep (pointer authentication, ret xN, jalr with an offset)
# are refused under .kcfi_call and pass under .kcfi_call_unchecked; raw
# instruction data between an annotation and its branch is refused; returns
# stay returns; a plain .s passes byte for byte.  Then hand-written callers
# with unusual spellings run under qemu: a matching target returns, another
# type traps.
. "$top_srcdir/tests/cross/lib.sh"
CROSS_ARCHES="aarch64 riscv64 arm"
pick_triples norun

# dis TRIPLE FILE.o: "mnemonic operands" of each instruction of .text.
dis() {
	# arm objdump has no no-aliases option (and would say so on stdout)
	case $1 in aarch64-*) d_c='//' d_m='-M no-aliases' ;; arm-*) d_c='@' d_m= ;; *) d_c='#' d_m='-M no-aliases' ;; esac
	"$1-objdump" -d --no-show-raw-insn $d_m "$2" | awk -F'\t' -v c="$d_c" '
		NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ { s = $2; if (NF > 2) s = s " " $3
			i = index(s, c); if (i) s = substr(s, 1, i - 1); sub(/ +$/, "", s); print s }'
}
# normal TRIPLE "mnemonic operands": the branch as the check's branch spells
# it (riscv: c.jalr is jalr ra, c.jr a 32-bit jalr zero).
normal() {
	case $1 in
	riscv64-*) printf '%s\n' "$2" | sed 's/^c\.jalr \(.*\)/jalr ra,0(\1)/; s/^c\.jr \(.*\)/jalr zero,0(\1)/' ;;
	*) printf '%s\n' "$2" ;;
	esac
}

for t in $TS; do
	AS=$(command -v "$t-as")
	case $t in
	aarch64-*)
		V='	.kcfi_version 1, "aarch64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0'
		CALL='.kcfi_call 1 ; ; ; ; ;' ASFLAGS=-march=armv8.3-a OPT=
		checked='BLR X1|Blr x2|blr  X30|BR x3|Br LR|blr ip0|BLR IP1|br fp|blr\tx17 // x17'
		refused='blraa x1, x2|BLRAAZ x1|braa x3, sp|Brabz x4|ret x1|RET X2|blr xzr'
		returns='ret|RET|ret x30|Ret LR|retaa|RETAB'
		raw='.inst 0xd63f0020|.word 0xd63f0020|.4byte 0xd63f0020|.byte 0x20|.INST 0xd63f0020' ;;
	riscv64-*)
		V='	.kcfi_version 1, "riscv64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0'
		CALL='.kcfi_call 1 ; ; ; ;' ASFLAGS=-march=rv64gc OPT='	.option rvc'
		checked='JALR t0|Jalr a5|jalr a4 # why|jalr ra, 0(t0)|jalr x1, t0, 0|jalr ra, t0|jalr t0, 0|jalr ra, (t0)|jalr ra , 0x0 ( a1 )|jalr t0, t1|jalr s0, a2, -0|JR a5|jr 0(a4)|jr a3, 0|jalr x0, a5, 0|C.JALR a5|c.jalr x12|C.Jr a4|c.jr t1'
		refused='jalr ra, 4(t0)|jalr t0, 4|JALR x1, t0, 8|jalr ra, %lo(sym)(t0)|jalr ra, 1-1(t0)|jr a5, 4|jr 4(ra)'
		returns='ret|RET|jr ra|JR ra|jalr zero, 0(ra)|jalr x0, ra, 0|c.jr ra|C.JR ra'
		raw='.insn i 0x67, 0, ra, t0, 0|.4byte 0x000280e7|.word 0x000280e7|.2byte 0x9282|.half 0x9282|.INSN i JALR, 0, ra, t0, 0' ;;
	arm-*)
		# ARM state; Thumb-2 spellings are the same words (forms.sh, run.sh)
		V='	.kcfi_version 1, "arm-linux-gnueabihf", ptr=32, long=32, char=unsigned, prefix=0'
		CALL='.kcfi_call 1 ; ; ; ; ; ; ; ; ;' ASFLAGS= OPT='	.syntax unified'
		checked='BLX r1|Blx R2|blx ip|BX IP|bx r12|blx sb|bx sl|Bx fp|blx a2|BLX V1|blx\tr3 @ why|bx  r0'
		refused='blxne r1|BXEQ r2|bx pc|blx lr|bxj r1|ldr pc, [r1]|mov pc, r2|ldm r0, {r1, pc}|add pc, pc, r1, lsl #2'
		returns='bx lr|BX LR|bxne lr|pop {r4, pc}|POP {PC}|ldm sp!, {r4, pc}|ldmfd sp!, {pc}|ldr pc, [sp], #4|mov pc, lr|popne {r4, pc}'
		raw='.inst 0xe12fff31|.word 0xe12fff31|.4byte 0xe12fff31|.byte 0x31|.INST 0xe12fff31' ;;
	esac

	case $t in aarch64-*) b='blr x1' ;; riscv64-*) b='jalr t0' ;; arm-*) b='blx r1' ;; esac
	IFS='|'
	set -f
	for sp in $checked; do
		IFS=' '
		sp=$(printf '%b' "$sp")
		printf '\t.text\n%s\n\t%s\n' "$OPT" "$sp" >"$T/ref.s"
		if ! "$AS" $ASFLAGS -o "$T/ref.o" "$T/ref.s" 2>"$T/ref.err"; then
			fail "$t '$sp': $t-as rejects it (test data stale?)"; cat "$T/ref.err"; IFS='|'; continue
		fi
		want=$(normal "$t" "$(dis "$t" "$T/ref.o")")
		case $t in
		aarch64-*|arm-*) reg=$(printf '%s\n' "$want" | sed 's/.* //') ;;
		riscv64-*) reg=$(printf '%s\n' "$want" | sed 's/.*(\(.*\))/\1/') ;;
		esac
		printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\n%s\nf:\n\t%s\n\t%s\n' "$V" "$OPT" "$CALL" "$sp" >"$T/c.s"
		if ! "$KCFI_AS" --kcfi-real-as="$AS" $ASFLAGS -o "$T/c.o" "$T/c.s" 2>"$T/c.err"; then
			fail "$t '$sp': refused"; sed 's/^/    /' "$T/c.err"; IFS='|'; continue
		fi
		dis "$t" "$T/c.o" >"$T/c.dis"
		first=$(sed -n 1p "$T/c.dis")
		last=$(normal "$t" "$(tail -1 "$T/c.dis")")
		case $t in
		aarch64-*) case $first in "ldur w16, [$reg, #-4]"|"ldur w9, [$reg, #-4]") ok=1 ;; *) ok= ;; esac ;;
		riscv64-*) case $first in "lw t1,-4($reg)"|"lw t3,-4($reg)") ok=1 ;; *) ok= ;; esac ;;
		arm-*) case $first in "bic ip, $reg, #1"|"bic lr, $reg, #1"|"push {r3}") ok=1 ;; *) ok= ;; esac ;;
		esac
		[ -n "$ok" ] && pass "$t '$sp': the check loads the id through $reg" ||
			{ fail "$t '$sp': the check begins with '$first' (target $reg)"; sed 's/^/    /' "$T/c.dis"; }
		[ "$last" = "$want" ] && pass "$t '$sp': then '$want'" ||
			fail "$t '$sp': the checked branch is '$last', not '$want'"
		grep -Eq '^(brk|ebreak|c\.ebreak|bkpt)' "$T/c.dis" && pass "$t '$sp': with a trap" || fail "$t '$sp': no trap"

		printf '%s\n\t.text\n%s\nf:\n\t%s\n' "$V" "$OPT" "$sp" >"$T/u.s"
		check "$t '$sp': refused without an annotation" sh -c \
			"! '$KCFI_AS' --kcfi-real-as='$AS' $ASFLAGS -o '$T/u.o' '$T/u.s' 2>'$T/u.err' &&
			 grep -q '^$T/u.s:5: error: .*without a kcfi annotation' '$T/u.err'"
		IFS='|'
	done

	for sp in $refused; do
		IFS=' '
		printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\nf:\n\t%s\n\t%s\n' "$V" "$CALL" "$sp" >"$T/r.s"
		check "$t '$sp': refused under .kcfi_call" sh -c \
			"! '$KCFI_AS' --kcfi-real-as='$AS' $ASFLAGS -o '$T/r.o' '$T/r.s' 2>'$T/r.err' &&
			 grep -q '^$T/r.s:6: error: .*cannot be checked by KCFI' '$T/r.err'"
		printf '%s\n\t.text\nf:\n\t.kcfi_call_unchecked\n\t%s\n' "$V" "$sp" >"$T/n.s"
		check "$t '$sp': passes under .kcfi_call_unchecked" "$KCFI_AS" --kcfi-real-as="$AS" $ASFLAGS \
			--kcfi-no-assemble "$T/n.s"
		printf '%s\n\t.text\nf:\n\t%s\n' "$V" "$sp" >"$T/u.s"
		check "$t '$sp': refused without an annotation" sh -c \
			"! '$KCFI_AS' --kcfi-real-as='$AS' -o '$T/u.o' '$T/u.s' 2>'$T/u.err' &&
			 grep -q '^$T/u.s:4: error: .*without a kcfi annotation' '$T/u.err'"
		IFS='|'
	done

	for sp in $returns; do
		IFS=' '
		printf '%s\n\t.text\nf:\n\t%s\n' "$V" "$sp" >"$T/ret.s"
		check "$t '$sp' is a return" "$KCFI_AS" --kcfi-real-as="$AS" $ASFLAGS -o "$T/ret.o" "$T/ret.s"
		IFS='|'
	done

	for d in $raw; do
		IFS=' '
		for k in "$CALL" .kcfi_call_direct; do
			printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\nf:\n\t%s\n\t%s\n\t%s\n' "$V" "$k" "$d" "$b" >"$T/raw.s"
			check "$t: '$d' after ${k%% *} is refused" sh -c \
				"! '$KCFI_AS' --kcfi-real-as='$AS' -o '$T/raw.o' '$T/raw.s' 2>'$T/raw.err' &&
				 grep -q \"^$T/raw.s:6: error: directive '${d%% *}' between ${k%% *}\" '$T/raw.err'"
		done
		IFS='|'
	done
	IFS=' '
	set +f

	# The assembler reads on after ';' on a line marker.
	printf '%s\n\t.text\nf:\n# 5 "f.c" 1 ; %s\n' "$V" "$b" >"$T/m.s"
	check "$t: '# 5 \"f.c\" 1 ; $b' is refused unannotated" sh -c \
		"! '$KCFI_AS' --kcfi-real-as='$AS' -o '$T/m.o' '$T/m.s' 2>'$T/m.err' &&
		 grep -q '^$T/m.s:4: error: .*without a kcfi annotation' '$T/m.err'"

	# A plain .s with these spellings passes byte for byte.
	{
		printf '\t.text\nf:\n'
		IFS='|'
		set -f
		for sp in $checked $refused $returns; do
			case $sp in *sym*) continue ;; esac
			printf '\t%b\n' "$sp"
		done
		set +f
		IFS=' '
		printf '# 5 "f.c" 1 ; %s\n' "$b"
	} >"$T/plain.s"
	[ -z "$OPT" ] || sed -i "1i\\$OPT" "$T/plain.s"
	check "$t: a plain .s with every spelling is byte-identical" sh -c \
		"'$KCFI_AS' --kcfi-real-as='$AS' $ASFLAGS --kcfi-save='$T/plain.out.s' -o '$T/plain.o' '$T/plain.s' &&
		 cmp '$T/plain.s' '$T/plain.out.s' && '$AS' $ASFLAGS -o '$T/plain.ref.o' '$T/plain.s' &&
		 cmp '$T/plain.o' '$T/plain.ref.o'"
done

# Unusual spellings run.
cat >"$T/main.c" <<'END'
#include <stdio.h>
#include <string.h>
int call_a(int (*)(int)), call_b(int (*)(int)), call_c(int (*)(int)), call_d(int (*)(int));
int twice(int x) { return 2 * x; }
int other(long x) { return (int)x; }
int main(int argc, char **argv)
{
	int (*fp)(int) = argc > 2 ? (int (*)(int))other : twice;
	/* direct calls: call_a... have no preamble */
	printf("%d\n", argv[1][0] == 'a' ? call_a(fp) : argv[1][0] == 'b' ? call_b(fp) :
	       argv[1][0] == 'c' ? call_c(fp) : call_d(fp));
	return 0;
}
END
pick_triples
for t in $TS; do
	case $t in
	aarch64-*) cat >"$T/callers-$t.s" <<'END'
	.kcfi_version 1, "aarch64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0
	.kcfi_type 1, "int (int)"
	.text
	.kcfi_func call_a
	.globl	call_a
call_a:
	stp	x29, x30, [sp, -16]!
	mov	X1, x0
	mov	w0, 7
	.kcfi_call 1 ; ; ; ; ;
	BLR	X1
	ldp	x29, x30, [sp], 16
	ret
	.kcfi_func call_b
	.globl	call_b
call_b:
	mov	x16, x0
	mov	w0, 7
	.kcfi_call 1 ; ; ; ; ;
	Br	IP0
	.kcfi_func call_c
	.globl	call_c
call_c:
	stp	x29, x30, [sp, -16]!
	mov	LR, x0
	mov	w0, 7
	.kcfi_call 1 ; ; ; ; ;
	blr	Lr
	ldp	x29, x30, [sp], 16
	RET
	.kcfi_func call_d
	.globl	call_d
call_d:
	mov	x17, x0
	mov	w0, 7
# 7 "callers.c" 1
	.kcfi_call 1 ; ; ; ; ;
	BR	X17 // tail call
END
	;;
	riscv64-*) cat >"$T/callers-$t.s" <<'END'
	.kcfi_version 1, "riscv64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0
	.kcfi_type 1, "int (int)"
	.text
	.kcfi_func call_a
	.globl	call_a
call_a:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	mv	t0, a0
	li	a0, 7
	.kcfi_call 1 ; ; ; ;
	JALR	x1, t0, 0
	ld	ra, 8(sp)
	addi	sp, sp, 16
	RET
	.kcfi_func call_b
	.globl	call_b
call_b:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	mv	a5, a0
	li	a0, 7
	.kcfi_call 1 ; ; ; ;
	Jalr	ra , 0x0 ( a5 )
	ld	ra, 8(sp)
	addi	sp, sp, 16
	jr	ra
	.kcfi_func call_c
	.globl	call_c
call_c:
	mv	a5, a0
	li	a0, 7
	.kcfi_call 1 ; ; ; ;
	JR	a5, 0
	.kcfi_func call_d
	.globl	call_d
call_d:
	.option	push
	.option	arch, +c
	addi	sp, sp, -16
	sd	ra, 8(sp)
	mv	t2, a0
	li	a0, 7
	.kcfi_call 1 ; ; ; ;
	C.JALR	t2
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
	.option	pop
END
	;;
	arm-*) cat >"$T/callers-$t.s" <<'END'
	.kcfi_version 1, "arm-linux-gnueabihf", ptr=32, long=32, char=unsigned, prefix=0
	.kcfi_type 1, "int (int)"
	.syntax unified
	.arm
	.text
	.kcfi_func call_a
	.globl	call_a
	.type	call_a, %function
call_a:
	push	{r4, lr}
	MOV	R1, r0
	mov	r0, #7
	.kcfi_call 1 ; ; ; ; ; ; ; ; ;
	BLX	R1
	pop	{r4, pc}
	.kcfi_func call_b
	.globl	call_b
	.type	call_b, %function
call_b:
	mov	ip, r0
	mov	r0, #7
	.kcfi_call 1 ; ; ; ; ; ; ; ; ;
	Bx	IP
	.kcfi_func call_c
	.globl	call_c
	.type	call_c, %function
call_c:
	push	{r4, lr}
	mov	r12, r0
	mov	r0, #7
	.kcfi_call 1 ; ; ; ; ; ; ; ; ;
	blx	r12 @ through ip: computed in lr
	ldmfd	sp!, {r4, pc}
	.kcfi_func call_d
	.globl	call_d
	.thumb
	.thumb_func
	.type	call_d, %function
call_d:
	mov	r2, r0
	movs	r0, #7
# 7 "callers.c" 1
	.kcfi_call 1 ; ; ; ; ; ; ; ; ;
	BX	r2 @ tail call
END
	;;
	esac
	if ! kx "$t" -O2 -o "$T/prog-$t" "$T/main.c" "$T/callers-$t.s"; then
		fail "$t: the callers do not build"; continue
	fi
	for v in a b c d; do
		check "$t run $v: matched call through an unusual spelling" sh -c \
			"[ \"\$($(qemu_of "$t") -L /usr/$t '$T/prog-$t' $v)\" = 14 ]"
		qrun "$t" "$T/prog-$t" $v mismatch >/dev/null 2>&1
		rc=$?
		[ $rc -eq 133 ] && pass "$t run $v: another type traps (SIGTRAP)" ||
			fail "$t run $v: exit $rc, not 133 (SIGTRAP)"
	done
done
finish
