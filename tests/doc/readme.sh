#!/bin/sh
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

# The folders as git has them: a tarball has no .ci/ and no .git.
if git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	for d in $(git -C "$top_srcdir" ls-tree -d --name-only HEAD); do
		check "README's layout table lists $d/" grep -q "^| \`$d/\` |" "$R"
	done
else
	echo "SKIP: not a git checkout: README's layout table against the folders"
fi
finish
