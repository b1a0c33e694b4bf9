#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The translation-unit pass is a star around asmpass/tu.c (doc/design.md 2):
# no other tu*.c file calls a function another tu*.c file defines, and only
# tu.c writes output, renumbers lines or reports errors, so the line
# accounting lives in one place.  A source-level check: a new edge is a
# design change to make on purpose, here and in the document.
. "$top_srcdir/tests/lib.sh"
A=$top_srcdir/asmpass

# The functions each tu*.c file defines for the others (tu-state.h).
for f in "$A"/tu*.c; do
	sed -n 's/^[a-z][a-z_ ]*[ *]\(tu_[a-z_0-9]*\)(.*/\1/p' "$f" | sed "s|^|$(basename "$f") |"
done >"$T/defs"
check "tu*.c define the handlers tu.c calls" sh -c "[ \$(wc -l <'$T/defs') -ge 20 ]"

: >"$T/edges"
while read -r def fn; do
	for f in "$A"/tu*.c; do
		b=$(basename "$f")
		[ "$b" = "$def" ] || [ "$b" = tu.c ] && continue
		grep -q "\\b$fn(" "$f" && echo "$b -> $def ($fn)" >>"$T/edges"
	done
done <"$T/defs"
check "no tu-*.c file calls into another tu*.c file" sh -c "! grep . '$T/edges'"

for f in "$A"/tu-*.c; do
	b=$(basename "$f")
	check "$b writes no output, renumbers no line, reports no error" sh -c \
		"! grep -n -e 'sink_' -e '->out\\b' -e 'diag_error' -e '->failed' -e 'loc\\.line *[-+]*=' '$f'"
done
finish
