#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -fsanitize-kcfi-extern-stubs (doc/extern-stubs.md): libc functions called
# through pointers run instead of trapping, checked against the type the
# program declared them with; a wrongly typed pointer still traps; pointers
# to one function are equal across the program's units (and, as documented,
# not equal to libc's own address or to a shared library's); a weak
# declaration keeps its null address; a function the program defines keeps
# one address (the defining unit's alias replaces the stubs); asm("name")
# declarations and LTO work; what cannot be honoured is refused with a
# message.
. "$top_srcdir/tests/e2e/lib.sh"

RUN=$E2E/extern-stubs-run.c PEER=$E2E/extern-stubs-peer.c
stubs() { kgcc -fsanitize-kcfi-extern-stubs "$@"; }
# runs EXE ARG LINE...: EXE ARG exits 0 and prints exactly LINE...
runs() {
	exe=$1 arg=$2; shift 2
	"$exe" "$arg" >"$T/out" || { echo "exit status $?"; cat "$T/out"; return 1; }
	printf '%s\n' "$@" | diff -u - "$T/out"
}

# trap_logged EXE ARG PATTERN: EXE ARG dies of SIGILL and the reporter's
# decoded line (KCFI_TRAP_LOG, as bench/binutils-suites.sh reads it) matches.
trap_logged() {
	rm -f "$T/traps.log"
	KCFI_TRAP_LOG=$T/traps.log run_to_sigill "$1" "$2" || return 1
	grep -E "$3" "$T/traps.log" || { cat "$T/traps.log"; false; }
}

# The peers' behaviour, which the mode exists to change.
if kgcc -O2 -o "$T/plain" "$RUN" "$PEER"; then
	check "without the mode: calloc through a pointer traps" run_to_sigill "$T/plain" calls
	# (GCC calls the table's calloc directly: static and never written.
	# strcmp is an IFUNC, its target one of libc's local variants.)
	check "the trap log names the call into libc, without a preamble" trap_logged "$T/plain" calls \
		"^kcfi-trap site=$T/plain\+0x[0-9a-f]+ target=/.*libc\.so\.6\+0x[0-9a-f]+ sym=[^ ]+ expected=$(id FiPKcS0_E) preamble=none\$"
	check "without the mode: addresses are libc's" runs "$T/plain" equal \
		"units: equal" "table: equal" "dlsym: equal" "weak: null" "program's own: equal" "extern inline: equal, 15"
else
	fail "extern-stubs-run.c builds without the mode"
fi

for o in -O0 -O2; do
	if ! stubs $o -o "$T/stubs$o" "$RUN" "$PEER"; then
		fail "extern-stubs-run.c builds with the mode at $o"
		continue
	fi
	check "calloc, free, strcmp and asm(\"abs\") through pointers run at $o" \
		runs "$T/stubs$o" calls "calls: ok"
	check "a pointer made in another unit is called at $o" runs "$T/stubs$o" peer-call "peer strcmp: ok"
	check "free called as int (int) still traps at $o" trap_logged "$T/stubs$o" wrong-type \
		" sym=\\? expected=$(id FiiE) preamble=$(id FvPvE)\$"
	check "one address per function in the program, not libc's; weak stays null at $o" \
		runs "$T/stubs$o" equal "units: equal" "table: equal" "dlsym: different" "weak: null" \
		"program's own: equal" "extern inline: equal, 15"
done

# The stubs carry the declared prototypes' ids, in one COMDAT group each,
# hidden; the weak declaration gets none.
if stubs -O2 -c -o "$T/run.o" "$RUN" && decoded "$T/run.o"; then
	check "__kcfi_stub_calloc: preamble of void *(size_t, size_t)" sh -c \
		"grep -q '^preamble __cfi___kcfi_stub_calloc type=$(id FPvmmE)' '$T/run.o.chk'"
	check "__kcfi_stub_free: preamble of void (void *)" sh -c \
		"grep -q '^preamble __cfi___kcfi_stub_free type=$(id FvPvE)' '$T/run.o.chk'"
	check "__kcfi_stub_abs (asm name): preamble of int (int)" sh -c \
		"grep -q '^preamble __cfi___kcfi_stub_abs type=$(id FiiE)' '$T/run.o.chk'"
	check "stubs are COMDAT groups" sh -c \
		"'$READELF' -gW '$T/run.o' | grep -q 'COMDAT group section \\[.*\\] \`.group. \\[__kcfi_stub_free\\]'"
	check "stubs are weak and hidden" sh -c \
		"'$READELF' -sW '$T/run.o' | grep -E 'FUNC +WEAK +HIDDEN .* __kcfi_stub_calloc$'"
	check "no stub for the weak declaration" sh -c "! '$READELF' -sW '$T/run.o' | grep -q __kcfi_stub_nowhere"
	check "__kcfi_typeid_free still defined" sh -c "[ '$(typeid "$T/run.o" free)' = '$(id FvPvE)' ]"
