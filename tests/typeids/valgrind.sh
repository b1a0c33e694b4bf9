#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The unit test and kcfi-typeid under valgrind: no invalid access, no leak,
# on the success paths and on every error path the unit test provokes.
# Skipped (77) without valgrind.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"

command -v valgrind > /dev/null 2>&1 || { echo "SKIP: valgrind not installed"; exit 77; }
[ "${KCFI_SANITIZERS:-}" != yes ] || { echo "SKIP: built with ASan, which excludes valgrind"; exit 77; }

vg="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all"
dir=$top_builddir/tests/typeids

$vg "$dir/unit" > /dev/null || { echo "FAIL: unit under valgrind"; exit 1; }
# the tool reads and reports a mix of good and bad lines
grep -v -e '^#' -e '^@ ' -e '^[[:space:]]*$' "$top_srcdir/tests/typeids/clang-cases.txt" | cut -f1 |
	{ cat; printf '%s\n' 'long float (void)' 'int (*)(int' 'void (int [static])'; } |
	$vg "$top_builddir/kcfi-typeid" --normalize-integers > /dev/null 2>&1
[ $? -eq 1 ] || { echo "FAIL: kcfi-typeid under valgrind"; exit 1; }
echo "ok: no memory errors or leaks"
