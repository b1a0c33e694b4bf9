#!/bin/sh
# kcfi-as's own cost next to GNU as on the same large annotated .s, measured
# in one run (ratios, best of several repetitions).
#   pass  = kcfi-as rewriting only (--kcfi-no-assemble, output discarded)
#   gas   = the real assembler on the annotated input... after rewriting
#   total = kcfi-as with the real assembler behind it
# Target: pass/gas <= 0.10.  Also reports heap allocations per input line
# (valgrind), which must not grow with the input.
set -eu
build=${1:-$(cd "$(dirname "$0")/.." && pwd)}
src=$(cd "$(dirname "$0")" && pwd)
n=${BENCH_FUNCTIONS:-6000}
reps=${BENCH_REPS:-5}
out=${TMPDIR:-/tmp}/kcfi-bench.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

sh "$src/gen-corpus.sh" "$n" >"$out/corpus.c"
"$build/kcfi-gcc" -O2 -fsanitize=kcfi -S -o "$out/big.s" "$out/corpus.c"
"$build/kcfi-as" --kcfi-no-assemble --kcfi-save="$out/rewritten.s" "$out/big.s"
lines=$(wc -l <"$out/big.s")
size=$(wc -c <"$out/big.s")

best() {	# best wall time in ms of "$@" over $reps runs
	b=
	for _ in $(seq "$reps"); do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s%N)
		t=$(( (e - s) / 1000000 ))
		[ -z "$b" ] || [ "$t" -lt "$b" ] && b=$t
	done
	echo "$b"
}

gas=$(best as -o "$out/ref.o" "$out/rewritten.s")
pass=$(best "$build/kcfi-as" --kcfi-no-assemble "$out/big.s")
total=$(best "$build/kcfi-as" -o "$out/x.o" "$out/big.s")

echo "input: $lines lines, $size bytes, $n functions"
printf 'gas (on the rewritten text)     %6d ms\n' "$gas"
printf 'kcfi-as pass only               %6d ms   ratio %s\n' "$pass" \
	"$(echo "scale=3; $pass / $gas" | bc)"
printf 'kcfi-as + gas (pipe, 2 procs)   %6d ms   ratio %s\n' "$total" \
	"$(echo "scale=3; $total / $gas" | bc)"

if command -v valgrind >/dev/null; then
	# The same corpus at a quarter of the size: allocations must not scale.
	sh "$src/gen-corpus.sh" $((n / 4)) >"$out/small.c"
	"$build/kcfi-gcc" -O2 -fsanitize=kcfi -S -o "$out/small.s" "$out/small.c"
	allocs() {
		valgrind "$build/kcfi-as" --kcfi-no-assemble "$1" 2>&1 |
			sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
	}
	echo "heap allocations: $(allocs "$out/small.s") for $(wc -l <"$out/small.s") lines," \
		"$(allocs "$out/big.s") for $lines lines"
fi
