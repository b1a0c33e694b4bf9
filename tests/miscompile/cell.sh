#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One program on one architecture at one option set, three ways: plain gcc,
# kcfi-gcc -fsanitize=kcfi, and kcfi-gcc -fsanitize=kcfi with the target
# mover off (-fplugin-arg-kcfi-no-early-target).  Called by campaign.sh
# (through xargs -P) with its settings in the environment:
#   MC_WORK MC_TIMEOUT, and per ARCH: MC_CC_ARCH MC_KCFI_ARCH MC_RUN_ARCH
#
#   cell.sh PROG ARCH N
# PROG is $MC_WORK/progs/PROG.c, N the line of $MC_WORK/opts.ARCH that holds
# the option set (sets contain spaces: they never go through argv here).
# Writes one line to $MC_WORK/res/PROG@ARCH@N:
#   PROG ARCH N PLAIN KCFI NOMOVE VERDICT PLAIN-OUTPUT-SUM
# each outcome ok | exit:N | sig:N | timeout | nobuild; VERDICT same, skip
# (plain gcc itself cannot build or finish it) or DIFF, and for DIFF a
# report in $MC_WORK/fail/PROG@ARCH@N, the three builds left in
# $MC_WORK/tmp/PROG@ARCH@N.
set -u
prog=$1 arch=$2 n=$3
src=$MC_WORK/progs/$prog.c
opts=$(sed -n "${n}p" "$MC_WORK/opts.$arch")
eval "cc=\$MC_CC_$arch kgcc=\$MC_KCFI_$arch runner=\$MC_RUN_$arch"
d=$MC_WORK/tmp/$prog@$arch@$n
res=$MC_WORK/res/$prog@$arch@$n
rm -rf "$d"
mkdir -p "$d"
cd "$d" || exit 1
ulimit -c 0
extra=-w
case $prog in csmith-*) extra="$extra -I/usr/include/csmith" ;; esac

# outcome EXE: the word for one run; its output is in EXE.out.
outcome() {
	[ -x "$1" ] || { echo nobuild; return; }
	# shellcheck disable=SC2086
	timeout -s KILL "$MC_TIMEOUT" $runner "./$1" </dev/null >"$1.out" 2>"$1.err"
	rc=$?
	case $rc in
	0) echo ok ;;
	137) echo timeout ;;
	*) if [ $rc -gt 128 ]; then echo "sig:$((rc - 128))"; else echo "exit:$rc"; fi ;;
	esac
}
# shellcheck disable=SC2086
$cc $opts $extra -o plain "$src" >plain.log 2>&1
# shellcheck disable=SC2086
$kgcc -fsanitize=kcfi $opts $extra -o kcfi "$src" >kcfi.log 2>&1
# shellcheck disable=SC2086
$kgcc -fsanitize=kcfi -fplugin-arg-kcfi-no-early-target $opts $extra -o nomove "$src" >nomove.log 2>&1
p=$(outcome plain) k=$(outcome kcfi) m=$(outcome nomove)
sum=$( [ -f plain.out ] && cksum <plain.out | cut -d' ' -f1)
verdict=same
if [ "$p" != ok ]; then
	verdict=skip
elif [ "$k" != ok ] || [ "$m" != ok ] || ! cmp -s plain.out kcfi.out || ! cmp -s plain.out nomove.out; then
	verdict=DIFF
fi
echo "$prog $arch $n $p $k $m $verdict ${sum:-0}" >"$res"
if [ $verdict = DIFF ]; then
	{
		why="kcfi-gcc differs from plain gcc"
		if cmp -s plain.out kcfi.out && [ "$k" = ok ]; then
			why="only with the mover off"
		elif [ "$m" = ok ] && cmp -s plain.out nomove.out; then
			why="only with the target mover (early-target)"
		fi
		echo "FAIL: $prog on $arch with [$opts]: plain=$p kcfi=$k no-early-target=$m ($why)"
		echo "  program: $src"
		echo "  builds:  $d/{plain,kcfi,nomove} (logs *.log, outputs *.out)"
		echo "  again:   ${kgcc#env -u KCFI_PLUGIN } -fsanitize=kcfi $opts $extra $src${runner:+ && $runner ./a.out}"
		for b in plain kcfi nomove; do
			echo "  --- $b output ($(wc -l <$b.out 2>/dev/null || echo 0) lines; differences from plain's first):"
			if [ $b = plain ]; then head -n 3 $b.out 2>/dev/null
			else diff plain.out $b.out 2>/dev/null | grep '^>' | head -n 5; fi | sed 's/^/    /'
			[ -s $b.err ] && head -n 3 $b.err | sed 's/^/    stderr: /'
			[ -s $b.log ] && grep -m 3 'error' $b.log | sed 's/^/    build: /'
		done
	} >"$MC_WORK/fail/$prog@$arch@$n"
else
	cd "$MC_WORK" && rm -rf "$d"
fi
exit 0
