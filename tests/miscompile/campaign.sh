#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A differential campaign against miscompiles of checked indirect calls
# (issue 41): programs whose call targets are loaded through memory that
# stores may write, built by plain gcc, by kcfi-gcc -fsanitize=kcfi and by
# kcfi-gcc -fsanitize=kcfi -fplugin-arg-kcfi-no-early-target, run (aarch64
# and riscv64 under qemu-user), their outputs compared.
#
#   campaign.sh [--arches "x86_64 aarch64 riscv64"] [--opts "SET;SET..."]
#               [--cross-opts "SET;SET..."] [--fixed yes|no] [--seeds N]
#               [--first-seed S] [--csmith N] [--csmith-first S]
#               [--jobs N] [--work DIR] [--timeout SECONDS]
#
# Option sets are separated by ";" (a set is several flags: "-O1
# -funroll-loops"); --opts is x86_64's, --cross-opts aarch64's and
# riscv64's (default: --opts without x86-only flags).  Programs:
#   fixed       slot-store.c, the issue's reproducer (--fixed no: left out)
#   gen-S       gen-program.py S for S in first-seed .. first-seed+N-1
#   csmith-S    csmith -s S through csmith-indirect.awk (calls through
#               function pointers), kept only where plain gcc -O0 and -O2
#               agree natively within the timeout; the first N such seeds
#               from csmith-first on
# Exit 0: every build and run of kcfi-gcc, mover on and off, gives plain
# gcc's outcome and output, and plain gcc's output of each generated
# program is the same at every set and arch (else the program is not
# well-defined: a generator bug).  Exit 1 otherwise, each failure printed
# with its seed, arch, options, the three outputs and where its files are.
# Exit 77: no architecture usable, or python3 missing.  Needs top_builddir
# (and top_srcdir) in the environment; x86_64 takes KCFI_GCC and PLUGIN_CC
# from it when set (make check-gcc11).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${top_builddir:?}"
top_builddir=$(cd "$top_builddir" && pwd)
# GCC's torture option list (gcc.c-torture's execute.exp), then the
# combinations under which sched2, the pass whose alias tables the mover's
# oracle reads, does not run or runs on other code: -O1/-Og (no sched2),
# -fno-schedule-insns2, and with -funroll-loops, -frename-registers,
# -fschedule-insns; x86_64 also with the kernel's retpolines, which put
# every target in %r11.
THUNK="-mindirect-branch=thunk -mindirect-branch-register"
TORTURE="-O0;-O1;-O2;-O3 -fomit-frame-pointer -funroll-loops -fpeel-loops -ftracer -finline-functions;-O3 -g;-Os;-Og"
COMBOS="-O1 -funroll-loops;-O1 -fno-schedule-insns2;-O2 -fno-schedule-insns2;-Og -funroll-loops;-O2 -fno-schedule-insns2 -funroll-loops;-O1 -frename-registers;-O1 -fschedule-insns;-O2 -fno-schedule-insns2 -frename-registers"
arches="x86_64 aarch64 riscv64"
opts="$TORTURE;$COMBOS;-O1 $THUNK;-O1 -funroll-loops $THUNK;-Og -funroll-loops $THUNK;-O2 $THUNK;-O2 -fno-schedule-insns2 -funroll-loops $THUNK"
cross_opts=
fixed=yes seeds=20 first=1 ncsmith=2 csfirst=1 jobs=2 work='' timeout=${MISCOMPILE_TIMEOUT:-20}
while [ $# -gt 0 ]; do
	case $1 in
	--arches) arches=$2; shift ;;
	--opts) opts=$2; shift ;;
	--cross-opts) cross_opts=$2; shift ;;
	--fixed) fixed=$2; shift ;;
	--seeds) seeds=$2; shift ;;
	--first-seed) first=$2; shift ;;
	--csmith) ncsmith=$2; shift ;;
	--csmith-first) csfirst=$2; shift ;;
	--jobs) jobs=$2; shift ;;
	--work) work=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	*) echo "campaign.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
