#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a checked call costs in time on this machine's CPU (issue 44 item 2,
# doc/performance.md "A checked call in time").  bench/callcost/loops.c is
# compiled -O2 by gcc, kcfi-gcc -fsanitize=kcfi, clang-19 and clang-19
# -fsanitize=kcfi, each object with its own symbol names, and linked with
# the driver (bench/callcost/main.c, gcc) into one program.  The driver runs
# the loops of the four builds in turns, BENCH_REPS rounds (default 401) of
# BENCH_CALLS calls (default 2^17: short rounds, so that some escape the
# other processes of a busy machine), on one CPU (taskset, BENCH_CPU, default
# the last), and takes the minimum and the median TSC ticks per call.
# Printed: the CPU model, the TSC frequency measured against
# CLOCK_MONOTONIC, per loop the four builds, ours = kcfi-gcc - gcc and
# clang = clang-cfi - clang (ticks a check adds per call, from the minima)
# and their ratio, and a last line
#   callcost: ticks/call a check adds, ours vs clang (min): mono A vs B
#   (checked call K vs C), mega ..., early ...
# (K, C: the whole checked call of kcfi-gcc and of clang-cfi, min ticks).
# The TSC counts at a constant rate (nominal frequency), not core cycles:
# this VM has no performance counters (perf stat: cycles not supported).
#
# Usage: bench/callcost.sh [KCFI_BUILDDIR] [SAVE_DIR]  (SAVE_DIR keeps the
# objects for objdump)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=$(cd "${1:-$top}" && pwd) || exit 1
CLANG=${BENCH_CLANG:-clang-19}
REPS=${BENCH_REPS:-401}
CALLS=${BENCH_CALLS:-131072}
CPU=${BENCH_CPU:-$(($(nproc) - 1))}
work=${2:-}
if [ -z "$work" ]; then
	work=$(mktemp -d) || exit 1
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work" || exit 1
src=$here/callcost/loops.c
cc_of() {
	case $1 in
	gcc) echo "gcc" ;;
	kcfigcc) echo "$build/kcfi-gcc -fsanitize=kcfi" ;;
	clang) echo "$CLANG" ;;
	clangcfi) echo "$CLANG -fsanitize=kcfi" ;;
	esac
}
for v in gcc kcfigcc clang clangcfi; do
	# shellcheck disable=SC2046 # a command with options
	$(cc_of $v) -O2 -c -DV=$v -o "$work/$v.o" "$src" ||
		{ echo "callcost: cannot build $v ($(cc_of $v))" >&2; exit 1; }
done
gcc -O2 -o "$work/callcost" "$here/callcost/main.c" "$work"/{gcc,kcfigcc,clang,clangcfi}.o || exit 1
# The checks are there (and none in the plain builds): a bench that measured
# unchecked calls on both sides would compare nothing.
for v in kcfigcc clangcfi; do
	n=$(objdump -d "$work/$v.o" | grep -c 'add .*-0x4(%r[0-9a-z]*),%r1[01]d')
	[ "$n" -ge 3 ] || { echo "callcost: $v.o has $n checks, expected 3" >&2; exit 1; }
done
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "CPU: $model (taskset -c $CPU), $REPS rounds of $CALLS calls"
taskset -c "$CPU" "$work/callcost" "$REPS" "$CALLS" > "$work/out" || exit 1
awk -v model="$model" '
	$1 == "tsc-hz" { hz = $2; next }
	{ mn[$1, $2] = $4; md[$1, $2] = $6; if (!($1 in seen)) { seen[$1] = 1; L[++nl] = $1 } }
	END {
		printf "TSC %.3f GHz: ticks per call (ns = ticks / %.3f)\n", hz / 1e9, hz / 1e9
		printf "%-6s %-10s %8s %8s\n", "loop", "build", "min", "median"
		line = "callcost: ticks/call a check adds, ours vs clang (min):"
		for (i = 1; i <= nl; i++) {
			l = L[i]
			split("gcc kcfi-gcc clang clang-cfi", V, " ")
			for (j = 1; j <= 4; j++)
				printf "%-6s %-10s %8.3f %8.3f\n", l, V[j], mn[l, V[j]], md[l, V[j]]
			o = mn[l, "kcfi-gcc"] - mn[l, "gcc"]; c = mn[l, "clang-cfi"] - mn[l, "clang"]
			om = md[l, "kcfi-gcc"] - md[l, "gcc"]; cm = md[l, "clang-cfi"] - md[l, "clang"]
			r = c > 0 ? sprintf("%.2f", o / c) : "n/a"
			printf "%-6s check adds: ours %.3f (median %.3f), clang %.3f (median %.3f); ours/clang %s\n", l, o, om, c, cm, r
			line = line sprintf(" %s %.2f vs %.2f (checked call %.2f vs %.2f)%s", l, o, c,
				mn[l, "kcfi-gcc"], mn[l, "clang-cfi"], i < nl ? "," : "")
		}
		print line
	}' "$work/out"
