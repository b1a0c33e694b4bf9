#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What type ids cost a TU with many distinct prototypes (default 20 000, the
# budget being 50 ms in all), measured in one run as CPU time (user + system:
# bench/cpu-ms, which a busy machine disturbs less than wall time), with and
# without, in turns:
#   parse+mangle+hash  kcfi-typeid on all the prototypes (the library work)
#   kcfi-as types      kcfi-as --kcfi-no-assemble on kcfi-gcc's .s, minus the
#                      same file with its .kcfi_type/.kcfi_extern lines taken out
#   plugin             kcfi-gcc -fsanitize=kcfi -S minus gcc -S (printing the
#                      types into the directives, plus the plugin's other work)
# Prototypes: tests/typeids/gen-protos --cc=gcc, address-taken declarations.
# BENCH_INSTRUCTIONS=1 also counts the instructions of the same differences
# with valgrind: slow (a minute), but exact however loaded the machine is.
set -eu
build=${1:-$(cd "$(dirname "$0")/.." && pwd)}
n=${BENCH_PROTOTYPES:-20000}
reps=${BENCH_REPS:-11}
out=${TMPDIR:-/tmp}/kcfi-bench-typeids.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

"$build/tests/typeids/gen-protos" $((n * 3 / 2)) 11 --cc=gcc | awk -F '\t' '!seen[$2]++' | head -n "$n" > "$out/protos"
n=$(wc -l < "$out/protos")
{
	printf 'typedef struct { int x; } td_s0; typedef union { int x; } td_u0; typedef enum { TD_E0_A } td_e0;\n'
	printf 'typedef int v4si __attribute__((vector_size(16))); typedef float v4sf __attribute__((vector_size(16)));\n'
	printf 'typedef double v2df __attribute__((vector_size(16))); typedef short v8hi __attribute__((vector_size(16)));\n'
	printf 'typedef unsigned char v16qu __attribute__((vector_size(16)));\n'
	printf 'struct s0 { int m; }; struct s1 { int m; }; struct s2 { int m; }; struct s3 { int m; };\n'
	printf 'union u0 { int m; }; union u1 { int m; }; enum e0 { E0_A }; enum e1 { E1_A };\n'
	printf 'typedef void (__attribute__((ms_abi)) *ms_fp0)(int);\n'
	printf 'typedef int (__attribute__((ms_abi)) *ms_fp1)(struct s0 *, ...);\n'
	awk -F '\t' '{ printf "extern __typeof__(%s) f%d;\n", $2, NR }
		END { printf "void *tbl[] = {"; for (i = 1; i <= NR; i++) printf " f%d,", i; print " 0 };" }' "$out/protos"
} > "$out/tu.c"

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

"$build/kcfi-gcc" -w -O2 -fsanitize=kcfi -S -o "$out/tu.s" "$out/tu.c"
types=$(grep -c '\.kcfi_type ' "$out/tu.s")
grep -v -e '\.kcfi_type ' -e '\.kcfi_extern ' "$out/tu.s" > "$out/plain.s"
# the prototypes as the plugin printed them, for kcfi-typeid
sed -n 's/^[[:space:]]*\.kcfi_type [0-9]*, "\(.*\)"$/\1/p' "$out/tu.s" > "$out/printed"

lib=$(pair lib "$out/printed" "$build/kcfi-typeid" /dev/null "$build/kcfi-typeid")
as=$(pair as /dev/null "$build/kcfi-as --kcfi-no-assemble $out/tu.s" \
	/dev/null "$build/kcfi-as --kcfi-no-assemble $out/plain.s")
plugin=$(pair plugin /dev/null "$build/kcfi-gcc -w -O2 -fsanitize=kcfi -S -o $out/x.s $out/tu.c" \
	/dev/null "gcc -w -O2 -S -o $out/y.s $out/tu.c")
# The plugin's two walks over the TU's functions, timed inside cc1: what
# grows with the prototypes, without the noise of the whole compilation.
walks=$(walks -w -O2 -fsanitize=kcfi -S -o "$out/x.s" "$out/tu.c")

echo "TU: $n distinct prototypes, $types .kcfi_type directives ($(wc -c < "$out/tu.c") bytes of C)"
echo "CPU ms added, $reps runs each in turns: min(with) - min(without), median of the differences"
echo "  parse+mangle+hash, all of them (kcfi-typeid minus start-up): $lib"
echo "  kcfi-as, the type directives (.s minus the .s without them):  $as"
echo "  plugin, everything it does (kcfi-gcc -S minus gcc -S):        $plugin"
echo "  plugin, its two walks (timed inside cc1, min and median):      $walks"
"$build/tests/typeids/unit" --speed | sed -n 's/^speed: /  library in-process: /p'
# What the TU's build pays in all: the plugin in cc1 plus kcfi-as.
echo "$as $plugin" | awk '{ printf "added to the build (plugin + kcfi-as): %.1f ms (min), %.1f ms (median); budget: 50 ms\n", $1 + $3, $2 + $4 }'
echo "$as $walks" | awk '{ printf "  the same with the plugin'"'"'s walks timed inside cc1: %.1f ms (min), %.1f ms (median)\n", $1 + $3, $2 + $4 }'
if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ]; then
	echo "instructions (valgrind):"
	echo "  kcfi-as, the type directives: $(mi "$(instr /dev/null "$build/kcfi-as" --kcfi-no-assemble "$out/tu.s")" \
		"$(instr /dev/null "$build/kcfi-as" --kcfi-no-assemble "$out/plain.s")")"
	echo "  plugin: $(mi "$(instr /dev/null "$build/kcfi-gcc" -w -O2 -fsanitize=kcfi -S -o "$out/x.s" "$out/tu.c")" \
		"$(instr /dev/null gcc -w -O2 -S -o "$out/y.s" "$out/tu.c")")"
fi

