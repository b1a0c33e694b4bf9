#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# .kcfi_ lines are cut out of the scanner's buffer with memchr instead of its
# DFA when they lie whole in it (grammar/asmline.l).  Here 800 KB of them,
# read from a file and from a pipe (where reads end anywhere), so that lines
# both fit and straddle the buffer's refills: every one must be parsed whole
# (same type text, same id), every other line passed on, the line markers
# must count every line, and a NUL byte must be refused at its line and
# column wherever it falls.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL

# Type I is "void (int, ...)" with I % 40 parameters; f<I> refers to type I.
awk -v n=7000 'BEGIN {
	print "\t.kcfi_version 1, \"x86_64-linux-gnu\", ptr=64, long=64, char=signed, prefix=0"
	pad[0] = "\t"; pad[1] = " "; pad[2] = "  \t "; pad[3] = "\t\t"
	for (i = 1; i <= n; i++) {
		k = i % 40
		t = k ? "int" : "void"
		for (j = 1; j < k; j++)
			t = t ", int"
		printf "%s.kcfi_type %d, \"void (%s)\"\n", pad[i % 4], i, t
		printf "%s.kcfi_extern f%d, %d\n", pad[(i + 1) % 4], i, i
		if (i % 5 == 0)
			printf "\t.quad\tf%d\n", i
	}
}' >"$T/in.s"

# What kcfi-as must write, with V for the ids: for the .kcfi_version line
# a marker naming line 1 after the unit's first record (left out by shape
# below) and one naming line 2, an empty line for each .kcfi_type, the two symbol
# lines for each .kcfi_extern and then a marker naming the next input line.
awk -v name="$T/in.s" '
	NR == 1 { printf "# 1 \"%s\"\n# 2 \"%s\"\n", name, name; next }
	/\.kcfi_type/ { print ""; next }
	/\.kcfi_extern/ {
		sub(/,.*/, ""); sub(/.*\.kcfi_extern /, "")
		printf "\t.weak\t__kcfi_typeid_%s\n\t.set\t__kcfi_typeid_%s, V\n# %d \"%s\"\n", $0, $0, NR + 1, name
		next
	}
	{ print }' "$T/in.s" >"$T/expected"

# shape OUT: OUT with the ids replaced by V; checks that the id of f<I>
# depends on I % 40 only, and takes 40 different values, and that the
# type name records at the end (common/exempt.h) name those 40, which it
# leaves out.
shape() {
	awk '/^\t\.pushsection\t\.debug,/ { rec = 1; next }
	rec { if (/^\t\.quad\t[0-9]+, [0-9]+, 65$/) { n = $2; sub(/,$/, "", n); named[n] = 1 }
	      if (/^\t\.popsection$/) rec = 0; next }
	/^\t\.set\t__kcfi_typeid_f[0-9]+, [0-9]+$/ {
		i = $2; sub(/,$/, "", i); sub(/.*_f/, "", i); k = i % 40
		if ((k in id) && id[k] != $3) { print "id of f" i " differs from others of its type" > "/dev/stderr"; exit 1 }
		if (!(k in id)) { id[k] = $3; types++; if ($3 in seen) { print "two types, one id" > "/dev/stderr"; exit 1 }; seen[$3] = 1 }
		sub(/, [0-9]+$/, ", V")
	} { print } END { if (types != 40) { print "ids of " types " types, not 40" > "/dev/stderr"; exit 1 }
		for (i in seen) if (!(i in named)) { print "no name record for " i > "/dev/stderr"; exit 1 } }' "$1"
}

check "800 KB of directives, read from the file" sh -c \
	"'$KCFI_AS' --kcfi-no-assemble --kcfi-save='$T/file.out' '$T/in.s'"
if shape "$T/file.out" >"$T/file.shape" && cmp -s "$T/file.shape" "$T/expected"; then
	pass "... every line where it belongs, every type text whole"
else
	fail "... every line where it belongs, every type text whole"
	diff "$T/expected" "$T/file.shape" | head -5
fi

# The same through a pipe written in odd pieces.
check "... and from a pipe written 4093 bytes at a time" sh -c \
	"dd if='$T/in.s' bs=4093 status=none | '$KCFI_AS' --kcfi-no-assemble --kcfi-save='$T/pipe.out'"
sed 's/^\(# [0-9]*\) "{standard input}"$/\1 "'"$(printf '%s' "$T/in.s" | sed 's/[\/&]/\\&/g')"'"/' "$T/pipe.out" >"$T/pipe.named"
if cmp -s "$T/pipe.named" "$T/file.out"; then
	pass "... the same output"
else
	fail "... the same output"
	diff "$T/file.out" "$T/pipe.named" | head -5
fi

# A NUL byte in the type text of the lines that hold offsets 65536 * k (the
# scanner reads 64 KiB at a time): refused there, at the NUL's column.
for k in 1 3 7; do
	line=$(awk -v at=$((65536 * k)) '{ n += length($0) + 1 } n > at { print NR; exit }' "$T/in.s")
	awk -v l="$line" 'NR == l && /kcfi_type/ { sub(/\(/, "(\001") } NR == l && !/kcfi_type/ { l++ } { print }' \
		"$T/in.s" | tr '\001' '\000' >"$T/nul$k.s"
	nl=$(tr '\000' '\001' <"$T/nul$k.s" | awk '/\001/ { print NR; print index($0, "\001"); exit }' | tr '\n' ' ')
	set -- $nl
	for how in file pipe; do
		if [ $how = file ]; then
			"$KCFI_AS" --kcfi-no-assemble "$T/nul$k.s" 2>"$T/nul$k.err" >/dev/null
		else
			dd if="$T/nul$k.s" bs=4093 status=none | "$KCFI_AS" --kcfi-no-assemble 2>"$T/nul$k.err" >/dev/null
		fi
		rc=$?
		if [ $rc -eq 1 ] && grep -q ":$1:$2: error: NUL byte in the input" "$T/nul$k.err"; then
			pass "NUL near offset $((65536 * k)) ($how): refused at line $1, column $2"
		else
			fail "NUL near offset $((65536 * k)) ($how): rc=$rc, expected line $1 column $2"; head -3 "$T/nul$k.err"
		fi
	done
done
finish
