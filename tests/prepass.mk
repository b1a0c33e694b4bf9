# SPDX-License-Identifier: GPL-2.0-or-later
# tests/prepass/: the GCC plugin, through the -S output of its scenarios.
PREPASS_TESTS = \
	tests/prepass/structure.sh \
	tests/prepass/preamble.sh \
	tests/prepass/types.sh \
	tests/prepass/salt.sh \
	tests/prepass/version.sh \
	tests/prepass/tail-merge.sh \
	tests/prepass/call-sharing.sh \
	tests/prepass/no-sanitize.sh \
	tests/prepass/icf.sh \
	tests/prepass/jumps.sh \
	tests/prepass/direct-calls.sh \
	tests/prepass/patchable.sh \
	tests/prepass/lto.sh \
	tests/prepass/pch.sh \
	tests/prepass/codegen.sh \
	tests/prepass/reused-types.sh \
	tests/prepass/debug-macros.sh \
	tests/prepass/no-libstdcxx.sh \
	tests/prepass/indirect-branch.sh \
	tests/prepass/typeinfo-misuse.sh \
	tests/prepass/ipa-ra.sh \
	tests/prepass/conversion-reach.sh
TESTS += $(PREPASS_TESTS)
EXTRA_DIST += $(PREPASS_TESTS) tests/prepass/lib.sh tests/prepass/check-asm.awk \
	tests/prepass/preamble.c tests/prepass/types.c tests/prepass/union-calls.c \
	tests/prepass/shared-calls.c tests/prepass/nosan-inline.c \
	tests/prepass/nosan-spellings.c tests/prepass/icf.c tests/prepass/jumps.c \
	tests/prepass/direct-calls.c tests/prepass/patchable.c tests/prepass/codegen.c \
	tests/prepass/reused-types.c tests/prepass/indirect-branch.c \
	tests/prepass/typeinfo-misuse.c tests/prepass/salt-types.c tests/prepass/ipa-ra.c \
	tests/prepass/conversion-reach.c
