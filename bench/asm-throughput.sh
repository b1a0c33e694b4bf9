#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-as's own cost next to GNU as on the same large annotated .s, measured
# in one run as ratios (best of several repetitions, CPU time user+sys, which
# a busy machine disturbs far less than wall time; wall time is shown too).
#   gas   = the real assembler on the rewritten text (what it must do anyway)
#   pass  = kcfi-as rewriting only (--kcfi-no-assemble)
#   total = kcfi-as with the real assembler behind it (both processes)
# Target: pass/gas <= 0.10.  Then valgrind counts kcfi-as's heap allocations
# on the corpus at two sizes: they must not grow with the number of lines.
# Exits non-zero if either target is missed.
# Usage: bench/asm-throughput.sh [BUILD_DIR]
#   BENCH_FUNCTIONS (6000) functions in the corpus, BENCH_REPS (5) repetitions
set -eu
build=${1:-$(cd "$(dirname "$0")/.." && pwd)}
src=$(cd "$(dirname "$0")" && pwd)
n=${BENCH_FUNCTIONS:-6000}
reps=${BENCH_REPS:-5}
out=${TMPDIR:-/tmp}/kcfi-bench.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
for tool in bc valgrind /usr/bin/time; do
	command -v $tool >/dev/null || { echo "bench: $tool is missing (scripts/install-deps.sh)" >&2; exit 1; }
done

corpus() {	# FUNCTIONS OUT.s
	sh "$src/gen-corpus.sh" "$1" >"$out/corpus.c"
	"$build/kcfi-gcc" -O2 -fsanitize=kcfi -fsanitize-kcfi-annotated-asm -S -o "$2" "$out/corpus.c"
}
corpus "$n" "$out/big.s"
"$build/kcfi-as" --kcfi-no-assemble --kcfi-save="$out/rewritten.s" "$out/big.s"
lines=$(wc -l <"$out/big.s")

# best COMMAND...: "cpu_ms wall_ms", the smallest of each over $reps runs.
best() {
	bc_=; bw_=
	for _ in $(seq "$reps"); do
		/usr/bin/time -f '%U %S %e' -o "$out/t" "$@" >/dev/null 2>&1
		read -r u s e <"$out/t"
		c=$(echo "($u + $s) * 1000 / 1" | bc)
		w=$(echo "$e * 1000 / 1" | bc)
		[ -n "$bc_" ] && [ "$c" -ge "$bc_" ] || bc_=$c
		[ -n "$bw_" ] && [ "$w" -ge "$bw_" ] || bw_=$w
	done
	echo "$bc_ $bw_"
}
ratio() { echo "scale=3; $1 / $2" | bc | sed 's/^\./0./'; }

set -- $(best as -o "$out/ref.o" "$out/rewritten.s"); gas_c=$1 gas_w=$2
set -- $(best "$build/kcfi-as" --kcfi-no-assemble "$out/big.s"); pass_c=$1 pass_w=$2
set -- $(best "$build/kcfi-as" -o "$out/x.o" "$out/big.s"); tot_c=$1 tot_w=$2

echo "input: $lines lines, $(wc -c <"$out/big.s") bytes, $n functions, $(grep -c '\.kcfi_call ' "$out/big.s") checks"
echo "                               cpu ms  ratio   wall ms  ratio"
printf 'gas (on the rewritten text)   %7d          %7d\n' "$gas_c" "$gas_w"
printf 'kcfi-as pass only             %7d  %s   %7d  %s\n' "$pass_c" "$(ratio "$pass_c" "$gas_c")" \
	"$pass_w" "$(ratio "$pass_w" "$gas_w")"
printf 'kcfi-as + gas (pipe)          %7d  %s   %7d  %s\n' "$tot_c" "$(ratio "$tot_c" "$gas_c")" \
	"$tot_w" "$(ratio "$tot_w" "$gas_w")"
status=0
if [ "$(echo "$pass_c * 10 <= $gas_c" | bc)" -eq 1 ]; then
	echo "target met: the pass costs $(ratio "$pass_c" "$gas_c") of gas's CPU time (<= 0.10)"
else
	echo "TARGET MISSED: the pass costs $(ratio "$pass_c" "$gas_c") of gas's CPU time (> 0.10)"
	status=1
fi

# The same corpus at a quarter of the size: allocations must not scale.
corpus $((n / 4)) "$out/small.s"
allocs() {
	valgrind "$build/kcfi-as" --kcfi-no-assemble "$1" 2>&1 |
		sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
a_small=$(allocs "$out/small.s") a_big=$(allocs "$out/big.s")
echo "heap allocations: $a_small for $(wc -l <"$out/small.s") lines, $a_big for $lines lines"
if [ -n "$a_big" ] && [ -n "$a_small" ] && [ "$a_big" -le "$a_small" ]; then
	echo "target met: allocations do not grow with the input"
else
	echo "TARGET MISSED: allocations grow with the input (or valgrind failed)"
	status=1
fi
exit $status
