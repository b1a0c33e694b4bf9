# SPDX-License-Identifier: GPL-2.0-or-later
# Run-time proof under qemu-user, per cross target: the demo, the three-unit
# program (all calls, a header mismatch across units, a call and a sibcall
# to a function of another type, one union's three call types that stock GCC
# would merge) at each optimisation level and with patchable prefixes, and
# the same under LTO.  Every trap is decoded as Linux 6.12 would.
. "$top_srcdir/tests/cross/lib.sh"
CROSS_ARCHES="aarch64 riscv64 arm"
pick_triples

# build TRIPLE NAME FLAGS...: units + trap reporter -> $T/NAME (non-PIE, so
# the addresses the program prints are the ones in the file).
build() {
	b_t=$1 b_n=$T/$2
	shift 2
	kx "$b_t" "$@" -c -o "$b_n-caller.o" "$X/units-caller.c" &&
	kx "$b_t" "$@" $TFLAGS -c -o "$b_n-targets.o" "$X/units-targets.c" &&
	kx "$b_t" "$@" -c -o "$b_n-main.o" "$X/units-main.c" &&
	kx "$b_t" "$@" -no-pie -o "$b_n" "$b_n-main.o" "$b_n-caller.o" "$b_n-targets.o" \
		"$T/report-$b_t.o"
}
runs() { qrun "$1" "$2" all >"$T/out" 2>&1 && grep -qx 'all calls returned' "$T/out" || { cat "$T/out"; false; }; }

scenarios() {	# TRIPLE NAME WHAT
	s_t=$1 s_p=$T/$2 s_w=$3
	check "$s_t $s_w: all calls run" runs "$s_t" "$s_p"
	check "$s_t $s_w: a call to another type traps" trapped "$s_t" "$s_p" call FiiE FiiiE call_unary
	check "$s_t $s_w: a sibcall to another type traps" trapped "$s_t" "$s_p" tail FiiE FiiiE tail_unary
	check "$s_t $s_w: a union member call checks its own type" \
		trapped "$s_t" "$s_p" union FiPiE FiPjE via_union
}

