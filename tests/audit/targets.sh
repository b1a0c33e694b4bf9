#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-audit --targets: per checked call site, the functions whose preamble
# carries the id it expects.  In prog.c + target.c, apply() calls an
# int (int) (inc, dbl, neg, ext_target: 4) and run() a void (void)
# (nothing: 1).  The distribution, the CSV, the JSON and the gnuplot
# histogram are checked against that.
. "$top_srcdir/tests/audit/lib.sh"
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "x86_64 code, not ${NATIVE_TRIPLE:-unknown}" ;;
esac
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built"

"$KCFI_GCC" -fsanitize=kcfi -O2 -shared -fPIC -nostartfiles -o "$T/lib.so" "$A/prog.c" "$A/target.c" ||
	{ fail "building lib.so"; finish; }
II=$(fnv1a _ZTSFiiE) VV=$(fnv1a _ZTSFvvE)
"$AUDIT" --targets --csv="$T/t.csv" --json="$T/t.json" "$T/lib.so" > "$T/t.out" 2>&1
check "exit 0" [ $? -eq 0 ]
check "the distribution: one site with 1 target, one with 2-4" sh -c \
	"grep -qx '  1              1   50.0%' '$T/t.out' && grep -qx '  2-4            1   50.0%' '$T/t.out' &&
	 grep -qx '  >100           0    0.0%' '$T/t.out'"
check "the most permissive id first: int (int), 4 functions, 1 site" sh -c \
	"grep -A1 'most permissive' '$T/t.out' | tail -1 | grep -qE '^  $II +4 +1  _ZTSFiiE  (inc|dbl|neg|ext_target)\$'"
check "CSV: a header and one line per site, with its function, targets and type" sh -c \
	"[ \$(wc -l < '$T/t.csv') -eq 3 ] && head -1 '$T/t.csv' | grep -qx 'file,section,offset,function,id,targets,type' &&
	 grep -qE '^\"$T/lib.so\",\".text\",0x[0-9a-f]+,\"apply\",$II,4,\"_ZTSFiiE\"\$' '$T/t.csv' &&
	 grep -qE '^\"$T/lib.so\",\".text\",0x[0-9a-f]+,\"run\",$VV,1,\"_ZTSFvvE\"\$' '$T/t.csv'"
if command -v python3 >/dev/null; then
	check "JSON: parses, two sites, the same distribution" python3 -c "
import json, sys
d = json.load(open('$T/t.json'))
assert len(d['sites']) == 2, d
assert {s['function']: s['targets'] for s in d['sites']} == {'apply': 4, 'run': 1}, d
assert d['distribution']['1'] == 1 and d['distribution']['2-4'] == 1, d
"
fi
check "--csv without --targets is refused (exit 2)" sh -c \
	"'$AUDIT' --csv='$T/x.csv' '$T/lib.so' 2>/dev/null; [ \$? -eq 2 ]"
if command -v gnuplot >/dev/null; then
	check "--plot: gnuplot draws an SVG histogram" sh -c \
		"'$AUDIT' -q --targets --plot='$T/t.svg' '$T/lib.so' >/dev/null && grep -q '<svg' '$T/t.svg'"
else
	echo "SKIP: --plot: gnuplot is not installed (apt-get install gnuplot-nox)"
fi
finish
