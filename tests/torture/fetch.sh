#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Extract GCC 12's gcc.c-torture/execute from Debian's gcc-12-source package
# into a cache directory outside the repository (it is never committed).
#
#   fetch.sh [DIR]    DIR defaults to $KCFI_TORTURE_DIR, then
#                     ${XDG_CACHE_HOME:-$HOME/.cache}/kcfi-as/gcc-12-torture
# Prints the directory that holds the tests (DIR/execute).  Exits 77 when the
# package is not installed (apt-get install gcc-12-source).
set -eu
dir=${1:-${KCFI_TORTURE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kcfi-as/gcc-12-torture}}
if [ -f "$dir/.complete" ]; then
	echo "$dir/execute"
	exit 0
fi
tarball=
for f in /usr/src/gcc-12/gcc-12*.tar.xz; do
	case $f in */gcc-12.[0-9]*.tar.xz) tarball=$f ;; esac
done
if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
	echo "fetch.sh: no /usr/src/gcc-12/gcc-12.*.tar.xz; apt-get install gcc-12-source" >&2
	exit 77
fi
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
# Only the one directory; the tarball's top directory name varies (-dfsg).
tar -xJf "$tarball" -C "$dir.tmp" --strip-components=4 \
	--wildcards '*/gcc/testsuite/gcc.c-torture/execute/*'
[ -f "$dir.tmp/execute/execute.exp" ] || {
	echo "fetch.sh: $tarball has no gcc/testsuite/gcc.c-torture/execute" >&2
	exit 1
}
echo "$tarball" >"$dir.tmp/.complete"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "$dir/execute"
