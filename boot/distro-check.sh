#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A distribution on our kernels: Debian 12 (debootstrap from Debian's
# archive) booted with systemd as init under QEMU (TCG), on the defconfig
# profile's kernels of make boot-check -- kcfi-gcc with CFI (trapping) and
# plain gcc without, the same configuration -- each with its modules
# installed in the image, so that udev and the kernel load them.  In each
# boot a unit of ours (boot/distro/kcfi-distro-check.service) waits for
# systemctl is-system-running --wait, lists the failed units, runs sshd,
# nginx, a filesystem on a second disk, link types over netlink, a BPF
# device filter of systemd's and stress-ng's stressors one at a time,
# searches the journal and powers off.  boot/distro-judge.sh compares the
# two boots.
#
# Usage: boot/distro-check.sh    (normally `make distro-check`)
# Environment:
#   DISTRO_ARCHES    default "x86_64 arm64"
#   DISTRO_STEPS     default "build image boot judge": build the kernels
#                    (boot-check.sh BOOT_CONFIG=defconfig, rows ARCH and
#                    ARCH-plain, BOOT_BUILD_ONLY=1), make the images, boot
#                    them, compare
#   DISTRO_COMPILERS  default "kcfi-gcc gcc": the kernels the steps build,
#                    image and boot; the judge compares with the other's
#                    last boot in boot/out/distro when one is left out (a
#                    kcfi-gcc boot can run while the gcc kernel builds)
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
#   KCFI_BUILDDIR, KCFI_BOOT_CACHE, BOOT_JOBS, BOOT_BUILD_TIMEOUT  as for
#                    boot-check.sh
# Kernels: $KCFI_BOOT_CACHE/build-defconfig/{ARCH,ARCH-plain}/images/strict
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
DISTRO_ARCHES=${DISTRO_ARCHES:-"x86_64 arm64"}
DISTRO_STEPS=${DISTRO_STEPS:-"build image boot judge"}
DISTRO_COMPILERS=${DISTRO_COMPILERS:-"kcfi-gcc gcc"}
DISTRO_BUILD_PREFIX=${DISTRO_BUILD_PREFIX:-}
DISTRO_TIMEOUT=${DISTRO_TIMEOUT:-7200}
DISTRO_STRESS_SECONDS=${DISTRO_STRESS_SECONDS:-3}
DISTRO_STRESS_CLASSES=${DISTRO_STRESS_CLASSES:-"os scheduler pipe filesystem interrupt memory network vm io"}
DISTRO_MIRROR=${DISTRO_MIRROR:-http://deb.debian.org/debian}
DISTRO_SUITE=bookworm
BOOT_KERNEL=6.12 KSFX= BOOT_CONFIG=defconfig
OUT=$here/out/distro
D=$here/distro
. "$here/lib.sh"
log() { printf 'distro-check: [%s] %s\n' "$(elapsed)" "$*" >&2; }
boot_cache || exit 1
BUILDS=$CACHE/build-defconfig
mkdir -p "$OUT" "$CACHE/distro" || exit 1

step() { case " $DISTRO_STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

for c in $DISTRO_COMPILERS; do
	case $c in kcfi-gcc|gcc) ;;
	*) log "DISTRO_COMPILERS: $c is not kcfi-gcc or gcc"; exit 2 ;;
	esac
done
for a in $DISTRO_ARCHES; do
	case $a in x86_64|arm64) ;;
	*) log "DISTRO_ARCHES: $a is not x86_64 or arm64"; exit 2 ;;
	esac
done
missing=
for t in debootstrap mkfs.ext4 timeout; do command -v "$t" > /dev/null || missing="$missing $t"; done
[ -z "$missing" ] || { log "missing:$missing (scripts/install-deps.sh --with-boot: debootstrap e2fsprogs)"; exit 2; }
[ "$(id -u)" -eq 0 ] || { log "debootstrap and an image of root's files need root"; exit 2; }

# kimg ARCH COMPILER: the boot-check build of that kernel.
kimg() {
	case $2 in
	kcfi-gcc) echo "$BUILDS/$1/images/strict" ;;
	gcc) echo "$BUILDS/$1-plain/images/strict" ;;
	esac
}

# debarch ARCH: Debian's name.
debarch() { case $1 in x86_64) echo amd64 ;; arm64) echo arm64 ;; esac; }

