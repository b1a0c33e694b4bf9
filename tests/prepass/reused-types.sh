# SPDX-License-Identifier: GPL-2.0-or-later
# Types that recur across prototypes: the plugin prints a parameter type,
# a return type or a whole function type once and reuses the text.  Reuse
# must not change what is printed: anonymous tags keep one number each
# wherever and in whatever order they recur, and a type that cannot be
# written is an error for every prototype that has it, not just the first.
. "$top_srcdir/tests/prepass/lib.sh"

# extern_type NAME FILE: the type text of .kcfi_extern NAME.
extern_type() {
	tag "$(sed -n "s/^[[:space:]]*\.kcfi_extern $1, \([0-9]*\)\$/\1/p" "$2")" "$2"
}

reused() {
	s=$1
	compiled "$s" || return 1
	# The numbers the two anonymous tags got, from the first prototype.
	su=$(extern_type su "$s")
	n=$(printf '%s\n' "$su" | sed -n 's/^void (struct \$_\([0-9]*\) \*, union \$_[0-9]* \*)$/\1/p')
	m=$(printf '%s\n' "$su" | sed -n 's/^void (struct \$_[0-9]* \*, union \$_\([0-9]*\) \*)$/\1/p')
	[ -n "$n" ] && [ -n "$m" ] && [ "$n" != "$m" ] ||
		{ echo "su: unexpected $su"; return 1; }
	S="struct \$_$n *" U="union \$_$m *"
	equal "void ($U, $S)" "$(extern_type us "$s")" us &&
	equal "void ($U, $U, int)" "$(extern_type uu "$s")" uu &&
	equal "$S($U)" "$(extern_type ret_s "$s")" ret_s &&
	equal "${U}(*($S))($U, $S)" "$(extern_type ret_fp "$s")" ret_fp &&
	equal "void (void (*)($U, $S), $S)" "$(extern_type nested "$s")" nested &&
	equal "void (int, long)" "$(extern_type good_after "$s")" good_after &&
	equal "int (int, $S)" "$(extern_type op_decl "$s")" op_decl &&
	equal "$(func_id op_def "$s")" \
	      "$(sed -n 's/^[[:space:]]*\.kcfi_extern op_decl, \([0-9]*\)$/\1/p' "$s")" \
	      "the id of op_def and op_decl" &&
	equal "int (int, $S)" "$(call_tags "$s")" "the call in call_op"
}

# errors FILE.s: each of the four prototypes returning a transparent union
# that begins with an array (lines 23-26) has its own error, and nothing
# else fails.
errors() {
	e=$1.err
	equal 4 "$(count 'error: kcfi: .*cannot be written' "$e")" "errors" &&
	for line in 24 25 26 27; do
		has "reused-types\.c:$line:[0-9]*: error: kcfi: " "$e" || return 1
	done &&
	equal 4 "$(count 'error' "$e")" "all errors"
}

for o in -O0 -O2; do
	kcc "$T/r$o.s" "$SRC/reused-types.c" $o
	check "recurring types print alike at $o" reused "$T/r$o.s"
	kcc "$T/e$o.s" "$SRC/reused-types.c" $o -DWITH_ERRORS
	check "an unwritable type is an error in every prototype at $o" errors "$T/e$o.s"
done
finish
