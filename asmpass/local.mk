# SPDX-License-Identifier: GPL-2.0-or-later
# asmpass/: kcfi-as, the assembler pass.
noinst_LIBRARIES += libasmpass.a
libasmpass_a_SOURCES += \
	asmpass/annot.c asmpass/annot.h \
	asmpass/arch.c asmpass/arch.h \
	asmpass/diag.c asmpass/diag.h \
	asmpass/directive.c asmpass/directive.h \
	asmpass/emit.c asmpass/emit.h \
	asmpass/gas.c asmpass/gas.h \
	asmpass/pattern.c asmpass/pattern.h \
	asmpass/records.c asmpass/records.h \
	asmpass/section.c asmpass/section.h \
	asmpass/sink.c asmpass/sink.h \
	asmpass/stmt.c asmpass/stmt.h \
	asmpass/symbol.c asmpass/symbol.h \
	asmpass/symver.c asmpass/symver.h \
	asmpass/tu.c asmpass/tu.h asmpass/tu-state.h \
	asmpass/tu-callsite.c asmpass/tu-check.c asmpass/tu-directives.c asmpass/tu-entry.c \
	asmpass/tu-exempt.c asmpass/tu-seq.c asmpass/tu-srcloc.c asmpass/tu-stubs.c \
	asmpass/typetab.c asmpass/typetab.h \
	asmpass/verdict.c asmpass/verdict.h \
	common/exempt.h common/kcfi-targets.h common/kcfi-traps.h \
	grammar/asmline.h
nodist_libasmpass_a_SOURCES = grammar/asmline-lex.c

bin_PROGRAMS += kcfi-as
kcfi_as_SOURCES = asmpass/kcfi-as.c
kcfi_as_LDADD = libasmpass.a libtypeids.a $(TOOL_PCRE2_LIBS)
kcfi_as_LDFLAGS = $(TOOL_LDFLAGS)

# gcc -B<dir> finds the assembler as <dir>/as: a directory holding only that.
all-local: asmpass/bin/as
# Replaced by rename(2): a compile running during a rebuild never finds
# asmpass/bin/ without its as, and so never falls back to the real one.
asmpass/bin/as: kcfi-as$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) asmpass/bin && rm -f $@.tmp && $(LN_S) ../../kcfi-as$(EXEEXT) $@.tmp && mv -f $@.tmp $@
CLEANFILES += asmpass/bin/as

# A copy, not a symlink to $(bindir): it stays right under DESTDIR staging
# and when the tree is moved (kcfi-gcc looks for it relative to itself).
install-exec-hook:
	$(MKDIR_P) '$(DESTDIR)$(pkglibexecdir)/bin'
	rm -f '$(DESTDIR)$(pkglibexecdir)/bin/as'
	$(INSTALL_PROGRAM) kcfi-as$(EXEEXT) '$(DESTDIR)$(pkglibexecdir)/bin/as'
uninstall-hook:
	rm -f '$(DESTDIR)$(pkglibexecdir)/bin/as'
