# SPDX-License-Identifier: GPL-2.0-or-later
# tests/boot/: the boot matrix console judge, its kernel audit on arm,
# make kunit-check's and make kselftest-check's reading of consoles, and the
# debian-cloud profile's module loads, configuration delta and module audit,
# make distro-check's and make dkms-check's judges, and what a plain row's
# configuration is held to (the boots are make boot-check, make kunit-check,
# make kselftest-check, make distro-check and make dkms-check).
BOOT_TESTS = tests/boot/judge.sh tests/boot/audit.sh tests/boot/kunit.sh \
	tests/boot/objtool-layout.sh tests/boot/modload.sh tests/boot/cloud.sh \
	tests/boot/kselftest.sh tests/boot/mismatch.sh tests/boot/distro.sh \
	tests/boot/plain-config.sh tests/boot/dkms.sh tests/boot/prepare-tree.sh
TESTS += $(BOOT_TESTS)
EXTRA_DIST += $(BOOT_TESTS) tests/boot/objtool-layout.s tests/boot/lib.sh tests/boot/mismatch
