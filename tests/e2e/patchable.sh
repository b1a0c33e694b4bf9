#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -fpatchable-function-entry=N,M: preambles end M NOPs before the entry, every
# check loads the id from -(M+4)(%reg), and the program runs; the
# patchable_function_entry attribute that would move one entry is an error.
. "$top_srcdir/tests/e2e/lib.sh"

layout() {	# OBJ-OR-EXE M
	decoded "$1" "$2" &&
	equal 3 "$(n_traps "$1")" "checks" &&
	equal 0 "$(grep '^trap ' "$1.chk" | grep -vc "disp=-$(($2 + 4))\$")" "checks not at -(M+4)" &&
	[ -n "$(preamble "$1" add)" ] && [ -n "$(preamble "$1" sub)" ] && [ -n "$(preamble "$1" idle)" ] &&
	adjacent "$1"
}
for nm in 4,0 3,3 8,4 11,11; do
	m=${nm#*,}
	for o in $OPT_LEVELS; do
		n=pfe$nm$o
		if kgcc $o -fpatchable-function-entry=$nm -c -o "$T/$n.o" "$E2E/prefix-run.c" &&
		   kgcc $o -fpatchable-function-entry=$nm -o "$T/$n" "$T/$n.o"; then
			check "entry $nm at $o: ids at f-$((m + 4)), checks load from there" layout "$T/$n.o" "$m"
			check "entry $nm at $o: the program runs" "$T/$n"
		else
			fail "prefix-run.c builds with entry $nm at $o"
		fi
	done
done
# The linked program as Linux would see it (prefixes and .kcfi_traps resolved).
check "entry 11,11, linked: still decodable" layout "$T/pfe11,11-O2" 11

# The NOPs before an entry: -fpatchable-function-entry's M, after the
# preamble's movl if the function has one, plus single-byte padding only
# where the function's own section aligns it.  GCC puts an ".align 8" for
# the __patchable_function_entries record between the function's .p2align
# and its label; that one must not pad the entry (the kernel's -Os build,
# where GCC aligns no function, lost 5 bytes in front of every function
# without a preamble to it).  nop_runs OBJ prints "NAME RUN ADDR PREV" per
# function: the single-byte NOPs right before it, its address, and the
# instruction before those NOPs.
nop_runs() {
	objdump -d --no-show-raw-insn "$1" | awk '
		/^[0-9a-f]+ <[^>]+>:$/ { name = $2; gsub(/[<>:]/, "", name)
			if (name !~ /^__cfi_|[-+]0x/) print name, run, $1, prev; next }
		/^ *[0-9a-f]+:\t/ { sub(/^ *[0-9a-f]+:\t/, ""); split($0, w, /[ \t]+/)
			if (w[1] == "nop" && NF == 1) run++; else { run = 0; prev = w[1] } }'
}
pad_exact() {	# OBJ: at -Os, M NOPs before each entry, after a movl if typed
	nop_runs "$1" > "$1.runs" &&
	equal 6 "$(wc -l < "$1.runs")" "functions" &&
	equal "" "$(awk '$2 != 11' "$1.runs")" "entries without exactly 11 NOPs before them" &&
	equal "typed_a typed_b other_typed" "$(awk '$4 == "mov" { printf "%s%s", s, $1; s = " " }' "$1.runs")" \
		"functions after their preamble's movl"
}
pad_aligned() {	# OBJ: at -O2, every entry stays 16-byte aligned
	nop_runs "$1" > "$1.runs" &&
	equal 6 "$(wc -l < "$1.runs")" "functions" &&
	equal "" "$(awk '{ a = $3; sub(/^0+/, "", a); if (a == "") a = "0"
		if (a !~ /0$/) print }' "$1.runs")" "entries not 16-byte aligned"
}
check "entry 11,11 at -Os (the kernel's flags): 11 NOPs before every entry, no padding" \
	kgcc -Os -falign-functions=16 -fpatchable-function-entry=11,11 -c -o "$T/pad-os.o" "$E2E/prefix-pad.c"
check "... counted" pad_exact "$T/pad-os.o"
check "entry 11,11 at -O2 -falign-functions=16" \
	kgcc -O2 -falign-functions=16 -fpatchable-function-entry=11,11 -c -o "$T/pad-o2.o" "$E2E/prefix-pad.c"
check "... every entry keeps its alignment" pad_aligned "$T/pad-o2.o"

refused() {	# FLAGS...
	! "$KCFI_GCC" -fsanitize=kcfi "$@" -c -o "$T/refused.o" "$top_srcdir/tests/prepass/patchable.c" 2>"$T/refused.err" &&
	grep -q "patchable.c:6:1: error: 'patchable_function_entry' attribute cannot be used with '-fsanitize=kcfi'" "$T/refused.err" &&
	[ ! -e "$T/refused.o" ] || { cat "$T/refused.err"; false; }
}
for o in $OPT_LEVELS; do
	check "the patchable_function_entry attribute is an error at $o" refused $o
done
check "... also with another prefix on the command line" refused -O2 -fpatchable-function-entry=8,4
check "... and accepted when it agrees with the command line" \
	kgcc -O2 -fpatchable-function-entry=4,2 -c -o "$T/agree.o" "$top_srcdir/tests/prepass/patchable.c"
finish
