#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Conversion records by class (issue 42 item 2, conversion-kinds.c's
# markers): the values ?: and the comma operator choose, casts through
# void * or an integer that GCC folds away (the kind of where the value
# goes), through a variable (void*), one place per function and type,
# union stores (union kind: recorded, no -Wkcfi-cast,
# kcfi-audit --mismatches lists them with --union-stores only), at -O0 and
# -O2.
. "$top_srcdir/tests/e2e/lib.sh"
AUDIT=$top_builddir/kcfi-audit
[ -x "$AUDIT" ] || skip "kcfi-audit is not built"
cd "$T" || exit 1
cp "$E2E/conversion-kinds.c" .
SRC=conversion-kinds.c

# The records the markers ask for, one "LINE KIND FN TO" each, sorted.
grep -n '/\* [KU] ' $SRC | sed 's|^\([0-9]*\):.*/\* \(.*\) \*/$|\1 \2|' |
while read -r line rest; do
	echo "$rest" | tr '/' '\n' | while read -r what a b; do
		case $what in
		K) for fn in $b; do echo "$line $a $fn void (long)"; done ;;
		U) echo "$line union $a $b" ;;
		esac
	done
done | sort >want.rec
grep -n '/\* K ' $SRC | sed 's|^\([0-9]*\):.*/\* K [^ ]* \([^*/]*\).*|\1 \2|' |
while read -r line fns; do
	for fn in $fns; do
		echo "$SRC:$line: warning: converting '$fn' (int (long)) to 'void (*)(long)' changes its KCFI type id [-Wkcfi-cast]"
	done
done | sort >want.warn
[ -s want.rec ] && [ -s want.warn ] || fail "no markers read from $SRC"

# records FILE: --mismatches --union-stores output as "LINE KIND FN TO".
records() {
	sed -n "s/^$SRC:\\([0-9]*\\): \\([^:]*\\): '\\([^']*\\)' .* as \\(.*\\) \\[in .*/\\1 \\2 \\3 \\4/p" "$1" | sort
}

for o in -O0 -O2; do
	"$KCFI_GCC" -fsanitize=kcfi $o -Wkcfi-cast -c $SRC -o k$o.o 2>k$o.err
	check "$o: builds with -Wkcfi-cast" test $? -eq 0
	grep 'kcfi-cast' k$o.err | sort >got.warn
	check "$o: one warning per marked place and function, none for union stores" \
		sh -c "diff want.warn got.warn"
	"$AUDIT" --mismatches --union-stores k$o.o >all.mis
	records all.mis >got.rec
	check "$o: the records, by kind (?:, comma, void * folded away or not, union)" \
		sh -c "diff want.rec got.rec"
	n=$(wc -l <want.rec)
	check "$o: --union-stores: the summary counts every place" \
		grep -q "^mismatches: $n places, " all.mis
	"$AUDIT" --mismatches k$o.o >def.mis
	rc=$?
	records def.mis >got.def
	grep -v ' union ' want.rec >want.def
	nu=$(grep -c ' union ' want.rec)
	check "$o: --mismatches: no union store listed, exit 1" \
		sh -c "test $rc -eq 1 && diff want.def got.def"
	check "$o: --mismatches: the union stores counted in the summary" \
		grep -q "^mismatches: $(wc -l <want.def) places, .* ($nu union stores not listed: --union-stores)\$" def.mis
done

# A unit whose only mismatches are union stores: silent, exit 0.
sed -n '/^union ops {/,/^union ops o = /p' $SRC >only-union.c
"$KCFI_GCC" -fsanitize=kcfi -O2 -Wkcfi-cast -Werror=kcfi-cast -c only-union.c -o u.o 2>u.err
check "union stores only: -Werror=kcfi-cast builds, no warning" \
	sh -c "test -f u.o && ! grep -q kcfi-cast u.err"
"$AUDIT" --mismatches u.o >u.mis
rc=$?
check "union stores only: --mismatches lists nothing, exit 0" \
	sh -c "test $rc -eq 0 && test \"\$(cat u.mis)\" = 'mismatches: 0 places, 0 functions, 0 distinct type pairs (2 union stores not listed: --union-stores)'"
finish
