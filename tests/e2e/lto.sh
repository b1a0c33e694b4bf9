#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -flto: the code, and so the checks and preambles, is written by lto1 at
# link time; the offset each check loads from must still be -(M+4), or every
# matched call would trap (the seed's LTO offset case).
. "$top_srcdir/tests/e2e/lib.sh"

cd "$T" || exit 1
GCC=${PLUGIN_CC:-gcc}	# the compiler kcfi-gcc wraps: its lto1 reads the objects
printf 'typedef int (*fp_t) (int);\nvolatile fp_t sink;\nint target (int x) { return x + 1; }\nint do_call (int x) { return sink (x); }\n' >lib.c
printf 'typedef int (*fp_t) (int);\nextern volatile fp_t sink;\nint target (int);\nint do_call (int);\nint main (void) { sink = target; return do_call (41) == 42 ? 0 : 1; }\n' >main.c

linked() {	# EXE M: decodable, its check loads from -(M+4), it runs
	decoded "$1" "$2" &&
	[ "$(n_traps "$1" "$(id FiiE)")" -ge 1 ] &&
	[ -n "$(preamble "$1" target)" ] &&
	"$1"
}
for flags in $OPT_LEVELS "-flto-partition=max" "-fpatchable-function-entry=11,11" \
	     "-fpatchable-function-entry=3,3 -flto-partition=max"; do
	m=0
	case $flags in *entry=*,*) m=${flags#*entry=*,}; m=${m%% *} ;; esac
	case $flags in -O?) o=$flags flags= ;; *) o=-O2 ;; esac
	exe=lto$o$(echo "$flags" | tr -d ' =,-')
	if kgcc $o -flto $flags -c lib.c main.c &&
	   kgcc $o -flto $flags -o "$exe" lib.o main.o; then
		check "-flto $o $flags: a matched call through the LTO-built check runs" linked "$T/$exe" "$m"
		check "-flto $o $flags: the objects were slim (code came from lto1)" \
			sh -c "! objdump -d lib.o | grep -q '<do_call>:'"
	else
		fail "-flto $o $flags builds"
	fi
done

# The demo, through LTO: the mismatched call still dies at a listed trap.
if kgcc -O2 -flto -o demo "$top_srcdir/demo/demo.c" && run_to_sigill "$T/demo"; then
	check "-flto demo: the mismatched call traps at a listed trap" listed_trap "$T/demo" "$(id FvPiE)"
else
	fail "-flto demo dies of SIGILL"
fi

# The choice is kept in the IR, as Clang keeps it: a link line through
# kcfi-gcc without -fsanitize=kcfi instruments what was compiled with it
# (every partition, also the ones without the guard asm), and leaves LTO
# objects compiled without it exactly as gcc would link them.
for parts in "" "-flto-partition=max"; do
	exe=bare$(echo "$parts" | tr -d ' =-')
	if kgcc -O2 -flto -c lib.c main.c &&
	   "$KCFI_GCC" -O2 -flto $parts -o "$exe" lib.o main.o 2>"$exe.err"; then
		check "-flto $parts, link line without kcfi options: checked, runs" linked "$T/$exe" 0
	else
		fail "-flto $parts: link line without kcfi options"; cat "$exe.err"
	fi
done
if kgcc -O2 -flto -c -o demo.o "$top_srcdir/demo/demo.c" && "$KCFI_GCC" -O2 -flto -o demo-bare demo.o &&
   run_to_sigill "$T/demo-bare"; then
	check "-flto demo, link line without kcfi options: the mismatch traps at a listed trap" \
		listed_trap "$T/demo-bare" "$(id FvPiE)"
else
	fail "-flto demo linked without kcfi options dies of SIGILL"