skip() { echo "SKIP: $*"; exit 77; }
command -v python3 >/dev/null || skip "no python3 (the program generator)"
# The cross sets: x86_64's without its x86-only flags, duplicates dropped.
if [ -z "$cross_opts" ]; then
	cross_opts=$(echo "$opts" | tr ';' '\n' | sed -e "s/ *-mindirect-branch=[a-z-]*//g" -e "s/ *-mindirect-branch-register//g" |
		awk 'NF && !seen[$0]++' | paste -sd';' -)
fi

work=${work:-$top_builddir/tests/miscompile/work}
rm -rf "$work"
mkdir -p "$work/progs" "$work/res" "$work/fail" "$work/tmp"

# The compilers of each usable arch, as run-torture.sh finds them: x86_64
# natively, the cross ones through <triple>-kcfi-gcc (which finds its own
# plugin: make's environment names the native one) and qemu-user.
use=
for a in $arches; do
	case $a in
	x86_64)
		[ "$(uname -m)" = x86_64 ] || { echo "SKIP x86_64: not an x86_64 host"; continue; }
		cc=${PLUGIN_CC:-gcc} k=${KCFI_GCC:-$top_builddir/kcfi-gcc} run=
		[ -x "$k" ] || { echo "SKIP x86_64: no $k"; continue; }
		echo "$opts" | tr ';' '\n' | awk 'NF' >"$work/opts.$a" ;;
	aarch64|riscv64)
		t=$a-linux-gnu cc=$a-linux-gnu-gcc k="env -u KCFI_PLUGIN $top_builddir/$a-linux-gnu-kcfi-gcc"
		run="qemu-$a -L /usr/$t"
		[ -x "$top_builddir/$t-kcfi-gcc" ] || { echo "SKIP $a: no $t-kcfi-gcc (configure found no plugin)"; continue; }
		command -v "$cc" >/dev/null || { echo "SKIP $a: no $cc"; continue; }
		command -v "qemu-$a" >/dev/null || { echo "SKIP $a: no qemu-$a (apt-get install qemu-user)"; continue; }
		[ -d "/usr/$t/lib" ] || { echo "SKIP $a: no sysroot /usr/$t"; continue; }
		echo "$cross_opts" | tr ';' '\n' | awk 'NF' >"$work/opts.$a" ;;
	*) echo "campaign.sh: unknown arch $a" >&2; exit 2 ;;
	esac
	eval "MC_CC_$a=\$cc MC_KCFI_$a=\$k MC_RUN_$a=\$run"
	export "MC_CC_$a" "MC_KCFI_$a" "MC_RUN_$a"
	use="$use $a"
done
[ -n "$use" ] || skip "no architecture usable"

# The programs.
progs=
if [ "$fixed" = yes ]; then
	cp "$here/slot-store.c" "$work/progs/fixed.c"
	progs=fixed
fi
s=$first
while [ "$s" -lt $((first + seeds)) ]; do
	python3 "$here/gen-program.py" "$s" "$work/progs/gen-$s.c"
	progs="$progs gen-$s"
	s=$((s + 1))
done
if [ "$ncsmith" -gt 0 ]; then
	if ! command -v csmith >/dev/null || [ ! -f /usr/include/csmith/csmith.h ]; then
		echo "SKIP csmith programs: no csmith or /usr/include/csmith (apt-get install csmith libcsmith-dev)"
	else
		kept=0 s=$csfirst
		while [ $kept -lt "$ncsmith" ] && [ $s -lt $((csfirst + 4 * ncsmith)) ]; do
			c=$work/progs/csmith-$s
			csmith -s "$s" -o "$c.raw.c" >/dev/null 2>&1 &&
				awk -f "$here/csmith-indirect.awk" "$c.raw.c" >"$c.c" && rm -f "$c.raw.c" || {
				echo "campaign.sh: csmith -s $s failed" >&2; exit 1; }
			why=
			for o in -O0 -O2; do
				if ! gcc $o -w -I/usr/include/csmith -o "$c.$o" "$c.c" 2>/dev/null; then why="gcc $o cannot build it"; break; fi
				timeout -s KILL "$timeout" "$c.$o" >"$c.$o.out" 2>&1 || { why="gcc $o: exit $? (timeout or crash)"; break; }
			done
			[ -n "$why" ] || cmp -s "$c.-O0.out" "$c.-O2.out" || why="gcc -O0 and -O2 differ"
			rm -f "$c.-O0" "$c.-O2" "$c".-O*.out
			if [ -n "$why" ]; then
				echo "csmith -s $s discarded: $why"
				mv "$c.c" "$c.discarded.c"
			else
				progs="$progs csmith-$s"
				kept=$((kept + 1))
			fi
			s=$((s + 1))
		done
	fi
