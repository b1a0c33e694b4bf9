# SPDX-License-Identifier: GPL-2.0-or-later
# Inlined calls of two types: each type keeps at least one check of its own,
# and no check carries the wrong type.
. "$top_srcdir/tests/prepass/lib.sh"

A="int (struct node *, struct item *, int)"
B="int (struct node *, const struct blob *, int)"
sharing() {
	compiled "$1" &&
	[ "$(call_tags "$1" | grep -cxF "$A")" -ge 1 ] &&
	[ "$(call_tags "$1" | grep -cxF "$B")" -ge 1 ] &&
	equal 0 "$(call_tags "$1" | grep -cvxF -e "$A" -e "$B")" "foreign types"
}
for o in $OPT_LEVELS; do
	kcc "$T/s$o.s" "$SRC/shared-calls.c" $o
	check "call sharing at $o" sharing "$T/s$o.s"
done
finish