else
	fail "extern-stubs-run.c compiles to an object with the mode"
fi

# The program's own functions: the defining unit's alias replaces the
# stubs, one address per function, and no stub on the way.
if stubs -O2 -c -o "$T/peer.o" "$PEER"; then
	check "a public definition gets a strong hidden alias __kcfi_stub_NAME" sh -c \
		"'$READELF' -sW '$T/peer.o' | grep -E 'FUNC +GLOBAL +HIDDEN .* __kcfi_stub_peer_twice\$'"
	check "a unit's stub is weak" sh -c \
		"'$READELF' -sW '$T/run.o' | grep -E 'FUNC +WEAK +HIDDEN .* __kcfi_stub_peer_twice\$'"
	check "linked, the stub name is the function's address" sh -c \
		"[ \"\$('$READELF' -sW '$T/stubs-O2' | awk '\$8 == \"peer_twice\" { print \$2 }')\" = \"\$('$READELF' -sW '$T/stubs-O2' | awk '\$8 == \"__kcfi_stub_peer_twice\" { print \$2 }')\" ]"
else
	fail "the peer compiles with the mode"
fi

# The mode is kept in the IR: a link line with no kcfi option at all (as
# binutils' ld tests link) still stubs, per partition, what the units asked.
if (cd "$T" && stubs -O2 -flto -c "$RUN" "$PEER") &&
   "$KCFI_GCC" -O2 -flto -flto-partition=max -o "$T/lto-bare" "$T/extern-stubs-run.o" \
	"$T/extern-stubs-peer.o" 2>"$T/bare.err"; then
	check "-flto, link line without kcfi options: library calls run" runs "$T/lto-bare" calls "calls: ok"
	check "-flto, link line without kcfi options: a wrong type still traps" \
		run_to_sigill "$T/lto-bare" wrong-type
else
	fail "-flto objects with the mode link without kcfi options"; cat "$T/bare.err"
fi

# Fat LTO objects: the code cc1 writes has its stubs, the IR has none (the
# code generator decides at link time); both kinds of link run and trap.
if (cd "$T" && mkdir fat && cd fat && stubs -O2 -flto -ffat-lto-objects -c "$RUN" "$PEER"); then
	for l in "-flto" "-fno-lto" "-flto -flto-partition=max"; do
		exe=$T/fat$(echo "$l" | tr -d ' =-')
		if stubs -O2 $l -o "$exe" "$T/fat/extern-stubs-run.o" "$T/fat/extern-stubs-peer.o"; then
			check "fat LTO objects, link $l: calls run, one address" runs "$exe" equal \
				"units: equal" "table: equal" "dlsym: different" "weak: null" \
				"program's own: equal" "extern inline: equal, 15"
			check "fat LTO objects, link $l: a wrong type traps" run_to_sigill "$exe" wrong-type
		else
			fail "fat LTO objects link with $l"
		fi
	done
	check "fat LTO objects: the code cc1 wrote has the stubs" sh -c \
		"objdump -d '$T/fat/extern-stubs-run.o' | grep -q '<__kcfi_stub_calloc>:'"
else
	fail "fat LTO objects build with the mode"
fi

# Under LTO the code generator stubs what no unit of the IR defines; mixed
# with objects built without LTO, the aliases still meet the stubs.
for parts in "-flto" "-flto=2 -flto-partition=max"; do
	if stubs -O2 $parts -o "$T/lto" "$RUN" "$PEER"; then
		check "$parts: library calls through pointers run" runs "$T/lto" calls "calls: ok"
		check "$parts: one address per function" runs "$T/lto" equal "units: equal" "table: equal" \
			"dlsym: different" "weak: null" "program's own: equal" "extern inline: equal, 15"
		check "$parts: free called as int (int) still traps" run_to_sigill "$T/lto" wrong-type
	else
		fail "extern-stubs-run.c builds with the mode and $parts"
	fi
