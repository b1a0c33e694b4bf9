# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by kselftest-check.sh and tests/boot/kselftest.sh: what a kernel
# must have for the selftests' initramfs to run on it, read from its
# .config before anything is built or booted.

# kernel_lacks CONFIG: the first option the selftests' initramfs cannot do
# without that the kernel's CONFIG does not set, with the reason; nothing if
# it has them all.  (A kernel built from tinyconfig has none of them unless
# a fragment asks: arm's in make kunit-check get them from
# boot/config/kunit/arm.config.)
kernel_lacks() {
	local c=$1 need
	for need in "BLK_DEV_INITRD:the initramfs" "BINFMT_SCRIPT:init and the runner are shell scripts" \
		    "PROC_FS:the runner and most programs read /proc" \
		    "DEVTMPFS:init mounts /dev" "MULTIUSER:the programs change uid" \
		    "FUTEX:futex and the threaded programs" \
		    "$([ "$OUTDEV" = /dev/hvc0 ] && echo "VIRTIO_CONSOLE:the programs' output channel, hvc0")" \
		    "$(grep -q '^CONFIG_64BIT=y' "$c" || echo "COMPAT_32BIT_TIME:a 32-bit glibc makes the 32-bit time calls (sleep, nanosleep) whenever the time fits")"; do
		[ -n "$need" ] || continue
		grep -q "^CONFIG_${need%%:*}=y" "$c" || { echo "CONFIG_${need%%:*} (${need#*:})"; return; }
	done
}
