#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -pg (and -p, -mfentry) in a PIE, Debian's default: GCC prints the call of
# mcount or __fentry__ itself, outside any insn the plugin sees, as
# "1: call *mcount@GOTPCREL(%rip)".  It calls a named function, so kcfi-as
# lets exactly that form pass; the program builds, runs, and still traps on
# a wrongly typed call.
. "$top_srcdir/tests/e2e/lib.sh"

H=$(id FllE)			# long (long)
cd "$T" || exit 1		# gmon.out goes to the working directory
for o in -O0 -O2; do
	for f in -pg -p "-pg -mfentry" "-pg -mindirect-branch=thunk" "-pg -mfentry -mindirect-branch=thunk-inline"; do
		x=$T/pg$(echo "$o$f" | tr -d ' =-')
		if ! kgcc $o $f -c -o "$x.o" "$E2E/retpoline-run.c" ||
		   ! kgcc $o $f -o "$x" "$x.o" "$E2E/retpoline-peer.c"; then
			fail "$o $f: builds"; continue
		fi
		pass "$o $f: builds"
		check "$o $f: the profiler is called through the GOT" sh -c \
			"'$OBJDUMP' -dr '$x.o' | grep -qE 'R_X86_64_GOTPCRELX?[[:space:]]+(mcount|__fentry__)'"
		check "$o $f: runs" "$x"
		if run_to_sigill "$x" tail; then
			check "$o $f: a wrongly typed call traps at a listed check" listed_trap "$x" "$H"
		else
			fail "$o $f: a wrongly typed call dies of SIGILL"
		fi
	done
done
finish
