# SPDX-License-Identifier: GPL-2.0-or-later
# no_sanitize("kcfi"): accepted silently in every spelling, decided where a
# call is written, kept through inlining.
. "$top_srcdir/tests/prepass/lib.sh"

checked() { equal "$1" "$(body_count '\.kcfi_call [0-9]' "$2" "$3")" "checked calls in $2"; }
unchecked() { equal "$1" "$(body_count '\.kcfi_call_unchecked' "$2" "$3")" "unchecked calls in $2"; }

inline_case() {
	s=$1
	compiled "$s" &&
	equal 2 "$(count '\.kcfi_call [0-9]' "$s")" "checked calls" &&
	equal 2 "$(count '\.kcfi_call_unchecked' "$s")" "unchecked calls" &&
	checked 1 plain_host "$s" && unchecked 1 exempt_host "$s" &&
	unchecked 1 plain_host_of_exempt "$s" &&
	checked 1 exempt_host_of_plain "$s" &&
	has '\.kcfi_func exempt_host, [0-9]+$' "$s"
}
spellings() {
	s=$1
	compiled "$s" &&
	for f in sp_underscores sp_std_attribute sp_two_strings sp_one_list \
		 sp_declared_first; do
		unchecked 1 $f "$s" || return 1
	done &&
	checked 1 sp_checked "$s"
}
for o in $OPT_LEVELS; do
	kcc "$T/i$o.s" "$SRC/nosan-inline.c" $o -Wall -Wextra -Wattributes
	check "inlining keeps no_sanitize per call at $o" inline_case "$T/i$o.s"
	kcc "$T/p$o.s" "$SRC/nosan-spellings.c" $o -std=gnu2x -Wall -Wextra
	check "no_sanitize spellings at $o" spellings "$T/p$o.s"
done

# The other sanitizers named together with kcfi still reach GCC.
asan() {
	s=$1
	compiled "$s" &&
	[ "$(body_count '__asan_report' sp_checked "$s")" -ge 1 ] &&
	equal 0 "$(body_count '__asan_report' sp_two_strings "$s")" "asan in sp_two_strings" &&
	equal 0 "$(body_count '__asan_report' sp_one_list "$s")" "asan in sp_one_list"
}
kcc "$T/asan.s" "$SRC/nosan-spellings.c" -O2 -std=gnu2x -fsanitize=address
check "no_sanitize(kcfi, address) still disables ASan" asan "$T/asan.s"
finish