# qemu_cmd ARCH: the machine, without disks (QEMU array).
qemu_cmd() {
	case $1 in
	x86_64) QEMU=(qemu-system-x86_64 -M pc -cpu qemu64) CONSOLE=ttyS0 VIRTIO=pci ;;
	arm64) QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57) CONSOLE=ttyAMA0 VIRTIO=pci ;;
	esac
}

# base_root ARCH: the debootstrapped tree, made once per package list;
# sets BASE.  arm64 runs debootstrap's second stage in a VM booted with
# the plain gcc arm64 kernel (no binfmt_misc needed on the host); the
# finished tree comes back as a tar written to a second disk.
base_root() {
	local arch=$1 key pk dir
	key=$( { echo "$arch $DISTRO_SUITE $DISTRO_MIRROR"; grep -v '^#' "$D/packages.list"; } |
		sha256sum | cut -c1-16)
	dir=$CACHE/distro/base-$arch-$key
	BASE=$dir/root
	[ -f "$dir/done" ] && [ -d "$BASE" ] && return 0
	pk=$(grep -v '^#' "$D/packages.list" | paste -sd,)
	mkdir -p "$dir" && rm -rf "$dir/root.tmp" || return 1
	log "$arch: debootstrap $DISTRO_SUITE ($(grep -vc '^#' "$D/packages.list") packages) into $dir"
	if [ "$arch" = x86_64 ]; then
		debootstrap --variant=minbase --arch=amd64 --include="$pk" "$DISTRO_SUITE" \
			"$dir/root.tmp" "$DISTRO_MIRROR" > "$dir/debootstrap.log" 2>&1 ||
			{ log "debootstrap failed, see $dir/debootstrap.log"; tail -5 "$dir/debootstrap.log" >&2; return 1; }
	else
		debootstrap --foreign --variant=minbase --arch="$(debarch "$arch")" --include="$pk" \
			"$DISTRO_SUITE" "$dir/root.tmp" "$DISTRO_MIRROR" > "$dir/debootstrap.log" 2>&1 ||
			{ log "debootstrap --foreign failed, see $dir/debootstrap.log"; return 1; }
		second_stage "$arch" "$dir" || return 1
	fi
	rm -rf "$BASE" && mv "$dir/root.tmp" "$BASE" && date -u +%FT%TZ > "$dir/done"
}

# second_stage ARCH DIR: boot DIR/root.tmp (first stage) with the plain
# kernel and init=/kcfi-second-stage, which runs debootstrap --second-stage
# and writes the tree as a tar to /dev/vdb; the tar replaces root.tmp.
second_stage() {
	local arch=$1 dir=$2 img
	img=$(kimg "$arch" gcc)
	[ -f "$img/image" ] || { log "$arch: the second stage boots the gcc kernel; none in $img (step build)"; return 1; }
	cat > "$dir/root.tmp/kcfi-second-stage" <<-'EOF'
	#!/bin/sh
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -o remount,rw /
	if /debootstrap/debootstrap --second-stage; then
		rm -f /kcfi-second-stage.tmp
		tar -C / --one-file-system --exclude=./kcfi-second-stage -cf /dev/vdb . &&
			echo "kcfi-second-stage: done"
	else
		echo "kcfi-second-stage: failed"; tail -20 /debootstrap/debootstrap.log
	fi
	sync
	echo o > /proc/sysrq-trigger
	EOF
	chmod 755 "$dir/root.tmp/kcfi-second-stage"
	local size
	size=$(( $(du -sm "$dir/root.tmp" | cut -f1) * 3 + 1024 ))
	mkfs.ext4 -q -F -d "$dir/root.tmp" "$dir/stage.img" "${size}M" || return 1
	rm -f "$dir/stage.tar" && truncate -s "$((size * 2))M" "$dir/stage.tar"
	qemu_cmd "$arch"
	log "$arch: debootstrap's second stage in a VM (the gcc kernel)"
	timeout 7200 "${QEMU[@]}" -smp 2 -m 2048 -accel tcg -display none -monitor none -no-reboot \
		-kernel "$img/image" -append "root=/dev/vda rw console=$CONSOLE init=/kcfi-second-stage panic=-1" \
		-drive "file=$dir/stage.img,if=virtio,format=raw" -drive "file=$dir/stage.tar,if=virtio,format=raw" \
		-serial "file:$dir/second-stage.log" > "$dir/qemu-second-stage.log" 2>&1
	grep -q 'kcfi-second-stage: done' "$dir/second-stage.log" ||
		{ log "$arch: the second stage failed, see $dir/second-stage.log"; tail -5 "$dir/second-stage.log" >&2; return 1; }
	rm -rf "$dir/root.tmp" && mkdir "$dir/root.tmp" &&
		tar -C "$dir/root.tmp" --numeric-owner -xpf "$dir/stage.tar" &&
		rm -f "$dir/stage.img" "$dir/stage.tar"
}

