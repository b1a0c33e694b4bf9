#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every x86_64 branch shape GCC prints, through kcfi-as and GNU as, then
# decoded from the object by kcfi-elfcheck (an independent reader): each check
# is the 6+4+2+2 bytes Linux decodes, with the id of its type and the hash
# load at -(M+4) from the branch's own register, or from %r11 for memory
# targets, thunks, %r10 and %r12 (doc/abi.md 1); every trap is in
# .kcfi_traps; preambles are right.
. "$top_srcdir/tests/lib.sh"

VOID=$(fnv1a _ZTSFvvE)		# void (void)
INTP=$(fnv1a _ZTSFvPiE)		# void (int *)

forms() {	# $1 = prefix M
	cat <<END
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=$1
	.kcfi_type 1, "void (void)"
	.kcfi_type 2, "void (int *)"
	.text
	.kcfi_func f, 1
	.p2align 4
	.globl	f
END
	[ "$1" -gt 0 ] && printf '.LPFE1:\n' && for _ in $(seq "$1"); do printf '\tnop\n'; done
	cat <<END
	.type	f, @function
f:
	.kcfi_call 1
	call	*%rax
	.kcfi_call 2
	call	*%r10
	.kcfi_call 1
	call	*%r11
	.kcfi_call 2
	call	*8(%rdi)
	.kcfi_call 1
	call	*complex_func_ptr(%rip)
	.kcfi_call 2
	call	*(%rax,%rsi,8)
	.kcfi_call 1
	notrack call	*%rcx
	.kcfi_call 1
	call	__x86_indirect_thunk_rax
	.kcfi_call 2
	cs
	call	__x86_indirect_thunk_r8
	.kcfi_call 1
	jmp	*%rsi
	.kcfi_call 2
	jmp	*16(%rax)
	.kcfi_call 1
	jmp	__x86_indirect_thunk_rdx
	.kcfi_call 1
	call	*%r12
	.kcfi_call 2
	call	*%r13
	.size	f, .-f
	.section	.text.g,"axG",@progbits,g,comdat
	.kcfi_func g, 2
	.p2align 4
	.weak	g
END
	[ "$1" -gt 0 ] && printf '.LPFE2:\n' && for _ in $(seq "$1"); do printf '\tnop\n'; done
	cat <<END
g:
	.kcfi_call 2
	jmp	*%rax
	.kcfi_func h
	.p2align 4
END
	[ "$1" -gt 0 ] && printf '.LPFE3:\n' && for _ in $(seq "$1"); do printf '\tnop\n'; done
	cat <<END
h:
	ret
END
}

