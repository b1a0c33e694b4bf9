#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A distribution on our kernels: Debian 12 (debootstrap from Debian's
# archive) booted with systemd as init under QEMU (TCG), on the defconfig
# profile's kernels of make boot-check -- kcfi-gcc with CFI (trapping) and
# plain gcc without, the same configuration, and clang-19's own KCFI
# (clang-cfi) as a third, so that a difference from gcc can be told CFI's
# (Clang's kernel has it too) or ours -- each with its modules
# installed in the image, so that udev and the kernel load them.  In each
# boot a unit of ours (boot/distro/kcfi-distro-check.service) waits for
# systemctl is-system-running --wait, lists the failed units, runs sshd,
# nginx, a filesystem on a second disk, link types over netlink, a BPF
# device filter of systemd's and stress-ng's stressors one at a time,
# searches the journal (also units that failed and were restarted) and
# powers off.  boot/distro-judge.sh compares the boots.
#
# Usage: boot/distro-check.sh    (normally `make distro-check`)
# Environment:
#   DISTRO_CONFIG    defconfig (default: the defconfig profile's kernels) or
#                    debian-cloud: Debian's own configuration with BTF
#                    (boot-check.sh BOOT_CONFIG=debian-cloud, rows
#                    x86_64-debian-cloud and x86_64-debian-cloud-plain;
#                    x86_64, kcfi-gcc and gcc), booted through an initramfs
#                    of ours that loads virtio_blk; results in
#                    boot/out/distro-debian-cloud
#   DISTRO_ARCHES    default "x86_64 arm64" (debian-cloud: x86_64)
#   DISTRO_STEPS     default "build image boot judge": build the kernels
#                    (boot-check.sh BOOT_CONFIG=defconfig, rows ARCH and
#                    ARCH-plain, BOOT_BUILD_ONLY=1), make the images, boot
#                    them, compare
#   DISTRO_COMPILERS  default "kcfi-gcc gcc clang-cfi": the kernels the
#                    steps build, image and boot; the judge compares with
#                    the others' last boots in boot/out/distro when one is
#                    left out (a kcfi-gcc boot can run while the gcc kernel
#                    builds); without any clang-cfi boot it compares two
#   DISTRO_BUILD_PREFIX  a command the kernel builds run under (e.g.
#                    "flock /tmp/kbuild.lock nice -n 10"); default none
#   DISTRO_TIMEOUT   seconds per boot (default 7200); a boot that runs out
#                    is reported with the stressor it was in, or the last
#                    unit systemd started
#   DISTRO_STRESS_SECONDS  per stressor (default 3)
#   DISTRO_STRESS_CLASSES  stress-ng classes (default: os scheduler pipe
#                    filesystem interrupt memory network vm io; each
#                    stressor runs once even when in several classes)
#   DISTRO_MIRROR    Debian mirror (default http://deb.debian.org/debian)
#   DISTRO_STAGE_KERNEL  the kernel that boots arm64's debootstrap second
#                    stage (default the plain gcc kernel's image; any arm64
#                    kernel of the profile will do, so that the image need
#                    not wait for both builds)
#   KCFI_BUILDDIR, KCFI_BOOT_CACHE, BOOT_JOBS, BOOT_BUILD_TIMEOUT  as for
#                    boot-check.sh
# Kernels: $KCFI_BOOT_CACHE/build-defconfig/{ARCH,ARCH-plain,ARCH-clang-cfi}/images/strict
# (boot-check.sh's).  Images: $KCFI_BOOT_CACHE/distro/base-ARCH-KEY/root, the
# debootstrapped tree, KEY the hash of boot/distro/packages.list, the suite,
# the mirror and the architecture; per boot a copy with the kernel's
# modules and our unit, made into ext4 by mkfs.ext4 -d (no mount, no loop
# device).  Results: boot/out/distro/ARCH/COMPILER/{console,results}.log;
# the per-arch lines of boot/distro-judge.sh; exit 1 on an unexplained
# difference (boot/distro/explained.tsv), a CFI failure or a hang.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
KCFI_BUILDDIR=$(cd "${KCFI_BUILDDIR:-$top}" && pwd)
DISTRO_CONFIG=${DISTRO_CONFIG:-defconfig}
case $DISTRO_CONFIG in
defconfig)
	DISTRO_ARCHES=${DISTRO_ARCHES:-"x86_64 arm64"}
	DISTRO_COMPILERS=${DISTRO_COMPILERS:-"kcfi-gcc gcc clang-cfi"} ;;
