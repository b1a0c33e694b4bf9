# SPDX-License-Identifier: GPL-2.0-or-later
# tests/hostile/: input GCC never writes (huge lines, NUL, bytes >= 0x80, CRLF,
# malformed directives, truncated units, GCC's trampoline template).  The
# 200 MB streaming test is slow:
# `make hostile-big` (BIG_MB=N to change the size).
HOSTILE_TESTS = \
	tests/hostile/long-lines.sh \
	tests/hostile/bytes.sh \
	tests/hostile/directives.sh \
	tests/hostile/eof.sh \
	tests/hostile/trampoline.sh
TESTS += $(HOSTILE_TESTS)
EXTRA_DIST += $(HOSTILE_TESTS) tests/hostile/lib.sh tests/hostile/big-input.sh

.PHONY: hostile-big
hostile-big: all tests/tools/kcfi-elfcheck$(EXEEXT)
	$(AM_TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/hostile/big-input.sh
