# SPDX-License-Identifier: GPL-2.0-or-later
# tests/miscompile/: differential campaigns against miscompiles of checked
# indirect calls (issue 41): programs whose call targets are loaded through
# memory that stores may write (tests/miscompile/gen-program.py, the issue's
# reproducer, csmith's programs with their calls through function pointers),
# built by plain gcc, kcfi-gcc and kcfi-gcc without the target mover
# (-fplugin-arg-kcfi-no-early-target), run on x86_64 and under qemu-user on
# aarch64 and riscv64, outputs compared (campaign.sh).
#   mover        make check's short campaign: the reproducer and a few dozen
#                generated programs at the option sets that lose sched2
#                (-O1, -Og, -fno-schedule-insns2, with -funroll-loops,
#                -frename-registers, retpolines), two csmith programs
#   make miscompile-check   the long one: GCC's torture option list and the
#                combinations, every arch; MISCOMPILE_SEEDS generated
#                programs (default 200) from MISCOMPILE_FIRST_SEED (1),
#                MISCOMPILE_CSMITH csmith programs (20), MISCOMPILE_JOBS (2),
#                MISCOMPILE_OPTS / MISCOMPILE_CROSS_OPTS (";"-separated sets;
#                default campaign.sh's); results in tests/miscompile/work-long
MISCOMPILE_TESTS = tests/miscompile/mover.sh
TESTS += $(MISCOMPILE_TESTS)
EXTRA_DIST += $(MISCOMPILE_TESTS) tests/miscompile/campaign.sh tests/miscompile/cell.sh \
	tests/miscompile/gen-program.py tests/miscompile/csmith-indirect.awk \
	tests/miscompile/slot-store.c
MISCOMPILE_SEEDS = 200
MISCOMPILE_FIRST_SEED = 1
MISCOMPILE_CSMITH = 20
MISCOMPILE_JOBS = 2
MISCOMPILE_OPTS =
MISCOMPILE_CROSS_OPTS =

.PHONY: miscompile-check
miscompile-check: all
	$(AM_TESTS_ENVIRONMENT) arches=x86_64; \
	for t in $(CROSS_TRIPLES); do case $$t in aarch64-*|riscv64-*) arches="$$arches $${t%%-*}" ;; esac; done; \
	$(SHELL) $(srcdir)/tests/miscompile/campaign.sh --arches "$$arches" \
	  --seeds $(MISCOMPILE_SEEDS) --first-seed $(MISCOMPILE_FIRST_SEED) \
	  --csmith $(MISCOMPILE_CSMITH) --csmith-first 1000 --jobs $(MISCOMPILE_JOBS) \
	  $(if $(MISCOMPILE_OPTS),--opts '$(MISCOMPILE_OPTS)') \
	  $(if $(MISCOMPILE_CROSS_OPTS),--cross-opts '$(MISCOMPILE_CROSS_OPTS)') \
	  --work '$(abs_top_builddir)/tests/miscompile/work-long' \
	  || { rc=$$?; test $$rc -eq 77 || exit $$rc; }
