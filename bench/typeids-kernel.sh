#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What type ids cost for real Linux kernel prototypes, the fair counterpart of
# bench/typeids.sh's random ones.  The data (bench/data/, made by
# bench/harvest-kernel-prototypes.sh from Linux 6.12 built with kcfi-gcc):
#   kernel-prototypes.txt.xz  the distinct `.kcfi_type` texts of the kernel's
#                             TUs, one a line, as the plugin printed them
#   kernel-tus.tar.xz         a few of those TUs preprocessed (NAME.i) with
#                             their compiler flags (NAME.flags)
# Measured as CPU time (bench/cpu-ms), BENCH_REPS runs with and without taken
# in turns, min of each and the median of the per-turn differences:
#   parse+mangle+hash  kcfi-typeid on all the prototypes, minus on none
#   kcfi-as types      kcfi-as --kcfi-no-assemble on a .s holding the
#                      kernel's .kcfi_version line, then for each prototype
#                      its .kcfi_type and an address-taken .kcfi_extern, minus
#                      the same .s with the .kcfi_version line alone
#   plugin, per TU     kcfi-gcc -S minus gcc -S on each whole TU, same flags;
#                      the kernel's TUs hold few types (tens), so this is mostly
#                      the plugin's other work: per 1000 types it overstates
#                      what the types cost
# Usage: bench/typeids-kernel.sh [BUILD_DIR]   (default: the tree above)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(cd "$here/.." && pwd)}
reps=${BENCH_REPS:-11}
out=${TMPDIR:-/tmp}/kcfi-bench-typeids-kernel.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

xz -dc "$here/data/kernel-prototypes.txt.xz" > "$out/protos"
n=$(wc -l < "$out/protos")
(cd "$out" && xz -dc "$here/data/kernel-tus.tar.xz" | tar -xf -)

# The kernel's own .kcfi_version line (x86_64, -funsigned-char, no patchable
# prefix), then what the plugin writes for an address-taken external
# declaration of each prototype: its type, and the extern naming it.
version='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0'
printf '%s\n' "$version" > "$out/plain.s"
{
	printf '%s\n' "$version"
	awk '{ printf "\t.kcfi_type %d, \"%s\"\n\t.kcfi_extern kp%d, %d\n", NR, $0, NR, NR }' "$out/protos"
} > "$out/types.s"

# per1000 MS COUNT: MS scaled to 1000 items
per1000() { awk -v ms="$1" -v n="$2" 'BEGIN { printf "%.1f", ms * 1000 / n }'; }

lib=$(pair lib "$out/protos" "$build/kcfi-typeid" /dev/null "$build/kcfi-typeid")
as=$(pair as /dev/null "$build/kcfi-as --kcfi-no-assemble $out/types.s" \
	/dev/null "$build/kcfi-as --kcfi-no-assemble $out/plain.s")

