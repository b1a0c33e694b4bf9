#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-as keeps one type table per TU and remembers the parameter
# declarations and return types it has read (typeids/type-memo.h): every
# answer must still be the one a fresh parse gives, errors included, and the
# cache must really be used.  memo-check compares the two, line by line, on
# hand-made sequences (memo-cases.txt), the Clang test cases and thousands
# of random prototypes.
set -eu
b=${abs_top_builddir:-$(pwd)}
s=${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
check=$b/tests/typeids/memo-check
gen=$b/tests/typeids/gen-protos

"$check" < "$s/tests/typeids/memo-cases.txt"
cat "$s/tests/typeids/clang-cases.txt" "$s/tests/typeids/clang-cases-c23.txt" |
	grep -v '^@' | "$check"
grep -v '^@' "$s/tests/typeids/clang-cases-salt.txt" | cut -f1 | "$check"
"$gen" 2000 11 --salt | cut -f1 | "$check" --min-assembled=300
# Random prototypes repeat parameters and return types often enough that
# most of them are put together from known pieces.
"$gen" 6000 7 | "$check" --min-assembled=2000 --min-reused=1000
# A cache that keeps starting over (every 256 KiB of types) answers alike.
# (Address spaces make the random types more varied, so a window of 256 KiB
# holds fewer of them than it did: 198 assembled, 10 reused, 4 restarts.)
"$gen" 3000 9 | "$check" --limit=262144 --min-assembled=150 --min-reused=5
"$gen" 6000 8 --cc=gcc | "$check" --min-assembled=1000 --min-reused=1000
# Pointers to functions and arrays, returned or passed, are put together
# from their pieces too: all seven of these.
printf '%s\n' 'int (*(short))(long)' 'int (*(short))[3]' 'int (**(long))[][4]' \
	'long (int (*)(short), char (*)[2])' 'long (int (*)(short) __attribute__((ms_abi)))' \
	'void (*(int (*)(char (*)[2])))(int (*)(short))' 'int (short) __attribute__((ms_abi))' |
	"$check" --min-assembled=7
