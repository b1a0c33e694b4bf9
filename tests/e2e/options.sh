#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The option sets distributions build packages with and the kernel-like
# code-generation options, each on one program: the correctly typed calls
# run, the wrongly typed one dies at its check, and kcfi-audit finds every
# indirect branch of the linked program checked or exempt.  Each set is a
# whole class of input the other tests see one option of at a time; a new
# option a distribution adopts belongs here.  A tool of ours killed by a
# signal fails the set, whatever the build was expected to do.  The other
# targets: tests/cross/options.sh and options-patchable.sh.
. "$top_srcdir/tests/e2e/lib.sh"

PROG=$E2E/tail-merge-run.c
AUDIT=$top_builddir/kcfi-audit
[ -x "$AUDIT" ] || AUDIT=

# Without the preloaded reporter, which neither a static program nor ASan's
# runtime (it must come first) would take: the program's only SIGILL is
# its check, as it exits 4 or 5 if the mistyped call returns.
traps_after_typed() {
	"$1" >"$T/run.out" 2>"$T/run.err"
	rc=$?
	[ $rc -eq 132 ] || { echo "exit status $rc, not 132 (SIGILL)"; cat "$T/run.out" "$T/run.err"; return 1; }
	grep -qx 'typed calls ran' "$T/run.out"
}
audited() {
	"$AUDIT" "$1" >"$T/audit.out" 2>&1
	rc=$?
	[ $rc -le 128 ] || { echo "kcfi-audit died of signal $((rc - 128))"; return 1; }
	[ $rc -eq 0 ] || { echo "kcfi-audit: exit status $rc"; cat "$T/audit.out"; return 1; }
	tail -n 1 "$T/audit.out" | grep ': 3 checked, .* 0 unchecked,' || { cat "$T/audit.out"; return 1; }
}

# one NAME OPTION...: build PROG with the options, run it, audit it.
one() {
	set_name=$1; shift
	exe=$T/prog-$set_name
	# Options newer than the compiler under test (make check-gcc11):
	# whatever that compiler rejects without KCFI is not ours to test.
	if ! (cd "$T" && "$KCFI_GCC" "$@" -S -o /dev/null -x c /dev/null) >/dev/null 2>&1; then
		echo "not run: $set_name: the compiler itself rejects $*"; return
	fi
	(cd "$T" && "$KCFI_GCC" -fsanitize=kcfi "$@" -o "$exe" "$PROG") >"$T/build.err" 2>&1
	rc=$?
	if tool_signal $rc "$T/build.err"; then
		fail "$set_name: a tool died of a signal ($*)"; head -n 20 "$T/build.err"; return
	elif [ $rc -ne 0 ]; then
		fail "$set_name: builds ($*)"; head -n 20 "$T/build.err"; return
	fi
	check "$set_name: typed calls run, the mistyped one traps" traps_after_typed "$exe"
	[ -z "$AUDIT" ] || check "$set_name: kcfi-audit: 3 checked, 0 unchecked" audited "$exe"
}

# Distributions' default hardening (dpkg-buildflags, Ubuntu's additions,
# Fedora's redhat-rpm-config), with the driver features they use: -pipe
# (cc1 writes into as through a pipe) and LTO with fat objects.
one debian -O2 -g -fstack-protector-strong -Wformat -Werror=format-security \
	-D_FORTIFY_SOURCE=2 -fPIE -pie -Wl,-z,relro -Wl,-z,now -fcf-protection
one ubuntu -O3 -g -fstack-protector-strong -fstack-clash-protection -D_FORTIFY_SOURCE=3 \
	-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fcf-protection -fPIE -pie
one fedora -O2 -flto=auto -ffat-lto-objects -fexceptions -g -grecord-gcc-switches -pipe \
	-Wall -Wp,-D_FORTIFY_SOURCE=2 -fstack-protector-strong -m64 -mtune=generic \
	-fasynchronous-unwind-tables -fstack-clash-protection -fcf-protection
# Code generation the kernel's Makefiles ask for, as far as a user program
# can run it.
one kernel-like -O2 -fno-strict-aliasing -fno-common -fno-PIE -no-pie \
	-fzero-call-used-regs=used-gpr \
	-fno-delete-null-pointer-checks -fno-stack-protector -fconserve-stack \
	-fno-omit-frame-pointer -mindirect-branch=thunk -mfunction-return=thunk \
	-fno-jump-tables -mharden-sls=all -falign-functions=16 -fno-asynchronous-unwind-tables
one auto-var-init -O2 -ftrivial-auto-var-init=zero
# Driver paths: temporaries kept, assembler listings, split DWARF.
one save-temps -O2 -save-temps
one listing -O2 "-Wa,-adhln=$T/listing.txt"
one split-dwarf -O2 -g -gsplit-dwarf
one dwarf4-gz -O2 -gdwarf-4 -gz
# Instrumentation that adds calls and code around the checks.
one asan -O1 -g -fsanitize=address
one ubsan -O2 -fsanitize=undefined
one tsan -O2 -fsanitize=thread
one split-stack -O2 -fsplit-stack
one instrument-functions -O2 -finstrument-functions
one mcount -O2 -no-pie -fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount
one openmp -O2 -fopenmp
one harden-branches -O2 -fharden-compares -fharden-conditional-branches
one stack-check -O2 -fstack-protector-all -fstack-check
one trapv -O2 -ftrapv
one non-call-exceptions -O2 -fexceptions -fnon-call-exceptions
one zero-regs-all -O2 -fzero-call-used-regs=all
one shadow-stack -O2 -fcf-protection=full -mshstk
# Linking and code models.
one static -O2 -static
one static-pie -O2 -static-pie
one no-plt -O2 -fno-plt
one gc-sections -O2 -ffunction-sections -fdata-sections -Wl,--gc-sections
one lto-one-partition -O2 -flto -flto-partition=one
one hidden-pic -O2 -fPIC -fvisibility=hidden -pie
# Optimisation levels at their extremes.
one Og -Og -g3
one O3-native -O3 -march=native -funroll-loops
# One option at a time, as issue 31 lists them: every one builds and runs
# (or would be refused, naming itself; none is on x86_64).
for nm in $(patchable_pairs); do
	one "patchable-$nm" -O2 -fpatchable-function-entry=$nm
done
one pg -O2 -pg
one pg-pie -O2 -fPIE -pie -pg -mfentry
one fentry -O2 -no-pie -fno-pie -pg -mfentry
one record-mcount -O2 -no-pie -fno-pie -pg -mfentry -mrecord-mcount
one pic -O2 -fPIC -pie
one pie -O2 -fPIE -pie
one no-pie -O2 -fno-pie -no-pie
one cmodel-small -O2 -mcmodel=small
one cmodel-medium -O2 -mcmodel=medium
one cmodel-large -O2 -mcmodel=large
one cmodel-large-no-pie -O2 -mcmodel=large -fno-pie -no-pie
one stack-protector -O2 -fstack-protector
one stack-protector-strong -O2 -fstack-protector-strong
one no-stack-protector -O2 -fno-stack-protector
one cet-branch -O2 -fcf-protection=branch
one cet-return -O2 -fcf-protection=return
one cet-none -O2 -fcf-protection=none
one function-sections -O2 -ffunction-sections
one no-async-unwind -O2 -fno-asynchronous-unwind-tables
one lto -O2 -flto
one lto-partitions -O2 -flto=2 -flto-partition=max
finish
