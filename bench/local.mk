# SPDX-License-Identifier: GPL-2.0-or-later
# bench/: benchmarks (ratios measured in one run; never part of make check).
EXTRA_DIST += bench/gen-corpus.sh bench/asm-throughput.sh bench/typeids.sh
EXTRA_DIST += bench/lib.sh bench/typeids-kernel.sh bench/harvest-kernel-prototypes.sh \
	bench/data/kernel-prototypes.txt.xz bench/data/kernel-tus.tar.xz bench/data/README.md
EXTRA_PROGRAMS = bench/cpu-ms
bench_cpu_ms_SOURCES = bench/cpu-ms.c
CLEANFILES += bench/cpu-ms
.PHONY: bench
bench: all bench/cpu-ms$(EXEEXT) tests/typeids/gen-protos$(EXEEXT) tests/typeids/unit$(EXEEXT)
	sh $(srcdir)/bench/asm-throughput.sh $(abs_top_builddir)
	sh $(srcdir)/bench/typeids.sh $(abs_top_builddir)
	sh $(srcdir)/bench/typeids-kernel.sh $(abs_top_builddir)
# Type ids on real Linux 6.12 prototypes alone (bench/data/, a minute or two).
.PHONY: bench-typeids-kernel
bench-typeids-kernel: all bench/cpu-ms$(EXEEXT)
	sh $(srcdir)/bench/typeids-kernel.sh $(abs_top_builddir)
# GNU binutils' own DejaGnu suites, built with gcc, kcfi-gcc, clang-19 and
# kcfi-gcc -fsanitize-kcfi-extern-stubs (doc/real-programs.md); builds are
# reused while a compiler is unchanged.
# The whole directory: binutils-suites.sh applies every patch in it, so a
# patch left out of a list here changed what a tarball's "+fixes" runs.
EXTRA_DIST += bench/binutils-suites.sh bench/patches
.PHONY: bench-binutils
bench-binutils: all
	sh $(srcdir)/bench/binutils-suites.sh $(abs_top_builddir) $(BINUTILS_MODES)
# Kernel scale (doc/performance.md): the small x86_64 boot kernel built with
# gcc, kcfi-gcc, clang-19 and clang-19 KCFI (four builds of several minutes
# each, reused while the compilers are unchanged; needs the tree boot-check
# prepares), per-unit ratios, .text growth, peak RSS, and the per-call cost
# of a check on x86_64, aarch64 and riscv64 (bench/indirect-call.sh).
EXTRA_DIST += bench/kernel.sh bench/indirect-call.sh bench/indirect-call.c
.PHONY: bench-kernel bench-indirect-call
bench-kernel: all bench/cpu-ms$(EXEEXT)
	bash $(srcdir)/bench/kernel.sh $(abs_top_builddir)
bench-indirect-call: all
	bash $(srcdir)/bench/indirect-call.sh $(abs_top_builddir)
# Per-unit cost in executed instructions (callgrind), kcfi-gcc against the
# gcc it wraps, on units of a configured kcfi-gcc kernel tree; hours for the
# default 200 units, counts kept in /var/cache/kcfi-bench/units so that a
# run resumes (doc/performance.md).
EXTRA_DIST += bench/units.sh bench/callgrind-sum.awk bench/units-stats.awk bench/r11-checks.awk
.PHONY: bench-units
bench-units: all
	bash $(srcdir)/bench/units.sh $(abs_top_builddir)
# Run time (issue 44, doc/performance.md): what a checked call costs in TSC
# ticks on this CPU, ours beside Clang's (bench/callcost.sh, seconds), and
# the kernel instructions of fixed workloads in four booted small x86_64
# kernels counted by a TCG plugin (bench/runtime.sh: four kernel builds, then
# five boots under TCG; slow, never in make check).
EXTRA_DIST += bench/callcost.sh bench/callcost/loops.c bench/callcost/main.c \
	bench/runtime.sh bench/runtime/kinsn.c bench/runtime/guest.c bench/runtime/sites.sh \
	bench/runtime/workloads bench/runtime/kernel.config bench/runtime/results.awk bench/runtime/summary.awk \
	bench/runtime/marks.awk bench/runtime/hot.awk bench/runtime/funcs.sh bench/runtime/funcs.awk bench/runtime/excess.awk bench/runtime/mean.awk bench/runtime/select.awk \
	bench/runtime/module/Kbuild bench/runtime/module/kcfi_bench.c
.PHONY: bench-callcost bench-runtime
bench-callcost: all
	bash $(srcdir)/bench/callcost.sh $(abs_top_builddir)
bench-runtime: all
	bash $(srcdir)/bench/runtime.sh $(abs_top_builddir)
