#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The front page and the directive reference keep up with the tree: README
# stays short (issue 32), its layout table names every top-level folder, and
# doc/directives.md's table has a row for every directive of the protocol
# (common/kcfi-targets.h), so a new folder or directive cannot go unlisted.
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/README.md D=$top_srcdir/doc/directives.md

check "README.md is at most 200 lines" sh -c "[ \$(wc -l <'$R') -le 200 ]"

for d in $(sed -n 's/^#define KCFI_DIR_[A-Z_]* "\(\.kcfi_[a-z_]*\)"$/\1/p' \
	"$top_srcdir/common/kcfi-targets.h"); do
	check "doc/directives.md's table has $d" grep -q "^| \`$d[ \`]" "$D"
done

# The sh blocks a reader copies (README, doc/kernel.md) are read by Debian's
# /bin/sh, dash: each parses there, and none redirects from a glob, which
# bash expands and dash opens literally ("patch -p1 < 0001-*.patch").
n=0
for doc in "$R" "$top_srcdir/doc/kernel.md"; do
	awk -v dir="$T/blk" 'BEGIN { system("mkdir -p " dir) }
		/^```sh( |$)/ { f = sprintf("%s/%d.sh", dir, ++n); next }
		/^```$/ { f = ""; next }
		f { print > f }' n="$n" "$doc"
	n=$(ls "$T/blk" 2>/dev/null | wc -l)
done
[ "$n" -gt 0 ] || fail "no sh block found in README.md or doc/kernel.md"
for b in "$T"/blk/*.sh; do
	[ -f "$b" ] || continue
	check "sh block $(head -n 1 "$b" | cut -c1-50): parses under dash" dash -n "$b"
	check "sh block $(head -n 1 "$b" | cut -c1-50): no redirection from a glob" \
		sh -c "! grep -nE '<[[:space:]]*[^[:space:]<>|;&]*[*?[]' '$b'"
done

# make install puts every document in $(docdir): a new one must be listed.
for f in "$top_srcdir"/doc/*.md "$top_srcdir"/doc/*.svg; do
	b=doc/${f##*/}
	check "Makefile.am installs $b" grep -q "[[:space:]]$b\\([[:space:]]\\|\$\\)" "$top_srcdir/Makefile.am"
done

# The folders as git has them: a tarball has no .ci/ and no .git.
if git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	for d in $(git -C "$top_srcdir" ls-tree -d --name-only HEAD); do
		check "README's layout table lists $d/" grep -q "^| \`$d/\` |" "$R"
	done
else
	echo "SKIP: not a git checkout: README's layout table against the folders"
fi
finish
