#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Options after which GCC prints x86 assembly kcfi-as cannot instrument are
# refused by kcfi-gcc before anything runs, with one line naming the option;
# a later option that undoes them, or -fno-sanitize=kcfi, lifts that.  Their
# neighbours that work are shown to work.
. "$top_srcdir/tests/e2e/lib.sh"

printf 'typedef int (*fn_t)(int);\nint call(fn_t f, int x) { return f(x) + 1; }\n' >"$T/f.c"
refused() {	# OPTION-AS-REPORTED FLAGS...
	what=$1; shift
	rm -f "$T/r.o"
	! "$KCFI_GCC" -fsanitize=kcfi "$@" -c -o "$T/r.o" "$T/f.c" 2>"$T/r.err" || { echo "accepted"; return 1; }
	[ ! -e "$T/r.o" ] || { echo "wrote an object"; return 1; }
	[ "$(wc -l <"$T/r.err")" -eq 1 ] || { echo "not one line:"; cat "$T/r.err"; return 1; }
	grep -q "^kcfi-gcc: error: $what is not supported with -fsanitize=kcfi (.*)\$" "$T/r.err" ||
		{ cat "$T/r.err"; return 1; }
}
check "-masm=intel is refused (kcfi-as reads AT&T syntax)" refused -masm=intel -O2 -masm=intel
check "the message says why" grep -q '(kcfi-as reads AT&T syntax)' "$T/r.err"
for m in -m16 -mx32; do
	check "$m is refused" refused "$m" -O2 $m
done
check "-mx32's message says -m32 and -m64 work" grep -q '(kcfi-as has no backend for x32, .*; -m32 and -m64 have one)$' "$T/r.err"
check "-m64 -mx32 is refused" refused -mx32 -O2 -m64 -mx32
check "-m32 -mindirect-branch=thunk-inline is refused" refused "-mindirect-branch=thunk-inline" -O2 -m32 -mindirect-branch=thunk-inline
check "its message names the forms that work" grep -q 'thunk and thunk-extern work)$' "$T/r.err"
check "-pg with -mcmodel=large is refused" refused "-pg with -mcmodel=large" -O2 -pg -mcmodel=large
check "-p with -mcmodel=large is refused" refused "-p with -mcmodel=large" -mcmodel=large -p
for r in call nop5; do
	check "-minstrument-return=$r is refused" refused "-minstrument-return=$r" -O2 -pg -mfentry -minstrument-return=$r
done

compiles() { kgcc -O2 "$@" -c -o "$T/ok.o" "$T/f.c"; }
check "-masm=intel -masm=att compiles" compiles -masm=intel -masm=att
check "-m32 -m64 compiles" compiles -m32 -m64
check "-mx32 -m32 compiles" compiles -mx32 -m32
check "-m32 -mindirect-branch=thunk compiles" compiles -m32 -mindirect-branch=thunk
check "-mindirect-branch=thunk-inline compiles in 64-bit code" compiles -mindirect-branch=thunk-inline
# -m32 has the i386 backend now (tests/e2e/i386.sh): an object with a check.
check "-m32 compiles, checked" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -m32 -O2 -c -o '$T/m32.o' '$T/f.c' && objdump -d '$T/m32.o' | grep -q 'int3'"
# kcfi-as itself refuses x32 code (by hand, or from a driver other than
# kcfi-gcc) with its own message, at the .kcfi_version line.
check "kcfi-as --x32 is refused by name" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -fsanitize-kcfi-annotated-asm -m32 -O2 -S -o '$T/x.s' '$T/f.c' &&
	 ! '$KCFI_AS' --x32 -o '$T/x.o' '$T/x.s' 2>'$T/x.err' &&
	 grep -q ':[0-9]*: error: no KCFI backend for x32 (--x32, gcc -mx32)' '$T/x.err'"
check "-minstrument-return=none compiles" compiles -pg -mfentry -minstrument-return=none
check "-masm=intel without KCFI compiles" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -fno-sanitize=kcfi -masm=intel -O2 -c -o '$T/ok.o' '$T/f.c'"
check "-mindirect-branch=thunk-extern compiles" compiles -mindirect-branch=thunk-extern
for f in -mcmodel=large -mcmodel=medium -fno-asynchronous-unwind-tables; do
	if kgcc -O2 $f -o "$T/run" "$E2E/retpoline-run.c" "$E2E/retpoline-peer.c"; then
		check "$f: runs" "$T/run"
		if run_to_sigill "$T/run" tail; then pass "$f: a wrongly typed call traps"; else fail "$f: a wrongly typed call traps"; fi
	else
		fail "$f builds"
	fi
done

# Inline assembly may switch to Intel syntax and back: the author's business.
cat >"$T/ia.c" <<'END'
typedef int (*fn_t)(int);
int call(fn_t f, int x)
{
	long r;
	__asm__ (".intel_syntax noprefix\n\tmov %0, 1\n\t.att_syntax prefix" : "=r" (r));
	return f(x) + (int) r;
}
END
check "Intel syntax inside inline assembly passes" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -O2 -c -o '$T/ia.o' '$T/ia.c' && '$ELFCHECK' '$T/ia.o' | grep -q '^trap'"
finish
