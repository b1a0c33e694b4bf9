#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make deb-check: build the package as `make deb` does, lint it, install it
# with apt-get, and use it from a clean environment (PATH=/usr/bin:/bin, a
# fresh HOME, nothing of the build tree): the demo traps where it must, each
# wrapper loads its installed plugin.  Then remove it and look for leftovers.
# The package is removed on every way out, and first if a previous run left
# it installed.
. "$top_srcdir/tests/e2e/lib.sh"

pkg=kcfi-as
SUDO=
if [ "$(command id -u)" -ne 0 ]; then
	sudo -n true 2>/dev/null || { echo "deb-check: needs root or passwordless sudo (apt-get install)"; exit 1; }
	SUDO="sudo -n"
fi
export DEBIAN_FRONTEND=noninteractive
installed() { dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null | grep -qx installed; }
remove_pkg() {
	# dpkg knows it (installed or config-files): purge it.
	if dpkg-query -W "$pkg" >/dev/null 2>&1; then
		$SUDO apt-get purge -y -q "$pkg" >"$T/purge.log" 2>&1 ||
			{ cat "$T/purge.log"; return 1; }
	fi
}
trap 'remove_pkg; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
if installed; then
	echo "note: $pkg was installed before this test; removing it (and not reinstalling it after)"
fi
remove_pkg || { fail "purge a $pkg left by an earlier run"; finish; }

unset MAKEFLAGS MFLAGS MAKELEVEL
arch=$(dpkg --print-architecture)
deb=$top_builddir/${pkg}_${PACKAGE_VERSION}_$arch.deb
start=$(date +%s)
if ! DEB_BUILD_OPTIONS="nocheck noddebs parallel=2" ${MAKE:-make} -C "$top_builddir" deb >"$T/deb.log" 2>&1; then
	tail -40 "$T/deb.log"
	fail "make deb"
	finish
fi
pass "make deb built $(basename "$deb") in $(( $(date +%s) - start )) s"
check "the package is named ${pkg}_<version>_<arch>.deb" test -f "$deb"

# Lintian: no errors (warnings are shown).
if lintian --fail-on error "$deb" >"$T/lintian.log" 2>&1; then
	pass "lintian reports no error"
else
	fail "lintian reports errors"
fi
grep '^[EW]:' "$T/lintian.log" | sed 's/^/    /'

# What the package holds: exactly the plugins configure built here.
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||' | grep . >"$T/files"
multi=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=/usr/lib/$multi/kcfi-as
{
	echo "$lib/$NATIVE_TRIPLE/kcfi.so"
	for v in $GCC_VERSIONS; do echo "$lib/$NATIVE_TRIPLE/gcc-$v/kcfi.so"; done
	for t in $CROSS_TRIPLES; do echo "$lib/$t/kcfi.so"; done
} | sort >"$T/want-plugins"
grep '/kcfi\.so$' "$T/files" | sort >"$T/got-plugins"
check "the package holds the plugins of this build's compilers, no other" \
	diff "$T/want-plugins" "$T/got-plugins"
wrappers="kcfi-gcc $(for v in $GCC_VERSIONS; do printf 'kcfi-gcc-%s ' "$v"; done)$(for t in $CROSS_TRIPLES; do printf '%s-kcfi-gcc ' "$t"; done)"
for p in $wrappers kcfi-as kcfi-typeid kcfi-audit; do
	check "it holds /usr/bin/$p and its manual page" \
		sh -c "grep -qx '/usr/bin/$p' '$T/files' && grep -qx '/usr/share/man/man1/$p.1.gz' '$T/files'"
done
check "it holds the as kcfi-gcc passes to gcc -B" grep -qx /usr/libexec/kcfi-as/bin/as "$T/files"
depends=$(dpkg-deb -f "$deb" Depends)
for v in $("${PLUGIN_CC:-gcc}" -dumpversion | cut -d. -f1) $GCC_VERSIONS; do
	want="gcc-$v (= $(dpkg-query -W -f='${Version}' "gcc-$v-plugin-dev"))"
	check "it depends on $want, whose plugin headers built it" \
		sh -c "printf '%s\n' '$depends' | tr ',' '\n' | sed 's/^ *//' | grep -qxF '$want'"
	check "its description names gcc-$v" sh -c "dpkg-deb -f '$deb' Description | grep -q '^ *\* gcc-$v '"
done

# Install it as a user would.
if $SUDO apt-get install -y -q "$deb" >"$T/install.log" 2>&1; then
	pass "apt-get install ./$(basename "$deb")"
else
	cat "$T/install.log"; fail "apt-get install ./$(basename "$deb")"; finish
fi
check "dpkg has it installed" installed

