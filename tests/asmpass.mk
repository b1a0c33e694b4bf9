# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of kcfi-as itself: hand-written assembly in, checked objects out.
check_PROGRAMS += tests/tools/kcfi-elfcheck
tests_tools_kcfi_elfcheck_SOURCES = tests/tools/kcfi-elfcheck.c
# arch-ops: every backend has the operations asmpass/arch.h requires.
check_PROGRAMS += tests/asmpass/arch-ops
tests_asmpass_arch_ops_SOURCES = tests/asmpass/arch-ops.c
tests_asmpass_arch_ops_LDADD = libasmpass.a libtypeids.a $(TOOL_PCRE2_LIBS)

ASMPASS_TESTS = \
	tests/asmpass/fail-closed.sh \
	tests/asmpass/passthrough.sh \
	tests/asmpass/options.sh \
	tests/asmpass/x86-forms.sh \
	tests/asmpass/i386-forms.sh \
	tests/asmpass/return-thunk.sh \
	tests/asmpass/retpoline.sh \
	tests/asmpass/directives.sh \
	tests/asmpass/arity.sh \
	tests/asmpass/regs.sh \
	tests/doc/manpages.sh \
	tests/doc/options-table.sh \
	tests/doc/readme.sh \
	tests/doc/commands.sh \
	tests/doc/dist-names.sh \
	tests/doc/spdx.sh \
	tests/doc/patches.sh \
	tests/asmpass/spellings.sh \
	tests/asmpass/huge-align.sh \
	tests/asmpass/tu-star.sh \
	tests/asmpass/held-prefix.sh
TESTS += tests/asmpass/arch-ops $(ASMPASS_TESTS)
EXTRA_DIST += $(ASMPASS_TESTS) tests/lib.sh \
	tests/doc/commands/foo.c tests/doc/commands/bar.c tests/doc/commands/call.c \
	tests/doc/commands/drv.c tests/doc/commands/fx.c tests/doc/commands/m.c