done
if stubs -O2 -c -o "$T/peer-nolto.o" "$PEER" && stubs -O2 -flto -c -o "$T/run-lto.o" "$RUN" &&
   stubs -O2 -c -o "$T/run-nolto.o" "$RUN" && stubs -O2 -flto -c -o "$T/peer-lto.o" "$PEER" &&
   stubs -O2 -flto -o "$T/mix1" "$T/run-lto.o" "$T/peer-nolto.o" &&
   stubs -O2 -flto -o "$T/mix2" "$T/run-nolto.o" "$T/peer-lto.o"; then
	for m in mix1 mix2; do
		check "LTO and non-LTO units ($m): one address per function, calls run" sh -c \
			"'$T/$m' equal | grep -qx \"program's own: equal\" && '$T/$m' calls | grep -qx 'calls: ok'"
	done
else
	fail "LTO and non-LTO units link together with the mode"
fi

# Across a shared library: each object has its own stub, both typed.
if stubs -O2 -shared -fPIC -o "$T/libpeer.so" "$PEER" &&
   stubs -O2 -o "$T/withlib" "$RUN" -L"$T" -lpeer -Wl,-rpath,"$T"; then
	check "shared library: its pointers are called from the program" runs "$T/withlib" peer-call "peer strcmp: ok"
	check "shared library: its stub is its own (addresses differ, as documented)" \
		runs "$T/withlib" equal "units: different" "table: equal" "dlsym: different" "weak: null" \
		"program's own: different" "extern inline: different, 15"
else
	fail "the peer builds as a shared library with the mode"
fi
# A unit built without the mode hands out libc's own address: that call traps.
if kgcc -O2 -c -o "$T/peer-plain.o" "$PEER" && stubs -O2 -c -o "$T/run2.o" "$RUN" &&
   gcc -o "$T/mixed" "$T/run2.o" "$T/peer-plain.o"; then
	check "a pointer from a unit without the mode traps (documented)" run_to_sigill "$T/mixed" peer-call
else
	fail "mixed build"
fi

# A unit that defines a declared function as its default version
# (.symver new_f, f@@V) binds &f to that definition: no stub, one address;
# a different type keeps the stub (and the inequality).
cat >"$T/symver.c" <<'EOS'
#include <stdio.h>
extern void f (void);
extern long g (long);
void new_f (void) { }
int new_g (int x) { return x; }
__asm__ (".symver new_f, f@@V_2");
__asm__ (".symver new_g, g@@V_2");
__attribute__ ((noipa)) static int same (void (*a) (void), void (*b) (void)) { return a == b; }
__attribute__ ((noipa)) static int same_g (long (*a) (long), int (*b) (int)) { return (void *) a == (void *) b; }
int main (void)
{
  void (*p) (void) = &f;
  p ();
  printf ("f: %s\n", same (&f, &new_f) ? "equal" : "differs");
  printf ("g: %s\n", same_g (&g, &new_g) ? "equal" : "differs");
  return 0;
}
EOS
printf 'V_2 { global: *; };\n' >"$T/symver.map"
if stubs -O2 -o "$T/symver" "$T/symver.c" -Wl,--version-script="$T/symver.map"; then
	check ".symver default version defined here: &f is the definition" runs "$T/symver" x \
		"f: equal" "g: differs"
else
	fail ".symver unit builds with the mode"
fi