# make_image ARCH COMPILER: boot/out/distro/ARCH/COMPILER/root.img, the base
# tree plus the kernel's modules and our workload.
make_image() {
	local arch=$1 cc=$2 img w dir=$OUT/$1/$2 rel
	img=$(kimg "$arch" "$cc")
	[ -d "$img/modules/lib/modules" ] ||
		{ log "$arch/$cc: no kernel with modules in $img (step build)"; return 1; }
	rel=$(ls "$img/modules/lib/modules" | head -1)
	w=$CACHE/distro/work-$arch-$cc
	rm -rf "$w" && mkdir -p "$w" "$dir" || return 1
	cp -a "$BASE" "$w/root" || return 1
	local r=$w/root
	mkdir -p "$r/usr/lib/modules" && cp -a "$img/modules/lib/modules/$rel" "$r/usr/lib/modules/" || return 1
	echo kcfi-distro > "$r/etc/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\tkcfi-distro\n::1\tlocalhost ip6-localhost\n' > "$r/etc/hosts"
	printf '/dev/vda\t/\text4\tdefaults\t0\t1\n' > "$r/etc/fstab"
	# systemd-networkd on the virtio NIC (QEMU's user network has DHCP).
	mkdir -p "$r/etc/systemd/network"
	printf '[Match]\nName=en* eth*\n\n[Network]\nDHCP=yes\n' > "$r/etc/systemd/network/50-kcfi.network"
	local sys=$r/etc/systemd/system
	mkdir -p "$sys/multi-user.target.wants" "$sys/sockets.target.wants" "$sys/network-online.target.wants"
	ln -sfn /lib/systemd/system/systemd-networkd.service "$sys/multi-user.target.wants/systemd-networkd.service"
	ln -sfn /lib/systemd/system/systemd-networkd.socket "$sys/sockets.target.wants/systemd-networkd.socket"
	ln -sfn /lib/systemd/system/systemd-networkd-wait-online.service \
		"$sys/network-online.target.wants/systemd-networkd-wait-online.service"
	# Our workload; its results go to the virtio console, hvc0, where
	# systemd would otherwise start a getty.
	install -m 755 "$D/kcfi-distro-check" "$r/usr/local/sbin/kcfi-distro-check" &&
	install -m 644 "$D/kcfi-distro-check.service" "$sys/kcfi-distro-check.service" &&
	install -m 644 "$D/exclude.tsv" "$r/etc/kcfi-distro-exclude.tsv" || return 1
	ln -sfn /etc/systemd/system/kcfi-distro-check.service "$sys/multi-user.target.wants/kcfi-distro-check.service"
	ln -sfn /dev/null "$sys/serial-getty@hvc0.service"
	cat > "$r/etc/kcfi-distro.conf" <<-EOF
	RESULTS=/dev/hvc0
	STRESS_CLASSES="$DISTRO_STRESS_CLASSES"
	STRESS_SECONDS=$DISTRO_STRESS_SECONDS
	EOF
	# ssh localhost with a key; a page for nginx.
	mkdir -p -m 700 "$r/root/.ssh"
	ssh-keygen -q -t ed25519 -N '' -C kcfi-distro -f "$r/root/.ssh/id_ed25519" || return 1
	cp "$r/root/.ssh/id_ed25519.pub" "$r/root/.ssh/authorized_keys"
	mkdir -p "$r/var/www/html" && echo kcfi-page > "$r/var/www/html/kcfi.html"
	local size
	size=$(( $(du -sm "$r" | cut -f1) + 2048 ))
	rm -f "$dir/root.img" "$dir/scratch.img"
	mkfs.ext4 -q -F -L kcfi-root -d "$r" "$dir/root.img" "${size}M" ||
		{ log "$arch/$cc: mkfs.ext4 -d failed"; return 1; }
	truncate -s 256M "$dir/scratch.img"
	rm -rf "$w"
	echo "$rel" > "$dir/release"
}

