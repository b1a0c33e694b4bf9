# SPDX-License-Identifier: GPL-2.0-or-later
# tests/golden/: annotated .s in, rewritten .s out, against reviewed files.
TESTS += tests/golden/golden.sh
EXTRA_DIST += tests/golden/golden.sh \
	tests/golden/x86_64-basic.s tests/golden/x86_64-basic.expected \
	tests/golden/x86_64-prefix.s tests/golden/x86_64-prefix.expected \
	tests/golden/i386-basic.s tests/golden/i386-basic.expected \
	tests/golden/aarch64-basic.s tests/golden/aarch64-basic.expected \
	tests/golden/riscv64-basic.s tests/golden/riscv64-basic.expected \
	tests/golden/x86_64-stub.s tests/golden/x86_64-stub.expected \
	tests/golden/aarch64-stub.s tests/golden/aarch64-stub.expected \
	tests/golden/riscv64-stub.s tests/golden/riscv64-stub.expected \
	tests/golden/arm-thumb.s tests/golden/arm-thumb.expected \
	tests/golden/arm-arm.s tests/golden/arm-arm.expected
