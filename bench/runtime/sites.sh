#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sites.sh VMLINUX CSV: the address of every checked call site of
# kcfi-audit --targets --csv=CSV VMLINUX, one hex number a line, for the
# TCG plugin (kinsn.c): the CSV gives a section and the offset of the call
# the check guards, which runs once for every check that passes.  (Kernel
# addresses need 64-bit integers: awk's doubles would round them.)
set -u
vm=$1 csv=$2
declare -A base=()
while read -r name addr; do
	base[$name]=$addr
done < <(readelf -SW "$vm" | sed 's/^ *\[ *[0-9]*\]//' | awk '$3 ~ /^[0-9a-f]+$/ { print $1, $3 }')
[ ${#base[@]} -gt 0 ] || { echo "sites.sh: $vm: no sections" >&2; exit 1; }
n=0
while IFS=, read -r _ sec off _; do
	n=$((n + 1))
	[ $n -eq 1 ] && continue
	sec=${sec//\"/}
	[ -n "${base[$sec]:-}" ] || { echo "sites.sh: $csv:$n: no section $sec in $vm" >&2; exit 1; }
	printf '%x\n' $((0x${base[$sec]} + off))
done < "$csv"
