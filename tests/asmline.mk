# SPDX-License-Identifier: GPL-2.0-or-later
# tests/asmline/: the assembly-line scanner (grammar/asmline.l) on input
# that exercises its buffer refills.
ASMLINE_TESTS = tests/asmline/kcfi-lines.sh
TESTS += $(ASMLINE_TESTS)
EXTRA_DIST += $(ASMLINE_TESTS)
