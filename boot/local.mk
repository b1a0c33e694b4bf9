# boot/: Linux 6.12 built with kcfi-as and booted under QEMU (slow: its own
# target, never part of make check).  BOOT_ARCHES selects architectures.
EXTRA_DIST += boot/boot-check.sh boot/lib.sh boot/init.c boot/config \
	boot/patches boot/patches-as
BOOT_ARCHES ?= x86_64 arm64 riscv64
.PHONY: boot-check
boot-check: all
	BOOT_ARCHES='$(BOOT_ARCHES)' KCFI_BUILDDIR='$(abs_top_builddir)' \
	  bash $(srcdir)/boot/boot-check.sh