for M in 0 3 4 11; do
	forms $M >"$T/forms$M.s"
	if ! "$KCFI_AS" --kcfi-save="$T/forms$M.out.s" -o "$T/forms$M.o" "$T/forms$M.s" 2>"$T/err"; then
		fail "M=$M: kcfi-as failed"; cat "$T/err"; continue
	fi
	if ! "$ELFCHECK" --prefix=$M "$T/forms$M.o" >"$T/check$M.txt"; then
		fail "M=$M: kcfi-elfcheck rejects the object"; grep BAD "$T/check$M.txt"; continue
	fi
	n=$(grep -c '^trap' "$T/check$M.txt")
	[ "$n" -eq 15 ] && pass "M=$M: 15 decodable checks" || fail "M=$M: $n checks, expected 15"
	regs=$(sed -n 's/^trap .* target=\([a-z0-9]*\) .*/\1/p' "$T/check$M.txt" | tr '\n' ' ')
	want="rax r11 r11 r11 r11 r11 rcx r11 r11 rsi r11 r11 r11 r13 rax "
	[ "$regs" = "$want" ] && pass "M=$M: each check loads through the right register" ||
		fail "M=$M: checks load through $regs, want $want"
	[ "$(grep -c "^trap .*type=$VOID" "$T/check$M.txt")" -eq 8 ] &&
	[ "$(grep -c "^trap .*type=$INTP" "$T/check$M.txt")" -eq 7 ] &&
		pass "M=$M: each check expects its own type" || fail "M=$M: wrong types"
	grep -q "^trap .text.g+.*type=$INTP" "$T/check$M.txt" &&
		pass "M=$M: trap in a COMDAT section" || fail "M=$M: no trap in .text.g"
	grep -q "^preamble __cfi_f type=$VOID nops=$(( (16 - (M + 5) % 16) % 16 )) binding=GLOBAL" "$T/check$M.txt" &&
		pass "M=$M: global preamble" || fail "M=$M: __cfi_f"
	grep -q "^preamble __cfi_g type=$INTP .* binding=WEAK" "$T/check$M.txt" &&
		pass "M=$M: weak preamble" || fail "M=$M: __cfi_g"
	grep -q '__cfi_h' "$T/check$M.txt" && fail "M=$M: untyped h got a preamble" || pass "M=$M: no preamble for h"

	# Instruction-level details the byte decoder does not see.
	grep -A1 '^	cs$' "$T/forms$M.out.s" | grep -q 'call	__x86_indirect_thunk_r11' &&
		pass "M=$M: cs prefix kept on the r11 thunk" || fail "M=$M: cs prefix"
	[ "$(grep -c '__x86_indirect_thunk_r11' "$T/forms$M.out.s")" -eq 3 ] &&
		pass "M=$M: all thunks go through r11" || fail "M=$M: thunk registers"
	# The branch behind each check goes through the register the check read.
	awk '/^	addl	-[0-9]+\(%r[a-z0-9]+\), %r10d$/ { r = $2; sub(/^-[0-9]+\(/, "", r); sub(/\).*/, "", r); next }
	     r != "" && /^	[a-z ]*(call|jmp)	/ { n++; if ($NF != "*" r && $NF != "__x86_indirect_thunk_r11") { print "after " r ": " $0; bad = 1 } r = "" }
	     END { exit bad || n != 15 }' "$T/forms$M.out.s" >"$T/after$M" &&
		pass "M=$M: each branch uses the register its check read" ||
		{ fail "M=$M: branch and check registers differ"; cat "$T/after$M"; }
	grep -q 'notrack call	\*%rcx' "$T/forms$M.out.s" &&
		pass "M=$M: notrack kept" || fail "M=$M: notrack"
	grep -q 'movq	complex_func_ptr(%rip), %r11' "$T/forms$M.out.s" &&
		pass "M=$M: memory operand loaded into r11" || fail "M=$M: memory load"
done

# Entries of untyped functions keep every entry at the same offset.
objdump -d "$T/forms11.o" | awk '/<h>:/ { print $1 }' | grep -q '0$' &&
	pass "untyped h with M=11 stays aligned" || fail "h is not aligned"

# With -mindirect-branch-cs-prefix (kcfi-gcc passes --kcfi-cs-prefix) the
# rewritten thunk call gets cs, as GCC gives it to r8-r15 thunks.
"$KCFI_AS" --kcfi-cs-prefix --kcfi-save="$T/cs.s" -o "$T/cs.o" "$T/forms0.s"
[ "$(grep -A1 '^	cs$' "$T/cs.s" | grep -c '__x86_indirect_thunk_r11')" -eq 3 ] &&
	pass "--kcfi-cs-prefix" || fail "--kcfi-cs-prefix"

# ENDBR masking: a type whose id would put ENDBR64 (f3 0f 1e fa) or ENDBR32
# in an immediate, or their negation, is bumped by one in the check, the
# preamble and __kcfi_typeid_ alike.  These tags were found by brute force.
for tag in k06fa9458 k1430f5fd k3025eb91; do
	h=$(fnv1a "_ZTSFvP9${tag}E")
	bumped=$(printf '0x%08x' $((h + 1)))
	cat >"$T/endbr.s" <<END
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0
	.kcfi_type 1, "void (struct $tag *)"
	.kcfi_func f, 1
	.globl f
f:
	.kcfi_call 1
	jmp	*%rax
	.kcfi_extern ext, 1
END
	"$KCFI_AS" -o "$T/endbr.o" "$T/endbr.s" && "$ELFCHECK" "$T/endbr.o" >"$T/endbr.txt"
	case $h in
	0xfa1e0ff3|0x05e1f00d|0xfb1e0ff3|0x04e1f00d) ;;
	*) fail "$tag: hash $h is not an ENDBR value (test data stale?)"; continue ;;
	esac
	[ "$(grep -c "$bumped" "$T/endbr.txt")" -eq 3 ] && pass "ENDBR id $h masked to $bumped" ||
		{ fail "ENDBR id $h"; cat "$T/endbr.txt"; }
done
finish
