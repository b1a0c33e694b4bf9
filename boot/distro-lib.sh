# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by boot/distro-check.sh and boot/dkms-check.sh: a Debian 12 root
# filesystem made by debootstrap from Debian's archive, cached by its
# package lists; the per-boot image (our workload unit, ssh key, web page,
# networkd, mkfs.ext4 -d: no mount, no loop device); one boot under QEMU
# with systemd as init.  The caller sets CACHE, D (boot/distro), DISTRO_SUITE,
# DISTRO_MIRROR, DISTRO_TIMEOUT and a log function.

# debarch ARCH: Debian's name.
debarch() { case $1 in x86_64) echo amd64 ;; arm64) echo arm64 ;; esac; }

# qemu_cmd ARCH: the machine, without disks (QEMU array).
qemu_cmd() {
	case $1 in
	x86_64) QEMU=(qemu-system-x86_64 -M pc -cpu qemu64) CONSOLE=ttyS0 VIRTIO=pci ;;
	arm64) QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57) CONSOLE=ttyAMA0 VIRTIO=pci ;;
	esac
}

# base_root ARCH LIST...: the debootstrapped tree with the packages of the
# LIST files (one a line, # comments), made once per lists; sets BASE.
# arm64 runs debootstrap's second stage in a VM booted with the kernel
# image STAGE_KERNEL names (no binfmt_misc needed on the host); the
# finished tree comes back as a tar written to a second disk.
base_root() {
	local arch=$1 key pk dir n
	shift
	key=$( { echo "$arch $DISTRO_SUITE $DISTRO_MIRROR"; grep -hv '^#' "$@"; } |
		sha256sum | cut -c1-16)
	dir=$CACHE/distro/base-$arch-$key
	BASE=$dir/root
	[ -f "$dir/done" ] && [ -d "$BASE" ] && return 0
	pk=$(grep -hv '^#' "$@" | paste -sd,)
	n=$(grep -hv '^#' "$@" | wc -l)
	mkdir -p "$dir" && rm -rf "$dir/root.tmp" || return 1
	log "$arch: debootstrap $DISTRO_SUITE ($n packages) into $dir"
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

# second_stage ARCH DIR: boot DIR/root.tmp (first stage) with STAGE_KERNEL
# and init=/kcfi-second-stage, which runs debootstrap --second-stage and
# writes the tree as a tar to /dev/vdb; the tar replaces root.tmp.
second_stage() {
	local arch=$1 dir=$2
	[ -f "${STAGE_KERNEL:-}" ] ||
		{ log "$arch: the second stage boots a kernel of ours; none in '${STAGE_KERNEL:-}' (step build)"; return 1; }
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
	log "$arch: debootstrap's second stage in a VM ($STAGE_KERNEL)"
	timeout 7200 "${QEMU[@]}" -smp 2 -m 2048 -accel tcg -display none -monitor none -no-reboot \
		-kernel "$STAGE_KERNEL" -append "root=/dev/vda rw console=$CONSOLE init=/kcfi-second-stage panic=-1" \
		-drive "file=$dir/stage.img,if=virtio,format=raw" -drive "file=$dir/stage.tar,if=virtio,format=raw" \
		-serial "file:$dir/second-stage.log" > "$dir/qemu-second-stage.log" 2>&1
	grep -q 'kcfi-second-stage: done' "$dir/second-stage.log" ||
		{ log "$arch: the second stage failed, see $dir/second-stage.log"; tail -5 "$dir/second-stage.log" >&2; return 1; }
	rm -rf "$dir/root.tmp" && mkdir "$dir/root.tmp" &&
		tar -C "$dir/root.tmp" --numeric-owner -xpf "$dir/stage.tar" &&
		rm -f "$dir/stage.img" "$dir/stage.tar"
}

# image_setup ROOT CLASSES SECONDS: what every boot's tree gets on top of the
# base: names, fstab, networkd on the virtio NIC, our workload unit and its
# settings, an ssh key for ssh localhost, a page for nginx.
image_setup() {
	local r=$1 classes=$2 seconds=$3
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
	STRESS_CLASSES="$classes"
	STRESS_SECONDS=$seconds
	EOF
	# ssh localhost with a key; a page for nginx.
	mkdir -p -m 700 "$r/root/.ssh"
	rm -f "$r/root/.ssh/id_ed25519" "$r/root/.ssh/id_ed25519.pub"
	ssh-keygen -q -t ed25519 -N '' -C kcfi-distro -f "$r/root/.ssh/id_ed25519" || return 1
	cp "$r/root/.ssh/id_ed25519.pub" "$r/root/.ssh/authorized_keys"
	mkdir -p "$r/var/www/html" && echo kcfi-page > "$r/var/www/html/kcfi.html"
}

# image_mkfs ROOT DIR: DIR/root.img (ext4 of ROOT with room to spare) and
# DIR/scratch.img, the second disk the workload formats.
image_mkfs() {
	local r=$1 dir=$2 size
	size=$(( $(du -sm "$r" | cut -f1) + 2048 ))
	rm -f "$dir/root.img" "$dir/scratch.img"
	mkfs.ext4 -q -F -L kcfi-root -d "$r" "$dir/root.img" "${size}M" ||
		{ log "$dir: mkfs.ext4 -d failed"; return 1; }
	truncate -s 256M "$dir/scratch.img"
}

# boot_image ARCH KERNEL INITRD DIR: boot DIR/root.img with KERNEL (and
# INITRD when not empty); the workload's lines go to DIR/results.log, the
# console to DIR/console.log.
boot_image() {
	local arch=$1 kernel=$2 initrd=$3 dir=$4
	qemu_cmd "$arch"
	rm -f "$dir/console.log" "$dir/results.log"
	log "$dir: booting Debian $DISTRO_SUITE ($(cat "$dir/release")), at most ${DISTRO_TIMEOUT}s"
	local t0=$SECONDS ird=()
	[ -n "$initrd" ] && ird=(-initrd "$initrd")
	timeout -k 30 "$DISTRO_TIMEOUT" "${QEMU[@]}" -smp 2 -m 2048 -accel tcg -display none -monitor none -no-reboot \
		-kernel "$kernel" "${ird[@]}" -append "root=/dev/vda rw console=$CONSOLE panic=-1 systemd.status_unit_format=name" \
		-drive "file=$dir/root.img,if=virtio,format=raw" -drive "file=$dir/scratch.img,if=virtio,format=raw" \
		-nic "user,model=virtio-net-pci" -device "virtio-rng-$VIRTIO" -device "virtio-balloon-$VIRTIO" \
		-device "virtio-serial-$VIRTIO" -chardev "file,id=results,path=$dir/results.log" \
		-device virtconsole,chardev=results \
		-serial "file:$dir/console.log" > "$dir/qemu.log" 2>&1
	local rc=$?
	[ $rc -eq 124 ] && echo "distro-check: QEMU timed out after ${DISTRO_TIMEOUT}s" >> "$dir/console.log"
	echo "$((SECONDS - t0))" > "$dir/boot-seconds"
	log "$dir: QEMU exit $rc after $((SECONDS - t0)) s"
}

# distro_initrd_list IMG: gen_init_cpio's list for distro_initrd (a
# directory before what is in it: the kernel's unpacker does not make
# parents).
distro_initrd_list() {
	cat <<-EOF
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /sys 0755 0 0
	dir /newroot 0755 0 0
	file /init $D/initramfs-init 0755 0 0
	EOF
	cloud_initramfs_list "$1"
}

# distro_initrd IMG OUT: an initramfs (gzip'd cpio) for a kernel whose root
# disk driver is a module (Debian's configuration: virtio_blk): IMG's
# stripped modules with busybox's modprobe (cloud_initramfs_list) and an
# init that loads virtio_blk, mounts /dev/vda and hands over to systemd.
distro_initrd() {
	local img=$1 out=$2 list
	[ -x "$CACHE/tools/gen_init_cpio" ] || { log "no $CACHE/tools/gen_init_cpio (step build makes it)"; return 1; }
	list=$(mktemp) || return 1
	distro_initrd_list "$img" > "$list" || { rm -f "$list"; log "$img: no module tree for the initramfs"; return 1; }
	"$CACHE/tools/gen_init_cpio" "$list" | gzip -1 > "$out"
	local rc=${PIPESTATUS[0]}
	rm -f "$list"
	[ "$rc" -eq 0 ] || { log "gen_init_cpio failed for $out"; return 1; }
}
