/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a handler of the translation-unit pass (asmpass/tu-*.c) decides about
 * the input line it is shown.  Handlers never write output, renumber lines
 * or report errors: asmpass/tu.c carries their verdicts out, the one place
 * that does, so the assembler's idea of the line number cannot drift
 * between files.
 *
 * The line numbering rule tu.c applies: text put in front of an input line
 * is followed by a "# N" marker giving that line its own number again, and
 * text replacing a line by one for the line after it. */
#ifndef KCFI_ASMPASS_VERDICT_H
#define KCFI_ASMPASS_VERDICT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "asmpass/arch.h"
#include "asmpass/sink.h"
#include "asmpass/stmt.h"

struct pending_call;

enum verdict_kind {
	V_PASS,		/* the line goes out as written */
	V_BLANK,	/* an empty line takes its place (a consumed directive) */
	V_REPLACE,	/* `text` takes its place */
	V_HOLD,		/* kept back with the lines after it until a verdict on them
			 * all (a branch spelt as several statements, tu-seq.c) */
	V_BRANCH,	/* the branch a directive annotates, described in `branch`:
			 * tu.c asks tu_annotated() what becomes of it */
	V_FAIL,		/* refused, for the reason in `msg` */
};

/* A function's entry (tu-entry.c): the output is held back from its
 * .kcfi_func on, until its label says where the preamble goes. */
enum entry_step {
	ENTRY_NONE,
	ENTRY_HOLD,	/* start holding */
	ENTRY_MARK,	/* the preamble goes in front of this line (GCC's
			 * patchable prefix begins here) */
	ENTRY_PLACE,	/* `preamble` goes at the mark, else in front of this line;
			 * release what was held */
};

/* What comes with a verdict.  One lives in the TU, reset before each
 * handler: its buffers keep their memory, so a line costs no allocation. */
struct verdict {
	/* Lines to go in front of the line (with any verdict but V_FAIL). */
	struct buf before;
	struct buf text;			/* V_REPLACE */
	struct {
		const struct pending_call *call;	/* the directive */
		struct slice text;		/* the statement, for messages */
		struct slice prefix;		/* prefix statements held before it */
		struct kcfi_branch b;
	} branch;				/* V_BRANCH */
	/* A diagnostic tu.c prints as it is (lines, GCC's form), and whether
	 * it is an error that fails the unit once all of it is read
	 * (-Werror=kcfi-cast). */
	struct buf diag;
	bool diag_fails;
	enum entry_step entry;
	struct buf preamble;			/* ENTRY_PLACE */
	/* V_FAIL */
	char msg[512];
	size_t col;		/* 1-based column in the line, 0: the line as a whole */
	bool at_source;		/* at the C source position the input names, if any */
};

void verdict_reset(struct verdict *v);
void verdict_free(struct verdict *v);
/* Fill in a refusal at column COL (AT_SOURCE: see the field) and return
 * V_FAIL; v_fail and v_fail_src are its two usual spellings. */
enum verdict_kind v_vfail(struct verdict *v, size_t col, bool at_source,
			  const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));
/* Fill in a refusal and return V_FAIL. */
enum verdict_kind v_fail(struct verdict *v, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A refusal of the user's code: reported at its C source line when the input
 * says which (tu-srcloc.c), with the assembly line after the message. */
enum verdict_kind v_fail_src(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
