#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check's differential campaign against the class of issue 41 part A:
# a checked call's target loaded through memory a store right before may
# write, where the target mover (prepass/early-target.cc) must not hoist
# the load above the store.  The reproducer and generated programs
# of its shapes (tests/miscompile/gen-program.py, seeds 1..MISCOMPILE_SHORT, default 10)
# are built by plain gcc, kcfi-gcc and kcfi-gcc with the mover off, on
# x86_64 and under qemu-user on aarch64 and riscv64, at the option sets
# where sched2 does not refresh the alias tables the mover's oracle reads
# (-O1, -Og, -fno-schedule-insns2, with -funroll-loops, -frename-registers,
# the kernel's retpolines on x86_64), and -O2 on x86_64; two csmith programs with
# their calls through function pointers at -O1.  Any difference of
# outcome or output fails, printed with the program's seed, the arch, the
# options and the three outputs; the programs and failing builds stay in
# $top_builddir/tests/miscompile/work-check*/ (campaign.sh).
# make miscompile-check is the long campaign.
. "$top_srcdir/tests/lib.sh"
M=$top_srcdir/tests/miscompile
LC_ALL=C
export LC_ALL
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "the campaign runs x86_64 code natively, not ${NATIVE_TRIPLE:-unknown}" ;;
esac
[ -x "$KCFI_GCC" ] || skip "kcfi-gcc is not built"
command -v python3 >/dev/null || skip "no python3 (tests/miscompile/gen-program.py)"

# The cross arches once per build: with another GCC (make check-gcc11)
# only x86_64 changes compiler, the cross drivers are the same.
arches=x86_64
case $KCFI_GCC in
*/kcfi-gcc)
	for t in ${CROSS_TRIPLES:-}; do
		case $t in aarch64-*|riscv64-*) arches="$arches ${t%%-*}" ;; esac
	done ;;
*) echo "cross arches left out: they do not depend on $KCFI_GCC" ;;
esac
THUNK="-mindirect-branch=thunk -mindirect-branch-register"
X86_SETS="-O1 -funroll-loops $THUNK;-Og -funroll-loops $THUNK;-O2 -fno-schedule-insns2 -funroll-loops $THUNK;-O1 -frename-registers $THUNK;-O2"
CROSS_SETS="-O1 -funroll-loops;-Og -funroll-loops;-O1 -frename-registers"
work=$top_builddir/tests/miscompile/work-check-$(basename "$KCFI_GCC")

"$SHELL" "$M/campaign.sh" --arches "$arches" --opts "$X86_SETS" --cross-opts "$CROSS_SETS" \
	--seeds "${MISCOMPILE_SHORT:-10}" --csmith 0 --jobs 2 --work "$work" >"$T/campaign.out" 2>&1
rc=$?
cat "$T/campaign.out"
[ $rc -ne 77 ] || skip "the campaign found nothing to run"
if [ $rc -eq 0 ]; then pass "generated programs and the reproducer: kcfi-gcc computes as plain gcc"
else fail "generated programs and the reproducer: differences (above; files in $work)"; fi
# The campaign must have run: every program on every arch at every set,
# none skipped.
want=$(( (${MISCOMPILE_SHORT:-10} + 1) * ($(echo "$X86_SETS" | tr ';' '\n' | wc -l) +
	($(echo $arches | wc -w) - 1) * $(echo "$CROSS_SETS" | tr ';' '\n' | wc -l)) ))
got=$(grep -c ' same ' "$work/results" 2>/dev/null)
check "every cell ran ($want cells)" sh -c "[ $want -eq $((got + 0)) ] || [ $rc -ne 0 ]"

# csmith: general code with calls through pointers, at -O1 where sched2
# does not run (the first two seeds from 1 whose plain -O0 and -O2 agree).
if command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ]; then
	"$SHELL" "$M/campaign.sh" --arches "$arches" --opts "-O1 $THUNK" --cross-opts "-O1" --fixed no \
		--seeds 0 --csmith 2 --jobs 2 --work "$work-csmith" >"$T/csmith.out" 2>&1
	rc=$?
	cat "$T/csmith.out"
	if [ $rc -eq 0 ] && grep -q '^miscompile x86_64: [1-9][0-9]* cells, [1-9]' "$T/csmith.out"; then
		pass "csmith programs: kcfi-gcc computes as plain gcc"
	else
		fail "csmith programs: differences or nothing ran (files in $work-csmith)"
	fi
else
	echo "SKIP csmith programs: apt-get install csmith libcsmith-dev"
fi
finish
