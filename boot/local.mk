# boot/: Linux 6.12 built with kcfi-as and booted under QEMU (slow: its own
# target, never part of make check).  BOOT_ARCHES selects architectures,
# BOOT_CONFIG the profile: small (tinyconfig-based, CI) or defconfig.
EXTRA_DIST += boot/boot-check.sh boot/lib.sh boot/init.c boot/config boot/module \
	boot/patches boot/patches-as
BOOT_ARCHES ?= x86_64 arm64 riscv64
BOOT_CONFIG ?= small
.PHONY: boot-check
boot-check: all
	BOOT_ARCHES='$(BOOT_ARCHES)' BOOT_CONFIG='$(BOOT_CONFIG)' KCFI_BUILDDIR='$(abs_top_builddir)' \
	  bash $(srcdir)/boot/boot-check.sh
