#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The end of the input in the middle of things: a call-site directive or a
# .kcfi_func with nothing after it is refused at its own line; complete
# units without a final newline assemble normally.
. "$top_srcdir/tests/hostile/lib.sh"

for d in '.kcfi_call 1' .kcfi_call_unchecked .kcfi_call_direct .kcfi_branch_nocall; do
	n=$(echo "$d" | tr -c 'a-z\n' _)
	printf "$VT\nf:\n\t$d" >"$T/eof$n.s"
	expect_error "eof$n" 4 'at the end of the input'
	printf "$VT\nf:\n#APP\n\t$d\n#NO_APP\n\t.loc 1 2 3\n\n# comment\n\t.cfi_endproc\n" >"$T/eofnl$n.s"
	expect_error "eofnl$n" 5 'at the end of the input'
done
printf "$VT\n\t.kcfi_func f, 1\n\t.p2align 4\n\t.globl f" >"$T/eof-func.s"
expect_error eof-func 3 'the input ends before its definition'
printf "$VT\n\t.kcfi_func f\n.LPFE0:\n\tnop\n" >"$T/eof-prefix.s"
expect_error eof-prefix 3 'the input ends before its definition'
printf '\t.kcfi_require_plugin' >"$T/eof-require.s"
expect_error eof-require 1 'without the kcfi plugin'

printf "$VT\nf:\n\t.kcfi_call 1\n\tcall *%%rax" >"$T/no-newline.s"
expect_ok no-newline 1
printf "$VT\n\t.kcfi_func f, 1\nf:" >"$T/label-last.s"
expect_ok label-last 0 0
grep -q '^preamble __cfi_f ' "$T/label-last.elf" && pass "label-last: preamble" || fail "label-last: no preamble"
printf "$V" >"$T/version-only.s"
expect_ok version-only 0 0
: >"$T/empty.s"
expect_ok empty 0 0
finish
