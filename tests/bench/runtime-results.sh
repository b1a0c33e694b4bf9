#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime/results.awk and summary.awk (make bench-runtime) on canned
# plugin logs: a workload's cost is its 2N run minus its N run, a marker
# missing from the log is an error, and the last line gives the geometric
# mean and the worst of the ratios.
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/bench/runtime/results.awk
S=$top_srcdir/bench/runtime/summary.awk
# pipe: N run 1000 kernel insns between marks 1-2, 2N run 1600 (3-4): 600.
# fork: 5000 then 9000 (5-6, 7-8): 4000.  Big counts stay exact.
cat > "$T/marks" <<'M'
sites 3
mark 1 kernel 10000000000 user 5 checks 100
mark 2 kernel 10000001000 user 15 checks 110
mark 3 kernel 10000002000 user 20 checks 120
mark 4 kernel 10000003600 user 40 checks 136
mark 5 kernel 10000004000 user 40 checks 140
mark 6 kernel 10000009000 user 41 checks 160
mark 7 kernel 10000010000 user 50 checks 170
mark 8 kernel 10000019000 user 52 checks 200
end kernel 10000020000 user 60 checks 210
M
cat > "$T/console" <<'C'
bench-guest: running pipe
bench-guest: workload pipe 10 1 2
bench-guest: workload pipe 20 3 4
bench-guest: running fork
bench-guest: workload fork 2 5 6
bench-guest: workload fork 4 7 8
bench-guest: done
C
check "results" test "$(awk -f "$R" "$T/marks" "$T/console" | tr '\n' ';')" = \
	"pipe 10 600 10 6;fork 2 4000 1 10;"
grep -v '^mark 7 ' "$T/marks" > "$T/marks7"
check "a missing marker is an error" sh -c "! awk -f '$R' '$T/marks7' '$T/console' 2>/dev/null"
mkdir -p "$T/gcc" "$T/kcfi-gcc" "$T/clang" "$T/clang-cfi"
printf 'pipe 10 600 0 0\nfork 2 4000 0 0\n' > "$T/gcc/results"
printf 'pipe 10 660 0 6\nfork 2 4040 0 10\n' > "$T/kcfi-gcc/results"
printf 'pipe 10 500 0 0\nfork 2 4000 0 0\n' > "$T/clang/results"
printf 'pipe 10 600 0 8\nfork 2 4400 0 12\n' > "$T/clang-cfi/results"
awk -v variants="gcc kcfi-gcc clang clang-cfi" -f "$S" "$T"/gcc/results "$T"/kcfi-gcc/results \
	"$T"/clang/results "$T"/clang-cfi/results > "$T/table"
# ours: 1.10 and 1.01, geomean sqrt(1.111) = 1.0540; clang: 1.2 and 1.1, 1.1489.
# checks per op: ours (0.6 + 5) / 2 = 2.80, clang (0.8 + 6) / 2 = 3.40.
check "runtime line" test "$(tail -n 1 "$T/table")" = \
	"runtime: kernel instructions kcfi-gcc/gcc geomean 1.0540, worst 1.1000 (pipe); clang-cfi/clang geomean 1.1489, worst 1.2000 (pipe); checks per op ours 2.80, clang 3.40"
check "a table per workload" test "$(grep -c 'operations)$' "$T/table")" = 2
# -v aside: a workload whose ratios would be the worst (3.0 and 2.0) and
# move the checks per op gets its table but leaves the runtime: line as it was.
for v in gcc kcfi-gcc clang clang-cfi; do
	mkdir -p "$T/aside/$v" && cp "$T/$v/results" "$T/aside/$v/results"
done
printf 'odd 1 100 0 0\n' >> "$T/aside/gcc/results"
printf 'odd 1 300 0 50\n' >> "$T/aside/kcfi-gcc/results"
printf 'odd 1 100 0 0\n' >> "$T/aside/clang/results"
printf 'odd 1 200 0 50\n' >> "$T/aside/clang-cfi/results"
awk -v variants="gcc kcfi-gcc clang clang-cfi" -v aside="odd" -f "$S" "$T"/aside/gcc/results \
	"$T"/aside/kcfi-gcc/results "$T"/aside/clang/results "$T"/aside/clang-cfi/results > "$T/table-aside"
