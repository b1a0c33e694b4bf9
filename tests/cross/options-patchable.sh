#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -fpatchable-function-entry=N,M on every cross target (tests/cross/matrix.sh):
# N from 0 to 8, each with M = 0, N/2 and N (patchable_pairs): the ids sit
# where the checks look for them, M NOPs before the entry.  arm refuses
# M > 0, naming the option: a caller cannot know whether its callee's NOPs
# are Thumb's 2 bytes or ARM's 4.
. "$top_srcdir/tests/cross/matrix.sh"

for tg in $TARGETS; do
	for nm in $(patchable_pairs); do
		case $tg:$nm in
		arm-*,0|i?86-*|aarch64-*|riscv64-*) one "$tg" "patchable-$nm" -O2 -fpatchable-function-entry=$nm ;;
		arm-*) refused "$tg" "patchable-$nm" -fpatchable-function-entry -O2 -fpatchable-function-entry=$nm ;;
		esac
	done
	# With -g the refusal is at the C line of the call it refuses (one
	# of convert's three, lines 20-22), not in the temporary .s file.
	case $tg in
	arm-*)
		_exe=$T/prog-g-$(echo "$tg" | tr : -)
		built "$tg" g-patchable-4,2 "$_exe" -O2 -g -fpatchable-function-entry=4,2
		check "$tg g-patchable-4,2: refused at the C line of the call" \
			grep -q "^$PROG:2[012]:[0-9]*: error: patchable prefix NOPs (-fpatchable-function-entry=N,M with M > 0)" "$T/build.err" ;;
	esac
done
matrix_finish
