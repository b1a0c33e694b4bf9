/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The assembly-line lexer: splits the input stream into lines and says what
 * each line starts with.  One flex DFA pass per byte (but .kcfi_ lines, whose
 * first word decides, are cut out with memchr); no allocation per line.
 * Only the first statement of a line is classified; the core splits lines that
 * hold several statements. */
#ifndef KCFI_GRAMMAR_ASMLINE_H
#define KCFI_GRAMMAR_ASMLINE_H

#include <stddef.h>

enum asmline_kind {
	ASMLINE_EOF = 0,
	ASMLINE_APP,		/* #APP: inline assembly follows */
	ASMLINE_NO_APP,		/* #NO_APP */
	ASMLINE_MARKER,		/* # 12 "file.c" 1 */
	ASMLINE_KCFI,		/* .kcfi_* directive */
	ASMLINE_DEBUG,		/* .loc, .loc_mark_labels, .cfi_* */
	ASMLINE_LABEL,		/* name: ... */
	ASMLINE_DIRECTIVE,	/* any other .pseudo-op */
	ASMLINE_INSN,		/* mnemonic ... */
	ASMLINE_BLANK,		/* white space or a comment only */
	ASMLINE_OTHER,		/* anything else (left for the assembler to judge) */
};

struct asmline_scanner;

/* Read lines from FD (not closed by the scanner). */
struct asmline_scanner *asmline_open(int fd);
/* Read lines from the N bytes at P (copied; N < 2 GiB). */
struct asmline_scanner *asmline_open_mem(const char *p, size_t n);
/* Next line, including its '\n' if it has one; the text stays valid until the
 * next call.  Returns ASMLINE_EOF at end of input or on a read error. */
enum asmline_kind asmline_next(struct asmline_scanner *s, const char **text, size_t *len);
/* errno of a failed read, or 0. */
int asmline_read_error(const struct asmline_scanner *s);
void asmline_close(struct asmline_scanner *s);

#endif
