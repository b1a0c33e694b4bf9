#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build demo/demo.c with kcfi-gcc and show KCFI catching the mismatched call.
# Usage: demo/run-demo.sh [BUILD_DIR]   (default: the source tree's build)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")}
kcfi_gcc=$build/kcfi-gcc
out=${TMPDIR:-/tmp}/kcfi-demo.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

echo "== building demo.c with: kcfi-gcc -O2 -fsanitize=kcfi"
"$kcfi_gcc" -O2 -fsanitize=kcfi -Wa,--kcfi-stats -Wa,--kcfi-save="$out/demo.kcfi.s" \
	-o "$out/demo" "$here/demo.c" || exit 1

echo "== the check kcfi-as put in front of dispatch()'s indirect call:"
awk '/^dispatch:/,/__x86_indirect_thunk|\*%r11/' "$out/demo.kcfi.s" |
	grep -E 'movq|movl|addl|je|ud2|call|jmp' | sed 's/^/    /'

echo "== running it"
"$out/demo"
rc=$?
if [ $rc -eq 132 ]; then
	echo "== the process died with SIGILL at the KCFI trap: the mismatched call was caught"
	exit 0
fi
echo "== unexpected exit status $rc: the mismatched call was not caught" >&2
exit 1