debian-cloud)
	DISTRO_ARCHES=${DISTRO_ARCHES:-x86_64}
	DISTRO_COMPILERS=${DISTRO_COMPILERS:-"kcfi-gcc gcc"} ;;
*)	echo "distro-check: DISTRO_CONFIG must be defconfig or debian-cloud, not '$DISTRO_CONFIG'" >&2; exit 2 ;;
esac
DISTRO_STEPS=${DISTRO_STEPS:-"build image boot judge"}
DISTRO_BUILD_PREFIX=${DISTRO_BUILD_PREFIX:-}
DISTRO_TIMEOUT=${DISTRO_TIMEOUT:-7200}
DISTRO_STRESS_SECONDS=${DISTRO_STRESS_SECONDS:-3}
DISTRO_STRESS_CLASSES=${DISTRO_STRESS_CLASSES:-"os scheduler pipe filesystem interrupt memory network vm io"}
DISTRO_MIRROR=${DISTRO_MIRROR:-http://deb.debian.org/debian}
DISTRO_SUITE=bookworm
BOOT_KERNEL=6.12 KSFX= BOOT_CONFIG=$DISTRO_CONFIG
OUT=$here/out/distro
[ "$DISTRO_CONFIG" = defconfig ] || OUT=$OUT-$DISTRO_CONFIG
D=$here/distro
. "$here/lib.sh"
. "$here/distro-lib.sh"
. "$here/cloud-lib.sh"
log() { printf 'distro-check: [%s] %s\n' "$(elapsed)" "$*" >&2; }
boot_cache || exit 1
BUILDS=$CACHE/build-$DISTRO_CONFIG
mkdir -p "$OUT" "$CACHE/distro" || exit 1

step() { case " $DISTRO_STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

for c in $DISTRO_COMPILERS; do
	case $c in kcfi-gcc|gcc|clang-cfi) ;;
	*) log "DISTRO_COMPILERS: $c is not kcfi-gcc, gcc or clang-cfi"; exit 2 ;;
	esac
	[ "$DISTRO_CONFIG:$c" = debian-cloud:clang-cfi ] &&
		{ log "DISTRO_COMPILERS: no clang-cfi build of Debian's configuration (boot-check.sh has none)"; exit 2; }
done
for a in $DISTRO_ARCHES; do
	case $DISTRO_CONFIG:$a in defconfig:x86_64|defconfig:arm64|debian-cloud:x86_64) ;;
	*) log "DISTRO_ARCHES: $a is not one of $DISTRO_CONFIG's (defconfig: x86_64 arm64; debian-cloud: x86_64)"; exit 2 ;;
	esac
done
missing=
for t in debootstrap mkfs.ext4 timeout; do command -v "$t" > /dev/null || missing="$missing $t"; done
[ -z "$missing" ] || { log "missing:$missing (scripts/install-deps.sh --with-boot: debootstrap e2fsprogs)"; exit 2; }
[ "$(id -u)" -eq 0 ] || { log "debootstrap and an image of root's files need root"; exit 2; }

# krow ARCH COMPILER: boot-check's row of that kernel; kimg ARCH COMPILER:
# its build.
krow() {
	local base=$1
	[ "$DISTRO_CONFIG" = debian-cloud ] && base=$1-debian-cloud
	case $2 in
	kcfi-gcc) echo "$base" ;;
	gcc) echo "$base-plain" ;;
	clang-cfi) echo "$base-clang-cfi" ;;
	esac
}
kimg() { echo "$BUILDS/$(krow "$1" "$2")/images/strict"; }

# kmods IMG: the installed (stripped) module tree of a build: the
# defconfig profile's modules/, debian-cloud's modules-boot/.
kmods() {
	if [ -d "$1/modules/lib/modules" ]; then echo "$1/modules"; else echo "$1/modules-boot"; fi
}

