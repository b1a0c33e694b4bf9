#!/bin/sh
# tests/e2e/options.sh for aarch64 and riscv64 under qemu-user: the option
# sets that change what surrounds a check on these targets (branch
# protection, code models, save/restore millicode, relaxation, patchable
# entries, hardening, LTO, static linking) on one program.  The typed calls
# run, the mistyped one dies at its trap (SIGTRAP: brk, ebreak), and
# kcfi-audit finds every indirect branch checked or exempt.
. "$top_srcdir/tests/cross/lib.sh"
pick_triples

PROG=$top_srcdir/tests/e2e/tail-merge-run.c
AUDIT=$top_builddir/kcfi-audit
[ -x "$AUDIT" ] || AUDIT=

traps_after_typed() {	# TRIPLE EXE
	qrun "$1" "$2" >"$T/run.out" 2>"$T/run.err"
	rc=$?
	[ $rc -eq 133 ] || { echo "exit status $rc, not 133 (SIGTRAP)"; cat "$T/run.out" "$T/run.err"; return 1; }
	grep -qx 'typed calls ran' "$T/run.out"
}
audited() { "$AUDIT" "$1" | tail -n 1 | grep ': 3 checked, .* 0 unchecked,'; }

one() {	# TRIPLE NAME OPTION...
	tr=$1 set_name=$2; shift 2
	exe=$T/prog-$tr-$set_name
	if ! (cd "$T" && kx "$tr" "$@" -o "$exe" "$PROG") >"$T/build.err" 2>&1; then
		fail "$tr $set_name: builds ($*)"; head -n 20 "$T/build.err"; return
	fi
	check "$tr $set_name: typed calls run, the mistyped one traps" traps_after_typed "$tr" "$exe"
	[ -z "$AUDIT" ] || check "$tr $set_name: kcfi-audit: 3 checked, 0 unchecked" audited "$exe"
}

for t in $TS; do
	one "$t" hardened -O2 -fstack-clash-protection -fstack-protector-strong \
		-D_FORTIFY_SOURCE=2 -fPIE -pie -Wl,-z,relro,-z,now
	one "$t" static -O2 -static
	one "$t" lto -O2 -flto
	one "$t" pipe-save-temps -O2 -pipe -save-temps
	one "$t" patchable -O2 -fpatchable-function-entry=4,2
	one "$t" zero-regs -O2 -fzero-call-used-regs=all
	one "$t" O0 -O0
	case $t in
	aarch64-*)
		one "$t" bti-pac -O2 -mbranch-protection=pac-ret+leaf+bti
		one "$t" standard-bp -O2 -mbranch-protection=standard
		one "$t" tiny -O2 -mcmodel=tiny
		one "$t" large -O2 -mcmodel=large -fno-pie -no-pie
		one "$t" kernel-like -O2 -mgeneral-regs-only -ffixed-x18 -fno-omit-frame-pointer \
			-mno-outline-atomics -fno-asynchronous-unwind-tables
		;;
	riscv64-*)
		one "$t" save-restore -Os -msave-restore
		one "$t" no-relax -O2 -mno-relax
		one "$t" medlow -O2 -mcmodel=medlow -fno-pie -no-pie
		one "$t" no-explicit-relocs -O2 -mno-explicit-relocs
		one "$t" zba-zbb -O2 -march=rv64gc_zba_zbb
		;;
	esac
done
finish