# The stub reaches its function through the GOT entry the unit would have
# read, not the PLT: an IFUNC resolver in a shared library that calls a
# function of the program through a pointer runs while the dynamic linker
# is still relocating, before PLT slots are bound, lazily or with -z now.
cat >"$T/ifunc-lib.c" <<'EOS'
extern void from_main (void);
static void impl (void) { }
static void *resolve (void)
{
  void (*p) (void) = from_main;
  p ();
  return (void *) impl;
}
void chosen (void) __attribute__ ((ifunc ("resolve")));
void call_chosen (void) { void (*q) (void) = chosen; q (); }
EOS
cat >"$T/ifunc-main.c" <<'EOS'
#include <stdio.h>
extern void call_chosen (void);
void from_main (void) { }
int main (void) { call_chosen (); puts ("ifunc: ok"); return 0; }
EOS
for z in lazy now; do
	if stubs -O2 -fPIC -shared -Wl,-z,$z -o "$T/libifunc-$z.so" "$T/ifunc-lib.c" &&
	   stubs -O2 -o "$T/ifunc-$z" "$T/ifunc-main.c" -Wl,-z,$z "$T/libifunc-$z.so"; then
		check "an IFUNC resolver calls the program through a stub (-z $z)" sh -c \
			"LD_LIBRARY_PATH='$T' '$T/ifunc-$z' | grep -qx 'ifunc: ok'"
	else
		fail "the IFUNC library and program build (-z $z)"
	fi
done

# A function the executable defines and a shared library uses, whose
# address another unit of the executable takes: an IFUNC (binutils'
# pr23169d/f), an alias, a plain function.  The stub-mode unit reaches it
# through the stub, so the stub must leave the linker the references the
# unit had (a PLT-type one too), or it exports the IFUNC as such and ld.so
# refuses the circular dependency with -z now.  Library first on the link
# line, as the binutils test has it; the program checks &f == &f across
# its units and calls f through a pointer in the library.  (The unit that
# defines the IFUNC does not take its address: its &f is the resolver's
# answer, not the stub, doc/extern-stubs.md.)
cat >"$T/exedef-lib.c" <<'EOS'
extern int f (void);
int (*f_p) (void);
int lib_use (void) { return f () + f_p (); }
EOS
cat >"$T/exedef-user.c" <<'EOS'
#include <stdio.h>
#include <stdlib.h>
extern int f (void);
extern int (*f_p) (void);
extern int lib_use (void);
extern int (*defined_addr (void)) (void);
int main (void)
{
  int (*d) (void) = defined_addr ();
  f_p = f;
  if (f_p != &f || (d && d != &f))
    abort ();
  printf ("exedef: %d\n", lib_use ());
  return 0;
}
EOS
cat >"$T/exedef-ifunc.c" <<'EOS'
static int impl (void) { return 21; }
static void *resolve (void) { return impl; }
int f (void) __attribute__ ((ifunc ("resolve")));
int (*defined_addr (void)) (void) { return 0; }
EOS
cat >"$T/exedef-alias.c" <<'EOS'
int impl (void) { return 21; }
int f (void) __attribute__ ((alias ("impl")));
int (*defined_addr (void)) (void) { return f; }
EOS
cat >"$T/exedef-plain.c" <<'EOS'
int f (void) { return 21; }
int (*defined_addr (void)) (void) { return f; }
EOS
for z in lazy now; do
	stubs -O2 -fPIC -shared -Wl,-z,$z -o "$T/libexedef-$z.so" "$T/exedef-lib.c" ||
		fail "the library that uses the program's f builds (-z $z)"
	for kind in ifunc alias plain; do
		for cc in "-fno-pie" "-fPIE"; do
			exe=$T/exedef-$kind-$z$cc
			if stubs -O2 $cc -no-pie -Wl,--no-as-needed,-z,$z -o "$exe" \
				"$T/libexedef-$z.so" "$T/exedef-user.c" "$T/exedef-$kind.c"; then
				check "the program's $kind f, used by a library, runs ($cc -no-pie, -z $z)" sh -c \
					"LD_LIBRARY_PATH='$T' '$exe' | grep -qx 'exedef: 42'"
			else
				fail "the program with its $kind f builds ($cc -no-pie, -z $z)"
			fi
		done
	done
done

# Which aliases get .kcfi_stub_alias: public ones with their binding; not
# a static alias, a weakref (it names another symbol), an IFUNC (reached
# through a stub like libc's) or a unit without the mode.
cat >"$T/aliases.c" <<'EOS'
int impl (void) { return 1; }
int pub (void) __attribute__ ((alias ("impl")));
int weak_pub (void) __attribute__ ((weak, alias ("impl")));
static int priv (void) __attribute__ ((alias ("impl")));
static int wref (void) __attribute__ ((weakref ("impl")));
static void *resolve (void) { return impl; }
int ifn (void) __attribute__ ((ifunc ("resolve")));
int (*use (int i)) (void) { return i ? priv : wref; }
EOS
stubs -O2 -fsanitize-kcfi-annotated-asm -S -o "$T/aliases.s" "$T/aliases.c" ||
	fail "the unit with aliases compiles"
