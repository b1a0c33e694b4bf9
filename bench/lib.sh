# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh disable=SC2154 # $build and $reps are the caller's
# Shared by the bench/ scripts (sourced): CPU time of runs with and without,
# taken in turns.  Expects $build (the kcfi-as build tree, holding
# bench/cpu-ms) and $reps (runs of each).

awk_sort='function sort(v, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t } }'

# cpu IN CMD...: CPU time in ms of one run of CMD < IN
cpu() {
	in=$1; shift
	"$build/bench/cpu-ms" "$@" < "$in" 2>&1 > /dev/null | sed -n 's/^cpu-ms: //p'
}
# pair NAME IN_A "CMD_A" IN_B "CMD_B": what A costs more than B, from $reps
# runs of each taken in turns (so that a change in the machine's load hits
# both alike), as "min-of-A - min-of-B" and the median of the per-turn
# differences; prints "MIN MEDIAN".
pair() {
	for _ in $(seq "$reps"); do
		# shellcheck disable=SC2086
		a=$(cpu "$2" $3)
		# shellcheck disable=SC2086
		b=$(cpu "$4" $5)
		echo "$a $b"
	done | awk "$awk_sort"'{ a[NR] = $1; b[NR] = $2; d[NR] = $1 - $2 }
		END { sort(a, NR); sort(b, NR); sort(d, NR); printf "%.1f %.1f\n", a[1] - b[1], d[int((NR + 1) / 2)] }'
}
# minmed: the least and the median of the numbers on stdin, "MIN MEDIAN".
minmed() {
	awk "$awk_sort"'{ v[NR] = $1 } END { sort(v, NR); printf "%.1f %.1f\n", v[1], v[int((NR + 1) / 2)] }'
}
# walks ARGS...: "MIN MEDIAN" over $reps runs of `kcfi-gcc ARGS
# -fplugin-arg-kcfi-stats` of the CPU ms of the plugin's two walks, as the
# plugin times them inside cc1.
walks() {
	for _ in $(seq "$reps"); do
		"$build/kcfi-gcc" "$@" -fplugin-arg-kcfi-stats 2>&1 |
			sed -n 's/.*recording types \([0-9.]*\) ms, writing directives \([0-9.]*\) ms.*/\1 \2/p' |
			awk '{ print $1 + $2 }'
	done | minmed
}
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }
# instr IN CMD...: instructions CMD and the programs it runs execute, < IN
instr() {
	in=$1; shift
	valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=/dev/null "$@" \
		< "$in" 2>&1 > /dev/null | sed -n 's/.*I *refs: *//p' | tr -d , |
		awk '{ s += $1 } END { printf "%d", s }'
}
mi() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f M", (a - b) / 1e6 }'; }
