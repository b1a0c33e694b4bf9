#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Out-of-tree modules as users get them: the kcfi-gcc kernel installed in a
# Debian 12 image the way Debian installs kernels (make bindeb-pkg: image and
# headers packages, dpkg), our own package (make deb) installed with apt,
# and Debian 12's DKMS packages (v4l2loopback-dkms, gost-crypto-dkms,
# falcosecurity-scap-dkms) built by dkms when the kernel package is
# installed -- with the compiler the headers package's .config names
# (CONFIG_CFI_GCC_DRIVER, our kernel patch 0002), nothing passed by hand.  Then, in the image: a module built
# with plain gcc against the headers must stop with a message naming
# kcfi-gcc; and the image boots under QEMU with systemd, where
# boot/distro/dkms/dkms.sh loads and uses each module (a v4l2loopback frame
# written and read back, gost-crypto's Streebog through AF_ALG against
# rhash, system calls captured by sysdig through scap) beside the
# distro-check workload's checks.
#
# Usage: boot/dkms-check.sh    (normally `make dkms-check`; root)
# Environment:
#   DKMS_STEPS      default "build deb image boot judge"
#   DKMS_KERNEL     6.1 (default: Debian 12's own, which its DKMS packages
#                   are made for)
#   DISTRO_TIMEOUT, DISTRO_MIRROR  as for distro-check.sh (boot timeout
#                   default 3600 s here)
#   DKMS_STRESS_CLASSES  stress-ng classes of the workload (default "pipe
#                   scheduler": the full workload is distro-check's)
#   KCFI_BUILDDIR, KCFI_BOOT_CACHE  as for boot-check.sh
# Kernel: boot-check.sh BOOT_CONFIG=defconfig BOOT_DEB=1, row x86_64.
# Results: boot/out/dkms/{dpkg.log,dkms-status.txt,modules.txt,plain-gcc.log,
# console.log,results.log,judge.txt}; one line
#   dkms x86_64 (Linux V): built M/N by kcfi-gcc (...), plain gcc refused
#   yes|no; checks ok A, failed B; state S, failed units U; scap events E;
#   cfi F
# (boot/dkms-judge.sh) and exit 1 unless every module was built with KCFI,
# loaded and used, plain gcc was refused with the message, and no CFI
# failure was reported.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
KCFI_BUILDDIR=$(cd "${KCFI_BUILDDIR:-$top}" && pwd)
DKMS_STEPS=${DKMS_STEPS:-"build deb image boot judge"}
DKMS_KERNEL=${DKMS_KERNEL:-6.1}
DKMS_STRESS_CLASSES=${DKMS_STRESS_CLASSES:-"pipe scheduler"}
DISTRO_TIMEOUT=${DISTRO_TIMEOUT:-3600}
DISTRO_MIRROR=${DISTRO_MIRROR:-http://deb.debian.org/debian}
DISTRO_SUITE=bookworm
BOOT_KERNEL=$DKMS_KERNEL
KSFX=
[ "$BOOT_KERNEL" = 6.12 ] || KSFX=-$BOOT_KERNEL
OUT=$here/out/dkms
D=$here/distro
ARCH=x86_64
# The DKMS packages of the check, in Debian 12's names.
MODULES="v4l2loopback gost-crypto scap"
. "$here/lib.sh"
. "$here/distro-lib.sh"
log() { printf 'dkms-check: [%s] %s\n' "$(elapsed)" "$*" >&2; }
boot_cache || exit 1
IMG=$CACHE/build-defconfig$KSFX-deb/$ARCH/images/strict
mkdir -p "$OUT" "$CACHE/distro" || exit 1
step() { case " $DKMS_STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

missing=
for t in debootstrap mkfs.ext4 timeout dpkg-deb chroot gcc; do command -v "$t" > /dev/null || missing="$missing $t"; done
[ -z "$missing" ] || { log "missing:$missing (scripts/install-deps.sh --with-boot)"; exit 2; }
[ "$(id -u)" -eq 0 ] || { log "debootstrap, chroot and an image of root's files need root"; exit 2; }

# in_root ROOT CMD...: CMD in the image's tree, with a fresh proc and sysfs
# (never bind mounts: the tree is deleted later) and no service started.
in_root() {
	local r=$1 rc
	shift
	printf '#!/bin/sh\nexit 101\n' > "$r/usr/sbin/policy-rc.d" && chmod 755 "$r/usr/sbin/policy-rc.d"
	mount -t proc proc "$r/proc" || { rm -f "$r/usr/sbin/policy-rc.d"; return 1; }
	mount -t sysfs sysfs "$r/sys" || { umount "$r/proc"; rm -f "$r/usr/sbin/policy-rc.d"; return 1; }
	chroot "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$@"
	rc=$?
	umount "$r/sys" "$r/proc"
	rm -f "$r/usr/sbin/policy-rc.d"
	return $rc
}

# mounted_below DIR: a mount point at or below DIR (then nothing deletes it).
mounted_below() { awk -v d="$1" '$2 == d || index($2, d "/") == 1 { f = 1 } END { exit !f }' /proc/mounts; }

status=0
if step build; then
	log "kernel: boot-check.sh BOOT_CONFIG=defconfig BOOT_KERNEL=$BOOT_KERNEL BOOT_DEB=1, log in $OUT/build.log"
	env BOOT_BUILD_ONLY=1 BOOT_CONFIG=defconfig BOOT_KERNEL="$BOOT_KERNEL" BOOT_DEB=1 \
		BOOT_ARCHES=$ARCH BOOT_VARIANTS=$ARCH KCFI_BUILDDIR="$KCFI_BUILDDIR" \
		bash "$here/boot-check.sh" > "$OUT/build.log" 2>&1
	ls "$IMG"/debs/linux-image-*.deb > /dev/null 2>&1 ||
		{ log "no kernel packages in $IMG/debs, see $OUT/build.log"; exit 1; }
fi
# Our package, made from the build tree's sources by make deb.
if step deb; then
	log "kcfi-as package: make deb in $KCFI_BUILDDIR, log in $OUT/make-deb.log"
	make -C "$KCFI_BUILDDIR" deb > "$OUT/make-deb.log" 2>&1 ||
		{ log "make deb failed, see $OUT/make-deb.log"; exit 1; }
fi
ourdeb=$(ls -t "$KCFI_BUILDDIR"/kcfi-as_*_amd64.deb 2>/dev/null | head -1)
kdeb=$(ls "$IMG"/debs/linux-image-[0-9]*.deb 2>/dev/null | grep -v -- '-dbg_' | head -1)
hdeb=$(ls "$IMG"/debs/linux-headers-*.deb 2>/dev/null | head -1)
KVER=
[ -n "$kdeb" ] && KVER=$(dpkg-deb -f "$kdeb" Package | sed 's/^linux-image-//')
W=$CACHE/distro/work-dkms
R=$W/root

if step image; then
	[ -n "$ourdeb" ] && [ -n "$kdeb" ] && [ -n "$hdeb" ] ||
		{ log "need our package (step deb) and the kernel's image and headers packages (step build)"; exit 1; }
	base_root "$ARCH" "$D/packages.list" "$D/dkms/packages.list" || exit 1
	mounted_below "$W" && { log "something is mounted below $W; not touching it"; exit 1; }
	rm -rf "$W" && mkdir -p "$W" && cp -a "$BASE" "$R" || exit 1
	cp "$ourdeb" "$kdeb" "$hdeb" "$R/tmp/" || exit 1
	# Our package through apt (its dependencies from the archive); then the
	# headers, then the image: the image's postinst runs dkms, which
	# builds each DKMS module against the headers it finds.
	log "image: apt-get install ${ourdeb##*/}; dpkg -i ${hdeb##*/} ${kdeb##*/} (dkms builds $MODULES), log in $OUT/dpkg.log"
	cp /etc/resolv.conf "$R/etc/resolv.conf" || exit 1
	{ in_root "$R" apt-get update &&
	  in_root "$R" apt-get install -y "/tmp/${ourdeb##*/}" &&
	  in_root "$R" dpkg -i "/tmp/${hdeb##*/}" &&
	  in_root "$R" dpkg -i "/tmp/${kdeb##*/}"; } > "$OUT/dpkg.log" 2>&1 ||
		{ log "installing the packages failed, see $OUT/dpkg.log"; tail -n 15 "$OUT/dpkg.log" >&2; exit 1; }
	in_root "$R" dkms status > "$OUT/dkms-status.txt" 2>&1
	# Each module's objects as dkms built them, audited by kcfi-audit:
	# every indirect call checked, the preambles and trap entries counted.
	# dkms strips the modules, kcfi-as's records with them, so a branch the
	# audit finds outside any recorded function is no exemption here.
	: > "$OUT/modules.txt"
	for m in $MODULES; do
		ver=$(sed -n "s|^$m/\([^,]*\), $KVER, $ARCH: installed.*|\1|p" "$OUT/dkms-status.txt" | head -1)
		kos=()
		[ -n "$ver" ] && mapfile -t kos < <(find "$R/var/lib/dkms/$m/$ver/$KVER/$ARCH/module" -name '*.ko' | sort)
		if [ ${#kos[@]} -eq 0 ]; then echo "$m not-installed" >> "$OUT/modules.txt"; continue; fi
		"$KCFI_BUILDDIR/kcfi-audit" "${kos[@]}" > "$OUT/audit-$m.txt" 2>&1
		n=0 c=0 u=0 o=0 p=0 t=0 f=0
		while IFS= read -r line; do
			audit_counts "$line"
			n=$((n + 1)) c=$((c + checked)) u=$((u + unchecked)) o=$((o + outside))
			p=$((p + preambles)) t=$((t + traps)) f=$((f + findings))
		done < <(grep -E "^[^ ]+\.ko: $ARCH: [0-9]+ checked, " "$OUT/audit-$m.txt")
		echo "$m $ver modules $n checked $c unchecked $u outside $o preambles $p traps $t findings $f" >> "$OUT/modules.txt"
	done
	cat "$OUT/modules.txt" >&2
	# A module built with plain gcc against the same headers: refused,
	# with a message naming the driver.
	in_root "$R" sh -c "cp -r /usr/src/v4l2loopback-* /tmp/plain && make -C /lib/modules/$KVER/build M=/tmp/plain CC=gcc modules" \
		> "$OUT/plain-gcc.log" 2>&1 && echo "plain-gcc: built" >> "$OUT/plain-gcc.log"
	# The boot: distro-check's workload with our checks of the modules.
	gcc -O2 -static -o "$R/usr/local/bin/kcfi-v4l2-loop" "$D/dkms/kcfi-v4l2-loop.c" &&
	gcc -O2 -static -o "$R/usr/local/bin/kcfi-af-alg-hash" "$D/dkms/kcfi-af-alg-hash.c" &&
	mkdir -p "$R/etc/kcfi-distro.d" && install -m 644 "$D/dkms/dkms.sh" "$R/etc/kcfi-distro.d/dkms.sh" &&
	image_setup "$R" "$DKMS_STRESS_CLASSES" 3 && cp "$R/boot/vmlinuz-$KVER" "$OUT/vmlinuz" &&
	image_mkfs "$R" "$OUT" && echo "$KVER" > "$OUT/release" || exit 1
	mounted_below "$W" || rm -rf "$W"
fi
if step boot; then
	[ -f "$OUT/root.img" ] || { log "no image (step image)"; exit 1; }
	boot_image "$ARCH" "$OUT/vmlinuz" "" "$OUT"
fi
if step judge; then
	bash "$here/distro-judge.sh" facts "$OUT/results.log" "$OUT/console.log" > "$OUT/facts.txt"
	bash "$here/dkms-judge.sh" "$ARCH" "$(cat "$OUT/release" 2>/dev/null)" "$MODULES" \
		"$OUT/modules.txt" "$OUT/plain-gcc.log" "$OUT/facts.txt" "$OUT/results.log" > "$OUT/judge.txt"
	status=$?
	cat "$OUT/judge.txt"
fi
exit $status
