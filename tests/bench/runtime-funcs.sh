#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime/funcs.sh, funcs.awk and excess.awk (make bench-runtime's
# instructions by function) on a small program and canned plugin logs: a
# function's cost is its 2N run minus its N run, symbols of one name add
# up, and the excess of a CFI kernel is what its checks do not explain.
. "$top_srcdir/tests/lib.sh"
B=$top_srcdir/bench/runtime
command -v nm >/dev/null || skip "nm not found"
printf 'static int twice(int x) { return 2 * x; }\nint (*volatile p)(int) = twice;\nint main(void) { return p(0); }\n' > "$T/p.c"
gcc -O2 -o "$T/p" "$T/p.c" || { fail "gcc cannot build the program"; finish; }
sh "$B/funcs.sh" "$T/p" > "$T/funcs"
check "funcs.sh lists main and twice" sh -c "grep -q ' main\$' '$T/funcs' && grep -q ' twice\$' '$T/funcs'"
check "funcs.sh ends with [above]" test "$(tail -n 1 "$T/funcs" | cut -d' ' -f2)" = "[above]"
check "funcs.sh is in address order" sh -c "cut -d' ' -f1 '$T/funcs' | sort -c"
# pipe: marks 1-2 the N run (10 ops), 3-4 the 2N run.  f: 50 then 100;
# the two static g: 10 + 0 then 20 + 20; h first counted at mark 4.
cat > "$T/marks" <<'M'
sites 0
mark 1 kernel 0 user 0 checks 0
fn ffffffff81000000 f 100
fn ffffffff81000100 g 10
fn ffffffff81000200 g 5
mark 2 kernel 0 user 0 checks 0
fn ffffffff81000000 f 150
fn ffffffff81000100 g 20
mark 3 kernel 0 user 0 checks 0
fn ffffffff81000000 f 160
mark 4 kernel 0 user 0 checks 0
fn ffffffff81000000 f 260
fn ffffffff81000100 g 40
fn ffffffff81000200 g 25
fn ffffffff81000300 h 7
M
printf 'bench-guest: workload pipe 10 1 2\nbench-guest: workload pipe 20 3 4\n' > "$T/console"
check "funcs.awk" test "$(awk -f "$B/marks.awk" -f "$B/funcs.awk" "$T/marks" "$T/console" | sort | tr '\n' ';')" = \
	"pipe f 5.00;pipe g 3.00;pipe h 0.70;"
# excess: f 9 - 5 less 3 per check (1 check) = +1; k +1.5; g -0.5.
printf 'pipe f 5.00\npipe g 3.00\n' > "$T/base"
printf 'pipe f 9.00\npipe g 2.50\npipe k 1.50\n' > "$T/cfi"
printf 'hot pipe f 1.00\n' > "$T/hot"
check "excess.awk" test "$(awk -f "$B/excess.awk" "$T/base" "$T/cfi" "$T/hot" | tr '\n' ';')" = \
	"total pipe 8.00 13.00 1.00 2.00;excess pipe k 0.00 1.50 0.00 +1.50;excess pipe f 5.00 9.00 1.00 +1.00;excess pipe g 3.00 2.50 0.00 -0.50;"
finish