unset KCFI_PLUGIN KCFI_REAL_AS
# From here on: the installed tools only.  kcfi-gcc names its files
# relative to itself (/usr/bin/../lib/...): compare real paths.
clean_env() { env -i HOME="$T/home" PATH=/usr/bin:/bin LC_ALL=C "$@"; }
# used_from LOG: the real paths of the plugin and the as a -v run used.
used_from() {
	p=$(sed -n 's/.* -fplugin=\([^ ]*\).*/\1/p' "$1" | head -1)
	a=$(sed -n 's|^ *\([^ ]*/bin/as\) .*|\1|p' "$1" | head -1)
	echo "plugin=$(realpath -e "$p" 2>/dev/null) as=$(realpath -e "$a" 2>/dev/null)"
}
mkdir -p "$T/home" "$T/w"
cp "$top_srcdir/demo/demo.c" "$T/w/"
check "kcfi-gcc is the installed one" sh -c "test \"\$(env -i PATH=/usr/bin:/bin sh -c 'command -v kcfi-gcc')\" = /usr/bin/kcfi-gcc"
for drv in kcfi-gcc $(for v in $GCC_VERSIONS; do echo "kcfi-gcc-$v"; done); do
	(cd "$T/w" && clean_env "$drv" -fsanitize=kcfi -O2 -v -o demo demo.c) >"$T/v.log" 2>&1 ||
		{ fail "$drv builds the demo"; tail -20 "$T/v.log"; continue; }
	sub=$NATIVE_TRIPLE
	[ "$drv" = kcfi-gcc ] || sub=$NATIVE_TRIPLE/gcc-${drv#kcfi-gcc-}
	check "$drv uses the installed plugin and kcfi-as" \
		equal "plugin=$lib/$sub/kcfi.so as=/usr/libexec/kcfi-as/bin/as" "$(used_from "$T/v.log")"
	check "$drv uses nothing of the build tree" sh -c "! grep -qF '$top_builddir' '$T/v.log'"
	if (cd "$T/w" && run_to_sigill ./demo); then
		pass "$drv: the demo dies of SIGILL"
		check "$drv: after the matched call ran" grep -q '^matched call: .*events = 1' "$T/run.out"
		check "$drv: at a listed trap checking void (int *)" listed_trap "$T/w/demo" "$(id FvPiE)"
	else
		fail "$drv: the demo dies of SIGILL"
	fi
	# The program's C start-up code is not instrumented: audit the object.
	(cd "$T/w" && clean_env "$drv" -fsanitize=kcfi -O2 -c -o demo.o demo.c) &&
		check "$drv: the installed kcfi-audit passes the demo's object" clean_env kcfi-audit "$T/w/demo.o" ||
		fail "$drv -c demo.c"
done

# Each cross wrapper: its installed plugin, a trap in the object, and the
# same object as the build tree's wrapper makes.
printf 'void (*hook)(int *);\nvoid call(int *p) { hook(p); }\nvoid target(int *p) { }\n' >"$T/w/x.c"
for t in $CROSS_TRIPLES; do
	(cd "$T/w" && clean_env "$t-kcfi-gcc" -fsanitize=kcfi -O2 -v -c -o "x-$t.o" x.c) >"$T/v.log" 2>&1 ||
		{ fail "$t-kcfi-gcc compiles"; tail -20 "$T/v.log"; continue; }
	check "$t-kcfi-gcc uses the installed plugin and kcfi-as" \
		equal "plugin=$lib/$t/kcfi.so as=/usr/libexec/kcfi-as/bin/as" "$(used_from "$T/v.log")"
	case $t in
	aarch64-*) trap_insn=brk ;; riscv64-*) trap_insn=ebreak ;; arm-*) trap_insn=bkpt ;; *) trap_insn=int3 ;;
	esac
	check "$t-kcfi-gcc: the call is checked ($trap_insn)" \
		sh -c "$t-objdump -d '$T/w/x-$t.o' | grep -qw $trap_insn"
	(cd "$T/w" && "$top_builddir/$t-kcfi-gcc" -fsanitize=kcfi -O2 -c -o "x-$t-tree.o" x.c) &&
		check "$t-kcfi-gcc: the same object as the build tree's" cmp "$T/w/x-$t.o" "$T/w/x-$t-tree.o" ||
		fail "the build tree's $t-kcfi-gcc compiles"
done
check "kcfi-typeid gives the id of void (*)(int *)" \
	sh -c "env -i PATH=/usr/bin:/bin kcfi-typeid 'void (*)(int *)' | grep -qx '$(id FvPiE) _ZTSFvPiE'"

# Remove it: nothing of the package may stay.
if $SUDO apt-get purge -y -q "$pkg" >"$T/purge.log" 2>&1; then
	pass "apt-get purge $pkg"
else
	cat "$T/purge.log"; fail "apt-get purge $pkg"
fi
check "dpkg no longer knows $pkg" sh -c "! dpkg-query -W $pkg >/dev/null 2>&1"
: >"$T/left"
while read -r f; do
	case $f in /usr|/usr/bin|/usr/lib|/usr/lib/$multi|/usr/libexec|/usr/share|/usr/share/doc|/usr/share/man|/usr/share/man/man1) continue ;; esac
	# A directory that another package owns too is not ours to remove.
	if [ -L "$f" ] || { [ -e "$f" ] && { [ ! -d "$f" ] || ! dpkg-query -S "$f" >/dev/null 2>&1; }; }; then
		echo "$f" >>"$T/left"
	fi
done <"$T/files"
check "no file or directory of the package is left" sh -c "! grep . '$T/left'"
finish