fi
same_as_gcc() {	# LTO objects without KCFI: kcfi-gcc links what gcc links
	"$GCC" -O2 -flto -c -o plib.o lib.c && "$GCC" -O2 -flto -c -o pmain.o main.c &&
	"$GCC" -O2 -flto -flto-partition=max -o pgcc plib.o pmain.o 2>/dev/null &&
	"$KCFI_GCC" -O2 -flto -flto-partition=max -o pkcfi plib.o pmain.o 2>/dev/null &&
	! nm pkcfi | grep -q __cfi_ &&
	objdump -d pgcc | sed 1,3d >pgcc.d && objdump -d pkcfi | sed 1,3d >pkcfi.d &&
	cmp pgcc.d pkcfi.d
}
check "-flto objects without KCFI linked through kcfi-gcc: gcc's code" same_as_gcc
check "a plain compile and link through kcfi-gcc: no KCFI" sh -c \
	"'$KCFI_GCC' -O2 -o plainexe lib.c main.c && ./plainexe && ! nm plainexe | grep -q __cfi_"

# LTO objects of units compiled with and without KCFI in one link, as when
# a static library built plainly with -flto joins the program: each keeps
# what its object would have without LTO (plain code: no preamble, its
# calls unchecked, recorded exempt), also where the inliner moves plain
# code into ours and ours into plain code; every partitioning.
cat >mixk.c <<'EOS'
#include <stdio.h>
extern int apply (int (*f) (int), int x);
extern int (*plain_pick (void)) (int);
static int twice (int x) { return 2 * x; }
int (*volatile fp) (int) = twice;
int checked_call (int x) { return fp (x); }
int main (int argc, char **argv)
{
  printf ("%d %d\n", apply (fp, 21), checked_call (4));
  fflush (stdout);
  if (argc > 1)		/* a plain function has no preamble: trap */
    {
      int (*volatile g) (int) = plain_pick ();
      return g (1);
    }
  return 0;
}
EOS
cat >mixp.c <<'EOS'
extern int checked_call (int);
static inline int apply_inl (int (*f) (int), int x) { return f (x); }
int apply (int (*f) (int), int x) { return apply_inl (f, x) + checked_call (0); }
static int plain_fn (int x) { return x + 1; }
int (*plain_pick (void)) (int) { return plain_fn; }
EOS
mixed_runs() {	# EXE: right answers, plain code unchecked, ours checked
	[ "$("./$1")" = "42 8" ] && run_to_sigill "./$1" x &&
	! nm "$1" | grep -q '__cfi_plain_fn\|__cfi_apply' && nm "$1" | grep -q '__cfi_checked_call\|__cfi_main'
}
if kgcc -O2 -flto -c mixk.c && "$GCC" -O2 -flto -c mixp.c; then
	for p in balanced one none max; do
		if "$KCFI_GCC" -O2 -flto -flto-partition=$p -o mix-$p mixk.o mixp.o 2>mix.err; then
			check "mixed KCFI and plain LTO units (-flto-partition=$p): each as without LTO" mixed_runs mix-$p
		else
			fail "mixed KCFI and plain LTO units link (-flto-partition=$p)"; cat mix.err
		fi
	done
	[ -x "$top_builddir/kcfi-audit" ] &&
		check "kcfi-audit: the plain call moved into main is exempt, none unchecked" sh -c \
			"'$top_builddir/kcfi-audit' mix-balanced | tail -n 1 | grep -E ' [1-9][0-9]* checked, .*no-sanitize [1-9].* 0 unchecked,'"
else
	fail "the mixed units compile"
fi

# Linking LTO objects without the plugin in lto1 is refused, not unchecked:
# by GNU as (the guard is no pseudo-op it knows), or by kcfi-as.
printf 'int main (void) { return 0; }\n' >m2.c
kgcc -O2 -flto -c lib.c m2.c
check "-flto link by plain gcc is refused by gas" sh -c \
	"! $GCC -O2 -flto -o nolto lib.o m2.o 2>nolto.err && grep -q 'kcfi_require_plugin' nolto.err"
check "-flto link with kcfi-as but without the plugin is refused" sh -c \
	"! $GCC -B'$top_builddir/asmpass/bin/' -O2 -flto -o nolto lib.o m2.o 2>nolto2.err && grep -q 'without the kcfi plugin' nolto2.err"
finish
