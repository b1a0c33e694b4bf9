#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What one KCFI check costs at run time, in instructions: bench/indirect-call.c
# built -O2 -static with gcc, kcfi-gcc -fsanitize=kcfi, clang-19 and clang-19
# -fsanitize=kcfi, for x86_64 (run natively under valgrind's callgrind) and
# aarch64, riscv64 (run under qemu-user, one instruction per translation
# block and every block logged: Debian's qemu-user has no TCG plugins).
# Counts are taken at N and 2N calls; the difference over N is the loop's
# instructions per iteration, exact whatever the start-up costs.  Cycles
# need `perf stat` with hardware counters, which a VM often lacks.
#
# Usage: bench/indirect-call.sh [KCFI_BUILDDIR]
# Prints per arch: ARCH METHOD OURS CLANG gcc=I kcfi-gcc=I clang=I clang-kcfi=I,
# OURS = kcfi-gcc minus gcc, CLANG = clang-kcfi minus clang (instructions
# a checked call adds), I the instructions of one loop iteration.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=$(cd "${1:-$top}" && pwd) || exit 1
CLANG=${BENCH_CLANG:-clang-19}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

log() { printf 'indirect-call: %s\n' "$*" >&2; }

# compilers ARCH: NAME=COMMAND lines, the four builds for ARCH.
compilers() {
	case $1 in
	x86_64)
		echo "gcc=gcc"
		echo "kcfi-gcc=$build/kcfi-gcc -fsanitize=kcfi"
		echo "clang=$CLANG"
		echo "clang-kcfi=$CLANG -fsanitize=kcfi" ;;
	aarch64|riscv64)
		echo "gcc=$1-linux-gnu-gcc"
		echo "kcfi-gcc=$build/$1-linux-gnu-kcfi-gcc -fsanitize=kcfi"
		echo "clang=$CLANG --target=$1-linux-gnu"
		echo "clang-kcfi=$CLANG --target=$1-linux-gnu -fsanitize=kcfi" ;;
	esac
}

# count ARCH PROG N: instructions of one run of PROG N.
count() {
	local arch=$1 prog=$2 n=$3
	case $arch in
	x86_64)
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$prog" "$n" 2>&1 |
			sed -n 's/.*Collected *: *//p' | awk '{ print $1 }' ;;
	*)
		rm -f "$work/q.log"
		"qemu-$arch" -singlestep -d nochain,exec -D "$work/q.log" "$prog" "$n" || return 1
		grep -c '^Trace ' "$work/q.log" ;;
	esac
}

# per_iter ARCH PROG: the loop's instructions per iteration.
per_iter() {
	local n1 n2 a b
	case $1 in x86_64) n1=100000 ;; *) n1=2000 ;; esac
	n2=$((2 * n1))
	a=$(count "$1" "$2" "$n1") && b=$(count "$1" "$2" "$n2") || return 1
	awk -v a="$a" -v b="$b" -v n="$n1" 'BEGIN { printf "%g", (b - a) / n }'
}

for arch in x86_64 aarch64 riscv64; do
	method=callgrind
	[ "$arch" = x86_64 ] || method=qemu-singlestep
	declare -A per=()
	ok=yes
	while IFS='=' read -r name cc; do
		# shellcheck disable=SC2086 # cc is a command with options
		if ! $cc -O2 -static -o "$work/$name" "$here/indirect-call.c" 2> "$work/cc.err"; then
			log "$arch $name: cannot build ($cc):"; sed 's/^/  /' "$work/cc.err" >&2
			ok=no; break
		fi
		per[$name]=$(per_iter "$arch" "$work/$name") || { log "$arch $name: cannot count"; ok=no; break; }
	done < <(compilers "$arch")
	[ $ok = yes ] || { echo "$arch $method - - (failed)"; continue; }
	printf '%s %s %s %s gcc=%s kcfi-gcc=%s clang=%s clang-kcfi=%s\n' "$arch" "$method" \
		"$(awk -v a="${per[kcfi-gcc]}" -v b="${per[gcc]}" 'BEGIN { print a - b }')" \
		"$(awk -v a="${per[clang-kcfi]}" -v b="${per[clang]}" 'BEGIN { print a - b }')" \
		"${per[gcc]}" "${per[kcfi-gcc]}" "${per[clang]}" "${per[clang-kcfi]}"
	unset per
done
