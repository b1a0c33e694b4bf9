# SPDX-License-Identifier: GPL-2.0-or-later
# tests/differential/: type ids through kcfi-gcc against clang-19 and
# clang-22 on thousands of random prototypes, and -fsanitize-kcfi-arity
# preambles against clang-22 on random definitions (not in `make check`,
# run by .ci/run):
#   make check-differential
EXTRA_DIST += tests/differential/typeids.sh tests/differential/definitions.c \
	tests/differential/arity.sh
.PHONY: check-differential
check-differential: all tests/typeids/gen-protos$(EXEEXT)
	@$(AM_TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/differential/typeids.sh
	@$(AM_TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/differential/arity.sh
