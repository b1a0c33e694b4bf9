#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# .kcfi_func NAME, ID, arity=N (doc/directives.md 2.3): on x86_64 the
# preamble's movl goes to the register numbered N (eax, ecx, edx, ebx, esp,
# ebp, esi, edi: opcode b8+N), what Linux's FineIBT-BHI decodes; with
# ", stub" in either order; the key's errors; the backends without a place
# for it refuse it.
. "$top_srcdir/tests/lib.sh"

V64='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
# unit NAME VERSION FUNC-OPERANDS...: one function per operand list
unit() {
	n=$1 v=$2
	shift 2
	{ printf '%s\n\t.kcfi_type 1, "void (int)"\n\t.text\n' "$v"
	  i=0
	  for ops; do
		printf '\t.kcfi_func f%d, %s\n\t.p2align 4\n\t.globl f%d\n\t.type f%d, @function\nf%d:\n\tret\n' \
			$i "$ops" $i $i $i
		i=$((i + 1))
	  done; } >"$T/$n.s"
}
asm() { "$KCFI_AS" --kcfi-save="$T/$1.out" -o "$T/$1.o" "$T/$1.s" 2>"$T/$1.err"; }
refused() {	# NAME PATTERN
	! asm "$1" && grep -q "$2" "$T/$1.err" || { cat "$T/$1.err"; false; }
}

unit all "$V64" "1, arity=0" "1, arity=1" "1, arity=2" "1, arity=3" "1, arity=4" \
	"1, arity=5" "1, arity=6" "1, arity=7" "1" "1,arity = 2, stub" "1, stub, arity=6"
if asm all; then
	regs="eax ecx edx ebx esp ebp esi edi eax edx esi"
	check "the movl of each preamble names the register of its arity" sh -c \
		"[ \"\$(grep -o 'movl	\\\$[0-9]*, %e[a-z]*' '$T/all.out' | sed 's/.*%//' | tr '\n' ' ')\" = '$regs ' ]"
	# the opcode byte itself: b8 + arity, right before each function
	objdump -d "$T/all.o" | awk '/<__cfi_f[0-9]+>:/ { on = 1; next } on && /\tmov +\$/ { split($0, f, "\t"); print substr(f[2], 1, 2); on = 0 }' \
		>"$T/all.op"
	check "opcodes b8..bf, then b8 without the key" sh -c \
		"[ \"\$(tr '\n' ' ' < '$T/all.op')\" = 'b8 b9 ba bb bc bd be bf b8 ba be ' ]"
else
	fail "kcfi-as takes arity=0..7"; cat "$T/all.err"
fi

unit big "$V64" "1, arity=8"
check "arity=8: refused" refused big 'big.s:4:[0-9]*: error: number out of range'
unit noid "$V64" "arity=2"
check "arity without an id: refused" refused noid 'noid.s:4:[0-9]*: error: arity= needs the type id of a preamble'
unit twice "$V64" "1, arity=2, arity=3"
check "arity twice: refused" refused twice 'error: duplicate .kcfi_func key'
unit novalue "$V64" "1, arity"
check "arity without a value: refused" refused novalue "error: expected '=' after key"
unit unknown "$V64" "1, arty=2"
check "a misspelt key: refused" refused unknown 'error: unknown .kcfi_func key'
unit i386 '	.kcfi_version 1, "i686-linux-gnu", ptr=32, long=32, char=signed, prefix=0' "1, arity=1"
check "i386 has no place for it: refused, naming the backend" sh -c \
	"! '$KCFI_AS' --32 --kcfi-no-assemble --kcfi-save=/dev/null '$T/i386.s' 2>'$T/i386.err' &&
	 grep -q 'i386.s:4: error: .kcfi_func f0: the i386 preamble has no place for an arity' '$T/i386.err'"
unit a64 '	.kcfi_version 1, "aarch64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0' "1, arity=1"
check "aarch64 has none either" sh -c \
	"! '$KCFI_AS' --kcfi-no-assemble --kcfi-save=/dev/null '$T/a64.s' 2>'$T/a64.err' &&
	 grep -q 'error: .kcfi_func f0: the aarch64 preamble has no place' '$T/a64.err'"
finish
