# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/asm-*: libFuzzer harness for the assembler pass (every backend
# in the registry), its seed corpus and campaigns.  Not part of `make check`:
#   make fuzz-asm              build tests/fuzz/asm-fuzz (clang, ASan+UBSan)
#   make fuzz-asm-short        90 s campaign (CI)
#   make fuzz-asm-long         30 min campaign, niced (run once, by hand)
#   make fuzz-asm-corpus       regenerate tests/fuzz/asm-corpus/gen-* from the plugin
# FUZZ_ASM_SECONDS overrides the duration of fuzz-asm-short.
ASM_FUZZ_CLANG = $(if $(CLANG22),$(CLANG22),$(CLANG19))
# The library sources, compiled again with the fuzzer's instrumentation.
ASM_FUZZ_SRCS = $(filter %.c,$(libasmpass_a_SOURCES) $(nodist_libasmpass_a_SOURCES) \
	$(libtypeids_a_SOURCES) $(nodist_libtypeids_a_SOURCES))
ASM_FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer
EXTRA_DIST += tests/fuzz/asm-fuzz.c tests/fuzz/asm.dict tests/fuzz/asm-campaign.sh \
	tests/fuzz/asm-seeds.sh tests/fuzz/asm-corpus
CLEANFILES += tests/fuzz/asm-fuzz

tests/fuzz/asm-fuzz: tests/fuzz/asm-fuzz.c $(ASM_FUZZ_SRCS) $(BUILT_SOURCES) config.h
	@test -n "$(ASM_FUZZ_CLANG)" || { echo "fuzz-asm: needs clang-22 or clang-19" >&2; exit 1; }
	$(AM_V_GEN)$(MKDIR_P) tests/fuzz && $(ASM_FUZZ_CLANG) $(ASM_FUZZ_FLAGS) \
	  $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) -w -o $@ $(filter %.c,$^) $(PCRE2_LIBS)

.PHONY: fuzz-asm fuzz-asm-short fuzz-asm-long fuzz-asm-corpus
fuzz-asm: tests/fuzz/asm-fuzz
fuzz-asm-short: tests/fuzz/asm-fuzz
	sh $(srcdir)/tests/fuzz/asm-campaign.sh tests/fuzz/asm-fuzz $(srcdir)/tests/fuzz \
	  $(if $(FUZZ_ASM_SECONDS),$(FUZZ_ASM_SECONDS),90)
fuzz-asm-long: tests/fuzz/asm-fuzz
	nice -n 10 sh $(srcdir)/tests/fuzz/asm-campaign.sh tests/fuzz/asm-fuzz \
	  $(srcdir)/tests/fuzz 1800
fuzz-asm-corpus: all
	sh $(srcdir)/tests/fuzz/asm-seeds.sh $(abs_top_builddir) $(srcdir)/tests/fuzz/asm-corpus
