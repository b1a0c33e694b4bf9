# SPDX-License-Identifier: GPL-2.0-or-later
# grammar/: the flex/bison sources.  Generated C lands in the build tree.
#   asmline.l  -> asmline-lex.c/.h  (assembly line classifier, used by kcfi-as)
#   proto.l    -> proto-lex.c/.h    (tokens of the prototype language)
#   proto.y    -> proto-parse.c/.h  (grammar of the prototype language)
EXTRA_DIST += grammar/asmline.l grammar/proto.l grammar/proto.y

GRAMMAR_GENERATED = grammar/asmline-lex.c grammar/asmline-lex.h \
	grammar/proto-lex.c grammar/proto-lex.h \
	grammar/proto-parse.c grammar/proto-parse.h
BUILT_SOURCES += $(GRAMMAR_GENERATED)
CLEANFILES += $(GRAMMAR_GENERATED)


grammar/asmline-lex.c grammar/asmline-lex.h: $(srcdir)/grammar/asmline.l
	$(AM_V_GEN)$(MKDIR_P) grammar && \
	$(FLEX) --header-file=grammar/asmline-lex.h -o grammar/asmline-lex.c $(srcdir)/grammar/asmline.l

grammar/proto-lex.c grammar/proto-lex.h: $(srcdir)/grammar/proto.l grammar/proto-parse.h
	$(AM_V_GEN)$(MKDIR_P) grammar && \
	$(FLEX) --header-file=grammar/proto-lex.h -o grammar/proto-lex.c $(srcdir)/grammar/proto.l

grammar/proto-parse.c grammar/proto-parse.h: $(srcdir)/grammar/proto.y
	$(AM_V_GEN)$(MKDIR_P) grammar && \
	$(BISON) -Wall --defines=grammar/proto-parse.h -o grammar/proto-parse.c $(srcdir)/grammar/proto.y
