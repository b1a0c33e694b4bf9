# bench/: benchmarks (ratios measured in one run; never part of make check).
EXTRA_DIST += bench/gen-corpus.sh bench/asm-throughput.sh
.PHONY: bench
bench: all
	sh $(srcdir)/bench/asm-throughput.sh $(abs_top_builddir)
