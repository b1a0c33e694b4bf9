# SPDX-License-Identifier: GPL-2.0-or-later
# Interop with Clang 22 per cross target: the three units, with the callers
# or the targets built by clang-22 --target=TRIPLE -fsanitize=kcfi (FNV-1a
# ids) and the rest by <triple>-kcfi-gcc, link and run under qemu-user; a
# call to a function of another type traps whoever built which side, and
# the trap decodes as Linux 6.12 would.  On riscv the reported "expected
# type" depends on who built the caller: the pointer's type for kcfi-as
# (beq expected, loaded), the callee's for Clang (beq loaded, expected); the
# checks below hold each to its own order.  Clang spells riscv sibcalls
# "jr rN" (c.jr), which Linux 6.12 cannot decode: that one is only checked
# to die of SIGTRAP.  On arm, Clang 22's checks trap with UDF (SIGILL; Linux
# 6.12 has no CFI handler for it, doc/abi.md), kcfi-as's with BKPT: a
# Clang-built caller is only checked to die of SIGILL.
. "$top_srcdir/tests/cross/lib.sh"
CROSS_ARCHES="aarch64 riscv64 arm"
pick_triples
CLANG=${CLANG22:-clang-22}
command -v "$CLANG" >/dev/null || skip "no $CLANG"
CLANG_KCFI="-fsanitize=kcfi -Xclang -fsanitize-kcfi-hash=FNV-1a"

unit() {	# gcc|clang TRIPLE OUT SRC FLAGS...
	u_cc=$1 u_t=$2 u_out=$3 u_src=$4
	shift 4
	if [ "$u_cc" = gcc ]; then
		kx "$u_t" "$@" -c -o "$u_out" "$u_src"
	else
		# Objects only: no headers or libraries of the target are needed.
		$CLANG --target="$u_t" $CLANG_KCFI "$@" -c -o "$u_out" "$u_src"
	fi
}
build() {	# TRIPLE NAME CALLER-CC TARGETS-CC OPT [TARGET-FLAGS]
	b_t=$1 b_n=$T/$2 b_c=$3 b_g=$4 b_o=$5
	shift 5
	unit "$b_c" "$b_t" "$b_n-caller.o" "$X/units-caller.c" $b_o &&
	unit "$b_g" "$b_t" "$b_n-targets.o" "$X/units-targets.c" $b_o "$@" &&
	kx "$b_t" $b_o -c -o "$b_n-main.o" "$X/units-main.c" &&
	kx "$b_t" -no-pie -o "$b_n" "$b_n-main.o" "$b_n-caller.o" "$b_n-targets.o" "$T/report-$b_t.o"
}
runs() { qrun "$1" "$2" all >"$T/out" 2>&1 && grep -qx 'all calls returned' "$T/out" || { cat "$T/out"; false; }; }
# sigtrap TRIPLE PROG SCENARIO: dies of SIGTRAP; if the trap does not decode,
# it is because a c.jr follows the ebreak (Clang's riscv sibcalls).
sigtrap() {
	qrun "$1" "$2" "$3" >"$T/out" 2>&1
	[ $? -eq 133 ] || { cat "$T/out"; return 1; }
	grep -q '^kcfi-trap pc=' "$T/out" ||
		grep -q 'undecodable: no jalr or c.jalr after the ebreak' "$T/out" || { cat "$T/out"; false; }
}

# sigill TRIPLE PROG SCENARIO: dies of SIGILL at a udf (Clang's arm checks).
sigill() {
	qrun "$1" "$2" "$3" >"$T/out" 2>&1
	[ $? -eq 132 ] || { cat "$T/out"; false; }
}

for t in $TS; do
	"$t-gcc" -O2 -c -o "$T/report-$t.o" "$X/trap-report.c" || { fail "$t: trap reporter"; continue; }
	for pair in "clang gcc" "gcc clang"; do
		set -- $pair
		for o in -O0 -O2; do
			n=$1-$2$o
			w="$t callers by $1, targets by $2, $o"
			if build "$t" "$n" "$1" "$2" $o; then
				check "$w: all calls run" runs "$t" "$T/$n"
				case "$t $1" in
				arm-*clang)
					for s in call tail union; do
						check "$w: $s to another type traps (Clang's udf)" sigill "$t" "$T/$n" $s
					done
					;;
				*)
					check "$w: a call to another type traps" trapped "$t" "$T/$n" call FiiE FiiiE call_unary "$1"
					case "$t $1" in
					riscv64-*clang) check "$w: a sibcall to another type traps (Clang's c.jr)" \
						sigtrap "$t" "$T/$n" tail ;;
					*) check "$w: a sibcall to another type traps" \
						trapped "$t" "$T/$n" tail FiiE FiiiE tail_unary "$1" ;;
					esac
					case "$t $1 $o" in
					riscv64-*clang\ -O2) check "$w: a union member call traps (Clang's c.jr)" \
						sigtrap "$t" "$T/$n" union ;;
					*) check "$w: a union member call checks its own type" \
						trapped "$t" "$T/$n" union FiPiE FiPjE via_union "$1" ;;
					esac
					;;
				esac
			else
				fail "$w: builds"
			fi
			if build "$t" "bad$n" "$1" "$2" $o -DUNITS_MISMATCH; then
				case "$t $1" in
				riscv64-*clang) check "$w: a target of another type traps (Clang's c.jr)" \
					sigtrap "$t" "$T/bad$n" all ;;
				arm-*clang) check "$w: a target of another type traps (Clang's udf)" \
					sigill "$t" "$T/bad$n" all ;;
				*) check "$w: a target of another type traps" \
					trapped "$t" "$T/bad$n" all FiiE FilE tail_unary "$1" ;;
				esac
			else
				fail "$w, mismatched: builds"
			fi
		done
	done
done
finish
