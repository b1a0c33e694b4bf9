#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Three units (caller, targets, main) built separately: the ids of the
# caller's checks and of the targets' preambles agree across units and across
# compilers.  Clang 22 (-fsanitize=kcfi with FNV-1a ids) or Clang 19 (its
# xxHash64 ids) builds the caller or the targets, kcfi-gcc the rest; a target
# defined with another type than the caller assumes traps, whoever compiled
# which side.
. "$top_srcdir/tests/e2e/lib.sh"

CLANG=${CLANG22:-clang-22}
CLANG_KCFI="-fsanitize=kcfi -Xclang -fsanitize-kcfi-hash=FNV-1a"

build() {	# NAME CALLER-CC TARGETS-CC OPT [TARGET-FLAGS]
	name=$1 ccc=$2 tcc=$3 o=$4
	shift 4
	compile "$ccc" $o -c -o "$T/$name-caller.o" "$E2E/compat-caller.c" &&
	compile "$tcc" $o "$@" -c -o "$T/$name-targets.o" "$E2E/compat-targets.c" &&
	kgcc $o -c -o "$T/$name-main.o" "$E2E/compat-main.c" &&
	kgcc -o "$T/$name" "$T/$name-main.o" "$T/$name-caller.o" "$T/$name-targets.o"
}
compile() {	# gcc|clang|gccxx|clang19 FLAGS...
	c=$1
	shift
	case $c in
	gcc) kgcc "$@" ;;
	gccxx) kgcc -fsanitize-kcfi-hash=xxHash64 "$@" ;;
	clang) $CLANG $CLANG_KCFI "$@" ;;
	clang19) $CLANG19 -fsanitize=kcfi "$@" ;;
	esac
}
runs() { "$T/$1" >"$T/$1.out" 2>&1 && grep -qx 'all calls returned' "$T/$1.out" || { cat "$T/$1.out"; false; }; }

# The caller's six calls are all checked, whoever compiled them.
six_checks() { decoded "$1" && equal 6 "$(n_traps "$1")" "checks in $1"; }

for o in $OPT_LEVELS; do
	if build gcc$o gcc gcc $o; then
		check "kcfi-gcc units run at $o" runs gcc$o
		check "kcfi-gcc caller has six checks at $o" six_checks "$T/gcc$o-caller.o"
	else
		fail "kcfi-gcc units build at $o"
	fi
	if build bad$o gcc gcc $o -DCOMPAT_MISMATCH; then
		check "kcfi-gcc units, mismatched target traps at $o" run_to_sigill "$T/bad$o"
		check "... at a listed trap checking int (int) at $o" listed_trap "$T/bad$o" "$(id FiiE)"
	else
		fail "mismatched kcfi-gcc units build at $o"
	fi
done

# clang-22 with FNV-1a ids against kcfi-gcc's default; clang-19 (xxHash64,
# the default of Clang up to 21) against kcfi-gcc -fsanitize-kcfi-hash=xxHash64.
CLANG19=${CLANG19:-clang-19}
for c in "$CLANG" "$CLANG19"; do
	command -v "$c" >/dev/null && continue
	[ $failures -eq 0 ] || finish	# report what failed rather than skip it
	skip "no $c for the cross-compiler half"
done
for pair in "clang gcc" "gcc clang" "clang19 gccxx" "gccxx clang19"; do
	set -- $pair
	for o in -O0 -O2; do
		n=$1-$2$o
		if build "$n" "$1" "$2" $o; then
			check "caller by $1, targets by $2 run at $o" runs "$n"
			check "caller by $1 has six checks at $o" six_checks "$T/$n-caller.o"
		else
			fail "caller by $1, targets by $2 build at $o"
		fi
		if build "bad$n" "$1" "$2" $o -DCOMPAT_MISMATCH; then
			check "caller by $1, mismatched target by $2 traps at $o" \
				run_to_sigill "$T/bad$n"
		else
			fail "mismatched $n builds"
		fi
	done
done
finish
