#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Protocol details of doc/directives.md that the other tests do not pin:
# several .kcfi_require_plugin lines (one per unit an LTO partition merged),
# and the NOPs of the patchable prefix after .LPFEn:, the only instructions
# allowed between .kcfi_func and the function's label.
. "$top_srcdir/tests/lib.sh"

V='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=2'
asm() { "$KCFI_AS" --kcfi-save="$T/$1.out" -o "$T/$1.o" "$T/$1.s" 2>"$T/$1.err"; }

printf '#APP\n\t.kcfi_require_plugin\n#NO_APP\n%s\n#APP\n\t.kcfi_require_plugin\n\t.kcfi_require_plugin\n#NO_APP\n\t.text\nf:\n\tret\n' "$V" >"$T/req.s"
check "several .kcfi_require_plugin lines, before and after .kcfi_version" asm req
printf '#APP\n\t.kcfi_require_plugin\n#NO_APP\n#APP\n\t.kcfi_require_plugin\n#NO_APP\n\t.text\nf:\n\tret\n' >"$T/noreq.s"
check "... without .kcfi_version: refused at the first" sh -c \
	"! '$KCFI_AS' -o '$T/noreq.o' '$T/noreq.s' 2>'$T/noreq.err' && grep -q 'noreq.s:2: error: .*without the kcfi plugin' '$T/noreq.err'"

prefix() {	# NAME INSN-AFTER-LPFE...
	n=$1
	shift
	{ printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\n\t.kcfi_func f, 1\n\t.p2align 4\n\t.globl f\n.LPFE1:\n' "$V"
	  for i; do printf '\t%s\n' "$i"; done
	  printf '\t.type f, @function\nf:\n\tret\n'; } >"$T/$n.s"
}
prefix nops nop nop
check "NOPs after .LPFE1: are the prefix, not code before the label" sh -c \
	"'$KCFI_AS' --kcfi-save='$T/nops.out' -o '$T/nops.o' '$T/nops.s' && '$ELFCHECK' --prefix=2 '$T/nops.o' | grep -q '^preamble __cfi_f '"
check "... and the preamble goes before .LPFE1:" sh -c \
	"grep -A3 'movl	\\\$.*, %eax' '$T/nops.out' | grep -q '^\.LPFE1:'"
prefix other nop 'xchgl %eax, %eax'
check "any other instruction after .LPFE1: is refused" sh -c \
	"! '$KCFI_AS' -o '$T/o.o' '$T/other.s' 2>'$T/other.err' && grep -q 'other.s:9: error: instruction .xchgl' '$T/other.err'"
{ printf '%s\n\t.kcfi_type 1, "void (void)"\n\t.text\n\t.kcfi_func f, 1\n\tnop\nf:\n\tret\n' "$V"; } >"$T/early.s"
check "a NOP without .LPFE before it is code before the label: refused" sh -c \
	"! '$KCFI_AS' -o '$T/e.o' '$T/early.s' 2>'$T/early.err' && grep -q 'early.s:5: error: instruction .nop. before the label of f' '$T/early.err'"

# A refusal removes the object begun, but only a regular file, as GNU as
# does: "-o /dev/null" must survive.  A FIFO stands in for the device here
# (a reader keeps GNU as from blocking when it opens it).
mkfifo "$T/out.fifo"
cat "$T/out.fifo" >"$T/fifo.data" &
reader=$!
printf '%s\n\t.text\nf:\n\tcall\t*%%rax\n' "$V" >"$T/bad.s"
check "a refusal does not unlink a special file given as -o" sh -c \
	"! '$KCFI_AS' -o '$T/out.fifo' '$T/bad.s' 2>'$T/bad.err' && test -p '$T/out.fifo'"
kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
echo stale >"$T/regular.o"
check "... but does remove a regular file" sh -c \
	"! '$KCFI_AS' -o '$T/regular.o' '$T/bad.s' 2>/dev/null && test ! -e '$T/regular.o'"
finish
