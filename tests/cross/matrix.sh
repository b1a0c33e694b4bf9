# SPDX-License-Identifier: GPL-2.0-or-later
# The option matrix of tests/cross/options.sh and options-patchable.sh:
# one program built for each target with an option set, then either it
# runs its typed calls, dies at the check of the mistyped one and
# kcfi-audit finds every indirect branch checked or exempt, or the build
# is refused with a message naming the option.  Nothing else passes: a
# tool of ours killed by a signal fails whatever was expected.  Sourced.
NATIVE_PLUGIN=${KCFI_PLUGIN:-}
. "$top_srcdir/tests/cross/lib.sh"
CROSS_ARCHES="aarch64 riscv64 arm i686"
pick_triples

PROG=$top_srcdir/tests/e2e/tail-merge-run.c
AUDIT=$top_builddir/kcfi-audit
[ -x "$AUDIT" ] || AUDIT=

# The targets: each triple; arm in each instruction set state; i386 also
# through the native driver (kcfi-gcc -m32, the i686 sysroot's headers and
# linker, where the host has no gcc-multilib).
TARGETS=
for _t in $TS; do
	case $_t in
	arm-*) TARGETS="$TARGETS $_t:thumb $_t:arm" ;;
	i?86-*)
		TARGETS="$TARGETS $_t"
		case ${NATIVE_TRIPLE:-} in
		x86_64-*) [ -x "$KCFI_GCC" ] && [ -f "$NATIVE_PLUGIN" ] && TARGETS="$TARGETS $_t:m32" ;;
		esac ;;
	*) TARGETS="$TARGETS $_t" ;;
	esac
done

# build TARGET EXE OPTION...
build() {
	_tg=$1 _exe=$2
	shift 2
	_tr=${_tg%%:*}
	case $_tg in
	*:thumb) "$top_builddir/$_tr-kcfi-gcc" -fsanitize=kcfi -mthumb "$@" -o "$_exe" "$PROG" ;;
	*:arm) "$top_builddir/$_tr-kcfi-gcc" -fsanitize=kcfi -marm "$@" -o "$_exe" "$PROG" ;;
	*:m32) KCFI_PLUGIN=$NATIVE_PLUGIN "$KCFI_GCC" -fsanitize=kcfi -m32 -isystem "/usr/$_tr/include" \
			"$@" -c -o "$_exe.o" "$PROG" &&
		"$_tr-gcc" "$@" -o "$_exe" "$_exe.o" ;;
	*) "$top_builddir/$_tr-kcfi-gcc" -fsanitize=kcfi "$@" -o "$_exe" "$PROG" ;;
	esac
}

# Every target traps with SIGTRAP (brk, ebreak, bkpt, int3).
traps_after_typed() {	# TRIPLE EXE
	qrun "$1" "$2" >"$T/run.out" 2>"$T/run.err"
	_rc=$?
	[ $_rc -eq 133 ] || { echo "exit status $_rc, not 133 (SIGTRAP)"; cat "$T/run.out" "$T/run.err"; return 1; }
	grep -qx 'typed calls ran' "$T/run.out"
}
audited() {	# EXE
	"$AUDIT" "$1" >"$T/audit.out" 2>&1
	_rc=$?
	[ $_rc -le 128 ] || { echo "kcfi-audit died of signal $((_rc - 128))"; return 1; }
	[ $_rc -eq 0 ] || { echo "kcfi-audit: exit status $_rc"; cat "$T/audit.out"; return 1; }
	tail -n 1 "$T/audit.out" | grep ': 3 checked, .* 0 unchecked,' || { cat "$T/audit.out"; return 1; }
}
UNAUDITED=0
audit() {	# TARGET NAME EXE
	[ -n "$AUDIT" ] || return 0
	case $1 in
	arm-*|i?86-*) audit_elf32_supported || { UNAUDITED=$((UNAUDITED + 1)); return 0; } ;;
	esac
	check "$1 $2: kcfi-audit: 3 checked, 0 unchecked" audited "$3"
}
# The tests' last word: what was not audited, and why.
matrix_finish() {
	[ $UNAUDITED -eq 0 ] ||
		echo "not audited: $UNAUDITED ELF32 programs (i386, arm): kcfi-audit reads no ELF32 yet (audit_elf32_supported in tests/lib.sh)"
	finish
}

# built TARGET NAME EXE OPTION...: builds, or says why not.
built() {
	_tg=$1 _n=$2 _exe=$3
	shift 3
	rm -f "$_exe"
	(cd "$T" && build "$_tg" "$_exe" "$@") >"$T/build.err" 2>&1
	_rc=$?
	if tool_signal $_rc "$T/build.err"; then
		fail "$_tg $_n: a tool died of a signal ($*)"; head -n 20 "$T/build.err"; return 2
	fi
	return $_rc
}

# one TARGET NAME OPTION...: builds, runs, traps, audited.
one() {
	_tg=$1 _n=$2
	shift 2
	_exe=$T/prog-$(echo "$_tg" | tr : -)-$_n
	built "$_tg" "$_n" "$_exe" "$@"
	case $? in
	0) ;;
	2) return ;;
	*) fail "$_tg $_n: builds ($*)"; head -n 20 "$T/build.err"; return ;;
	esac
	check "$_tg $_n: typed calls run, the mistyped one traps" traps_after_typed "${_tg%%:*}" "$_exe"
	audit "$_tg" "$_n" "$_exe"
}

# refused TARGET NAME OPTION-PATTERN OPTION...: the build fails with an
# error naming the option (grep -e OPTION-PATTERN) and leaves no program.
refused() {
	_tg=$1 _n=$2 _p=$3
	shift 3
	_exe=$T/prog-$(echo "$_tg" | tr : -)-$_n
	built "$_tg" "$_n" "$_exe" "$@"
	case $? in
	0) fail "$_tg $_n: built, but must be refused ($*)" ;;
	2) ;;
	*) if ! grep -q -e "error: .*$_p" "$T/build.err"; then
		fail "$_tg $_n: refused without naming $_p:"; head -n 20 "$T/build.err"
	   elif [ -e "$_exe" ]; then
		fail "$_tg $_n: a program was left behind"
	   else
		pass "$_tg $_n: refused, naming $_p"
	   fi ;;
	esac
}