fi

nprogs=$(echo $progs | wc -w)
ncells=0
for a in $use; do
	ncells=$((ncells + nprogs * $(wc -l <"$work/opts.$a")))
done
echo "miscompile campaign: $nprogs programs ($(echo $progs | tr ' ' '\n' | sed 's/-[0-9]*$//' | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}')) x {$use}, $ncells cells x 3 builds, -j$jobs, timeout ${timeout}s, in $work"
for a in $use; do echo "  $a option sets: $(paste -sd';' "$work/opts.$a")"; done
start=$(date +%s)
MC_WORK=$work MC_TIMEOUT=$timeout
export MC_WORK MC_TIMEOUT
for p in $progs; do
	for a in $use; do
		i=1
		while [ $i -le "$(wc -l <"$work/opts.$a")" ]; do
			echo "$p $a $i"
			i=$((i + 1))
		done
	done
done | xargs -P "$jobs" -L 1 "$here/cell.sh"
secs=$(( $(date +%s) - start ))
cat "$work"/res/* >"$work/results"
rmdir "$work/tmp" 2>/dev/null || true

# Judge: every DIFF, and every generated program whose plain outputs differ
# among themselves; count per arch.
# The first reports in full, the rest by their first line.
i=0
for f in "$work"/fail/*; do
	[ -f "$f" ] || continue
	i=$((i + 1))
	if [ $i -le 12 ]; then cat "$f"; else head -n 1 "$f"; fi
done
[ $i -le 12 ] || echo "($((i - 12)) more reports in full in $work/fail/)"
awk -v secs="$secs" -v work="$work" '
	{ cells[$2]++; n++ }
	$7 == "same" { same[$2]++ }
	$7 == "skip" { skipped[$2]++ }
	$7 == "skip" && $1 !~ /^csmith-/ {
		print "FAIL: " $1 " on " $2 " at set " $3 " of " work "/opts." $2 ": plain gcc: " $4 " (the program must build and run; a generator bug)"
		nd++
	}
	$7 == "DIFF" { diff[$2]++; nd++; failed[$1 " " $2]++; atset[$2 " " $3]++ }
	{ progs[$2 " " $3]++ }
	$4 == "ok" && $1 !~ /^csmith-/ {
		if (!($1 in sum)) sum[$1] = $8
		else if (sum[$1] != $8 && !bad[$1]++) {
			print "FAIL: " $1 ": plain gcc prints different outputs at different sets or arches: not well-defined C (a generator bug; " work "/progs/" $1 ".c)"
			nd++
		}
	}
	END {
		for (a in cells) {
			np = 0; for (k in failed) if (k ~ (" " a "$")) np++
			printf "miscompile %s: %d cells, %d same, %d skipped (plain gcc cannot build or finish csmith'"'"'s), %d DIFFER (%d programs)\n", \
				a, cells[a], same[a], skipped[a], diff[a], np
			for (k in atset) if (k ~ ("^" a " ")) {
				split(k, f, " ")
				o = ""; file = work "/opts." a
				for (l = 1; (getline line < file) > 0; l++) if (l == f[2]) o = line
				close(file)
				printf "  %s [%s]: %d of %d programs differ\n", a, o, atset[k], progs[k]
			}
		}
		printf "miscompile summary (%d s): %d cells, %d failure(s); results in %s/results\n", secs, n, nd, work
		exit nd ? 1 : 0
	}' "$work/results"
