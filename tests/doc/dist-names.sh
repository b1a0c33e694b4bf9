#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every file git tracks fits a ustar archive (configure.ac's tar-ustar):
# automake's default v7 format drops a name over 99 characters from
# `make dist` with only a warning, and two kernel patches went missing from
# the tarball that way.  ustar keeps a base name of at most 100 characters
# under a prefix of at most 155.
. "$top_srcdir/tests/lib.sh"
git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "not a git checkout"
git -C "$top_srcdir" ls-files > "$T/files"
pkg=kcfi-as-0.1.0/
awk -v pkg="$pkg" '{
	p = pkg $0; n = split(p, part, "/"); base = part[n]
	dir = substr(p, 1, length(p) - length(base) - 1)
	if (length(base) > 100 || length(dir) > 155) print p
}' "$T/files" > "$T/long"
check "every tracked file name fits ustar" sh -c "[ ! -s '$T/long' ] || { cat '$T/long'; false; }"
check "configure.ac asks automake for ustar" grep -q 'AM_INIT_AUTOMAKE(\[[^]]*tar-ustar' "$top_srcdir/configure.ac"
finish
