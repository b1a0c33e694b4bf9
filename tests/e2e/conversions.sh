#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A function's address converted to a pointer of another type id (issue 42
# item 2): the plugin's .kcfi_conversion, kcfi-as's KCFI_CONVERSION records
# and -Wkcfi-cast, kcfi-audit --mismatches.  conversions.c has one of each
# kind, each line marked WARN; conversions-def.c defines what it only
# declares with another type; conversions-clean.c converts only where the
# id stays (a typedef'd long, void *, a union of equal types).
. "$top_srcdir/tests/e2e/lib.sh"
AUDIT=$top_builddir/kcfi-audit
[ -x "$AUDIT" ] || skip "kcfi-audit is not built"
cd "$T" || exit 1
cp "$E2E/conversions.c" "$E2E/conversions-def.c" "$E2E/conversions-clean.c" .
QUIET="-Wno-cast-function-type -Wno-incompatible-pointer-types"

# The warnings the markers ask for, in source order, exactly.
grep -n '/\* WARN ' conversions.c | sed 's/^\([0-9]*\):.*WARN \([^ ]*\) .*/\1 \2/' |
while read -r line fn; do
	case $fn in
	lng) to="int (*)(long long)" ;;
	*) to="void (*)(long)" ;;
	esac
	echo "conversions.c:$line: warning: converting '$fn' (int (long)) to '$to' changes its KCFI type id [-Wkcfi-cast]"
done >want.warn

for o in -O0 -O2; do
	"$KCFI_GCC" -fsanitize=kcfi $o $QUIET -Wkcfi-cast -c conversions.c -o c$o.o 2>c$o.err
	check "$o: -Wkcfi-cast builds" test $? -eq 0
	grep 'kcfi-cast' "c$o.err" >got.warn
	check "$o: -Wkcfi-cast: one warning per marked line, file:line exact" \
		cmp want.warn got.warn
	"$KCFI_GCC" -fsanitize=kcfi $o $QUIET -c conversions.c -o n$o.o 2>n$o.err
	check "$o: without -Wkcfi-cast: silent" sh -c "! grep kcfi-cast n$o.err"
	check "$o: the records do not depend on the warning" cmp "c$o.o" "n$o.o"
	"$KCFI_GCC" -fsanitize=kcfi $o $QUIET -Wkcfi-cast -Wno-kcfi-cast -c conversions.c \
		-o w$o.o 2>w$o.err
	check "$o: -Wno-kcfi-cast after it: silent" sh -c "! grep kcfi-cast w$o.err"
	"$KCFI_GCC" -fsanitize=kcfi $o $QUIET -Werror=kcfi-cast -c conversions.c -o e$o.o 2>e$o.err
	check "$o: -Werror=kcfi-cast fails" test $? -ne 0
	check "$o: ... and leaves no object" test ! -e "e$o.o"
	sed 's/: warning: /: error: /; s/\[-Wkcfi-cast\]/[-Werror=kcfi-cast]/' want.warn >want.err
	grep ': error: ' "e$o.err" >got.err
	check "$o: -Werror=kcfi-cast: the same places as errors" cmp want.err got.err
	# GCC's own warning for the call through a cast has no option: without
	# that line, -Werror is about -Wkcfi-cast alone.
	sed '/WARN y cast/d' conversions.c >nocall.c
	"$KCFI_GCC" -fsanitize=kcfi $o $QUIET -Wkcfi-cast -Werror -Wno-error=kcfi-cast \
		-c nocall.c -o ne$o.o 2>ne$o.err
	check "$o: -Werror -Wno-error=kcfi-cast: warnings, builds" \
		sh -c "test -f ne$o.o && ! grep -q ': error: ' ne$o.err && grep -q 'warning: .*kcfi-cast' ne$o.err"
	"$KCFI_GCC" -fsanitize=kcfi $o $QUIET -Wkcfi-cast -Werror -c nocall.c -o we$o.o 2>we$o.err
	check "$o: -Wkcfi-cast -Werror: errors" \
		sh -c "test ! -f we$o.o && grep -q 'error: .*-Werror=kcfi-cast' we$o.err"
	"$KCFI_GCC" -fsanitize=kcfi $o -Wkcfi-cast -c conversions-clean.c -o clean$o.o 2>clean$o.err
	check "$o: conversions that keep the id: silent" test ! -s "clean$o.err"
	# -S goes through kcfi-as too.
	"$KCFI_GCC" -fsanitize=kcfi $o $QUIET -Wkcfi-cast -S conversions.c -o c$o.s 2>s$o.err
	grep 'kcfi-cast' "s$o.err" >got.warn
	check "$o: -S warns the same" cmp want.warn got.warn

	# Records are debug data: the code and its data are those of a unit
	# without the directives.
	"$KCFI_GCC" -fsanitize=kcfi $o $QUIET -fplugin-arg-kcfi-no-conversions -c conversions.c \
		-o off$o.o
	"$OBJDUMP" -d "c$o.o" | tail -n +3 >on.dis
	"$OBJDUMP" -d "off$o.o" | tail -n +3 >off.dis
	check "$o: objdump -d identical with and without the records" cmp on.dis off.dis
	check "$o: the object has conversion records" \
		sh -c "! cmp -s c$o.o off$o.o"
