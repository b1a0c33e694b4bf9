# SPDX-License-Identifier: GPL-2.0-or-later
# tests/audit/: kcfi-audit (audit/) on what kcfi-gcc builds.
#   verify   x86_64: good output exits 0 with exact counts (object, ld -r,
#            shared library); each deliberately broken output is named
#            (check removed, exemption removed, wrong preamble id, trap
#            entry moved, check before another register), -g source lines;
#            the exit status of each class of finding, with --strict
#   targets  --targets: distribution, CSV, JSON, the gnuplot histogram
#   names    --targets: the mangled name of each type, from kcfi-as's
#            records (both hashes, ld -r, a wrong record, stripped); the
#            check in Clang's form (any register), clang when installed
#   cross    aarch64, riscv64 (RVC and not) objects: counts, a removed check
#   elf32    i386 and arm (Thumb-2, ARM state): counts of objects, ld -r,
#            shared libraries, --targets; a removed, a turned-around and a
#            misdirected check named; addresses taken by code in programs
#   hostile  truncated and bit-flipped ELF: exit 0/1/2, never a crash
#   arity    -fsanitize-kcfi-arity preambles: well formed, by arity, --arity
#   explain  --explain: canned consoles of every form (x86_64 kCFI and
#            FineIBT, 6.1 and 6.12, trapping and permissive, arm64, riscv64,
#            arm) against files built here; conversion records by hand;
#            every bad input
AUDIT_TESTS = \
	tests/audit/verify.sh \
	tests/audit/targets.sh \
	tests/audit/names.sh \
	tests/audit/cross.sh \
	tests/audit/elf32.sh \
	tests/audit/hostile.sh \
	tests/audit/arity.sh \
	tests/audit/explain.sh
TESTS += $(AUDIT_TESTS)
EXTRA_DIST += $(AUDIT_TESTS) tests/audit/lib.sh tests/audit/prog.c tests/audit/target.c tests/audit/names.c \
	tests/audit/taker.c tests/audit/explain.c
