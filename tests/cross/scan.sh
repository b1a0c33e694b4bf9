# SPDX-License-Identifier: GPL-2.0-or-later
# Scan test per cross target: C sources through <triple>-kcfi-gcc at
# -O0/-O2/-O3/-Os, with patchable prefixes (4,2 and 8,4), BTI
# (-mbranch-protection=standard) on aarch64, -march=rv64gc and rv64g on
# riscv64, and -fpic.  For each: the rewritten assembly against the plugin's
# (check-rewritten.awk: preamble placement, exact sequences, load offsets,
# adjacency, one check per .kcfi_call), and the object as Linux decodes it
# (decode-object.awk; riscv: one .kcfi_traps entry per trap).
. "$top_srcdir/tests/cross/lib.sh"
pick_triples norun
P=$top_srcdir/tests/prepass
SOURCES="$X/scan-forms.c $X/units-caller.c $X/units-targets.c $top_srcdir/demo/demo.c
$P/preamble.c $P/jumps.c $P/union-calls.c $P/shared-calls.c $P/nosan-inline.c $P/icf.c
$P/direct-calls.c"

scan() {	# TRIPLE SRC FLAGS...
	s_t=$1 s_src=$2
	shift 2
	s_m=$(echo "$*" | sed -n 's/.*-fpatchable-function-entry=[0-9]*,\([0-9]*\).*/\1/p')
	s_nop=4
	case "$s_t $*" in riscv64-*-march=rv64g\ *|riscv64-*-march=rv64g) ;; riscv64-*) s_nop=2 ;; esac
	kx "$s_t" "$@" -fsanitize-kcfi-annotated-asm -S -o "$T/in.s" "$s_src" &&
	kx "$s_t" "$@" -c -o "$T/out.o" "$T/in.s" -Wa,--kcfi-save="$T/out.s" -Wa,--kcfi-stats &&
	s_checks=$(sed -n 's/.* checks=\([0-9]*\) .*/\1/p' "$T/kx.err") &&
	awk -v arch="${s_t%%-*}" -v prefix="${s_m:-0}" -v nop=$s_nop -v checks="$s_checks" \
		-f "$X/check-rewritten.awk" "$T/in.s" "$T/out.s" &&
	"$s_t-objdump" -d "$T/out.o" | awk -v arch="${s_t%%-*}" -f "$X/decode-object.awk" >"$T/dec" ||
		{ cat "$T/dec" 2>/dev/null; return 1; }
	equal "traps $s_checks" "$(cat "$T/dec")" "traps in the object" || return 1
	case $s_t in riscv64-*)
		equal "$s_checks" "$("$s_t-readelf" -rW "$T/out.o" |
			sed -n '/\.rela\.kcfi_traps/,/^$/p' | grep -c R_RISCV_ADD32)" ".kcfi_traps entries"
	esac
}

for t in $TS; do
	case $t in
	aarch64-*) extra="-mbranch-protection=standard" march= ;;
	riscv64-*) extra="-march=rv64g_-mabi=lp64d" march="-march=rv64gc" ;;
	esac
	for src in $SOURCES; do
		for o in -O0 -O2 -O3 -Os; do
			check "$t $(basename "$src") $o $march" scan "$t" "$src" $o $march
		done
		for o in -O2 -Os; do
			for v in "$extra" "$march -fpatchable-function-entry=4,2" \
				"$(echo "$extra" | tr _ ' ') -fpatchable-function-entry=8,4"; do
				v=$(echo "$v" | tr _ ' ')
				check "$t $(basename "$src") $o $v" scan "$t" "$src" $o $v
			done
		done
	done
	check "$t scan-forms.c -O2 -fpic" scan "$t" "$X/scan-forms.c" -O2 -fpic
done
finish
