# SPDX-License-Identifier: GPL-2.0-or-later
# prepass/: the GCC plugin, built once per compiler (one .so per cc1).
#
# A cc1 refuses a plugin built against another compiler's headers, so each
# target triple gets its own prepass/plugins/TRIPLE/kcfi.so, installed as
# $(pkglibdir)/TRIPLE/kcfi.so.  The file stem must stay "kcfi": GCC takes
# the plugin's name (and so -fplugin-arg-kcfi-*) from it.
#
# Cross compilers come from configure (KCFI_CROSS_TRIPLES): CROSS_TRIPLES
# lists those found with their plugin headers, CROSS_PLUGIN_DIRS pairs each
# with its `<triple>-gcc -print-file-name=plugin` as TRIPLE=DIR.
#
# Other native GCC versions come from configure too (KCFI_GCC_VERSIONS):
# GCC_VERSIONS lists the majors N whose gcc-N, g++-N and plugin headers are
# installed, GCC_VERSION_PLUGIN_DIRS pairs each with its plugin directory as
# N=DIR.  Each is compiled by g++-N (a plugin must be built by the compiler
# version it is loaded into) as prepass/plugins/NATIVE/gcc-N/kcfi.so,
# installed as $(pkglibdir)/NATIVE/gcc-N/kcfi.so; kcfi-gcc-N loads it.

KCFI_PLUGIN_SRCS = prepass/plugin.cc prepass/attrs.cc prepass/typename.cc \
	prepass/gimple-passes.cc prepass/rtl-passes.cc \
	prepass/output.cc prepass/typeinfo.cc prepass/typeinfo-diag.cc \
	prepass/texts.cc prepass/regs.cc prepass/trampolines.cc prepass/salt.cc \
	prepass/extern-stubs.cc prepass/call-reg.cc prepass/arity.cc \
	prepass/early-target.cc prepass/conversions.cc prepass/ipa-ra.cc
KCFI_PLUGIN_HDRS = prepass/kcfi-plugin.h prepass/tables.h prepass/gcc-compat.h \
	common/kcfi-targets.h common/opts.h
EXTRA_DIST += $(KCFI_PLUGIN_SRCS) $(KCFI_PLUGIN_HDRS)
# Its arguments' table (prepass/plugin.opt, Makefile.am's KCFI_OPT_TABLES).
KCFI_PLUGIN_GENERATED = prepass/plugin-opts.h
KCFI_PLUGIN_INCLUDES = -idirafter $(top_srcdir) -idirafter $(top_builddir)

KCFI_PLUGIN_TRIPLES = $(NATIVE_TRIPLE) $(CROSS_TRIPLES)
KCFI_PLUGINS = $(KCFI_PLUGIN_TRIPLES:%=prepass/plugins/%/kcfi.so)
KCFI_PLUGIN_CXXFLAGS = -std=gnu++17 -fPIC -fno-rtti -fno-exceptions -shared -O2 -g \
	-Wl,--as-needed \
	-Wall -Wextra -Wno-unused-parameter
KCFI_VERSION_PLUGINS = $(GCC_VERSIONS:%=prepass/plugins/$(NATIVE_TRIPLE)/gcc-%/kcfi.so)
CLEANFILES += $(KCFI_PLUGINS) $(KCFI_VERSION_PLUGINS)

# The plugin directory of triple $(1), as configure found it.
kcfi_plugin_dir = $(if $(filter $(1),$(NATIVE_TRIPLE)),$(GCC_PLUGIN_DIR),$(patsubst $(1)=%,%,$(filter $(1)=%,$(CROSS_PLUGIN_DIRS))))

prepass/plugins/%/kcfi.so: $(KCFI_PLUGIN_SRCS) $(KCFI_PLUGIN_HDRS) $(KCFI_PLUGIN_GENERATED)
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(PLUGIN_CXX) $(KCFI_PLUGIN_CXXFLAGS) $(KCFI_PLUGIN_INCLUDES) \
	  -I$(call kcfi_plugin_dir,$*)/include -DKCFI_TARGET_TRIPLE='"$*"' \
	  -o $@ $(filter %.cc,$^)

# A shorter stem than the rule above: GNU make prefers this one for gcc-N/.
prepass/plugins/$(NATIVE_TRIPLE)/gcc-%/kcfi.so: $(KCFI_PLUGIN_SRCS) $(KCFI_PLUGIN_HDRS) $(KCFI_PLUGIN_GENERATED)
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	g++-$* $(KCFI_PLUGIN_CXXFLAGS) $(KCFI_PLUGIN_INCLUDES) \
	  -I$(patsubst $*=%,%,$(filter $*=%,$(GCC_VERSION_PLUGIN_DIRS)))/include \
	  -DKCFI_TARGET_TRIPLE='"$(NATIVE_TRIPLE)"' \
	  -o $@ $(filter %.cc,$^)

all-local: $(KCFI_PLUGINS) $(KCFI_VERSION_PLUGINS)

install-exec-local: install-kcfi-plugins
install-kcfi-plugins: $(KCFI_PLUGINS) $(KCFI_VERSION_PLUGINS)
	@for t in $(KCFI_PLUGIN_TRIPLES); do \
	  echo " INSTALL  $(pkglibdir)/$$t/kcfi.so"; \
	  $(MKDIR_P) "$(DESTDIR)$(pkglibdir)/$$t" && \
	  $(INSTALL_PROGRAM) prepass/plugins/$$t/kcfi.so \
	    "$(DESTDIR)$(pkglibdir)/$$t/kcfi.so" || exit 1; \
	done
	@for v in $(GCC_VERSIONS); do \
	  d=$(NATIVE_TRIPLE)/gcc-$$v; \
	  echo " INSTALL  $(pkglibdir)/$$d/kcfi.so"; \
	  $(MKDIR_P) "$(DESTDIR)$(pkglibdir)/$$d" && \
	  $(INSTALL_PROGRAM) prepass/plugins/$$d/kcfi.so \
	    "$(DESTDIR)$(pkglibdir)/$$d/kcfi.so" || exit 1; \
	done

uninstall-local: uninstall-kcfi-plugins
uninstall-kcfi-plugins:
	@for t in $(KCFI_PLUGIN_TRIPLES); do \
	  rm -f "$(DESTDIR)$(pkglibdir)/$$t/kcfi.so"; \
	done
	@for v in $(GCC_VERSIONS); do \
	  rm -f "$(DESTDIR)$(pkglibdir)/$(NATIVE_TRIPLE)/gcc-$$v/kcfi.so"; \
	done

.PHONY: install-kcfi-plugins uninstall-kcfi-plugins