check "aside: not in the runtime line" test "$(tail -n 1 "$T/table-aside")" = "$(tail -n 1 "$T/table")"
check "aside: its table, marked" grep -qx 'odd (1 operations), not in the runtime: line' "$T/table-aside"
check "aside: three tables" test "$(grep -c 'operations)' "$T/table-aside")" = 3
# mean.awk: three boots of one kernel, their mean and the smallest and
# largest kernel count; a workload missing from one boot is an error.
printf 'pipe 10 600 10 6\nfork 2 4000 1 10\n' > "$T/r1"
printf 'pipe 10 630 12 6\nfork 2 4003 1 10\n' > "$T/r2"
printf 'pipe 10 612 14 6\nfork 2 3997 1 13\n' > "$T/r3"
M=$top_srcdir/bench/runtime/mean.awk
check "mean of boots" test "$(awk -f "$M" "$T/r1" "$T/r2" "$T/r3" | tr '\n' ';')" = \
	"pipe 10 614 12 6 600 630;fork 2 4000 1 11 3997 4003;"
printf 'pipe 10 600 10 6\n' > "$T/r4"
check "a workload missing from a boot" sh -c "! awk -f '$M' '$T/r1' '$T/r4' > /dev/null 2>&1"
printf 'pipe 20 600 10 6\nfork 2 4000 1 10\n' > "$T/r5"
check "another N in a boot" sh -c "! awk -f '$M' '$T/r1' '$T/r5' > /dev/null 2>&1"
# With mean.awk's fields the table gets a spread column and a spread:
# line: gcc's pipe (610 - 590) / 600, kcfi-gcc's fork (4080 - 4000) / 4040.
awk -f "$M" "$T/gcc/results" > "$T/one"
check "one boot: spread 0" test "$(cat "$T/one" | tr '\n' ';')" = "pipe 10 600 0 0 600 600;fork 2 4000 0 0 4000 4000;"
printf 'pipe 10 600 0 0 590 610\nfork 2 4000 0 0 4000 4000\n' > "$T/gcc/results"
printf 'pipe 10 660 0 6 660 660\nfork 2 4040 0 10 4000 4080\n' > "$T/kcfi-gcc/results"
awk -v variants="gcc kcfi-gcc clang clang-cfi" -f "$S" "$T"/gcc/results "$T"/kcfi-gcc/results \
	"$T"/clang/results "$T"/clang-cfi/results > "$T/table2"
check "spread line" test "$(tail -n 2 "$T/table2" | head -n 1)" = \
	"spread: largest (max - min) / mean of the boots' kernel instructions: gcc 3.33% (pipe); kcfi-gcc 1.98% (fork); clang 0.00% (fork); clang-cfi 0.00% (fork)"
check "spread column" grep -q '^  gcc .* 3.33%$' "$T/table2"
check "runtime line unchanged" test "$(tail -n 1 "$T/table2")" = "$(tail -n 1 "$T/table")"
# hot.awk: two sites in f, one in g; site lines carry cumulative counts
# and appear only when they changed.  pipe: f (2N run 9+3, N run 4+1) 7,
# g (2N 6, N 2) 4; fork: g only (7 - 2 = 5 over N = 2 ops).
printf 'a1\na2\nb1\n' > "$T/sites"
printf 'file,section,offset,function,id,targets,type\n"v",".text",0x1,"f",0x1,1,"t"\n"v",".text",0x2,"f",0x1,1,"t"\n"v",".text",0x3,"g",0x1,1,"t"\n' > "$T/sites.csv"
cat > "$T/hmarks" <<'M'
mark 1 kernel 0 user 0 checks 0
mark 2 kernel 0 user 0 checks 0
site a1 4
site a2 1
site b1 2
mark 3 kernel 0 user 0 checks 0
mark 4 kernel 0 user 0 checks 0
site a1 13
site a2 4
site b1 8
mark 5 kernel 0 user 0 checks 0
mark 6 kernel 0 user 0 checks 0
site b1 10
mark 7 kernel 0 user 0 checks 0
mark 8 kernel 0 user 0 checks 0
site b1 17
M
check "hot" test "$(awk -f "$top_srcdir/bench/runtime/marks.awk" -f "$top_srcdir/bench/runtime/hot.awk" "$T/sites" "$T/sites.csv" "$T/hmarks" "$T/console" | tr '\n' ';')" = \
	"hot pipe f 0.70;hot pipe g 0.40;hot fork g 2.50;"
finish
