# SPDX-License-Identifier: GPL-2.0-or-later
# tests/bench/: the arithmetic and parsing of the benchmarks (bench/), on
# canned numbers and small objects; the benchmarks themselves never run here.
BENCH_TESTS = tests/bench/units-stats.sh tests/bench/r11.sh tests/bench/runtime-sites.sh \
	tests/bench/runtime-results.sh tests/bench/runtime-funcs.sh tests/bench/runtime-workloads.sh
TESTS += $(BENCH_TESTS)
EXTRA_DIST += $(BENCH_TESTS)
