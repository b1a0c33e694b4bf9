# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the shell tests.  Sourced; expects the variables that
# AM_TESTS_ENVIRONMENT exports (KCFI_AS, KCFI_GCC, top_srcdir, top_builddir...).
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/kcfi-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
ELFCHECK=$top_builddir/tests/tools/kcfi-elfcheck
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 77; }
finish() { [ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }; exit 0; }

# check NAME COMMAND...: run, report, never abort the script.
check() {
	name=$1; shift
	if "$@" >"$T/check.out" 2>&1; then pass "$name"; else fail "$name"; sed 's/^/    /' "$T/check.out" | head -20; fi
}

# The type id kcfi-as must produce for a mangled name, computed here with an
# independent FNV-1a so that a broken library cannot agree with itself.
fnv1a() {
	h=2166136261
	for b in $(printf '%s' "$1" | od -An -tu1 -v); do
		h=$(( ((h ^ b) * 16777619) & 0xffffffff ))
	done
	printf '0x%08x\n' "$h"
}

# x86 trap immediates are negated; preambles carry the id itself.
OPT_LEVELS=${OPT_LEVELS:-"-O0 -O2 -O3 -Os"}

# refused_build CC NAME PATTERN ARGS...: CC -fsanitize=kcfi ARGS -o NAME
# fails with "FILE.s:LINE: error: ...PATTERN" and leaves no program behind.
refused_build() {
	rb_cc=$1 rb_n=$2 rb_p=$3
	shift 3
	rm -f "$T/$rb_n"
	if "$rb_cc" -fsanitize=kcfi "$@" -o "$T/$rb_n" 2>"$T/$rb_n.err"; then
		fail "$rb_n: built"
	elif ! grep -q "\.s:[0-9]*: error: .*$rb_p" "$T/$rb_n.err"; then
		fail "$rb_n: expected 'error: ...$rb_p', got:"; sed 's/^/    /' "$T/$rb_n.err"
	elif [ -e "$T/$rb_n" ]; then
		fail "$rb_n: a program was left behind"
	else
		pass "$rb_n"
	fi
}

# tool_signal STATUS LOG: did one of our tools die of a signal?  Its own
# exit status says so above 128; GCC reports a program it ran (as, which
# is kcfi-as; cc1 or lto1 with the plugin) killed by one on stderr.  Such
# a death fails a test whatever the test expected of the build.
tool_signal() {
	[ "$1" -gt 128 ] && return 0
	grep -qE 'internal compiler error|signal terminated program|terminated with signal' "$2"
}

# audit_elf32_supported: does kcfi-audit read ELF32 files (i386, arm)?
# While it does not, it refuses every one with "not a 64-bit ELF file"
# and exit status 2; the option matrices then say that they did not audit
# those targets, and audit them from the day it reads them.  Anything else
# it does with an ELF32 file is its answer, judged as on ELF64 (a crash
# included).  The probe is any ELF32 object: GNU as --32 of nothing.
audit_elf32_supported() {
	if [ -z "${AUDIT_ELF32:-}" ]; then
		AUDIT_ELF32=yes
		if printf '\t.text\n' | as --32 -o "$T/elf32-probe.o" 2>/dev/null; then
			"$top_builddir/kcfi-audit" "$T/elf32-probe.o" >/dev/null 2>"$T/elf32-probe.err"
			[ $? -eq 2 ] && grep -q 'not a 64-bit ELF file' "$T/elf32-probe.err" && AUDIT_ELF32=no
		fi
	fi
	[ "$AUDIT_ELF32" = yes ]
}

# patchable_pairs: the N,M of -fpatchable-function-entry an option matrix
# runs: every N from 0 to 8, each with M = 0, N/2 and N.
patchable_pairs() {
	for n in 0 1 2 3 4 5 6 7 8; do
		for m in 0 $((n / 2)) $n; do echo "$n,$m"; done
	done | awk '!seen[$0]++'
}
