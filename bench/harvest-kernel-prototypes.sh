#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Redo bench/data/ from a kernel built by boot/boot-check.sh (x86_64, route cc,
# CONFIG_CFI_CLANG): the only bench step that needs that kernel tree.
#
# Usage: bench/harvest-kernel-prototypes.sh [KCFI_BUILDDIR]
#   KCFI_BUILDDIR    kcfi-as build tree holding kcfi-gcc (default: the
#                    directory above this script)
# Environment:
#   KCFI_BOOT_CACHE  the boot cache (default /var/cache/kcfi-boot)
#   HARVEST_KBUILD   the kernel build dir (default $KCFI_BOOT_CACHE/build/x86_64)
#   HARVEST_JOBS     compilations at once (default 2)
#   HARVEST_MAX      distinct prototypes to keep (default 20000)
#   HARVEST_TUS      the kernel TUs (object paths) that go, preprocessed, into
#                    bench/data/kernel-tus.tar.xz for the plugin measure
#   HARVEST_WORK     where the .s files go (default $TMPDIR/kcfi-harvest; kept,
#                    so that a second run only compiles what is missing)
#
# How: every C file of the kernel build compiled by kcfi-gcc is compiled once
# more, by the kcfi-gcc of KCFI_BUILDDIR, with the command kbuild saved in its
# .<name>.o.cmd, run from the kernel build dir as kbuild does, with -S into
# HARVEST_WORK instead of -c there (and without -Wp,-MMD, so that nothing of
# the kernel build changes).  Each `.kcfi_type ID, "TEXT"` of the .s files is
# collected; the TEXTs are deduplicated in the order of first appearance (the
# TUs taken in sorted order) and the first HARVEST_MAX of them written, one a
# line, to bench/data/kernel-prototypes.txt.xz.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/..}" && pwd)
cache=${KCFI_BOOT_CACHE:-/var/cache/kcfi-boot}
kbuild=${HARVEST_KBUILD:-$cache/build/x86_64}
jobs=${HARVEST_JOBS:-2}
max=${HARVEST_MAX:-20000}
tus=${HARVEST_TUS:-"drivers/base/bus.o drivers/base/property.o fs/libfs.o kernel/sched/core.o"}
work=${HARVEST_WORK:-${TMPDIR:-/tmp}/kcfi-harvest}
data=$here/data
cc=$build/kcfi-gcc

[ -x "$cc" ] || { echo "$0: no $cc (build kcfi-as first)" >&2; exit 1; }
[ -f "$kbuild/vmlinux" ] || { echo "$0: no kernel build in $kbuild (make boot-check builds it)" >&2; exit 1; }
grep -q '^CONFIG_CFI_CLANG=y' "$kbuild/.config" || { echo "$0: $kbuild is not a CONFIG_CFI_CLANG build" >&2; exit 1; }
mkdir -p "$work/s" "$work/tus" "$data"

# The saved commands: "OBJ<TAB>the compiler's command line with -S into work".
# Only kcfi-gcc's compilations of C files; the objtool run that follows ";"
# is dropped.
(cd "$kbuild" && find . -name '.*.o.cmd' | LC_ALL=C sort) | while read -r f; do
	sed -n '1{s/^savedcmd_\([^ ]*\) := \([^ ]*kcfi-gcc\) \(.* -c -o [^ ]* [^ ]*\.c\)\( *;.*\)\{0,1\} *$/\1\t\3/p;q}' "$kbuild/$f"
done | awk -F '\t' -v cc="$cc" -v work="$work" '{
	obj = $1; cmd = $2
	gsub(/-Wp,-MMD,[^ ]*/, "", cmd)
	s = obj; sub(/\.o$/, ".s", s); gsub(/\//, "__", s)
	sub(/ -c -o [^ ]* /, " -fsanitize-kcfi-annotated-asm -S -o " work "/s/" s " ", cmd)
	printf "%s\t%s %s\n", obj, cc, cmd
}' > "$work/commands"
echo "harvest: $(wc -l < "$work/commands") kernel C files compiled by kcfi-gcc" >&2

# compile each one not done yet (a .s is written under a temporary name first)
cut -f 2 "$work/commands" | while read -r cmd; do
	s=$(printf "%s\n" "$cmd" | sed 's/.* -S -o \([^ ]*\) .*/\1/')
	[ -f "$s" ] || printf "%s\n" "$cmd"
done | tr '\n' '\0' > "$work/pending"
# shellcheck disable=SC2016 # the inner shell expands them
(cd "$kbuild" && xargs -0 -r -P "$jobs" -n 1 sh -c '
	s=$(printf "%s\n" "$1" | sed "s/.* -S -o \([^ ]*\) .*/\1/")
	if sh -c "$(printf "%s\n" "$1" | sed "s| -S -o $s | -S -o $s.tmp |")"; then mv "$s.tmp" "$s"
	else echo "harvest: failed: $1" >&2; fi' sh < "$work/pending")

# the distinct prototype texts, in order of first appearance
cut -f 1 "$work/commands" | sed 's/\.o$/.s/; s|/|__|g' | while read -r s; do
	[ -f "$work/s/$s" ] && cat "$work/s/$s"
done | sed -n 's/^[[:space:]]*\.kcfi_type [0-9]*, "\(.*\)"$/\1/p' | awk '!seen[$0]++' > "$work/all"
echo "harvest: $(find "$work/s" -name '*.s' | wc -l) .s files, $(wc -l < "$work/all") distinct prototypes; keeping at most $max" >&2
head -n "$max" "$work/all" | xz -9e > "$data/kernel-prototypes.txt.xz"

# A few whole TUs for the plugin's cost: each preprocessed (kcfi-gcc -E with
# its own command) into NAME.i, its compiler flags without the preprocessor's
# (-I, -D, -include ...) into NAME.flags, one per line.
rm -rf "$work/tus" && mkdir -p "$work/tus"
for obj in $tus; do
	name=$(echo "$obj" | sed 's/\.o$//; s|/|__|g')
	cmd=$(awk -F '\t' -v o="$obj" '$1 == o { print $2 }' "$work/commands")
	[ -n "$cmd" ] || { echo "$0: $obj is not in the kernel build" >&2; exit 1; }
	(cd "$kbuild" && sh -c "$(printf '%s\n' "$cmd" | sed "s| -S -o [^ ]* | -E -o $work/tus/$name.i |")")
	# shellcheck disable=SC2086 # the saved command, split as kbuild's shell does
	eval "set -- $cmd"
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		-include|-o) shift ;;
		-I*|-D*|-nostdinc|-fmacro-prefix-map=*|-S|*.c) ;;
		*) printf "%s\n" "$1" ;;
		esac
		shift
	done > "$work/tus/$name.flags"
done
(cd "$work/tus" && LC_ALL=C tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - ./*.i ./*.flags) |
	xz -9e > "$data/kernel-tus.tar.xz"
ls -l "$data" >&2
