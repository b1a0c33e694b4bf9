#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel patches are what `git format-patch` makes, so that a kernel
# developer can read, `git am` and send them: a From line, an author, a
# date, a subject, a body that says why, a diffstat, and git's diff headers.
. "$top_srcdir/tests/lib.sh"
n=0
for p in "$top_srcdir"/boot/patches/*/*.patch "$top_srcdir"/boot/patches-as/*/*.patch \
	"$top_srcdir"/boot/kselftest/patches/*.patch; do
	[ -f "$p" ] || continue
	n=$((n + 1))
	b=${p#"$top_srcdir"/}
	check "$b: starts with format-patch's From line" \
		sh -c "head -n 1 '$p' | grep -Eq '^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001\$'"
	for h in From Date Subject; do
		check "$b: has a $h: header" grep -q "^$h: " "$p"
	done
	check "$b: has a body before the ---" \
		sh -c "awk '/^Subject:/ { s = 1; next } s && /^\$/ { b = 1; next } b && /^---\$/ { exit } b && NF { n++ } END { exit !(n >= 2) }' '$p'"
	check "$b: has a diffstat" grep -Eq '^ [0-9]+ files? changed' "$p"
	check "$b: has git's diff headers" grep -q '^diff --git a/' "$p"
done
[ $n -gt 0 ] || fail "no patch found under boot/"
finish