echo "Linux 6.12 prototypes: $n distinct .kcfi_type texts (bench/data/kernel-prototypes.txt.xz)"
echo "CPU ms added, $reps runs each in turns: min(with) - min(without), median of the differences; per 1000 prototypes (median)"
echo "  parse+mangle+hash, all of them (kcfi-typeid minus start-up): $lib; $(per1000 "${lib#* }" "$n") per 1000"
echo "  kcfi-as, .kcfi_type + .kcfi_extern of each:                   $as; $(per1000 "${as#* }" "$n") per 1000"
as1000=$(per1000 "${as#* }" "$n")
if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ]; then
	d=$(mi "$(instr "$out/protos" "$build/kcfi-typeid")" "$(instr /dev/null "$build/kcfi-typeid")")
	echo "  instructions, parse+mangle+hash: $d, $(per1000 "${d% M}" "$n") M per 1000"
	d=$(mi "$(instr /dev/null "$build/kcfi-as" --kcfi-no-assemble "$out/types.s")" \
		"$(instr /dev/null "$build/kcfi-as" --kcfi-no-assemble "$out/plain.s")")
	echo "  instructions, kcfi-as: $d, $(per1000 "${d% M}" "$n") M per 1000"
fi

echo "plugin on whole kernel TUs (kcfi-gcc -S minus gcc -S, the TU's flags; per 1000 .kcfi_type: all of the plugin's cost put on the types):"
total_ms=0 total_types=0 total_mi=0 tus=0
for flags in "$out"/*.flags; do
	name=$(basename "$flags" .flags)
	with="$(tr '\n' ' ' < "$flags") -fsanitize-kcfi-annotated-asm"
	without=$(grep -v -x -e '-fsanitize=kcfi' "$flags" | tr '\n' ' ')
	# shellcheck disable=SC2086 # one flag a word
	"$build/kcfi-gcc" $with -S -o "$out/$name.s" "$out/$name.i" 2> /dev/null
	types=$(grep -c '\.kcfi_type ' "$out/$name.s")
	# shellcheck disable=SC2086
	base=$(cpu /dev/null gcc $without -S -o "$out/y.s" "$out/$name.i")
	plugin=$(pair plugin /dev/null "$build/kcfi-gcc $with -S -o $out/x.s $out/$name.i" \
		/dev/null "gcc $without -S -o $out/y.s $out/$name.i")
	med=${plugin#* }
	# The plugin's two walks, timed inside cc1 (-fplugin-arg-kcfi-stats).
	# shellcheck disable=SC2086 # one flag a word
	walks=$(walks $with -S -o "$out/x.s" "$out/$name.i")
	line="  $(echo "$name" | sed 's|__|/|g').c: $types .kcfi_type, gcc -S $(ms "$base" 0) ms; plugin $plugin ms, its walks $walks ms; $(per1000 "$med" "$types") ms per 1000"
	if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ]; then
		# shellcheck disable=SC2086
		d=$(mi "$(instr /dev/null "$build/kcfi-gcc" $with -S -o "$out/x.s" "$out/$name.i")" \
			"$(instr /dev/null gcc $without -S -o "$out/y.s" "$out/$name.i")")
		line="$line; instructions ${d% M} M, $(per1000 "${d% M}" "$types") M per 1000"
		total_mi=$(awk -v a="$total_mi" -v b="${d% M}" 'BEGIN { printf "%.1f", a + b }')
	fi
	echo "$line"
	total_ms=$(awk -v a="$total_ms" -v b="$med" 'BEGIN { print a + b }')
	total_types=$((total_types + types))
	tus=$((tus + 1))
done
p1000=$(per1000 "$total_ms" "$total_types")
echo "  all $tus: $total_types .kcfi_type, plugin $(ms "$total_ms" 0) ms (sum of the medians), $(awk -v a="$total_ms" -v n="$tus" 'BEGIN { printf "%.1f", a / n }') ms per TU; $p1000 ms per 1000 .kcfi_type"
[ "${BENCH_INSTRUCTIONS:-0}" = 1 ] &&
	echo "  instructions: $total_mi M in all, $(per1000 "$total_mi" "$total_types") M per 1000 .kcfi_type"
# What the plugin costs a TU with nothing in it (its loading and set-up),
# with the last TU's flags: what every TU pays, whatever its code.
echo 'int kcfi_bench_nothing;' > "$out/empty.c"
# shellcheck disable=SC2086
empty=$(pair empty /dev/null "$build/kcfi-gcc $with -S -o $out/x.s $out/empty.c" \
	/dev/null "gcc $without -S -o $out/y.s $out/empty.c")
line="  an empty TU (no types): plugin $empty ms"
if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ]; then
	# shellcheck disable=SC2086
	line="$line; instructions $(mi "$(instr /dev/null "$build/kcfi-gcc" $with -S -o "$out/x.s" "$out/empty.c")" \
		"$(instr /dev/null gcc $without -S -o "$out/y.s" "$out/empty.c")")"
fi
echo "$line"
# The plugin's cost in a kernel TU is its walk of the code (call sites,
# preambles), a few dozen types being a small part of it: scaling it by
# the types would measure the code.  Its cost per type is the synthetic
# bench's (bench/typeids.sh, timed inside cc1).
echo "$as1000" | awk '{ printf "scaled to 20 000 kernel prototypes: kcfi-as %.0f ms (the plugin per type: bench/typeids.sh); budget for both: 50 ms\n", $1 * 20 }'
