#!/bin/sh
# Golden tests: hand-written annotated assembly in, rewritten assembly out,
# compared line for line with a reviewed expectation (DESIGN.md section 5,
# KCFI-ABI.md 1.1, 1.6, 2.1, 3.2).  The expectations are also checked here
# against facts computed independently, so a wrong one cannot hide.
. "$top_srcdir/tests/lib.sh"
G=$top_srcdir/tests/golden

for f in x86_64-basic x86_64-prefix; do
	cp "$G/$f.s" "$T/$f.s"
	if (cd "$T" && "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$f.out" "$f.s" 2>"$f.err"); then
		check "$f: output is the reviewed expectation" diff -u "$G/$f.expected" "$T/$f.out"
	else
		fail "$f: kcfi-as refused it"; cat "$T/$f.err"
	fi
	# The expectation assembles, and an independent decoder accepts it.
	m=$(sed -n 's/.*prefix=\([0-9]*\)$/\1/p' "$G/$f.s")
	check "$f: the expectation assembles into decodable checks (M=$m)" sh -c \
		"as --64 -o '$T/$f.o' '$G/$f.expected' && '$ELFCHECK' --prefix=$m '$T/$f.o' >'$T/$f.chk'"
done

# Facts in the expectations: ids (FNV-1a of the mangled names), where the
# checks load from, the preamble layout, the unmasked __kcfi_typeid_.
u32() { printf '%u' $(($1)); }
neg() { printf '%u' $(( (0x100000000 - $1) & 0xffffffff )); }
VPI=$(fnv1a _ZTSFvPiE) II=$(fnv1a _ZTSFiiE)
IOCTL=$(fnv1a _ZTSFlP4filejmE) VV=$(fnv1a _ZTSFvvE)
B=$G/x86_64-basic.expected P=$G/x86_64-prefix.expected
count() { grep -c -- "$1" "$2" || true; }
check "basic: two preambles carry void (int *)'s and int (int)'s id" sh -c \
	"grep -q 'movl	\$$(u32 "$VPI"), %eax' '$B' && [ \$(grep -c 'movl	\$$(u32 "$II"), %eax' '$B') -eq 2 ]"
check "basic: each check compares against the negated id" sh -c \
	"[ \$(grep -c 'movl	\$$(neg "$VPI"), %r10d' '$B') -eq 2 ] && [ \$(grep -c 'movl	\$$(neg "$II"), %r10d' '$B') -eq 2 ]"
check "basic: loads at -4, four checks, four .kcfi_traps entries" sh -c \
	"[ \$(grep -c 'addl	-4(%r11), %r10d' '$B') -eq 4 ] && [ \$(grep -c '^	\.long	\.Lkcfi[0-9]_trap-\.Lkcfi[0-9]_entry' '$B') -eq 4 ]"
check "basic: 11 NOPs before each movl, the local one has no .globl" sh -c \
	"awk '/^__cfi_/ { n = 0; next } /^	nop/ { n++ } /movl.*%eax/ && n != 11 { exit 1 }' '$B' && ! grep -q 'globl	__cfi_local_taken' '$B'"
check "basic: __kcfi_typeid_ext_target is weak, unmasked int (int)" sh -c \
	"grep -q '^	\.weak	__kcfi_typeid_ext_target' '$B' && grep -q '^	\.set	__kcfi_typeid_ext_target, $(u32 "$II")\$' '$B'"
check "basic: unchecked and inline-asm calls are untouched" sh -c \
	"grep -q '^	call	\*%rax\$' '$B' && grep -q '^	call	\*%rcx\$' '$B'"
check "prefix: checks load at -15 and go through the r11 thunk" sh -c \
	"[ \$(grep -c 'addl	-15(%r11), %r10d' '$P') -eq 3 ] && [ \$(grep -c '__x86_indirect_thunk_r11' '$P') -eq 2 ] && grep -A1 '^	cs\$' '$P' | grep -q 'call	__x86_indirect_thunk_r11'"
check "prefix: preambles between the alignment and .LPFE, no padding (11 + 5 = 16)" sh -c \
	"grep -B3 '^\.LPFE1:' '$P' | grep -q 'movl	\$$(u32 "$IOCTL"), %eax' && grep -B3 '^\.LPFE2:' '$P' | grep -q 'movl	\$$(u32 "$VV"), %eax'"
check "prefix: COMDAT preamble is weak, its trap table in the group" sh -c \
	"grep -q '^	\.weak	__cfi_shared' '$P' && grep -q 'kcfi_traps,\"aoG\",@progbits,\.text\.shared,shared,comdat' '$P'"
check "prefix: the untyped function gets 5 NOPs so that its entry stays aligned" sh -c \
	"awk '/^	\.p2align 4/ { n = 0; go = 1; next } go && /^	nop/ { n++ } /^\.LPFE3:/ { exit n != 5 }' '$P'"
finish
