#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Lines of a megabyte, in every place a line can be: each assembles with the
# right checks or is refused at its line.
. "$top_srcdir/tests/hostile/lib.sh"
MB=1048576
call='#APP
	.kcfi_call 1
#NO_APP
	call	*%rax'

{ echo "$VT"; printf '# '; repeat $MB x; echo; echo "f:"; echo "$call"; } >"$T/comment.s"
expect_ok comment 1

{ echo "$VT"; printf '\t.data\n\t.ascii "'; repeat $MB y; echo '"'; echo '	.text'; echo "f:"; echo "$call"; } >"$T/ascii.s"
expect_ok ascii 1
size=$(${READELF:-readelf} -SW "$T/ascii.o" 2>/dev/null |
	sed -n 's/.* \.data *PROGBITS *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) .*/\1/p')
[ "$((0x${size:-0}))" -eq $MB ] && pass "ascii: .data holds the megabyte" || fail "ascii: .data size ${size:-?}"

# A function name of a megabyte: preamble and __cfi_ symbol all the same.
long=f$(repeat $MB n)
{ echo "$VT"; echo "	.kcfi_func $long, 1"; echo "	.globl $long"; echo "	.p2align 4"; echo "$long:"; echo "	ret"; } >"$T/name.s"
expect_ok name 0 0
# (The name is too long for a command line: compare lengths.)
n=$(${READELF:-readelf} -sW "$T/name.o" |
	awk -v len=$((MB + 1)) '$NF ~ /^__cfi_fn+$/ && length($NF) == len + 6' | wc -l)
[ "$n" -eq 1 ] && pass "name: __cfi_ of the long name" || fail "name: __cfi_ symbol count $n"
n=$(awk -v len=$((MB + 1)) '$1 == "preamble" && $2 ~ /^__cfi_fn+$/ && length($2) == len + 6' \
	"$T/name.elf" | wc -l)
[ "$n" -eq 1 ] && pass "name: preamble decodes" || fail "name: no preamble"

# The annotated branch itself followed by a megabyte of blanks and a comment.
{ echo "$VT"; echo "f:"; printf '#APP\n\t.kcfi_call 1\n#NO_APP\n\tcall\t*%%rax'; repeat $MB ' '; echo ' # end'; } >"$T/branch.s"
expect_ok branch 1

# Half a million reservation statements: still one check.
{ echo "$VT"; echo "f:"; printf '\t.kcfi_call 1'; repeat 500000 ' ;'; printf '\n\tcall\t*%%rax\n'; } >"$T/reserve.s"
expect_ok reserve 1

# A megabyte-long last line without a newline.
{ echo "$VT"; echo "f:"; echo "$call"; printf '# '; repeat $MB z; } >"$T/last.s"
expect_ok last 1

# Refusals: a prototype of a megabyte, a megabyte of unannotated calls.
{ echo "$V"; printf '\t.kcfi_type 1, "void ('; repeat $((MB / 5)) 'int, '; echo 'int)"'; } >"$T/type.s"
expect_error type 2 'prototype longer than'
{ echo "$VT"; echo "f:"; printf '\tnop'; repeat $((MB / 12)) '; call *%rax'; echo; } >"$T/calls.s"
expect_error calls 4 'without a kcfi annotation'
{ echo "$VT"; echo "f:"; printf '\t.kcfi_call 1\n\tcall *%%rax'; repeat $((MB / 12)) '; call *%rax'; echo; } >"$T/shared.s"
expect_error shared 5 'shares its line'
finish
