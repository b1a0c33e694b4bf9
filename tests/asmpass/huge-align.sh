#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Huge function alignment (issue 14, item 14): the x86 preamble's padding
# (the NOPs that keep the entry aligned with the id right before it) takes
# constant space in the rewritten assembly, whatever the alignment:
# aligned(1 << 24), .p2align 30, .balign 2^31.  The bytes stay those Linux
# expects (0x90 each, then movl $H, %eax); up to 63 bytes of it are still
# written as nop lines, so ordinary alignments give the same text as before
# (tests/golden/).  Not a timing test: the size of the text is measured, and
# on a kcfi-as that writes one line per byte the text of .p2align 30 is
# 5 GiB, cut off here after 64 KiB.
. "$top_srcdir/tests/lib.sh"

V='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
VP='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=3'
VOID=$(fnv1a _ZTSFvvE)

# unit VERSION ALIGN-DIRECTIVE [TYPED]: a function f with that alignment.
unit() {
	printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\n\t.kcfi_func f%s\n\t%s\n\t.globl f\n' \
		"$1" "${3:+, 1}" "$2"
	case $1 in *prefix=3) printf '.LPFE1:\n\tnop\n\tnop\n\tnop\n' ;; esac
	printf '\t.type f, @function\nf:\n\tret\n\t.size f, .-f\n'
}

# small NAME: the rewritten text of $T/NAME.s is complete and under 64 KiB.
small() {
	"$KCFI_AS" --kcfi-no-assemble --kcfi-save=- "$T/$1.s" 2>"$T/$1.err" | head -c 65536 >"$T/$1.out.s"
	size=$(wc -c <"$T/$1.out.s")
	if [ "$size" -ge 65536 ]; then
		fail "$1: the rewritten text is $size bytes or more"
	elif ! grep -q '^	\.size f, \.-f$' "$T/$1.out.s"; then
		fail "$1: the rewritten text is incomplete"; sed 's/^/    /' "$T/$1.err"
	else
		pass "$1: $size bytes of text"
	fi
}

for a in '.p2align 30' '.p2align 31' '.balign 2147483648' '.align 16777216' '.P2ALIGN 30' '.p2align 30,,15'; do
	n=$(printf '%s' "$a" | tr -c 'A-Za-z0-9' _)
	unit "$V" "$a" typed >"$T/t$n.s"
	small "t$n"
	unit "$VP" "$a" >"$T/u$n.s"
	small "u$n"
done
grep -q '^	\.fill	1073741819, 1, 0x90$' "$T/t_p2align_30.out.s" &&
	pass ".p2align 30: 2^30 - 5 bytes of 0x90 in one line" || fail ".p2align 30: padding"
grep -q '^	\.fill	1073741821, 1, 0x90$' "$T/u_p2align_30.out.s" &&
	pass ".p2align 30, untyped with 3 prefix NOPs: 2^30 - 3 bytes" || fail ".p2align 30: untyped padding"

# The object: assembled, the same bytes as nop lines give, every entry aligned.
for p in 6 7 12 20; do
	unit "$V" ".p2align $p" typed >"$T/o$p.s"
	if ! "$KCFI_AS" --kcfi-save="$T/o$p.out.s" -o "$T/o$p.o" "$T/o$p.s" 2>"$T/o$p.err"; then
		fail ".p2align $p: kcfi-as failed"; sed 's/^/    /' "$T/o$p.err"; continue
	fi
	pad=$(( (1 << p) - 5 ))
	# The same preamble spelt as nop lines, by hand.
	{
		printf '\t.text\n\t.p2align %s\n\t.globl __cfi_f\n\t.type __cfi_f, @function\n__cfi_f:\n' $p
		yes '	nop' | head -n $pad
		printf '\tmovl $%u, %%eax\n\t.size __cfi_f, .-__cfi_f\n\t.globl f\n\t.type f, @function\nf:\n\tret\n\t.size f, .-f\n' $((VOID))
	} >"$T/ref$p.s"
	as -o "$T/ref$p.o" "$T/ref$p.s"
	objcopy -O binary --only-section=.text "$T/o$p.o" "$T/o$p.bin"
	objcopy -O binary --only-section=.text "$T/ref$p.o" "$T/ref$p.bin"
	check ".p2align $p: the same .text bytes as $pad nop lines" cmp "$T/o$p.bin" "$T/ref$p.bin"
	"$ELFCHECK" "$T/o$p.o" >"$T/o$p.check" 2>&1
	check ".p2align $p: kcfi-elfcheck reads the preamble" \
		grep -q "^preamble __cfi_f type=$VOID nops=$pad binding=GLOBAL" "$T/o$p.check"
	if [ $p -lt 7 ]; then
		check ".p2align $p: $pad bytes stay nop lines" sh -c \
			"[ \$(grep -c '^	nop$' '$T/o$p.out.s') -eq $pad ] && ! grep -q fill '$T/o$p.out.s'"
	fi
done

# Through kcfi-gcc: aligned(1 << 20) on a function called through a
# pointer; the program runs, and a call of another type traps.
cat >"$T/al.c" <<'END'
#include <stdio.h>
__attribute__((aligned(1 << 20), noinline)) int big(int x) { return x + 1; }
__attribute__((noinline)) int other(long x) { return (int)x; }
int main(int argc, char **argv)
{
	(void)argv;
	int (*volatile fp)(int) = argc > 1 ? (int (*)(int))other : big;
	printf("%d %d\n", fp(41), (int)((unsigned long)big & ((1 << 20) - 1)));
	return 0;
}
END
if "$KCFI_GCC" -fsanitize=kcfi -O2 -Wa,--kcfi-save="$T/al.out.s" -o "$T/al" "$T/al.c" 2>"$T/al.err"; then
	check "aligned(1 << 20): the rewritten text stays small" sh -c "[ \$(wc -c <'$T/al.out.s') -lt 65536 ]"
	check "aligned(1 << 20): runs, and big is aligned" sh -c "[ \"\$('$T/al')\" = '42 0' ]"
	sh -c "'$T/al' mismatch" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 132 ] && pass "aligned(1 << 20): another type traps (SIGILL)" || fail "aligned(1 << 20): exit $rc, not 132"
else
	fail "aligned(1 << 20) does not build"; sed 's/^/    /' "$T/al.err"
fi
finish