done

kgcc -O2 $QUIET -c conversions-def.c -o d.o
kgcc -O2 $QUIET -c conversions.c -o c.o
kgcc c.o d.o -o prog
cat >want.mis <<'WANT'
conversions.c:17: init: 'y' int (long) as void (long) [in table]
conversions.c:35: cast: 'y' int (long) as void (long) [in code]
conversions.c:37: arg: 'y' int (long) as void (long) [in code]
conversions.c:39: void*: 'y' int (long) as void (long) [in code]
conversions.c:25: return: 'z' int (long) as void (long) [in ret]
conversions.c:36: assign: 'z' int (long) as void (long) [in code]
conversions.c:41: decl: 'ext' long (long) as int (long) [in code] (defined in DEF)
conversions.c:43: assign: 'lng' int (long) as int (long long) [in code]
mismatches: 8 places, 4 functions, 3 distinct type pairs (1 union store not listed: --union-stores)
WANT
"$AUDIT" --mismatches c.o d.o >got.mis
check "--mismatches c.o d.o: exits 1" test $? -eq 1
sed 's/DEF/d.o/' want.mis >want1
check "--mismatches c.o d.o: ranked, deduplicated, the decl judged, the summary" \
	cmp want1 got.mis
"$AUDIT" --mismatches prog >got.mis
sed 's/DEF/prog/' want.mis >want2
check "--mismatches on the linked program: the same" cmp want2 got.mis
"$AUDIT" --mismatches c.o d.o prog c.o >got.mis
sed 's/DEF/d.o/' want.mis >want3
check "--mismatches on copies of the same places: each once" cmp want3 got.mis
"$AUDIT" --mismatches --union-stores c.o d.o >got.mis
{ sed '/^conversions.c:39:/a\
conversions.c:40: union: '"'y'"' int (long) as void (long) [in code]
s/DEF/d.o/; s/^mismatches: .*/mismatches: 9 places, 4 functions, 3 distinct type pairs/' want.mis; } >want4
check "--mismatches --union-stores: the union store listed and counted" cmp want4 got.mis
"$AUDIT" --union-stores c.o >/dev/null 2>got.err
rc=$?
check "--union-stores without --mismatches: a usage error" \
	sh -c "test $rc -eq 2 && grep -q 'needs --mismatches' got.err"
"$AUDIT" --mismatches c.o >got.mis
check "--mismatches without the defining unit: no decl mismatch" \
	sh -c "grep -q '^mismatches: 7 places, 3 functions, 2 distinct type pairs (1 union store not listed: --union-stores)\$' got.mis && ! grep -q decl got.mis"

kgcc -O2 -c conversions-clean.c -o clean.o
"$AUDIT" --mismatches clean.o >got.mis
rc=$?
check "--mismatches on correct code: nothing, exit 0" \
	sh -c "test $rc -eq 0 && test \"\$(cat got.mis)\" = 'mismatches: 0 places, 0 functions, 0 distinct type pairs'"

# The records upset neither the audit nor the tools that read debug sections.
"$AUDIT" -q c.o >audit.out
check "kcfi-audit reads the records: no finding" \
	grep -q ', 0 findings$' audit.out
check "readelf -w accepts the object" sh -c "'$READELF' -w c.o >/dev/null"
kgcc -O2 -g $QUIET conversions.c conversions-def.c -o progg
check "readelf -w accepts the program" sh -c "'$READELF' -w progg >/dev/null"
if command -v dwz >/dev/null; then
	check "dwz accepts the program" dwz progg
fi
check "the program runs" ./progg
finish
