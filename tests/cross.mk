# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cross/: aarch64 and riscv64 (arm and i386 where a test says so)
# through <triple>-kcfi-gcc, run under qemu-user.  Targets configure found no plugin for, or whose qemu or
# sysroot is missing, are skipped with a message.
CROSS_TESTS = \
	tests/cross/forms.sh \
	tests/cross/scan.sh \
	tests/cross/run.sh \
	tests/cross/options.sh \
	tests/cross/options-patchable.sh \
	tests/cross/interop.sh \
	tests/cross/stress.sh \
	tests/cross/regs.sh \
	tests/cross/spellings.sh \
	tests/cross/inline-asm.sh
TESTS += $(CROSS_TESTS)
EXTRA_DIST += $(CROSS_TESTS) tests/cross/lib.sh tests/cross/matrix.sh tests/cross/trap-report.c tests/cross/arm-sib4.c tests/cross/inline-asm.c \
	tests/cross/units.h tests/cross/units-caller.c tests/cross/units-targets.c \
	tests/cross/units-main.c tests/cross/small-id.c tests/cross/scan-forms.c \
	tests/cross/check-rewritten.awk tests/cross/decode-object.awk
AM_TESTS_ENVIRONMENT += CROSS_TRIPLES='$(CROSS_TRIPLES)'; export CROSS_TRIPLES;
