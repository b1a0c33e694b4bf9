# SPDX-License-Identifier: GPL-2.0-or-later
# tests/torture/: GCC 12's gcc.c-torture/execute (Debian gcc-12-source,
# extracted to ~/.cache/kcfi-as/gcc-12-torture, never committed) through
# kcfi-gcc, compared with plain gcc, every indirect branch accounted for.
#   make torture-check          x86_64 (all tests) + aarch64/riscv64 samples
#   make torture-check-ARCH     one of x86_64, aarch64, riscv64
# Variables: TORTURE_OPTS (option sets separated by ";", e.g.
# "-O0;-O3 -g"; a list without ";" is one set per word, "-O0 -O2 -Os";
# default "torture", GCC's own list: -O0; -O1; -O2; -O3 -fomit-frame-pointer
# -funroll-loops -fpeel-loops -ftracer -finline-functions; -O3 -g; -Os; -Og),
# TORTURE_SAMPLE (x86_64 tests per set, default 0 = all),
# TORTURE_CROSS_SAMPLE (default 300), TORTURE_CROSS_OPTS (default =
# TORTURE_OPTS), TORTURE_PER_SET_SAMPLE (yes: each set its own sample of
# that size, deterministic, so that the sets together cover more tests;
# default no: the same tests at every set), TORTURE_JOBS (default 2).
TORTURE_OPTS = torture
TORTURE_CROSS_OPTS = $(TORTURE_OPTS)
TORTURE_SAMPLE = 0
TORTURE_CROSS_SAMPLE = 300
TORTURE_PER_SET_SAMPLE = no
TORTURE_JOBS = 2
EXTRA_DIST += tests/torture/fetch.sh tests/torture/run-torture.sh tests/torture/one-test.sh \
	tests/torture/dg-options.awk tests/torture/account-asm.awk \
	tests/torture/account-obj.awk tests/torture/summarize.awk \
	tests/torture/expected-traps.txt tests/torture/expected-refusals.txt

# run-torture.sh exits 77 when a compiler, plugin or the sources are missing.
torture_run = $(AM_TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/torture/run-torture.sh \
	--jobs $(TORTURE_JOBS) $(if $(filter yes,$(TORTURE_PER_SET_SAMPLE)),--per-set-sample)
torture_skip_ok = || { rc=$$?; test $$rc -eq 77 || exit $$rc; }

.PHONY: torture-check torture-check-x86_64 torture-check-aarch64 torture-check-riscv64
torture-check: torture-check-x86_64 torture-check-aarch64 torture-check-riscv64
torture-check-x86_64: all tests/tools/kcfi-elfcheck$(EXEEXT)
	$(torture_run) --arch x86_64 --opts "$(TORTURE_OPTS)" --sample $(TORTURE_SAMPLE) $(torture_skip_ok)
torture-check-aarch64 torture-check-riscv64: torture-check-%: all
	$(torture_run) --arch $* --opts "$(TORTURE_CROSS_OPTS)" --sample $(TORTURE_CROSS_SAMPLE) $(torture_skip_ok)
