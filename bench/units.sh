#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-units: what kcfi-gcc costs per compilation unit, in executed
# instructions instead of CPU time (doc/performance.md).  On this VM one
# compile's CPU time swings 20-30 % from run to run and there is no PMU, so
# every process of a compile runs under valgrind's callgrind, whose count of
# executed instructions does not depend on the machine's load: the same unit
# gives the same count on every run.
#
# A unit is a C object of a configured kernel tree built with kcfi-gcc: its
# command line is the first line of the object's .cmd file.  Each sampled
# unit is compiled twice in the tree's directory, output to a temporary file
# and no dependency file: once with this build's kcfi-gcc (kcfi-gcc, gcc's
# driver, cc1 with the plugin, kcfi-as, gas), once with the plain gcc that
# kcfi-gcc wraps on the same command line minus the KCFI options it does not
# know (-fsanitize=kcfi and -fsanitize-kcfi-*/-fsanitize-cfi-*).
#
# Usage: bench/units.sh [KCFI_BUILDDIR]
# Environment:
#   BENCH_UNITS       units in the sample (default 200; 0 = all)
#   BENCH_SEED        the sample's seed (default 34)
#   BENCH_UNITS_TREE  the kernel tree (default: the first of the KUnit tree
#                     make kunit-check builds and the defconfig tree
#                     boot-check builds that has kcfi-gcc units)
#   BENCH_UNITS_CACHE counts kept across runs (default /var/cache/kcfi-bench/units)
#   BENCH_JOBS        units counted at once (default 1); counts do not
#                     depend on load, so any -j gives the same numbers
#   KCFI_CC           the plain compiler (default gcc), as for kcfi-gcc
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/..}" && pwd) || exit 1
UNITS=${BENCH_UNITS:-200}
SEED=${BENCH_SEED:-34}
CACHE=${BENCH_UNITS_CACHE:-/var/cache/kcfi-bench/units}
JOBS=${BENCH_JOBS:-1}
PLAIN=${KCFI_CC:-gcc}
BOOT_CACHE=${KCFI_BOOT_CACHE:-/var/cache/kcfi-boot}
# Part of every cache key: a change in how counts are taken retires them all.
COUNTER="callgrind dump-before=exec,fork v1"

