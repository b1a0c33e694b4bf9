#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-units' arithmetic on canned numbers: the per-run sum of
# callgrind's dumps (bench/callgrind-sum.awk) and the ratios of the last
# line (bench/units-stats.awk).  Nothing here runs valgrind.
. "$top_srcdir/tests/lib.sh"
B=$top_srcdir/bench

# Three dumps of two images, as they arrive through the pipe: each counts.
cat > "$T/dumps" <<'D'
version: 1
creator: callgrind-3.19.0
pid: 100
cmd:  kcfi-gcc -c t.c
part: 1
desc: Trigger: --dump-before=execvp
events: Ir
summary: 1000
fn=(1) main
0 1000
totals: 1000
part: 1
desc: Trigger: --dump-before=vfork
summary: 250000
totals: 250000
part: 2
desc: Trigger: Program termination
summary: 7
totals: 7
D
check "sum of dumps" test "$(awk -f "$B/callgrind-sum.awk" "$T/dumps")" = "251007 3"
# A dump without its totals line was cut short: no number at all.
sed '$d' "$T/dumps" > "$T/cut"
check "cut dump refused" sh -c '! awk -f "$1" "$2" 2>/dev/null' _ "$B/callgrind-sum.awk" "$T/cut"
check "no dumps refused" sh -c '! awk -f "$1" /dev/null 2>/dev/null' _ "$B/callgrind-sum.awk"

stats() { awk -f "$B/units-stats.awk"; }
# total 1360/1350; ratios 1, 1.003, 1.01, 1.03: median of the middle two,
# p90 the 4th (ceil 3.6), worst b.
check "even count" test "$(printf 'a 100 101\nb 200 206\nc 50 50\nd 1000 1003\n' | stats)" \
	= "1.0074 1.0065 1.0300 1.0300 b 4"
# Odd count: the middle one; p90 of 5 is the 5th (ceil 4.5); the total is
# a ratio of sums, so the big unit's 1.001 outweighs the small one's 1.2.
check "odd count" test "$(printf 'u1 10 12\nu2 1000000 1001000\nu3 100 102\nu4 100 101\nu5 100 103\n' | stats)" \
	= "1.0010 1.0200 1.2000 1.2000 u1 5"
# p90 of 10 is the 9th; the worst of equal ratios is the first listed.
check "ten units" test "$(for i in 1 2 3 4 5 6 7 8 9 10; do echo "x$i 1000 $((1000 + i))"; done | stats)" \
	= "1.0055 1.0055 1.0090 1.0100 x10 10"
check "tie" test "$(printf 'p 100 105\nq 200 210\n' | stats)" = "1.0500 1.0500 1.0500 1.0500 p 2"
check "one unit" test "$(echo 'only 400 404' | stats)" = "1.0100 1.0100 1.0100 1.0100 only 1"
check "nothing refused" sh -c '! awk -f "$1" </dev/null 2>/dev/null' _ "$B/units-stats.awk"
finish