# boot ARCH COMPILER: boot the image, results in boot/out/distro/ARCH/COMPILER.
boot_one() {
	local arch=$1 cc=$2 img dir=$OUT/$1/$2
	img=$(kimg "$arch" "$cc")
	qemu_cmd "$arch"
	rm -f "$dir/console.log" "$dir/results.log"
	log "$arch/$cc: booting Debian $DISTRO_SUITE ($(cat "$dir/release")), at most ${DISTRO_TIMEOUT}s"
	local t0=$SECONDS initrd=()
	# (a kernel whose disk drivers are modules comes with an initramfs)
	[ -f "$img/initrd" ] && initrd=(-initrd "$img/initrd")
	timeout -k 30 "$DISTRO_TIMEOUT" "${QEMU[@]}" -smp 2 -m 2048 -accel tcg -display none -monitor none -no-reboot \
		-kernel "$img/image" "${initrd[@]}" -append "root=/dev/vda rw console=$CONSOLE panic=-1 systemd.status_unit_format=name" \
		-drive "file=$dir/root.img,if=virtio,format=raw" -drive "file=$dir/scratch.img,if=virtio,format=raw" \
		-nic "user,model=virtio-net-pci" -device "virtio-rng-$VIRTIO" -device "virtio-balloon-$VIRTIO" \
		-device "virtio-serial-$VIRTIO" -chardev "file,id=results,path=$dir/results.log" \
		-device virtconsole,chardev=results \
		-serial "file:$dir/console.log" > "$dir/qemu.log" 2>&1
	local rc=$?
	[ $rc -eq 124 ] && echo "distro-check: QEMU timed out after ${DISTRO_TIMEOUT}s" >> "$dir/console.log"
	echo "$((SECONDS - t0))" > "$dir/boot-seconds"
	log "$arch/$cc: QEMU exit $rc after $((SECONDS - t0)) s"
}

status=0
lines=()
for arch in $DISTRO_ARCHES; do
	if step build; then
		rows=
		for cc in $DISTRO_COMPILERS; do
			case $cc in kcfi-gcc) rows="$rows $arch" ;; gcc) rows="$rows $arch-plain" ;; esac
		done
		log "$arch: kernels (boot-check.sh BOOT_CONFIG=defconfig, rows$rows), log in $OUT/build-$arch.log"
		$DISTRO_BUILD_PREFIX env BOOT_BUILD_ONLY=1 BOOT_CONFIG=defconfig BOOT_ARCHES="$arch" \
			BOOT_VARIANTS="${rows# }" KCFI_BUILDDIR="$KCFI_BUILDDIR" \
			bash "$here/boot-check.sh" > "$OUT/build-$arch.log" 2>&1
		for cc in $DISTRO_COMPILERS; do
			[ -f "$(kimg "$arch" "$cc")/image" ] ||
				{ log "$arch/$cc: kernel build failed, see $OUT/build-$arch.log"; status=1; continue 2; }
		done
	fi
	if step image; then
		base_root "$arch" || { status=1; continue; }
		for cc in $DISTRO_COMPILERS; do
			make_image "$arch" "$cc" || { status=1; continue 2; }
		done
	fi
	if step boot; then
		for cc in $DISTRO_COMPILERS; do boot_one "$arch" "$cc"; done
	fi
	if step judge; then
		d=$OUT/$arch
		bash "$here/distro-judge.sh" compare "$arch" "$D/explained.tsv" \
			"$d/kcfi-gcc/results.log" "$d/kcfi-gcc/console.log" \
			"$d/gcc/results.log" "$d/gcc/console.log" > "$d/judge.txt"
		[ $? -eq 0 ] || status=1
		grep -v '^distro ' "$d/judge.txt" | grep -v '^explained: ' >&2
		lines+=("$(grep '^distro ' "$d/judge.txt")")
		for cc in kcfi-gcc gcc; do
			u=$(sed -n 's/.*kcfi-distro: uptime-at-running //p' "$d/$cc/results.log" 2>/dev/null | tr -d '\r')
			log "$arch/$cc: systemd running after ${u:-?} s of uptime, boot $(cat "$d/$cc/boot-seconds" 2>/dev/null || echo ?) s, kernel built in $(cat "$(kimg "$arch" "$cc")/build-seconds" 2>/dev/null || echo ?) s"
		done
	fi
done
echo
for l in "${lines[@]}"; do echo "$l"; done
exit $status
