#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source, script, build and test file names its licence in its first
# five lines: GPL-2.0-only for what a kernel tree takes or builds (the
# patches, the test module), GPL-2.0-or-later for the rest (README.md,
# "Licence").  Data is exempt: documentation, golden inputs and outputs,
# corpora, lists, patches (debian/copyright covers them), the licence text
# and Debian's metadata.  A file added without the line fails here, before
# it is committed (untracked files are checked too).
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 99
# A copy of the tracked files inside another work tree (sanitize-check's
# sanitize-build/, ignored by the outer .gitignore) is no work tree of its own.
gittop=$(git rev-parse --show-toplevel 2>/dev/null) || skip "not a git work tree (a tarball)"
[ "$(cd "$gittop" && pwd -P)" = "$(pwd -P)" ] || skip "not the top of a git work tree (a copy of the tracked files)"

kernel_side() {
	case $1 in
	boot/patches/* | boot/patches-as/* | boot/kselftest/patches/* | boot/module/*) return 0 ;;
	esac
	return 1
}
exempt() {
	case $1 in
	*.md | *.patch | *.expected | *.txt | *.tsv | *.dict | *.xz | *.svg | *.s | *.png) return 0 ;;
	*-corpus/* | .gitignore | */.gitignore | *.lintian-overrides) return 0 ;;
	COPYING | debian/changelog | debian/control | debian/copyright) return 0 ;;
	debian/source/format | debian/kcfi-substvars) return 0 ;;
	esac
	return 1
}

n=0 bad=0
{ git ls-files; git ls-files --others --exclude-standard; } | sort -u > "$T/files"
while IFS= read -r f; do
	[ -f "$f" ] || continue
	exempt "$f" && continue
	n=$((n + 1))
	want=GPL-2.0-or-later
	kernel_side "$f" && want=GPL-2.0-only
	got=$(head -n 5 "$f" | sed -n 's/.*SPDX-License-Identifier: *\([A-Za-z0-9.+-]*\).*/\1/p' | head -n 1)
	if [ "$got" != "$want" ]; then
		echo "FAIL: $f: SPDX-License-Identifier ${got:-missing}, want $want"
		bad=$((bad + 1))
	fi
done < "$T/files"
[ $n -gt 400 ] || fail "only $n files checked: the list of files is wrong"
[ $bad -eq 0 ] && pass "$n files name their licence" || fail "$bad of $n files lack the right SPDX line"
finish
