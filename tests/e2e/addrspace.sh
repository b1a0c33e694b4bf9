#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# x86 named address spaces (__seg_gs, __seg_fs) in parameter types: the
# calls of the right type run, a call through the generic pointer type
# traps at a listed check of int (const int *, int); the preambles carry
# Clang's ids (PKU5AS256i: the address space is a vendor qualifier).
. "$top_srcdir/tests/e2e/lib.sh"

for o in $OPT_LEVELS; do
	exe=$T/as$o
	if ! kgcc $o -o "$exe" "$E2E/addrspace-run.c"; then
		fail "addrspace-run.c builds at $o"
		continue
	fi
	check "address-space calls run at $o" sh -c "'$exe' > '$T/run.out' && grep -qx 'address-space calls ran: 9' '$T/run.out'"
	if run_to_sigill "$exe" generic; then
		check "the generic call traps at $o" listed_trap "$exe" "$(id FiPKiiE)"
	else
		fail "the generic call traps at $o"
	fi
	if [ "$o" = -O2 ] && decoded "$exe"; then
		check "__seg_gs preamble of _ZTSFiPU5AS256KiiE" sh -c "grep -q '^preamble __cfi_gs_count type=$(id FiPU5AS256KiiE)' '$exe.chk'"
		check "__seg_fs preamble of _ZTSFiPU5AS257iiE" sh -c "grep -q '^preamble __cfi_fs_count type=$(id FiPU5AS257iiE)' '$exe.chk'"
	fi
done
finish
