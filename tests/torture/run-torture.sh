#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GCC 12's gcc.c-torture/execute through kcfi-gcc -fsanitize=kcfi, compared
# with plain gcc at the same options, with every indirect branch of every
# kcfi object accounted for (see one-test.sh, account-*.awk).
#
#   run-torture.sh [--arch x86_64|aarch64|riscv64] [--opts "-O0 -O2 -Os"]
#                  [--sample N] [--per-set-sample] [--jobs N] [--work DIR]
#                  [--keep] [--only "NAME..."]
#
# --opts is a list of option sets separated by ";" ("-O0;-O3 -g;-Og"); a
# list without ";" is one set per word, as before ("-O0 -O2 -Os").  Results
# and expected-*.txt name a set by its words joined with "_" ("-O3_-g").
# "torture" stands for GCC's own list (gcc.c-torture's execute.exp): -O0;
# -O1; -O2; -O3 -fomit-frame-pointer -funroll-loops -fpeel-loops -ftracer
# -finline-functions; -O3 -g; -Os; -Og.
# --sample N takes a deterministic sample of N tests (ordered by a hash of
# their names, the same on every machine); with --per-set-sample each set
# gets its own sample (the hash covers the set too), so that a few sets
# together cover more tests in the same time.  --only runs just the tests
# named.  Needs top_srcdir/top_builddir in
# the environment (make sets them).  Exit 0: no kcfi-only build failure, no
# run-time difference except the expected traps listed in
# expected-traps.txt (which must trap), no refusal except those listed in
# expected-refusals.txt (which must be refused), no accounting violation.
# Exit 77: the test sources or the arch's compiler/plugin are missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
arch=x86_64 opts="-O0 -O2 -Os" sample=0 perset= jobs=2 work= keep= only=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift ;;
	--opts) opts=$2; shift ;;
	--sample) sample=$2; shift ;;
	--per-set-sample) perset=1 ;;
	--jobs) jobs=$2; shift ;;
	--work) work=$2; shift ;;
	--keep) keep=1 ;;
	--only) only=$2; shift ;;
	*) echo "run-torture.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
: "${top_builddir:?}" "${top_srcdir:=$here/../..}"
top_builddir=$(cd "$top_builddir" && pwd)

src=$("$here/fetch.sh") || exit $?

case $arch in
x86_64)	triple=x86_64-linux-gnu cc=${PLUGIN_CC:-gcc} runner= objdump=objdump
	trapsig=4 elfcheck=$top_builddir/tests/tools/kcfi-elfcheck ;;
aarch64|riscv64)
	triple=$arch-linux-gnu cc=$triple-gcc runner="qemu-$arch -L /usr/$triple"
	objdump=$triple-objdump trapsig=5 elfcheck= ;;
*) echo "run-torture.sh: unknown arch $arch" >&2; exit 2 ;;
esac
skip() { echo "SKIP: $arch: $*"; exit 77; }
command -v "$cc" >/dev/null || skip "no $cc"
command -v "$objdump" >/dev/null || skip "no $objdump"
[ -z "$runner" ] || command -v "qemu-$arch" >/dev/null || skip "no qemu-$arch"
[ -f "$top_builddir/prepass/plugins/$triple/kcfi.so" ] ||
	skip "no kcfi plugin built for $triple (prepass/plugins/$triple/kcfi.so)"
[ -z "$elfcheck" ] || [ -x "$elfcheck" ] ||
	(cd "$top_builddir" && make tests/tools/kcfi-elfcheck >/dev/null) || skip "no kcfi-elfcheck"
# The wrapper for this compiler: <triple>-kcfi-gcc when built, else
# kcfi-gcc told the compiler through KCFI_CC.  make's test environment sets
# KCFI_PLUGIN to the native plugin: a cross wrapper must find its own.
if [ "$arch" = x86_64 ]; then
	kgcc="env KCFI_CC=$cc $top_builddir/kcfi-gcc"
elif [ -x "$top_builddir/$triple-kcfi-gcc" ]; then
	kgcc="env -u KCFI_PLUGIN $top_builddir/$triple-kcfi-gcc"
else
	kgcc="env -u KCFI_PLUGIN KCFI_CC=$cc $top_builddir/kcfi-gcc"
fi

work=${work:-$top_builddir/tests/torture/work-$arch}
rm -rf "$work"
mkdir -p "$work/res" "$work/tmp"

# The option sets, one a line.
TORTURE_SETS="-O0;-O1;-O2;-O3 -fomit-frame-pointer -funroll-loops -fpeel-loops -ftracer -finline-functions;-O3 -g;-Os;-Og"
case $opts in
*\;*) echo "$opts" ;;
*) printf '%s\n' $opts ;;
esac | tr ';' '\n' | sed 's/^ *//; s/ *$//' | sed "s/^torture\$/$TORTURE_SETS/" | tr ';' '\n' |
	awk 'NF && !seen[$0]++' >"$work/sets"
[ -s "$work/sets" ] || { echo "run-torture.sh: no option set in --opts '$opts'" >&2; exit 2; }

# The test list: every top-level .c (execute.exp's glob; builtins/ and ieee/
# have their own drivers), sampled by a multiplicative hash of the name
# (FNV-1a with "+" for "^": POSIX awk has no xor), and with --per-set-sample
# of the set's words before it.
ls "$src" | sed -n 's/\.c$//p' | LC_ALL=C sort >"$work/all"
# list SET: the tests to run at SET.
list() {
	if [ -n "$only" ]; then
		printf '%s\n' $only
	elif [ "$sample" -gt 0 ]; then
		LC_ALL=C awk -v salt="${perset:+$1 }" '
		     BEGIN { for (i = 0; i < 256; i++) ord[sprintf("%c", i)] = i }
		     { s = salt $0; h = 2166136261
		       for (i = 1; i <= length(s); i++) {
			       h = (h + ord[substr(s, i, 1)]) % 4294967296
			       h = (h * 16777619) % 4294967296
		       }
		       printf "%010d %s\n", h, $0 }' "$work/all" |
			LC_ALL=C sort | head -n "$sample" | cut -d' ' -f2 | LC_ALL=C sort
	else
		cat "$work/all"
	fi
}

n=$(list "$(head -n 1 "$work/sets")" | wc -l)
echo "torture: $arch, $n tests${perset:+ (a sample per set)} x {$(paste -sd';' "$work/sets")}, -j$jobs, compiler $cc, results in $work"
start=$(date +%s)
TT_SRC=$src TT_WORK=$work TT_ARCH=$arch TT_TRIPLE=$triple TT_CC=$cc TT_KCFI_GCC=$kgcc \
TT_RUN=$runner TT_TIMEOUT=${TORTURE_TIMEOUT:-20} TT_OBJDUMP=$objdump TT_ELFCHECK=$elfcheck \
TT_HERE=$here TT_KEEP=$keep
export TT_SRC TT_WORK TT_ARCH TT_TRIPLE TT_CC TT_KCFI_GCC TT_RUN TT_TIMEOUT TT_OBJDUMP \
	TT_ELFCHECK TT_HERE TT_KEEP
# One line per run, NAME then the set's words (one-test.sh joins them).
while IFS= read -r o; do
	list "$o" | sed "s/\$/ $o/"
done <"$work/sets" | xargs -P "$jobs" -L 1 "$here/one-test.sh"
secs=$(( $(date +%s) - start ))

cat "$work"/res/* >"$work/results"
awk -v arch="$arch" -v trapsig="$trapsig" -v secs="$secs" -v expect="$here/expected-traps.txt" \
	-v refusals="$here/expected-refusals.txt" \
	-f "$here/summarize.awk" "$work/results"
