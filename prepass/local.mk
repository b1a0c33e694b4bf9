# prepass/: the GCC plugin, built once per compiler (one .so per cc1).
#
# A cc1 refuses a plugin built against another compiler's headers, so each
# target triple gets its own prepass/plugins/TRIPLE/kcfi.so, installed as
# $(pkglibdir)/TRIPLE/kcfi.so.  The file stem must stay "kcfi": GCC takes
# the plugin's name (and so -fplugin-arg-kcfi-*) from it.
#
# To add a cross compiler, append its triple to KCFI_PLUGIN_TRIPLES and set
# KCFI_PLUGIN_DIR_<triple> to its `<triple>-gcc -print-file-name=plugin`.

KCFI_PLUGIN_SRCS = prepass/plugin.cc prepass/attrs.cc prepass/typename.cc \
	prepass/gimple-passes.cc prepass/rtl-passes.cc \
	prepass/output.cc prepass/typeinfo.cc
KCFI_PLUGIN_HDRS = prepass/kcfi-plugin.h
EXTRA_DIST += $(KCFI_PLUGIN_SRCS) $(KCFI_PLUGIN_HDRS)

KCFI_PLUGIN_TRIPLES = $(NATIVE_TRIPLE)
KCFI_PLUGINS = $(KCFI_PLUGIN_TRIPLES:%=prepass/plugins/%/kcfi.so)
KCFI_PLUGIN_CXXFLAGS = -std=gnu++17 -fPIC -fno-rtti -shared -O2 -g \
	-Wall -Wextra -Wno-unused-parameter
CLEANFILES += $(KCFI_PLUGINS)

# The plugin directory of triple $(1): configure's for the native one.
kcfi_plugin_dir = $(if $(filter $(1),$(NATIVE_TRIPLE)),$(GCC_PLUGIN_DIR),$(KCFI_PLUGIN_DIR_$(1)))

prepass/plugins/%/kcfi.so: $(KCFI_PLUGIN_SRCS) $(KCFI_PLUGIN_HDRS)
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(PLUGIN_CXX) $(KCFI_PLUGIN_CXXFLAGS) \
	  -I$(call kcfi_plugin_dir,$*)/include -DKCFI_TARGET_TRIPLE='"$*"' \
	  -o $@ $(filter %.cc,$^)

all-local: $(KCFI_PLUGINS)

install-exec-local: install-kcfi-plugins
install-kcfi-plugins: $(KCFI_PLUGINS)
	@for t in $(KCFI_PLUGIN_TRIPLES); do \
	  echo " INSTALL  $(pkglibdir)/$$t/kcfi.so"; \
	  $(MKDIR_P) "$(DESTDIR)$(pkglibdir)/$$t" && \
	  $(INSTALL_PROGRAM) prepass/plugins/$$t/kcfi.so \
	    "$(DESTDIR)$(pkglibdir)/$$t/kcfi.so" || exit 1; \
	done

uninstall-local: uninstall-kcfi-plugins
uninstall-kcfi-plugins:
	@for t in $(KCFI_PLUGIN_TRIPLES); do \
	  rm -f "$(DESTDIR)$(pkglibdir)/$$t/kcfi.so"; \
	done

.PHONY: install-kcfi-plugins uninstall-kcfi-plugins