check "public aliases get .kcfi_stub_alias with their binding, nothing else does" sh -c \
	"[ \"\$(grep '\.kcfi_stub_alias' '$T/aliases.s' | sort | tr -s ' \t' ' ')\" = ' .kcfi_stub_alias pub, globl
 .kcfi_stub_alias weak_pub, weak' ]"
check "without the mode no alias is announced" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -O2 -fsanitize-kcfi-annotated-asm -S -o '$T/aliases-plain.s' '$T/aliases.c' &&
	 grep -q '\.kcfi_func impl, ' '$T/aliases-plain.s' && ! grep -q kcfi_stub_alias '$T/aliases-plain.s'"
stubs -O2 -c -o "$T/aliases.o" "$T/aliases.c" || fail "the unit with aliases assembles"
check "__kcfi_stub_pub (global) and __kcfi_stub_weak_pub (weak) are hidden aliases" sh -c \
	"readelf -sW '$T/aliases.o' | awk '\$8 == \"__kcfi_stub_pub\" && \$5 == \"GLOBAL\" && \$6 == \"HIDDEN\" { a = 1 }
		\$8 == \"__kcfi_stub_weak_pub\" && \$5 == \"WEAK\" && \$6 == \"HIDDEN\" { b = 1 } END { exit !(a && b) }'"

# kcfi-audit counts each stub's jump as exempt for what the record says,
# not as an unchecked branch.
if [ -x "$top_builddir/kcfi-audit" ] && stubs -O2 -c -o "$T/audited.o" "$RUN"; then
	check "kcfi-audit: every stub's jump is exempt (extern-stub), none unchecked" sh -c \
		"'$top_builddir/kcfi-audit' '$T/audited.o' | tail -n 1 | grep -E ' [1-9][0-9]* exempt \\(extern-stub [1-9][0-9]*\\), 0 unchecked, 0 outside'"
fi

# What the mode cannot honour is refused.
refused() {	# MESSAGE-PATTERN ARGS...
	pat=$1; shift
	! "$KCFI_GCC" "$@" -c -o "$T/refused.o" "$RUN" 2>"$T/refused.err" &&
		grep -q "$pat" "$T/refused.err" || { cat "$T/refused.err"; false; }
}
check "refused without -fsanitize=kcfi" refused "extern-stubs: it needs -fsanitize=kcfi" -fsanitize-kcfi-extern-stubs
# Test suites append -fno-sanitize=all to build probes plainly: the mode goes
# with KCFI, and the object is plain (no preamble, no stub).
plain_after_no_sanitize() {
	"$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-extern-stubs -fno-sanitize=all \
		-O2 -c -o "$T/nosan.o" "$RUN" &&
		! nm "$T/nosan.o" | grep -q '__cfi_\|__kcfi_stub_'
}
check "-fno-sanitize=all after it builds plainly" plain_after_no_sanitize
check "refused with -mcmodel=kernel" refused "extern-stubs: kernel code" \
	-fsanitize=kcfi -fsanitize-kcfi-extern-stubs -mcmodel=kernel
check "refused with -mcmodel=large" refused "extern-stubs: a stub reaches" \
	-fsanitize=kcfi -fsanitize-kcfi-extern-stubs -mcmodel=large
check "refused with patchable prefix NOPs, naming the line" refused \
	"\\.s:[0-9]*: error: extern stubs cannot be combined with patchable prefix NOPs" \
	-fsanitize=kcfi -fsanitize-kcfi-extern-stubs -fpatchable-function-entry=4,2
check "-fno-sanitize-kcfi-extern-stubs turns it off again" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -fsanitize-kcfi-extern-stubs -fno-sanitize-kcfi-extern-stubs -fsanitize-kcfi-annotated-asm -S -o - '$RUN' | grep -q '.kcfi_extern free, [0-9]*\$'"
finish
