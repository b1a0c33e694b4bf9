# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/proto-*: libFuzzer campaign on the prototype language, built
# with Clang (-fsanitize=fuzzer,address,undefined) straight from the
# typeids/ and generated grammar sources.  Not in `make check`:
#   make check-fuzz-proto [PROTO_FUZZ_SECONDS=60]
# The corpus grows in tests/fuzz/proto-work/ (build tree); the seeds in
# tests/fuzz/proto-corpus/ are never written to.
PROTO_FUZZ_SECONDS = 60
PROTO_FUZZ_CC = $(CLANG19)
PROTO_FUZZ_FILES = tests/fuzz/proto-fuzz.c \
	$(filter %.c,$(libtypeids_a_SOURCES))
EXTRA_DIST += tests/fuzz/proto-fuzz.c tests/fuzz/proto-corpus tests/fuzz/proto.dict
CLEANFILES += tests/fuzz/proto-fuzz

tests/fuzz/proto-fuzz: $(PROTO_FUZZ_FILES:%=$(srcdir)/%) grammar/proto-lex.c grammar/proto-parse.c
	$(AM_V_GEN)test -n "$(PROTO_FUZZ_CC)" || { echo "check-fuzz-proto needs clang-19"; exit 1; }; \
	$(MKDIR_P) tests/fuzz && \
	$(PROTO_FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -I$(top_srcdir) -I$(top_builddir) -I$(top_builddir)/grammar -D_GNU_SOURCE \
	  $(PROTO_FUZZ_FILES:%=$(srcdir)/%) grammar/proto-lex.c grammar/proto-parse.c -o $@

.PHONY: check-fuzz-proto
check-fuzz-proto: tests/fuzz/proto-fuzz
	$(MKDIR_P) tests/fuzz/proto-work
	cd tests/fuzz && ./proto-fuzz -max_total_time=$(PROTO_FUZZ_SECONDS) -max_len=4096 \
	  -dict=$(abs_srcdir)/tests/fuzz/proto.dict \
	  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	  proto-work $(abs_srcdir)/tests/fuzz/proto-corpus
