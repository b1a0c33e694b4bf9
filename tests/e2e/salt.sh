#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cfi_salt (Clang 22, the kernel's __cfi_salt) at run time: salted calls
# through pointers of the same salt run (typedef'd pointer, struct member,
# salted function type); a call across salts, or between a salted and an
# unsalted function of the same C type, traps at a listed check of the
# pointer's salted id ("_ZTSFiiE.kvm" hashed) or unsalted one.
. "$top_srcdir/tests/e2e/lib.sh"

kvm=$(fnv1a _ZTSFiiE.kvm)
for o in $OPT_LEVELS; do
	exe=$T/salt$o
	if ! kgcc $o -o "$exe" "$E2E/salt-run.c"; then
		fail "salt-run.c builds at $o"
		continue
	fi
	check "matching salted calls run at $o" sh -c "'$exe' > '$T/run.out' && grep -qx 'salted calls ran: 11' '$T/run.out'"
	for how in salted-to-plain other-salt; do
		if run_to_sigill "$exe" $how; then
			check "$how traps at the check of _ZTSFiiE.kvm at $o" listed_trap "$exe" "$kvm"
		else
			fail "$how traps at $o"
		fi
	done
	if run_to_sigill "$exe" plain-to-salted; then
		check "plain-to-salted traps at the check of _ZTSFiiE at $o" listed_trap "$exe" "$(id FiiE)"
	else
		fail "plain-to-salted traps at $o"
	fi
done

# The preambles carry the salted ids, as Clang's do.
if kgcc -O2 -c -o "$T/salt.o" "$E2E/salt-run.c" && decoded "$T/salt.o"; then
	check "salted definition: preamble of _ZTSFiiE.kvm" sh -c "'$ELFCHECK' '$T/salt.o' | grep -q '^preamble __cfi_salted_twice type=$kvm'"
	check "other salt: preamble of _ZTSFiiE.other" sh -c "'$ELFCHECK' '$T/salt.o' | grep -q '^preamble __cfi_other_twice type=$(fnv1a _ZTSFiiE.other)'"
	check "unsalted definition: preamble of _ZTSFiiE" sh -c "'$ELFCHECK' '$T/salt.o' | grep -q '^preamble __cfi_plain_twice type=$(id FiiE)'"
else
	fail "salt-run.c compiles to an object"
fi
finish
