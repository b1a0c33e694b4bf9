# tests/typeids/: the prototype parser, the mangler and the hashes.
#   unit          tables of prototype -> mangled name, hash vectors, errors,
#                 random input, speed
#   clang-diff.sh ids against clang-22 (FNV-1a) and clang-19 (xxHash64)
#   valgrind.sh   unit and typeid-tool under valgrind
# typeid-tool prints the id and mangled name of C types (the later
# kcfi-typeid); gen-protos writes random prototypes for clang-diff.sh.
check_PROGRAMS += tests/typeids/unit tests/typeids/typeid-tool tests/typeids/gen-protos
tests_typeids_unit_SOURCES = tests/typeids/unit.c
tests_typeids_unit_LDADD = libtypeids.a
tests_typeids_typeid_tool_SOURCES = tests/typeids/typeid-tool.c
tests_typeids_typeid_tool_LDADD = libtypeids.a
tests_typeids_gen_protos_SOURCES = tests/typeids/gen-protos.c

TESTS += tests/typeids/unit tests/typeids/clang-diff.sh tests/typeids/valgrind.sh
EXTRA_DIST += tests/typeids/clang-diff.sh tests/typeids/valgrind.sh \
	tests/typeids/clang-cases.txt tests/typeids/clang-cases-c23.txt
