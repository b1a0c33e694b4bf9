# SPDX-License-Identifier: GPL-2.0-or-later
# patchable_function_entry: an error unless its prefix is the TU's.
. "$top_srcdir/tests/prepass/lib.sh"

refused() {
	! kcc "$T/e.s" "$SRC/patchable.c" "$@" &&
	grep -qF "patchable.c:6:1: error: 'patchable_function_entry' attribute cannot be used with '-fsanitize=kcfi'" "$T/e.s.err" ||
	{ cat "$T/e.s.err"; false; }
}
accepted() {
	kcc "$T/a.s" "$1" $2 && compiled "$T/a.s"
}
for o in $OPT_LEVELS; do
	check "(4,2) without a prefix is an error at $o" refused $o
	check "(4,2) against -fpatchable-function-entry=8,4 is an error at $o" \
		refused $o -fpatchable-function-entry=8,4
done
check "(4,2) with -fpatchable-function-entry=4,2 is fine" \
	accepted "$SRC/patchable.c" "-O2 -fpatchable-function-entry=4,2"
printf '__attribute__ ((patchable_function_entry (0, 0))) int f (void) { return 0; }\n' >"$T/notrace.c"
check "notrace-style (0,0) without a prefix is fine" accepted "$T/notrace.c" -O2
finish
