# SPDX-License-Identifier: GPL-2.0-or-later
# prepass/ipa-ra.cc: GCC turns -fipa-ra off for every patch area; with
# -fpatchable-function-entry=N,N (Linux x86_64's CALL_PADDING) the plugin
# turns it back on, so that a caller keeps values in registers its callee
# leaves alone instead of saving them in callee-saved ones (pushes).  Not
# for nops after the entry, -pg, -fno-ipa-ra or no-ipa-ra, and never
# across a function whose own attribute puts nops after its entry.
. "$top_srcdir/tests/prepass/lib.sh"

# pushes FLAGS...: the pushes of keep and keep_after, then with -DTRACED
# of keep_traced.
pushes() {
	kcc "$T/p.s" "$SRC/ipa-ra.c" -Os -fno-inline "$@" && quiet "$T/p.s" || return 1
	for f in keep keep_after keep_traced; do
		grep -q "^$f:" "$T/p.s" && printf '%s ' "$(body_count 'push' "$f" "$T/p.s")"
	done
	echo
}
P=-fpatchable-function-entry=11,11
check "no patch area: no pushes" equal "0 0 " "$(pushes)"
check "N,N: no pushes either" equal "0 0 " "$(pushes $P)"
off=$(pushes -fno-ipa-ra)
check "without IPA-RA keep saves registers" test "$off" != "0 0 "
check "no-ipa-ra: GCC's choice" equal "$off" "$(pushes $P -fplugin-arg-kcfi-no-ipa-ra)"
check "-fno-ipa-ra is kept" equal "$off" "$(pushes $P -fno-ipa-ra)"
check "nops after the entry (11,9): GCC's choice" equal "$off" "$(pushes -fpatchable-function-entry=11,9)"
check "-pg: GCC's choice" equal "$(pushes $P -pg -fplugin-arg-kcfi-no-ipa-ra)" "$(pushes $P -pg)"
check "a callee whose attribute puts nops after its entry: saves" \
	equal "0 0 ${off%% *} " "$(pushes $P -DTRACED)"
finish
