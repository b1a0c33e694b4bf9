#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -fsanitize-cfi-icall-generalize-pointers (Clang 22): ids of the
# ".generalized" names in preambles and checks; a call through another
# object pointer type runs, one through a pointer to a const pointee traps
# at a listed check; the anonymous tag behind a pointer takes no number
# (_ZTSFiPv3$_0E.generalized); with clang-22 installed, its preamble ids
# are ours, both hashes, with and without normalized integers.
. "$top_srcdir/tests/e2e/lib.sh"
G=-fsanitize-cfi-icall-generalize-pointers
# has_type EXE NAME MANGLING: __cfi_NAME carries the id of _ZTS MANGLING.
has_type() { preamble "$1" "$2" | grep -q "^type=$(id "$3") " || { echo "__cfi_$2: $(preamble "$1" "$2")"; false; }; }

for o in $OPT_LEVELS; do
	exe=$T/gen$o
	if ! kgcc $G $o -o "$exe" "$E2E/generalize-run.c"; then
		fail "generalize-run.c builds at $o"
		continue
	fi
	check "generalized calls run at $o" sh -c "'$exe' > '$T/run.out' && grep -qx 'generalized calls ran: 6' '$T/run.out'"
	if run_to_sigill "$exe" const; then
		check "the call through a const pointee traps at $o" listed_trap "$exe" "$(id 'FiPKvE.generalized')"
	else
		fail "the call through a const pointee traps at $o"
	fi
	if [ "$o" = -O2 ] && decoded "$exe"; then
		check "preamble of _ZTSFiPvE.generalized" has_type "$exe" takes_int 'FiPvE.generalized'
		check "preamble of _ZTSFiPv3\$_0E.generalized" has_type "$exe" takes_anon 'FiPv3$_0E.generalized'
	fi
done
# Without the option the same program's first call traps.
kgcc -O2 -o "$T/plain" "$E2E/generalize-run.c" &&
	check "without the option the call through char * traps" run_to_sigill "$T/plain"

if command -v clang-22 >/dev/null 2>&1; then
	for n in "" -fsanitize-cfi-icall-experimental-normalize-integers; do
		for h in FNV-1a xxHash64; do
			clang-22 -O2 -fsanitize=kcfi -Xclang -fsanitize-kcfi-hash=$h $n $G -c -o "$T/c.o" "$E2E/generalize-run.c" &&
				kgcc -O2 -fsanitize-kcfi-hash=$h $n $G -c -o "$T/g.o" "$E2E/generalize-run.c" &&
				decoded "$T/c.o" && decoded "$T/g.o" ||
				{ fail "clang-22 and kcfi-gcc objects ($h $n)"; continue; }
			grep '^preamble' "$T/c.o.chk" | awk '{ print $2, $3 }' | sort > "$T/c.pre"
			grep '^preamble' "$T/g.o.chk" | awk '{ print $2, $3 }' | sort > "$T/g.pre"
			check "preamble ids as clang-22's ($h${n:+ normalized})" sh -c \
				"[ \$(wc -l < '$T/c.pre') -eq 3 ] && cmp '$T/c.pre' '$T/g.pre'"
		done
	done
fi
finish
