# SPDX-License-Identifier: GPL-2.0-or-later
# ./configure --enable-sanitizers: ASan + UBSan for every program and library
# built with $(CC), and a test environment in which a sanitizer report can
# never pass for an ordinary refusal.
#
# The GCC plugin is left out on purpose: it is a shared object loaded by cc1,
# and an ASan-instrumented object needs the ASan runtime to be the first
# library of the process it runs in (cc1 is not linked with it, so it would
# have to be LD_PRELOADed into every compiler run, under GCC's own allocator
# and its deliberate leaks).  The plugin is tested through what it writes.
AM_CFLAGS += $(SANITIZER_CFLAGS)
AM_LDFLAGS = $(SANITIZER_CFLAGS)

if KCFI_SANITIZERS
# kcfi-as exits 1 when it refuses input; a sanitizer report exits 86 instead,
# which no test accepts as a refusal.  Leaks count as errors.
AM_TESTS_ENVIRONMENT += \
	KCFI_SANITIZERS=yes; \
	ASAN_OPTIONS=exitcode=86:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1; \
	UBSAN_OPTIONS=exitcode=86:halt_on_error=1:print_stacktrace=1; \
	LSAN_OPTIONS=exitcode=86; \
	export KCFI_SANITIZERS ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS;
endif

# make sanitize-check: a second build of the same sources (the tracked files
# of this working tree, copied to sanitize-build/) configured with
# --enable-sanitizers, and its `make check`.
.PHONY: sanitize-check
sanitize-check:
	rm -rf sanitize-build && $(MKDIR_P) sanitize-build
	cd '$(abs_top_srcdir)' && git ls-files -z | xargs -0 tar -cf - | \
	  (cd '$(abs_top_builddir)/sanitize-build' && tar -xf -)
	cd sanitize-build && ./bootstrap && ./configure --enable-sanitizers && \
	  $(MAKE) && $(MAKE) check
