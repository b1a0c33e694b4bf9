# SPDX-License-Identifier: GPL-2.0-or-later
# typeids/: prototype language -> mangled name -> type id (libtypeids.a).
noinst_LIBRARIES += libtypeids.a
libtypeids_a_SOURCES = typeids/typeid.h \
	typeids/arena.c typeids/arena.h \
	typeids/htab.c typeids/htab.h \
	typeids/ctype.c typeids/ctype.h \
	typeids/spec.c typeids/spec.h \
	typeids/declarator.c typeids/declarator.h \
	typeids/proto.h typeids/parse.c \
	typeids/type-memo.c typeids/type-memo.h \
	typeids/mangle.c typeids/mangle.h \
	typeids/hash.c typeids/model.c \
	typeids/typeid.c
nodist_libtypeids_a_SOURCES = grammar/proto-lex.c grammar/proto-parse.c
# parse.c includes the generated headers: they must exist before it is
# compiled, even when libtypeids.a is built on its own (no BUILT_SOURCES).
typeids/parse.$(OBJEXT): grammar/proto-lex.h grammar/proto-parse.h
