# SPDX-License-Identifier: GPL-2.0-or-later
# boot/: Linux 6.12 built with kcfi-as and booted under QEMU (slow: its own
# target, never part of make check).  BOOT_ARCHES selects architectures,
# BOOT_CONFIG the profile: small (tinyconfig-based, CI), defconfig, or
# debian-cloud (x86_64: Debian's cloud kernel configuration, every module).
EXTRA_DIST += boot/boot-check.sh boot/lib.sh boot/init.c boot/config boot/module \
	boot/patches boot/patches-as boot/cloud-lib.sh boot/modload.awk \
	boot/mismatch-judge.sh
BOOT_ARCHES ?= x86_64 arm64 riscv64 arm
BOOT_CONFIG ?= small
# BOOT_GCC_VERSION=11 (with BOOT_ARCHES=x86_64): gcc-11 through kcfi-gcc-11.
BOOT_GCC_VERSION ?=
# BOOT_VARIANTS (row names) and BOOT_MODES (strict, permissive) narrow the matrix.
BOOT_VARIANTS ?=
BOOT_MODES ?=
# BOOT_KERNEL=6.1: Debian 12's own Linux 6.1 (x86_64 and arm64 have KCFI there).
BOOT_KERNEL ?= 6.12
.PHONY: boot-check
boot-check: all
	BOOT_ARCHES='$(BOOT_ARCHES)' BOOT_CONFIG='$(BOOT_CONFIG)' \
	  BOOT_VARIANTS='$(BOOT_VARIANTS)' BOOT_MODES='$(BOOT_MODES)' \
	  BOOT_GCC_VERSION='$(BOOT_GCC_VERSION)' BOOT_KERNEL='$(BOOT_KERNEL)' KCFI_BUILDDIR='$(abs_top_builddir)' \
	  bash $(srcdir)/boot/boot-check.sh
# The documented route (doc/kernel.md 1-2) run word for word on a fresh tree:
# DOC_ROUTE_CONFIG=small (CI: tinyconfig in place of defconfig) or defconfig.
DOC_ROUTE_CONFIG ?= small
EXTRA_DIST += boot/doc-route.sh
.PHONY: doc-route-check
doc-route-check: all
	DOC_ROUTE_CONFIG='$(DOC_ROUTE_CONFIG)' KCFI_BUILDDIR='$(abs_top_builddir)' \
	  bash $(srcdir)/boot/doc-route.sh
# KUnit, all of it, under kcfi-gcc, gcc and clang-19 (doc/kernel.md 8): slow,
# hours per architecture.  KUNIT_ARCHES, KUNIT_COMPILERS narrow it.
KUNIT_ARCHES ?= x86_64 arm64 riscv64 arm
KUNIT_COMPILERS ?= kcfi-gcc gcc clang-19
EXTRA_DIST += boot/kunit-check.sh boot/kunit-lib.sh boot/ktap.awk boot/objtool-layout.sh
.PHONY: kunit-check
kunit-check: all
	KUNIT_ARCHES='$(KUNIT_ARCHES)' KUNIT_COMPILERS='$(KUNIT_COMPILERS)' \
	  KCFI_BUILDDIR='$(abs_top_builddir)' bash $(srcdir)/boot/kunit-check.sh
# Linux's selftests (a set of tools/testing/selftests targets, built
# statically) under make kunit-check's three kernels (doc/kernel.md 9):
# slow, an hour or more per kernel.  KSELFTEST_ARCHES (x86_64 only so far),
# KSELFTEST_COMPILERS and KSELFTEST_TARGETS narrow it.
KSELFTEST_ARCHES ?= x86_64
KSELFTEST_COMPILERS ?= kcfi-gcc gcc clang-19
KSELFTEST_TARGETS ?=
EXTRA_DIST += boot/kselftest-check.sh boot/kselftest
# No kcfi-as to build first: it boots make kunit-check's kernels.
.PHONY: kselftest-check
kselftest-check:
	KSELFTEST_ARCHES='$(KSELFTEST_ARCHES)' KSELFTEST_COMPILERS='$(KSELFTEST_COMPILERS)' \
	  KSELFTEST_TARGETS='$(KSELFTEST_TARGETS)' bash $(srcdir)/boot/kselftest-check.sh
# Debian 12 with systemd as init on the defconfig profile's kernels, kcfi-gcc
# and plain gcc, compared (doc/kernel.md 9a): slow, hours per architecture;
# needs root (debootstrap).  DISTRO_ARCHES narrows it, DISTRO_STEPS
# (build image boot judge) picks steps.
DISTRO_ARCHES ?= x86_64 arm64
DISTRO_STEPS ?= build image boot judge
EXTRA_DIST += boot/distro-check.sh boot/distro-judge.sh boot/distro-lib.sh boot/distro
.PHONY: distro-check
distro-check: all
	DISTRO_ARCHES='$(DISTRO_ARCHES)' DISTRO_STEPS='$(DISTRO_STEPS)' \
	  KCFI_BUILDDIR='$(abs_top_builddir)' bash $(srcdir)/boot/distro-check.sh
# Out-of-tree modules as users get them (doc/kernel.md 9b): the kcfi-gcc
# kernel (Linux 6.1, x86_64) as bindeb-pkg packages installed with dpkg in
# make distro-check's Debian image beside our own package (make deb), and
# Debian 12's DKMS packages built by dkms, loaded and used in a boot.
# Slow (a kernel build, the package, a boot); needs root.
DKMS_STEPS ?= build deb image boot judge
EXTRA_DIST += boot/dkms-check.sh boot/dkms-judge.sh
.PHONY: dkms-check
dkms-check: all
	DKMS_STEPS='$(DKMS_STEPS)' KCFI_BUILDDIR='$(abs_top_builddir)' \
	  bash $(srcdir)/boot/dkms-check.sh