log() { printf 'bench-units: [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }
die() { log "$*"; exit 1; }

for p in valgrind "$PLAIN" sha256sum; do
	command -v "$p" >/dev/null || die "missing $p (scripts/install-deps.sh --with-bench)"
done
[ -x "$build/kcfi-gcc" ] || die "no $build/kcfi-gcc (make all)"

# cmd_file OBJ: the .cmd file kbuild wrote for OBJ.
cmd_file() { echo "$TREE/$(dirname "$1")/.$(basename "$1").cmd"; }

# units: the C objects of $TREE that kcfi-gcc compiled.
units() {
	(cd "$TREE" && find . -name '.*.o.cmd' | sed 's|^\./||' | sort) |
	while IFS= read -r f; do
		local base=${f##*/} obj
		base=${base#.}
		obj=$(dirname "$f")/${base%.cmd} && obj=${obj#./}
		head -1 "$TREE/$f" | grep -q "^savedcmd_$obj := [^ ]*kcfi-gcc .* -c -o $obj [^ ]*\.c *\$" &&
			echo "$obj"
	done
}

# sample N: N of the units on stdin, those whose hash with $SEED is least.
# A unit's place depends only on its name and the seed, not on awk's
# random numbers (mawk and gawk differ) or on which other units the tree
# has, so the same seed picks the same units from any tree that has them.
sample() {
	local u
	while IFS= read -r u; do
		printf '%s %s\n' "$(printf '%s:%s' "$SEED" "$u" | sha256sum | cut -c1-16)" "$u"
	done | sort | { if [ "$1" = 0 ]; then cat; else head -n "$1"; fi; } | cut -d' ' -f2
}

# drop_kcfi_opts ARGS...: KEPT is ARGS without the options plain gcc lacks.
drop_kcfi_opts() {
	local x
	KEPT=()
	for x; do case $x in -fsanitize=kcfi|-fsanitize-kcfi*|-fsanitize-cfi-*) ;; *) KEPT+=("$x") ;; esac; done
}

# argv_of SIDE OBJ OUT: ARGV is OBJ's command with SIDE's compiler (kcfi-gcc
# or gcc), writing OUT and no dependency file.
argv_of() {
	local side=$1 obj=$2 out=$3 cmd cc
	cmd=$(sed -n "1s|^savedcmd_$obj := [^ ]* ||p" "$(cmd_file "$obj")") && [ -n "$cmd" ] || return 1
	cmd=$(sed -e 's| -Wp,-MMD,[^ ]*||' -e "s| -c -o $obj | -c -o $out |" <<< "$cmd")
	eval "ARGV=($cmd)"
	if [ "$side" = kcfi-gcc ]; then
		ARGV=("$build/kcfi-gcc" "${ARGV[@]}")
	else
		drop_kcfi_opts "${ARGV[@]}"
		ARGV=("$PLAIN" "${KEPT[@]}")
	fi
}

# instructions ARGV...: the instructions executed by ARGV and every process
# it runs, "COUNT DUMPS".  Callgrind loses what an image executed when it
# execs (kcfi-gcc becomes gcc, kcfi-as becomes gas) and a forked child
# starts with its parent's counts, so each process dumps before every exec
# and fork: a dump resets the counts, and the dumps add up to each
# instruction once.  They all go through one pipe (opened anew by every
# dump), because file names made of the pid would be reused across an exec.
instructions() {
	local err=$WORK/valgrind.err
	valgrind --tool=callgrind --trace-children=yes --combine-dumps=yes --dump-line=no \
		--dump-before='*execv*' --dump-before='*fork' --callgrind-out-file=/proc/self/fd/9 \
		"$@" 9>&1 >/dev/null 2>"$err" < /dev/null | awk -f "$here/callgrind-sum.awk"
	local st=("${PIPESTATUS[@]}")
	[ "${st[0]}" = 0 ] && [ "${st[1]}" = 0 ] && return 0
	log "failed (exit ${st[0]}): $*"
	grep -v '^==' "$err" | head -5 >&2
	return 1
}

# file_hash FILE...: the sha256 of the files' bytes, as one.
file_hash() { cat "$@" | sha256sum | cut -c1-16; }

# tool_keys: KEY_GCC and KEY_KCFI, what the counts of each side depend on
# besides the unit: the programs that run (their bytes) and valgrind.
tool_keys() {
	local cc1 as gccbin
	gccbin=$(readlink -f "$(command -v "$PLAIN")")
	cc1=$("$PLAIN" -print-prog-name=cc1)
	as=$(readlink -f "$(command -v "$("$PLAIN" -print-prog-name=as)")")
	KEY_GCC=$({ echo "$COUNTER"; valgrind --version; file_hash "$gccbin" "$cc1" "$as"; } | sha256sum | cut -c1-16)
	KEY_KCFI=$({ echo "$KEY_GCC"; file_hash "$build/kcfi-gcc" "$build/kcfi-as" \
		"$build"/prepass/plugins/*/kcfi.so; } | sha256sum | cut -c1-16)
}

# count SIDE OBJ: SIDE's instructions for OBJ, from the cache or counted now
# (and cached); prints the count.  The key covers the tree (its path and
# configuration) and the unit's command line as run.
count() {
	local side=$1 obj=$2 key dir f n
	argv_of "$side" "$obj" "$WORK/unit.o" || { log "$obj: no command line"; return 1; }
	[ "$side" = kcfi-gcc ] && dir=$CACHE/kcfi-gcc-$KEY_KCFI || dir=$CACHE/gcc-$KEY_GCC
	key=$({ echo "$TREE_KEY"; printf '%s\n' "${ARGV[@]}"; } | sed "s|$WORK/|WORK/|" | sha256sum | cut -c1-32)
	f=$dir/$key
	if [ -s "$f" ]; then
		cut -d' ' -f1 "$f"
		return 0
	fi
	# One run natively first: it fails fast where the unit cannot be
	# compiled, and kcfi-gcc's own answer cache (which assembler gcc runs)
	# is then warm, as in a build, and not counted.
	(cd "$TREE" && "${ARGV[@]}") >/dev/null 2>"$WORK/native.err" ||
		{ log "$obj: $side fails:"; head -5 "$WORK/native.err" >&2; return 1; }
	n=$(cd "$TREE" && instructions "${ARGV[@]}") || return 1
	mkdir -p "$dir" && echo "$n $obj" > "$f.tmp.$$" && mv "$f.tmp.$$" "$f"
	echo "${n%% *}"
}

# measure OBJ: "OBJ GCC KCFI" (counted in a work directory of its own, so
# that BENCH_JOBS runs do not share outputs).
measure() {
	local obj=$1 g k
	WORK=$(mktemp -d /tmp/kcfi-bench-units.XXXXXX) || return 1
	g=$(count gcc "$obj") && k=$(count kcfi-gcc "$obj") && echo "$obj $g $k"
	rm -rf "$WORK"
}

# ---- main ---------------------------------------------------------------------
if [ -z "${BENCH_UNITS_TREE:-}" ]; then
	for t in "$BOOT_CACHE/kunit/x86_64-kcfi-gcc" "$BOOT_CACHE/build-defconfig/x86_64"; do
		[ -f "$t/.config" ] && grep -qx CONFIG_CFI_CLANG=y "$t/.config" && { BENCH_UNITS_TREE=$t; break; }
	done
fi
TREE=${BENCH_UNITS_TREE:-}
[ -n "$TREE" ] && [ -d "$TREE" ] ||
	die "no kernel tree: set BENCH_UNITS_TREE to a configured kcfi-gcc tree with objects (make kunit-check builds one)"
TREE=$(cd "$TREE" && pwd)
TREE_KEY=$({ echo "$TREE"; cat "$TREE/include/generated/autoconf.h" 2>/dev/null; } | sha256sum | cut -c1-16)
mkdir -p "$CACHE" || die "cannot write $CACHE"
tool_keys
log "tree $TREE; counts in $CACHE/gcc-$KEY_GCC and $CACHE/kcfi-gcc-$KEY_KCFI"

all=$(units)
nall=$(grep -c . <<< "$all")
[ "$nall" -gt 0 ] || die "no kcfi-gcc C units in $TREE"
sample "$UNITS" <<< "$all" > "$CACHE/sample.txt"
nsample=$(wc -l < "$CACHE/sample.txt")
log "$nsample of $nall units (seed $SEED), $JOBS at a time"

export -f measure count argv_of instructions drop_kcfi_opts cmd_file log
export here build PLAIN TREE TREE_KEY CACHE KEY_GCC KEY_KCFI
table=$CACHE/units-$SEED-$nsample.txt
xargs -d '\n' -P "$JOBS" -n 1 bash -c 'measure "$1"' _ < "$CACHE/sample.txt" > "$table.tmp"
# In the sample's order, whatever order the jobs finished in.
awk 'NR == FNR { row[$1] = $0; next } $1 in row { print row[$1] }' "$table.tmp" "$CACHE/sample.txt" > "$table"
rm -f "$table.tmp"
ndone=$(wc -l < "$table")
[ "$ndone" -gt 0 ] || die "no unit counted"

echo
echo "Instructions per unit, every process (callgrind): plain gcc, kcfi-gcc, ratio"
echo "($ndone of $nsample sampled units of $nall, seed $SEED, tree $TREE):"
awk '{ printf "  %-48s %14d %14d %8.4f\n", $1, $2, $3, $3 / $2 }' "$table"
read -r T M P W WU N < <(awk -f "$here/units-stats.awk" "$table") || die "no statistics"
[ "$ndone" = "$nsample" ] || echo "($((nsample - ndone)) units failed, see above)"
verdict() { awk "BEGIN { exit !($1) }" && echo holds || echo FAILS; }
echo "goal: total <= 1.01 $(verdict "$T <= 1.01"); p90 <= 1.03 $(verdict "$P <= 1.03")"
echo "units: instructions kcfi-gcc/gcc total $T, median $M, p90 $P, worst $W ($WU)"
