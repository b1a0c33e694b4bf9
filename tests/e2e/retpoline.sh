#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -mindirect-branch=thunk and thunk-inline (retpolines in user space): the
# checks move the target to %r11, so they need the %r11 retpoline.  Under
# thunk, kcfi-as defines __x86_indirect_thunk_r11 as GCC defines its own
# (hidden, comdat: one copy however many units call it); under thunk-inline
# it rebuilds GCC's inline retpoline through %r11 behind the check.  Matched
# calls run, tail calls too; a wrongly typed call dies at a listed trap; no
# plain indirect branch is left where retpolines were asked for.
. "$top_srcdir/tests/e2e/lib.sh"

H=$(id FllE)			# long (long)
plain_branches() {		# OBJ: indirect branches not through a retpoline
	"$OBJDUMP" -d --no-show-raw-insn "$1" | grep -cE '(call|jmp)q?[[:space:]]+\*' || true
}
run_ok() {			# EXE: the matched calls give the right result
	"$1" || { echo "exit status $?"; false; }
}
for m in thunk thunk-inline; do
	for o in -O0 -O2; do
		for r in "" -mfunction-return=thunk -mfunction-return=thunk-inline; do
			f="-mindirect-branch=$m $r"
			x=$T/rp$(echo "$m$o$r" | tr -d ' =-')
			if ! kgcc $o $f -c -o "$x.o" "$E2E/retpoline-run.c" ||
			   ! kgcc $o $f -c -o "$x-peer.o" "$E2E/retpoline-peer.c" ||
			   ! kgcc $o $f -o "$x" "$x.o" "$x-peer.o"; then
				fail "$o $f: builds and links"; continue
			fi
			pass "$o $f: builds and links"
			check "$o $f: the matched calls run and compute" run_ok "$x"
			check "$o $f: no plain indirect branch" equal 0 "$(( $(plain_branches "$x.o") + $(plain_branches "$x-peer.o") ))" "plain branches"
			check "$o $f: checks decode, each guarding a retpoline" sh -c \
				"'$ELFCHECK' '$x.o' >'$x.chk' && [ \$(grep -c '^trap .*type=$H target=r11' '$x.chk') -ge 3 ]"
			for how in tail plain; do
				if run_to_sigill "$x" "$how"; then
					check "$o $f: a wrongly typed $how call traps at a listed check of $H" listed_trap "$x" "$H"
				else
					fail "$o $f: a wrongly typed $how call dies of SIGILL"
				fi
			done
			if [ $m = thunk ]; then
				check "$o $f: both units call __x86_indirect_thunk_r11" sh -c \
					"'$OBJDUMP' -dr '$x.o' | grep -q 'R_X86_64_PLT32[[:space:]]*__x86_indirect_thunk_r11' && '$OBJDUMP' -dr '$x-peer.o' | grep -q 'R_X86_64_PLT32[[:space:]]*__x86_indirect_thunk_r11'"
				check "$o $f: one hidden comdat copy of it in the program" sh -c \
					"[ \$('$READELF' -sW '$x' | grep -c ' __x86_indirect_thunk_r11\$') -eq 1 ] && '$READELF' -gW '$x.o' | grep -q '__x86_indirect_thunk_r11'"
				[ "$o" = -O2 ] && check "$o $f: the tail calls jump to the thunk" sh -c \
					"'$OBJDUMP' -dr '$x.o' | grep -A1 -E '^[[:space:]]*[0-9a-f]+:.*jmp' | grep -q 'R_X86_64_PLT32[[:space:]]*__x86_indirect_thunk_r11'"
			else
				check "$o $f: no retpoline thunk is called" sh -c \
					"! '$OBJDUMP' -dr '$x.o' | grep -q '__x86_indirect_thunk'"
			fi
		done
	done
done

# thunk-extern stays as it is: the kernel provides the thunks.
kgcc -O2 -mindirect-branch=thunk-extern -c -o "$T/ext.o" "$E2E/retpoline-run.c" &&
	check "thunk-extern: the %r11 thunk stays undefined" sh -c \
		"'$READELF' -sW '$T/ext.o' | grep -E 'UND[[:space:]]+__x86_indirect_thunk_r11\$'" ||
	fail "thunk-extern builds"
finish
