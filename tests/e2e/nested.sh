#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GNU C nested functions (issue 14 item 13).  Taking the address of one
# gives a trampoline on the stack with no type id, which a checked call
# would trap on: with -fsanitize=kcfi that place is an error, at its line,
# naming the nested function and the opt-out.  Direct calls build and run;
# no_sanitize("kcfi") on the function taking the address lets it build,
# and the unchecked calls through the pointer run.
. "$top_srcdir/tests/e2e/lib.sh"
src=$E2E/nested.c

for o in -O0 -O2; do
	"$KCFI_GCC" -fsanitize=kcfi $o -DREFUSE -c -o "$T/r.o" "$src" >"$T/r$o.err" 2>&1
	check "$o: taking a nested function's address is refused" test $? -ne 0
	grep -n '/\* REFUSED ' "$src" | sed 's/^\([0-9]*\):.*REFUSED \([^ ]*\) \([^ ]*\) \*\/$/\1 \2 \3/' |
	while read -r line fn taker; do
		check "$o: line $line: error for '$fn' with why" \
			grep -q "nested\.c:$line:[0-9]*: error: taking the address of nested function '$fn' with '-fsanitize=kcfi': the pointer is a trampoline on the stack, which has no type id, so a checked call through it would trap" "$T/r$o.err"
		check "$o: line $line: the note names the opt-out on '$taker'" \
			grep -q "nested\.c:$line:[0-9]*: note: if every call through the pointer is unchecked, '__attribute__((no_sanitize(\"kcfi\")))' on '$taker' allows this" "$T/r$o.err"
	done
	want=$(grep -c '/\* REFUSED ' "$src")
	check "$o: one error per place, nothing else" sh -c \
		"test \$(grep -c ': error: ' '$T/r$o.err') = $want && ! grep -q ': warning: ' '$T/r$o.err'"
done

# Only with -fsanitize=kcfi: the same code is GCC's business otherwise.
check "without -fsanitize=kcfi it builds" \
	"$KCFI_GCC" -O2 -DREFUSE -c -o "$T/plain.o" "$src"

want="direct 57
opted_out 203
checked 49"
for o in $OPT_LEVELS; do
	if kgcc $o -o "$T/run$o" "$src" -Wl,-z,execstack; then
		check "$o: direct calls and the opt-out run" \
			sh -c "test \"\$('$T/run$o')\" = '$want'"
	else
		fail "$o: the valid part does not build"
	fi
done

# The opt-out is no blanket: the opted-out calls carry no check, the
# checked_apply call still does.
kgcc -O2 -c -o "$T/n.o" "$src" && decoded "$T/n.o"
check "checked_apply keeps its check; the opted-out calls have none" \
	equal 1 "$(n_traps "$T/n.o")" "checks in the object"
finish
