# SPDX-License-Identifier: GPL-2.0-or-later
# make deb-check: the Debian package (make deb) is lint-free, installs with
# apt-get, builds and runs the demo with the installed tools alone, and
# leaves nothing behind when removed.  Root or passwordless sudo; not part
# of make check, as it builds the whole package (minutes).
.PHONY: deb-check
deb-check: all tests/tools/kcfi-elfcheck$(EXEEXT)
	$(AM_TESTS_ENVIRONMENT) PACKAGE_VERSION='$(PACKAGE_VERSION)' \
	  GCC_VERSIONS='$(GCC_VERSIONS)' CROSS_TRIPLES='$(CROSS_TRIPLES)' \
	  $(SHELL) $(srcdir)/tests/deb/deb-check.sh
EXTRA_DIST += tests/deb/deb-check.sh
