# asmpass/: kcfi-as (the assembler pass) and kcfi-gcc (the driver wrapper).
noinst_LIBRARIES += libasmpass.a
libasmpass_a_SOURCES += \
	asmpass/arch.c asmpass/arch.h \
	asmpass/diag.c asmpass/diag.h \
	asmpass/directive.c asmpass/directive.h \
	asmpass/emit.c asmpass/emit.h \
	asmpass/exempt.h \
	asmpass/gas.c asmpass/gas.h \
	asmpass/pattern.c asmpass/pattern.h \
	asmpass/section.c asmpass/section.h \
	asmpass/sink.c asmpass/sink.h \
	asmpass/stmt.c asmpass/stmt.h \
	asmpass/symver.c asmpass/symver.h \
	asmpass/tu.c asmpass/tu.h asmpass/tu-state.h \
	asmpass/tu-callsite.c asmpass/tu-directives.c asmpass/tu-entry.c \
	asmpass/tu-exempt.c asmpass/tu-seq.c asmpass/tu-srcloc.c asmpass/tu-stubs.c \
	asmpass/typetab.c asmpass/typetab.h \
	common/kcfi-targets.h \
	grammar/asmline.h
nodist_libasmpass_a_SOURCES = grammar/asmline-lex.c

bin_PROGRAMS += kcfi-as kcfi-gcc
kcfi_as_SOURCES = asmpass/kcfi-as.c
kcfi_as_LDADD = libasmpass.a libtypeids.a $(TOOL_PCRE2_LIBS)
kcfi_as_LDFLAGS = $(TOOL_LDFLAGS)
kcfi_gcc_LDFLAGS = $(TOOL_LDFLAGS)

kcfi_gcc_SOURCES = asmpass/kcfi-gcc.c asmpass/tool-witness.c asmpass/tool-witness.h \
	asmpass/finish-asm.c asmpass/finish-asm.h
kcfi_gcc_CPPFLAGS = $(AM_CPPFLAGS) \
	-DKCFI_NATIVE_TRIPLE='"$(NATIVE_TRIPLE)"' \
	-DKCFI_DEFAULT_GCC_MAJOR='"$(PLUGIN_CC_MAJOR)"' \
	-DKCFI_PKGLIBDIR='"$(pkglibdir)"' -DKCFI_PKGLIBEXECDIR='"$(pkglibexecdir)"' \
	-DKCFI_BINDIR='"$(bindir)"'

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

# <triple>-kcfi-gcc for every cross compiler the plugin is built for: kcfi-gcc
# reads the target compiler off its own name (build tree and installed alike).
KCFI_CROSS_DRIVERS = $(CROSS_TRIPLES:%=%-kcfi-gcc)
all-local: $(KCFI_CROSS_DRIVERS)
$(KCFI_CROSS_DRIVERS): kcfi-gcc$(EXEEXT)
	$(AM_V_GEN)rm -f $@ && $(LN_S) kcfi-gcc$(EXEEXT) $@
CLEANFILES += $(KCFI_CROSS_DRIVERS)
install-exec-local: install-kcfi-cross-drivers
install-kcfi-cross-drivers:
	@for t in $(CROSS_TRIPLES); do \
	  echo " LN_S     $(bindir)/$$t-kcfi-gcc"; \
	  $(MKDIR_P) '$(DESTDIR)$(bindir)' && \
	  rm -f "$(DESTDIR)$(bindir)/$$t-kcfi-gcc" && \
	  $(LN_S) kcfi-gcc$(EXEEXT) "$(DESTDIR)$(bindir)/$$t-kcfi-gcc" || exit 1; \
	done
uninstall-local: uninstall-kcfi-cross-drivers
uninstall-kcfi-cross-drivers:
	@for t in $(CROSS_TRIPLES); do rm -f "$(DESTDIR)$(bindir)/$$t-kcfi-gcc"; done
.PHONY: install-kcfi-cross-drivers uninstall-kcfi-cross-drivers

# kcfi-gcc-N for every other native GCC version the plugin is built for:
# kcfi-gcc wraps gcc-N and loads prepass/plugins/NATIVE/gcc-N/kcfi.so.
KCFI_VERSION_DRIVERS = $(GCC_VERSIONS:%=kcfi-gcc-%)
all-local: $(KCFI_VERSION_DRIVERS)
$(KCFI_VERSION_DRIVERS): kcfi-gcc$(EXEEXT)
	$(AM_V_GEN)rm -f $@ && $(LN_S) kcfi-gcc$(EXEEXT) $@
CLEANFILES += $(KCFI_VERSION_DRIVERS)
install-exec-local: install-kcfi-version-drivers
install-kcfi-version-drivers:
	@for v in $(GCC_VERSIONS); do \
	  echo " LN_S     $(bindir)/kcfi-gcc-$$v"; \
	  $(MKDIR_P) '$(DESTDIR)$(bindir)' && \
	  rm -f "$(DESTDIR)$(bindir)/kcfi-gcc-$$v" && \
	  $(LN_S) kcfi-gcc$(EXEEXT) "$(DESTDIR)$(bindir)/kcfi-gcc-$$v" || exit 1; \
	done
uninstall-local: uninstall-kcfi-version-drivers
uninstall-kcfi-version-drivers:
	@for v in $(GCC_VERSIONS); do rm -f "$(DESTDIR)$(bindir)/kcfi-gcc-$$v"; done
.PHONY: install-kcfi-version-drivers uninstall-kcfi-version-drivers

# Manual pages; tests/doc/manpages.sh keeps them and --help in step.
dist_man_MANS = doc/man/kcfi-gcc.1 doc/man/kcfi-as.1 doc/man/kcfi-typeid.1 doc/man/kcfi-audit.1
