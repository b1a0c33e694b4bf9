#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -fplugin-arg-kcfi-call-reg: behind x86_64 retpolines the check reads the
# target from %r11, and kcfi-gcc has the plugin ask GCC to load it there, so
# that no move into %r11 precedes the check (prepass/call-reg.cc).  Where the
# target sits in a register the call needs anyway, a move stays.  The code
# still runs; a register the program keeps for itself is still refused; and
# only retpoline x86_64 code asks for a register.
. "$top_srcdir/tests/e2e/lib.sh"

KFLAGS="-O2 -mindirect-branch=thunk-extern -mindirect-branch-register -mcmodel=kernel -fno-pic -fpatchable-function-entry=11,11"
# moves_to_r11 OBJ FUNC: register-to-register moves into %r11 in FUNC.
moves_to_r11() {
	"$OBJDUMP" -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '
		$2 == f { on = 1; next } /^$/ { on = 0 }
		on && /mov[q]?[ \t]+%r[a-z0-9]+,%r11$/ { n++ } END { print n + 0 }'
}
# checks_in OBJ FUNC: checks (addl -N(%r11), %r10d) in FUNC.
checks_in() {
	"$OBJDUMP" -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '
		$2 == f { on = 1; next } /^$/ { on = 0 }
		on && /add[l]?[ \t]+-0x[0-9a-f]+\(%r11\),%r10d/ { n++ } END { print n + 0 }'
}

if kgcc $KFLAGS -c -o "$T/k.o" "$E2E/call-reg.c"; then
	pass "kernel flags: builds"
	check "kernel flags: four checks in loads(), all through %r11" equal 4 "$(checks_in "$T/k.o" loads)" checks
	check "kernel flags: no move into %r11 in loads() (targets loaded there)" \
		equal 0 "$(moves_to_r11 "$T/k.o" loads)" moves
	check "kernel flags: param() still moves its %rdi target" equal 1 "$(moves_to_r11 "$T/k.o" param)" moves
	check "kernel flags: every trap guards a thunk call" adjacent "$T/k.o"
else
	fail "kernel flags: builds"
fi

# Run time, with GCC's own thunks (user space).
for o in -O0 -O2 -Os; do
	if kgcc $o -mindirect-branch=thunk -DCALL_REG_MAIN -o "$T/run$o" "$E2E/call-reg.c"; then
		check "$o thunk: the matched calls compute" "$T/run$o"
	else
		fail "$o thunk: builds"
	fi
done

# A register the program keeps is not taken for targets (GCC would not
# allocate it); the check that would overwrite it is refused, by kcfi-as.
refused_r11() {
	! "$KCFI_GCC" -fsanitize=kcfi "$@" -c -o "$T/r.o" "$E2E/call-reg.c" 2>"$T/r.err" &&
		grep -q "error: the KCFI check of .* would overwrite r11" "$T/r.err" &&
		! grep -qi "internal compiler error" "$T/r.err" || { cat "$T/r.err"; false; }
}
check "-ffixed-r11: refused, naming r11" refused_r11 $KFLAGS -ffixed-r11
printf 'register long keep asm("r11");\n#include "%s"\n' "$E2E/call-reg.c" >"$T/global.c"
check "a global register variable in r11: refused, naming r11" sh -c \
	"! '$KCFI_GCC' -fsanitize=kcfi $KFLAGS -c -o '$T/g.o' '$T/global.c' 2>'$T/g.err' &&
	 grep -q 'would overwrite r11.*global register variable keep' '$T/g.err'"

# Only where a thunk call needs %r11.
asks() { "$KCFI_GCC" -fsanitize=kcfi "$@" -c -o "$T/a.o" "$E2E/call-reg.c" -### 2>&1 | grep -c 'kcfi-call-reg=r11' || true; }
check "thunk-extern: the plugin is asked for r11" sh -c "[ $(asks $KFLAGS) -gt 0 ]"
check "no retpoline: no register asked for" equal 0 "$(asks -O2)" asks
check "-mindirect-branch=keep: no register asked for" equal 0 "$(asks -O2 -mindirect-branch=thunk -mindirect-branch=keep)" asks
check "-m32 thunk: no register asked for" equal 0 "$(asks -O2 -m32 -mindirect-branch=thunk)" asks
check "the plugin refuses a name that is no register" sh -c \
	"! '$KCFI_GCC' -fsanitize=kcfi -fplugin-arg-kcfi-call-reg=nosuch -c -o '$T/n.o' '$E2E/call-reg.c' 2>'$T/n.err' &&
	 grep -q 'call-reg=nosuch.*not a general register' '$T/n.err'"
finish
