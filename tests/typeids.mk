# SPDX-License-Identifier: GPL-2.0-or-later
# tests/typeids/: the prototype parser, the mangler and the hashes.
#   unit          tables of prototype -> mangled name, hash vectors, errors,
#                 random input, speed
#   clang-diff.sh ids against clang-22 (FNV-1a) and clang-19 (xxHash64)
#   valgrind.sh   unit and kcfi-typeid under valgrind
#   kcfi-typeid.sh  the kcfi-typeid program: output, errors, options
#   typeinfo.sh   __builtin_linux_abi_kcfi_name/_hash through kcfi-gcc
#   hash-options.sh  kcfi-as --kcfi-hash, --kcfi-normalize-integers
#   memo.sh       the TU-wide cache of kcfi-as against fresh parses
# gen-protos writes random prototypes for clang-diff.sh.
check_PROGRAMS += tests/typeids/unit tests/typeids/gen-protos tests/typeids/memo-check
tests_typeids_memo_check_SOURCES = tests/typeids/memo-check.c
tests_typeids_memo_check_LDADD = libtypeids.a
tests_typeids_unit_SOURCES = tests/typeids/unit.c
tests_typeids_unit_LDADD = libtypeids.a
tests_typeids_gen_protos_SOURCES = tests/typeids/gen-protos.c

TESTS += tests/typeids/unit tests/typeids/clang-diff.sh tests/typeids/valgrind.sh \
	tests/typeids/kcfi-typeid.sh tests/typeids/typeinfo.sh tests/typeids/hash-options.sh \
	tests/typeids/memo.sh
EXTRA_DIST += tests/typeids/memo.sh tests/typeids/memo-cases.txt \
	tests/typeids/clang-diff.sh tests/typeids/valgrind.sh \
	tests/typeids/typeinfo/names.c tests/typeids/typeinfo/salt.c \
	tests/typeids/kcfi-typeid.sh tests/typeids/typeinfo.sh tests/typeids/hash-options.sh \
	tests/typeids/clang-cases.txt tests/typeids/clang-cases-c23.txt \
	tests/typeids/clang-cases-salt.txt
