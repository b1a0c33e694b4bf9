# bench/: benchmarks (ratios measured in one run; never part of make check).
EXTRA_DIST += bench/gen-corpus.sh bench/asm-throughput.sh bench/typeids.sh
EXTRA_PROGRAMS = bench/cpu-ms
bench_cpu_ms_SOURCES = bench/cpu-ms.c
CLEANFILES += bench/cpu-ms
.PHONY: bench
bench: all bench/cpu-ms$(EXEEXT) tests/typeids/gen-protos$(EXEEXT) tests/typeids/unit$(EXEEXT)
	sh $(srcdir)/bench/asm-throughput.sh $(abs_top_builddir)
	sh $(srcdir)/bench/typeids.sh $(abs_top_builddir)