# make_image ARCH COMPILER: boot/out/distro/ARCH/COMPILER/root.img, the base
# tree plus the kernel's modules and our workload.
make_image() {
	local arch=$1 cc=$2 img w dir=$OUT/$1/$2 rel mods
	img=$(kimg "$arch" "$cc")
	mods=$(kmods "$img")
	[ -d "$mods/lib/modules" ] ||
		{ log "$arch/$cc: no kernel with modules in $img (step build)"; return 1; }
	rel=$(ls "$mods/lib/modules" | head -1)
	w=$CACHE/distro/work-$arch-$cc
	rm -rf "$w" && mkdir -p "$w" "$dir" || return 1
	cp -a "$BASE" "$w/root" || return 1
	mkdir -p "$w/root/usr/lib/modules" && cp -a "$mods/lib/modules/$rel" "$w/root/usr/lib/modules/" &&
	image_setup "$w/root" "$DISTRO_STRESS_CLASSES" "$DISTRO_STRESS_SECONDS" &&
	image_mkfs "$w/root" "$dir" || return 1
	rm -rf "$w"
	echo "$rel" > "$dir/release"
	# Debian's configuration has virtio_blk as a module: the root disk
	# needs an initramfs that loads it.
	rm -f "$dir/initrd"
	if [ "$DISTRO_CONFIG" = debian-cloud ]; then
		distro_initrd "$img" "$dir/initrd" || return 1
	fi
}

# boot_one ARCH COMPILER: boot the image, results in boot/out/distro/ARCH/COMPILER.
# (a kernel whose disk drivers are modules comes with an initramfs)
boot_one() {
	local img ird=
	img=$(kimg "$1" "$2")
	[ -f "$img/initrd" ] && ird=$img/initrd
	[ -f "$OUT/$1/$2/initrd" ] && ird=$OUT/$1/$2/initrd
	boot_image "$1" "$img/image" "$ird" "$OUT/$1/$2"
}

status=0
lines=()
for arch in $DISTRO_ARCHES; do
	if step build; then
		rows=
		for cc in $DISTRO_COMPILERS; do rows="$rows $(krow "$arch" "$cc")"; done
		log "$arch: kernels (boot-check.sh BOOT_CONFIG=$DISTRO_CONFIG, rows$rows), log in $OUT/build-$arch.log"
		$DISTRO_BUILD_PREFIX env BOOT_BUILD_ONLY=1 BOOT_CONFIG="$DISTRO_CONFIG" BOOT_ARCHES="$arch" \
			BOOT_VARIANTS="${rows# }" KCFI_BUILDDIR="$KCFI_BUILDDIR" \
			bash "$here/boot-check.sh" > "$OUT/build-$arch.log" 2>&1
		for cc in $DISTRO_COMPILERS; do
			[ -f "$(kimg "$arch" "$cc")/image" ] ||
				{ log "$arch/$cc: kernel build failed, see $OUT/build-$arch.log"; status=1; continue 2; }
		done
	fi
	if step image; then
		STAGE_KERNEL=${DISTRO_STAGE_KERNEL:-$(kimg "$arch" gcc)/image}
		base_root "$arch" "$D/packages.list" || { status=1; continue; }
		for cc in $DISTRO_COMPILERS; do
			make_image "$arch" "$cc" || { status=1; continue 2; }
		done
	fi
	if step boot; then
		for cc in $DISTRO_COMPILERS; do boot_one "$arch" "$cc"; done
	fi
	if step judge; then
		d=$OUT/$arch
		# Clang's boot: this run's, else one left from an earlier run
		third=()
		if [[ " $DISTRO_COMPILERS " == *" clang-cfi "* ]] || [ -f "$d/clang-cfi/results.log" ]; then
			third=("$d/clang-cfi/results.log" "$d/clang-cfi/console.log")
		fi
		bash "$here/distro-judge.sh" compare "$arch" "$D/explained.tsv" \
			"$d/kcfi-gcc/results.log" "$d/kcfi-gcc/console.log" \
			"$d/gcc/results.log" "$d/gcc/console.log" "${third[@]}" > "$d/judge.txt"
		[ $? -eq 0 ] || status=1
		grep -v '^distro ' "$d/judge.txt" | grep -v '^explained: ' >&2
		lines+=("$(grep '^distro ' "$d/judge.txt")")
		for cc in kcfi-gcc gcc clang-cfi; do
			[ -f "$d/$cc/results.log" ] || continue
			u=$(sed -n 's/.*kcfi-distro: uptime-at-running //p' "$d/$cc/results.log" 2>/dev/null | tr -d '\r')
			log "$arch/$cc: systemd running after ${u:-?} s of uptime, boot $(cat "$d/$cc/boot-seconds" 2>/dev/null || echo ?) s, kernel built in $(cat "$(kimg "$arch" "$cc")/build-seconds" 2>/dev/null || echo ?) s"
		done
	fi
done
echo
for l in "${lines[@]}"; do echo "$l"; done
exit $status
