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
