#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command the documentation quotes runs (issue 45): each display
# block of README.md, doc/manual.md and the manual pages says what it is
# (doc/manual.md, "Commands in the documentation"), and the blocks of
# commands are run here, under sh (dash), with this build tree's tools
# first on PATH, in a scratch directory per document that holds the small
# inputs the documents name (tests/doc/commands/) and a link to tests/.
# A transcript's output is compared with what the document shows.  Blocks
# marked as an illustration are parsed only; those marked run-by=NAME must
# name a make target or a file of the tree (and doc-route-check's must be
# lines of the doc/kernel.md blocks it runs).  An unmarked block, a block
# with no kind, an indented code block or a "$ " line outside a transcript
# fails.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
FIX=$top_srcdir/tests/doc/commands
B=$T/blocks
mkdir -p "$B" "$T/cache"
# kcfi-gcc's cache of the assembler and of the ccache header: not $HOME's.
XDG_CACHE_HOME=$T/cache
export XDG_CACHE_HOME
# The commands as a reader runs them: kcfi-gcc with its own plugin (make
# check-gcc11 exports GCC 11's for kcfi-gcc-11), whatever $KCFI_GCC is.
unset KCFI_PLUGIN KCFI_CC KCFI_REAL_AS
GCC_PLAIN=$top_builddir/kcfi-gcc

# Markdown: a fenced block becomes blocks/N.txt with blocks/N.info holding
# "FILE:LINE<tab>INFO STRING"; an indented code block (four spaces after a
# blank line, outside a list) is reported, as it cannot say what it is.
md_blocks() {	# DOC N0
	awk -v dir="$B" -v n="$2" -v name="$3" '
	function start(info) {
		f = sprintf("%s/%04d", dir, ++n)
		printf "%s:%d\t%s\n", name, FNR, info > (f ".info"); close(f ".info")
		printf "" > (f ".txt")
	}
	fence && /^```[ \t]*$/ { fence = 0; close(f ".txt"); blank = 0; next }
	fence { print > (f ".txt"); next }
	/^```/ { info = substr($0, 4); sub(/[ \t]+$/, "", info); start(info); fence = 1; next }
	/^[ \t]*$/ { blank = 1; next }
	/^([*-]|[0-9]+\.) / { list = 1 }
	blank && !list && /^(    |\t)/ {
		printf "%s:%d: an indented code block: fence it and say what it is\n", name, FNR > (dir "/indented")
	}
	blank && !/^[ \t]/ && !/^([*-]|[0-9]+\.) / { list = 0 }
	{ blank = 0 }
	END { print n > (dir "/count") }' "$1"
	cat "$B/count"
}