${CC:-cc} -O2 -o "$T/small" "$X/small-id.c" || fail "small-id.c builds"
for t in $TS; do
	"$t-gcc" -O2 -c -o "$T/report-$t.o" "$X/trap-report.c" || { fail "$t: trap reporter"; continue; }

	# cfi_salt (tests/e2e/salt-run.c): salted calls run, across salts traps.
	if kx "$t" -O2 -no-pie -o "$T/salt-$t" "$top_srcdir/tests/e2e/salt-run.c"; then
		check "$t cfi_salt: matching salts run" sh -c \
			"$(qemu_of "$t") -L /usr/$t $T/salt-$t >$T/salt.out 2>&1 && grep -qx 'salted calls ran: 11' $T/salt.out"
		check "$t cfi_salt: another salt traps" sh -c \
			"$(qemu_of "$t") -L /usr/$t $T/salt-$t other-salt >$T/salt.out 2>&1; test \$? -eq 133"
	else
		fail "$t: salt-run.c builds"
	fi

	# -fsanitize-kcfi-extern-stubs (tests/e2e/extern-stubs.sh natively):
	# libc through pointers runs with the mode, traps without it, and a
	# wrongly typed pointer traps with it.
	es="$top_srcdir/tests/e2e/extern-stubs-run.c $top_srcdir/tests/e2e/extern-stubs-peer.c"
	if [ "${t%%-*}" = arm ]; then
		echo "SKIP $t extern stubs: not implemented on arm (kcfi-as refuses them)"
	elif kx "$t" -O2 -o "$T/es-$t" $es && kx "$t" -O2 -fsanitize-kcfi-extern-stubs -o "$T/ess-$t" $es; then
		check "$t extern stubs: libc through pointers traps without the mode" sh -c \
			"$(qemu_of "$t") -L /usr/$t $T/es-$t calls >$T/es.out 2>&1; test \$? -eq 133"
		check "$t extern stubs: runs with the mode" sh -c \
			"$(qemu_of "$t") -L /usr/$t $T/ess-$t calls >$T/es.out 2>&1 && grep -qx 'calls: ok' $T/es.out"
		check "$t extern stubs: one address per function in the program" sh -c \
			"$(qemu_of "$t") -L /usr/$t $T/ess-$t equal >$T/es.out 2>&1 && grep -qx 'units: equal' $T/es.out"
		check "$t extern stubs: a wrongly typed pointer still traps" sh -c \
			"$(qemu_of "$t") -L /usr/$t $T/ess-$t wrong-type >$T/es.out 2>&1; test \$? -eq 133"
	else
		fail "$t: extern-stubs-run.c builds"
	fi

	# The demo: the matched call runs, the mismatched one traps.
	if kx "$t" -O2 -no-pie -o "$T/demo-$t" "$top_srcdir/demo/demo.c" "$T/report-$t.o"; then
		check "$t demo: matched call runs, mismatched traps" sh -c \
			"$(qemu_of "$t") -L /usr/$t $T/demo-$t >$T/demo.out 2>&1; test \$? -eq 133 && grep -q '^matched call' $T/demo.out"
		check "$t demo: the trap decodes" trapped "$t" "$T/demo-$t" - FvPiE FiPiE dispatch
	else
		fail "$t demo builds"
	fi

	variants=${CROSS_VARIANTS:-"-O0 -O2 -O3 -Os"}
	case $t in
	aarch64-*) variants="$variants -O2_-fpatchable-function-entry=4,2
		-O2_-mbranch-protection=standard_-fpatchable-function-entry=8,4" ;;
	riscv64-*) variants="$variants -O2_-fpatchable-function-entry=4,2
		-O2_-march=rv64g_-mabi=lp64d_-fpatchable-function-entry=8,4" ;;
	# Thumb-2 is the default of arm-linux-gnueabihf-gcc; ARM state too.
	arm-*) variants="$variants -O0_-marm -O2_-marm -Os_-marm" ;;
	esac
	for v in $variants; do
		flags=$(echo "$v" | tr _ ' ')
		n=u$(echo "$v" | tr -c 'a-zA-Z0-9\n' _)
		TFLAGS=
		if build "$t" "$n" $flags; then
			scenarios "$t" "$n" "$flags"
		else
			fail "$t $flags: units build"
		fi
		TFLAGS=-DUNITS_MISMATCH
		if build "$t" "$n-bad" $flags; then
			check "$t $flags: a target defined with another type traps" \
				trapped "$t" "$T/$n-bad" all FiiE FilE tail_unary
		else
			fail "$t $flags: mismatched units build"
		fi
	done

	# A type whose id needs no lui (riscv: Clang's stale-t2 case): the
	# matched call must run, a mismatched one trap.
	if [ -n "${SMALL:-}" ] || SMALL=$("$T/small"); then
		set -- $SMALL
		cat >"$T/small-run.c" <<END
#include <stdio.h>
struct $1 { int v; };
__attribute__((noipa)) void bump(struct $1 *p) { p->v++; }
__attribute__((noipa)) int other(struct $1 *p) { return p->v; }
__attribute__((noipa)) void call(void (*f)(struct $1 *), struct $1 *p) { f(p); p->v++; }
int main(int argc, char **argv)
{
	struct $1 x = { 0 };
	call(bump, &x);
	printf("small id call ran: %d\n", x.v);
	fflush(stdout);
	if (argc > 1)
		call((void (*)(struct $1 *))(void *)other, &x);
	return 0;
}
END
		if kx "$t" -O2 -no-pie -o "$T/small-$t" "$T/small-run.c" "$T/report-$t.o"; then
			check "$t: a call with id $2 (no upper part) runs" sh -c \
				"$(qemu_of "$t") -L /usr/$t $T/small-$t | grep -qx 'small id call ran: 2'"
			check "$t: ... and a mismatched one traps" trapped "$t" "$T/small-$t" x \
				"FvP${#1}$1E" "FiP${#1}$1E" call
		else
			fail "$t: small id program builds"
		fi
	fi

	# LTO: code generated at link time, with the plugin in lto1.
	TFLAGS=
	if build "$t" lto -O2 -flto; then
		scenarios "$t" lto "-O2 -flto"
	else
		fail "$t -flto: units build"
	fi
done
finish
