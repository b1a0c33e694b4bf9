# SPDX-License-Identifier: GPL-2.0-or-later
# tests/: each area keeps its own fragment.
include tests/typeids.mk
include tests/prepass.mk
include tests/asmpass.mk
include tests/cross.mk
include tests/differential.mk
include tests/fuzz-proto.mk
include tests/e2e.mk
include tests/golden.mk
include tests/audit.mk
include tests/fuzz/asm-fuzz.mk
include tests/hostile.mk
include tests/torture.mk
include tests/miscompile.mk
include tests/sanitizers.mk
include tests/boot.mk
include tests/asmline.mk
include tests/deb.mk
include tests/bench.mk

# The whole `make check` again with GCC 11: kcfi-gcc-11, the gcc-11 plugin
# and gcc-11 for the plugin-level and reference compiles (CHECK_GCC in
# Makefile.am).  Needs gcc-11, g++-11 and gcc-11-plugin-dev at configure time.
check-gcc11:
	@case " $(GCC_VERSIONS) " in *" 11 "*) ;; \
	  *) echo "check-gcc11: no GCC 11 plugin configured (apt-get install gcc-11 g++-11 gcc-11-plugin-dev, then ./configure)" >&2; exit 1 ;; esac
	$(MAKE) $(AM_MAKEFLAGS) check CHECK_GCC=11
.PHONY: check-gcc11
