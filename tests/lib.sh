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
