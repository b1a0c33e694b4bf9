#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/options.sh for the cross targets (tests/cross/matrix.sh:
# aarch64, riscv64, arm in Thumb-2 and ARM state, i386 through the i686
# driver and through kcfi-gcc -m32), under qemu-user: the option sets that
# change what surrounds a check (profiling, PIC and PIE, code models, stack
# protector, CET and branch protection, function sections, unwind tables,
# save/restore millicode, relaxation, hardening, LTO, static linking) on
# one program.  The typed calls run, the mistyped one dies at its trap
# (SIGTRAP: brk, ebreak, bkpt, int3), kcfi-audit finds every indirect
# branch checked or exempt.  Patchable entries: options-patchable.sh.
. "$top_srcdir/tests/cross/matrix.sh"

for t in $TARGETS; do
	one "$t" hardened -O2 -fstack-clash-protection -fstack-protector-strong \
		-D_FORTIFY_SOURCE=2 -fPIE -pie -Wl,-z,relro,-z,now
	one "$t" static -O2 -static
	one "$t" pipe-save-temps -O2 -pipe -save-temps
	one "$t" zero-regs -O2 -fzero-call-used-regs=all
	one "$t" O0 -O0
	one "$t" pg -O2 -pg
	one "$t" pic -O2 -fPIC -pie
	one "$t" no-pie -O2 -fno-pie -no-pie
	one "$t" stack-protector-all -O2 -fstack-protector-all
	one "$t" no-stack-protector -O2 -fno-stack-protector
	one "$t" function-sections -O2 -ffunction-sections -fdata-sections -Wl,--gc-sections
	one "$t" no-async-unwind -O2 -fno-asynchronous-unwind-tables -fno-unwind-tables
	case $t in
	*:m32) echo "not run: $t lto: the link would need the native gcc's 32-bit libraries (gcc-multilib)" ;;
	*)
		one "$t" lto -O2 -flto
		one "$t" lto-partitions -O2 -flto=2 -flto-partition=max ;;
	esac
	case $t in
	aarch64-*)
		one "$t" bti-pac -O2 -mbranch-protection=pac-ret+leaf+bti
		one "$t" standard-bp -O2 -mbranch-protection=standard
		one "$t" tiny -O2 -mcmodel=tiny
		one "$t" small -O2 -mcmodel=small
		one "$t" large -O2 -mcmodel=large -fno-pie -no-pie
		one "$t" kernel-like -O2 -mgeneral-regs-only -ffixed-x18 -fno-omit-frame-pointer \
			-mno-outline-atomics -fno-asynchronous-unwind-tables
		;;
	riscv64-*)
		one "$t" save-restore -Os -msave-restore
		one "$t" no-relax -O2 -mno-relax
		one "$t" medlow -O2 -mcmodel=medlow -fno-pie -no-pie
		one "$t" medany -O2 -mcmodel=medany
		one "$t" no-explicit-relocs -O2 -mno-explicit-relocs
		one "$t" zba-zbb -O2 -march=rv64gc_zba_zbb
		;;
	i?86-*)
		# -mfentry is for code that is not PIC on i386 (GCC's rule).
		one "$t" fentry -O2 -pg -mfentry -fno-pie -no-pie
		one "$t" record-mcount -O2 -pg -mfentry -mrecord-mcount -mnop-mcount -fno-pie -no-pie
		one "$t" pic-pg -O2 -fPIC -pie -pg
		one "$t" cet-full -O2 -fcf-protection=full
		one "$t" cet-branch -O2 -fcf-protection=branch
		;;
	esac
done
matrix_finish
