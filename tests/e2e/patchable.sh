#!/bin/sh
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

refused() {	# FLAGS...
	! "$KCFI_GCC" -fsanitize=kcfi "$@" -c -o "$T/refused.o" "$top_srcdir/tests/prepass/patchable.c" 2>"$T/refused.err" &&
	grep -q "patchable.c:5:1: error: 'patchable_function_entry' attribute cannot be used with '-fsanitize=kcfi'" "$T/refused.err" &&
	[ ! -e "$T/refused.o" ] || { cat "$T/refused.err"; false; }
}
for o in $OPT_LEVELS; do
	check "the patchable_function_entry attribute is an error at $o" refused $o
done
check "... also with another prefix on the command line" refused -O2 -fpatchable-function-entry=8,4
check "... and accepted when it agrees with the command line" \
	kgcc -O2 -fpatchable-function-entry=4,2 -c -o "$T/agree.o" "$top_srcdir/tests/prepass/patchable.c"
finish
