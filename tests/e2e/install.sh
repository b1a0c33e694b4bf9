#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install` into a staging directory; the installed kcfi-gcc, not the
# build tree's, then builds the demo, and it behaves as from the build tree.
. "$top_srcdir/tests/e2e/lib.sh"

unset MAKEFLAGS MFLAGS MAKELEVEL
root=$T/root
if ! ${MAKE:-make} -C "$top_builddir" install DESTDIR="$root" >"$T/install.log" 2>&1; then
	cat "$T/install.log"
	fail "make install DESTDIR=..."
	finish
fi
pass "make install DESTDIR=..."
gcc_inst=$(find "$root" -path '*/bin/kcfi-gcc' -type f)
check "kcfi-gcc is installed" test -x "$gcc_inst"
check "kcfi-as is installed" test -x "$(dirname "$gcc_inst")/kcfi-as"
for m in kcfi-gcc kcfi-as kcfi-typeid; do
	check "the manual page $m.1 is installed" sh -c "find '$root' -path '*/man/man1/$m.1' | grep -q ."
done
# Every <triple>-kcfi-gcc comes with its <triple>-kcfi-as (doc/kernel.md 3),
# and the documents the manual pages name are installed.
bindir_inst=$(dirname "$gcc_inst")
for w in "$bindir_inst"/*-kcfi-gcc; do
	[ -e "$w" ] || continue
	t=$(basename "$w" -kcfi-gcc)
	check "$t-kcfi-as is installed beside $t-kcfi-gcc" test -x "$bindir_inst/$t-kcfi-as"
done
for d in README.md doc/manual.md doc/kernel.md doc/abi.md doc/directives.md doc/kcfi-audit.md; do
	check "$d is installed" sh -c "find '$root' -path '*/share/doc/kcfi-as/$d' | grep -q ."
done

# From here on nothing may point into the build tree.
unset KCFI_PLUGIN KCFI_REAL_AS
for o in $OPT_LEVELS; do
	exe=$T/demo$o
	if ! "$gcc_inst" -fsanitize=kcfi $o -v -o "$exe" "$top_srcdir/demo/demo.c" >"$T/v.log" 2>&1; then
		fail "the installed kcfi-gcc builds the demo at $o"; cat "$T/v.log"; continue
	fi
	check "the plugin comes from the installation at $o" \
		grep -q -- "-fplugin=$root/[^ ]*/kcfi\.so" "$T/v.log"
	check "the assembler is the installed kcfi-as at $o" \
		grep -qE "^ *$root/[^ ]*/bin/as " "$T/v.log"
	check "nothing from the build tree at $o" sh -c "! grep -q '$top_builddir/\(prepass\|asmpass\)' '$T/v.log'"
	if run_to_sigill "$exe"; then
		pass "the installed build of the demo dies of SIGILL at $o"
		check "after the matched call ran at $o" grep -q '^matched call: .*events = 1' "$T/run.out"
		check "at a listed trap checking void (int *) at $o" listed_trap "$exe" "$(id FvPiE)"
	else
		fail "the installed build of the demo dies of SIGILL at $o"
	fi
done

# $KCFI_PLUGIN names the plugin (here the installed one): the installed
# kcfi-gcc still runs the installed kcfi-as (issue 41 item 4: it looked in
# <bindir>/asmpass/bin, which only the build tree has).
plugin_inst=$(find "$root" -path "*/$NATIVE_TRIPLE/kcfi.so" -type f | head -1)
if KCFI_PLUGIN=$plugin_inst "$gcc_inst" -fsanitize=kcfi -O2 -v -o "$T/demo-env" \
	"$top_srcdir/demo/demo.c" >"$T/v-env.log" 2>&1; then
	check "KCFI_PLUGIN: the plugin named" grep -q -- "-fplugin=$plugin_inst " "$T/v-env.log"
	check "KCFI_PLUGIN: the assembler is the installed kcfi-as" \
		grep -qE "^ *$root/[^ ]*/bin/as " "$T/v-env.log"
	check "KCFI_PLUGIN: the demo dies of SIGILL" run_to_sigill "$T/demo-env"
else
	fail "the installed kcfi-gcc with KCFI_PLUGIN=$plugin_inst builds the demo"
	tail -5 "$T/v-env.log"
fi
check "KCFI_PLUGIN: -S writes finished assembly" sh -c \
	"KCFI_PLUGIN='$plugin_inst' '$gcc_inst' -fsanitize=kcfi -O2 -S -o '$T/demo-env.s' \
	 '$top_srcdir/demo/demo.c' && ! grep -q '^[[:space:]]*\.kcfi_' '$T/demo-env.s'"

# Set but empty (`KCFI_PLUGIN= make`) is unset: the installed plugin, not
# "no kcfi plugin ... at ''".
check "KCFI_PLUGIN= and KCFI_CC= empty: the installed plugin" sh -c \
	"KCFI_PLUGIN= KCFI_CC= '$gcc_inst' -fsanitize=kcfi -O2 -v -c -o '$T/empty-env.o' \
	 '$top_srcdir/demo/demo.c' 2>&1 | grep -q -- '-fplugin=$root/'"

${MAKE:-make} -C "$top_builddir" uninstall DESTDIR="$root" >"$T/uninstall.log" 2>&1
check "make uninstall removes every file" sh -c "test -z \"\$(find '$root' ! -type d)\""

# prefix= given at install time only (the binaries were configured for
# another prefix): kcfi-gcc finds its files relative to itself.
p=$T/prefix
if ${MAKE:-make} -C "$top_builddir" install prefix="$p" >"$T/install2.log" 2>&1 &&
   "$p/bin/kcfi-gcc" -fsanitize=kcfi -O2 -v -o "$T/demo-p" "$top_srcdir/demo/demo.c" >"$T/v2.log" 2>&1; then
	check "make install prefix=...: its own plugin" grep -q -- "-fplugin=$p/" "$T/v2.log"
	check "make install prefix=...: the demo dies of SIGILL" run_to_sigill "$T/demo-p"
else
	fail "make install prefix=... and build the demo"; tail -20 "$T/install2.log" "$T/v2.log"
fi
finish