# Manual pages: a .nf/.fi (or .EX/.EE) region, told what it is by the roff
# comment on the line before it, '.\" doc-block: INFO STRING'.
man_blocks() {	# PAGE N0 NAME
	awk -v dir="$B" -v n="$2" -v name="$3" '
	function unroff(s) {
		gsub(/\\f[BIRP]/, "", s); gsub(/\\f\(CR/, "", s); gsub(/\\-/, "-", s)
		gsub(/\\\(dq/, "\"", s); gsub(/\\\(aq/, "'\''", s); gsub(/\\&/, "", s)
		gsub(/\\e/, "\\", s)
		return s
	}
	/^\.(nf|EX)([ \t]|$)/ {
		info = ""
		if (prev ~ /^\.\\" doc-block:/) { info = prev; sub(/^\.\\" doc-block:[ \t]*/, "", info) }
		f = sprintf("%s/%04d", dir, ++n)
		printf "%s:%d\t%s\n", name, FNR, info > (f ".info"); close(f ".info")
		printf "" > (f ".txt")
		on = 1; prev = $0; next
	}
	on && /^\.(fi|EE)([ \t]|$)/ { on = 0; close(f ".txt"); prev = $0; next }
	on && /^\.ft/ { next }
	on { print unroff($0) > (f ".txt") }
	{ prev = $0 }
	END { print n > (dir "/count") }' "$1"
	cat "$B/count"
}

n=0
n=$(md_blocks "$top_srcdir/README.md" "$n" README.md)
n=$(md_blocks "$top_srcdir/doc/manual.md" "$n" doc/manual.md)
for p in "$top_srcdir"/doc/man/*.1; do
	n=$(man_blocks "$p" "$n" "doc/man/${p##*/}")
done
[ "$n" -gt 0 ] || fail "no block found in README.md, doc/manual.md or doc/man/"
if [ -s "$B/indented" ]; then
	while IFS= read -r l; do fail "$l"; done < "$B/indented"
fi

# The lines doc-route-check runs: the sh blocks of doc/kernel.md 1 and 2.
awk '/^## / { on = /^## [12]\. / } on && /^```sh/ { b = 1; next }
	b && /^```/ { b = 0 } b' "$top_srcdir/doc/kernel.md" > "$T/route.txt"

is_target() {	# NAME: a rule of Makefile.am or of a file it includes
	grep -qE "^$1:" "$top_srcdir/Makefile.am" "$top_srcdir"/*/local.mk "$top_srcdir"/tests/*.mk
}
# A file missing from a tarball (.ci/ is not shipped) is no error there;
# distcheck's copy lies inside this work tree, so ask for its top.
in_git=no
gittop=$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null) &&
	[ "$(cd "$gittop" && pwd -P)" = "$(cd "$top_srcdir" && pwd -P)" ] && in_git=yes

# Temporary names change from run to run: /tmp/ccAbC123.s.
norm() { sed -E 's#/tmp/cc[A-Za-z0-9]{6}\.s#/tmp/ccXXXXXX.s#g' "$@"; }
# same SHOWN GOT: line for line, where "..." in a line the document shows
# stands for any text (a path that depends on where the tools are).
same() {
	awk 'NR == FNR { e[++ne] = $0; next }
	{ g[++ng] = $0 }
	function like(pat, s,    n, part, i, at) {
		n = split(pat, part, /\.\.\./)
		if (n == 1) return pat == s
		if (substr(s, 1, length(part[1])) != part[1]) return 0
		s = substr(s, length(part[1]) + 1)
		for (i = 2; i < n; i++) {
			at = index(s, part[i]); if (!at) return 0
			s = substr(s, at + length(part[i]))
		}
		return length(s) >= length(part[n]) && substr(s, length(s) - length(part[n]) + 1) == part[n]
	}
	END {
		if (ne != ng) exit 1
		for (i = 1; i <= ne; i++) if (!like(e[i], g[i])) exit 1
	}' "$1" "$2"
}

# setup DIR: a reader's directory, with the inputs the documents name:
# the units, bar.o for a link line, the source tree's tests/ and, for the
# plugin that another GCC refuses to load, GCC 12's plugin as kcfi-12.so.
setup() {
	mkdir -p "$1" && cp "$FIX"/*.c "$1"/ && ln -s "$top_srcdir/tests" "$1/tests" &&
		(cd "$1" && "$GCC_PLAIN" -O2 -fsanitize=kcfi -c bar.c) || return 1
	if command -v gcc-12 >/dev/null; then
		p12=$(KCFI_CC=gcc-12 "$GCC_PLAIN" --version | sed -n 's/^kcfi-gcc .* through \(\/.*kcfi\.so\).*/\1/p')
		[ -z "$p12" ] || cp "$p12" "$1/kcfi-12.so"
	fi
}

# run_console N DIR WHERE STATUS: each "$ " line, which must exit STATUS,
# its output compared with the lines that follow it up to the next "$ "
# line, when there are any.
run_console() {
	awk -v p="$T/c$1" '
		/^\$ / { k++; print substr($0, 3) > (p "." k ".cmd"); printf "" > (p "." k ".exp"); next }
		k { print > (p "." k ".exp") }
		END { print k + 0 > (p ".n") }' "$B/$1.txt"
	k=0
	[ "$(cat "$T/c$1.n")" -gt 0 ] || { fail "$3: a console block without a '\$ ' command line"; return; }
	while [ $k -lt "$(cat "$T/c$1.n")" ]; do
		k=$((k + 1))
		c=$T/c$1.$k
		cmd=$(cat "$c.cmd")
		(cd "$2" && PATH="$top_builddir:$PATH" timeout 60 sh -c "$cmd") > "$c.out" 2>&1
		rc=$?
		if [ $rc -ne "$4" ]; then
			fail "$3: '$cmd' exits $rc, not $4:"; sed 's/^/    /' "$c.out" | head -20; continue
		elif tool_signal $rc "$c.out"; then
			fail "$3: '$cmd': a tool died:"; sed 's/^/    /' "$c.out" | head -20; continue
		fi
		if [ -s "$c.exp" ]; then
			norm "$c.exp" > "$c.e"; norm "$c.out" > "$c.o"
			if ! same "$c.e" "$c.o"; then
				diff -u "$c.e" "$c.o" > "$c.diff"
				fail "$3: '$cmd' prints other than the document shows (- document, + run):"
				sed 's/^/    /' "$c.diff" | head -30
				continue
			fi
		fi
		pass "$3: \$ $cmd"
	done
}

runs=0 ills=0 others=0 texts=0
for inf in "$B"/*.info; do
	id=${inf##*/}; id=${id%.info}
	where=$(cut -f1 "$inf") info=$(cut -f2- "$inf")
	doc=${where%%:*}; doc=${doc##*/}
	dir=$T/run/$doc
	[ -d "$dir" ] || setup "$dir" || { fail "$doc: cannot set up the inputs in $dir"; continue; }
	# shellcheck disable=SC2086
	set -- $info
	kind=${1:-} mode=run status=0 needs= by=
	[ $# -gt 0 ] && shift
	for w; do
		case $w in
		illustration) mode=illustration ;;
		run-by=?*) mode=run-by by=${w#run-by=} ;;
		needs=?*) needs="$needs ${w#needs=}" ;;
		exit=[0-9]|exit=[0-9][0-9]|exit=[0-9][0-9][0-9]) status=${w#exit=} ;;
		*) fail "$where: '$w' in the block's info string ('$info') is none of illustration, run-by=NAME, needs=PROG, exit=N"; mode=bad ;;
		esac
	done
	case $kind in
	"")
		fail "$where: a block that does not say what it is (sh, console, text, ...): doc/manual.md, \"Commands in the documentation\""
		continue ;;
	sh|console) ;;
	*)
		texts=$((texts + 1))
		if grep -q '^\$ ' "$B/$id.txt"; then
			fail "$where: a '\$ ' command line in a '$kind' block: make it a console block"
		fi
		[ "$mode" = run ] || fail "$where: '$info': only sh and console blocks are commands"
		continue ;;
	esac
	if [ "$kind" = sh ] && grep -q '^\$ ' "$B/$id.txt"; then
		fail "$where: a '\$ ' line in a sh block: a transcript is a console block"; continue
	fi
	case $mode in
	bad) continue ;;
	illustration)
		ills=$((ills + 1))
		if [ "$kind" = sh ]; then
			check "$where: illustration parses under sh" sh -n "$B/$id.txt"
		else
			sed -n 's/^\$ //p' "$B/$id.txt" > "$T/$id.sh"
			check "$where: illustration parses under sh" sh -n "$T/$id.sh"
		fi
		continue ;;
	run-by)
		others=$((others + 1))
		case $by in
		*/*)
			if [ -e "$top_srcdir/$by" ]; then pass "$where: run by $by"
			elif [ $in_git = no ]; then echo "SKIP: $where: $by is not in a tarball"
			else fail "$where: run-by=$by: no such file in the tree"; fi ;;
		*)
			if is_target "$by"; then pass "$where: run by make $by"
			else fail "$where: run-by=$by: no such make target"; fi ;;
		esac
		if [ "$by" = doc-route-check ]; then
			sed -E 's/[[:space:]]+#.*//; s/[[:space:]]+$//' "$B/$id.txt" > "$T/$id.lines"
			sed -E 's/[[:space:]]+#.*//; s/[[:space:]]+$//' "$T/route.txt" > "$T/route.lines"
			while IFS= read -r l; do
				[ -n "$l" ] || continue
				grep -qxF -- "$l" "$T/route.lines" ||
					fail "$where: '$l' is not a line of doc/kernel.md 1-2, which doc-route-check runs"
			done < "$T/$id.lines"
		fi
		continue ;;
	esac
	missing=
	for p in $needs; do command -v "$p" >/dev/null || missing="$missing $p"; done
	if [ -n "$missing" ]; then
		echo "SKIP: $where: needs$missing"; continue
	fi
	runs=$((runs + 1))
	if [ "$kind" = console ]; then
		run_console "$id" "$dir" "$where" "$status"
		continue
	fi
	[ "$status" = 0 ] || { fail "$where: exit=N is for console blocks"; continue; }
	if (cd "$dir" && PATH="$top_builddir:$PATH" timeout 120 sh -e "$B/$id.txt") > "$T/$id.out" 2>&1; then
		pass "$where: sh block runs: $(head -n 1 "$B/$id.txt" | cut -c1-60)"
	else
		fail "$where: sh block fails under sh -e:"
		sed 's/^/    /' "$B/$id.txt"
		echo "  output:"
		sed 's/^/    /' "$T/$id.out" | head -30
	fi
done
echo "blocks: $runs run, $ills illustrations, $others run by other tests, $texts not commands"
[ $runs -gt 0 ] || fail "no block of commands was run"
finish
