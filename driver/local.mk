# SPDX-License-Identifier: GPL-2.0-or-later
# driver/: kcfi-gcc, the compiler driver wrapper that puts the plugin and
# kcfi-as (asmpass/bin/as) into a GCC command line.
bin_PROGRAMS += kcfi-gcc
kcfi_gcc_LDFLAGS = $(TOOL_LDFLAGS)
kcfi_gcc_SOURCES = driver/kcfi-gcc.c driver/driver.h driver/options.c \
	driver/targets.c driver/locate.c driver/as-cache.c driver/util.c \
	driver/tool-witness.c driver/tool-witness.h \
	driver/finish-asm.c driver/finish-asm.h
kcfi_gcc_CPPFLAGS = $(AM_CPPFLAGS) \
	-DKCFI_NATIVE_TRIPLE='"$(NATIVE_TRIPLE)"' \
	-DKCFI_DEFAULT_GCC_MAJOR='"$(PLUGIN_CC_MAJOR)"' \
	-DKCFI_PKGLIBDIR='"$(pkglibdir)"' -DKCFI_PKGLIBEXECDIR='"$(pkglibexecdir)"' \
	-DKCFI_BINDIR='"$(bindir)"'

# <triple>-kcfi-gcc for every cross compiler the plugin is built for: kcfi-gcc
# reads the target compiler off its own name (build tree and installed alike);
# <triple>-kcfi-as beside it (doc/kernel.md 3, route 2: make
# AS=aarch64-linux-gnu-kcfi-as), whose name picks <triple>-as as the real
# assembler.
KCFI_CROSS_DRIVERS = $(CROSS_TRIPLES:%=%-kcfi-gcc)
KCFI_CROSS_ASSEMBLERS = $(CROSS_TRIPLES:%=%-kcfi-as)
all-local: $(KCFI_CROSS_DRIVERS) $(KCFI_CROSS_ASSEMBLERS)
$(KCFI_CROSS_DRIVERS): kcfi-gcc$(EXEEXT)
	$(AM_V_GEN)rm -f $@ && $(LN_S) kcfi-gcc$(EXEEXT) $@
$(KCFI_CROSS_ASSEMBLERS): kcfi-as$(EXEEXT)
	$(AM_V_GEN)rm -f $@ && $(LN_S) kcfi-as$(EXEEXT) $@
CLEANFILES += $(KCFI_CROSS_DRIVERS) $(KCFI_CROSS_ASSEMBLERS)
install-exec-local: install-kcfi-cross-drivers
install-kcfi-cross-drivers:
	@for t in $(CROSS_TRIPLES); do for tool in kcfi-gcc kcfi-as; do \
	  echo " LN_S     $(bindir)/$$t-$$tool"; \
	  $(MKDIR_P) '$(DESTDIR)$(bindir)' && \
	  rm -f "$(DESTDIR)$(bindir)/$$t-$$tool" && \
	  $(LN_S) $$tool$(EXEEXT) "$(DESTDIR)$(bindir)/$$t-$$tool" || exit 1; \
	done; done
uninstall-local: uninstall-kcfi-cross-drivers
uninstall-kcfi-cross-drivers:
	@for t in $(CROSS_TRIPLES); do rm -f "$(DESTDIR)$(bindir)/$$t-kcfi-gcc" "$(DESTDIR)$(bindir)/$$t-kcfi-as"; done
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
