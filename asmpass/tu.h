/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One translation unit flowing through kcfi-as: the state machine that turns
 * directives into preambles, checks and type-id symbols (doc/directives.md).
 * All policy lives here; the arch backend only spells instructions. */
#ifndef KCFI_ASMPASS_TU_H
#define KCFI_ASMPASS_TU_H

#include <stdbool.h>
#include <stdio.h>

#include "typeids/typeid.h"

struct sink;

struct kcfi_options {
	enum kcfi_hash hash;
	bool normalize_integers;
	bool generalize_pointers;	/* Clang 22 -fsanitize-cfi-icall-generalize-pointers */
	bool cs_prefix;			/* x86: -mindirect-branch-cs-prefix */
	const char *march;		/* the assembler's -march=, or NULL */
	const char *x86_mode;		/* the assembler's last --32, --64 or --x32, or NULL */
	/* Without "# N file" markers: for output that is a program's final
	 * assembly (kcfi-gcc -S) rather than input to gas right away, whose
	 * messages should name the annotated file's lines. */
	bool no_line_markers;
	/* --kcfi-warn-cast[=error]: a conversion that changes a function's
	 * type id is a warning (1) or an error (2) at its C line. */
	int warn_cast;
};

struct tu_stats {
	unsigned checks;		/* call sites that got a check */
	unsigned unchecked_nosan;	/* .kcfi_call_unchecked */
	unsigned unchecked_noproto;	/* calls through unprototyped pointers */
	unsigned direct;		/* .kcfi_call_direct */
	unsigned nocall;		/* .kcfi_branch_nocall */
	unsigned trampoline;		/* branches in GCC's trampoline templates */
	unsigned preambles;		/* typed function entries */
	unsigned padded;		/* untyped entries (padding only) */
	unsigned typeids;		/* __kcfi_typeid_ symbols */
	unsigned typeids_skipped;	/* names Clang would not allow either */
	unsigned stubs;			/* extern stubs (doc/extern-stubs.md) */
	unsigned exempt_records;	/* .debug_srcinfo records (common/exempt.h) */
	/* The type cache (typeids/typeid.h): prototypes put together from
	 * known pieces, and known parameters inside parsed ones. */
	unsigned long types_assembled, params_reused;
};

struct tu;

struct tu *tu_new(const struct kcfi_options *opts, struct sink *out);
/* Process one input (FD is read to its end, not closed).  Returns 0, or -1
 * after reporting an error; the TU is then unusable. */
int tu_feed(struct tu *t, int fd, const char *name);
/* The same for an input held in memory (N < 2 GiB): no file, no gas; what
 * the fuzz harness uses. */
int tu_feed_mem(struct tu *t, const char *p, size_t n, const char *name);
/* End-of-input checks. Returns 0 or -1 (reported). */
int tu_finish(struct tu *t);
bool tu_instrumented(const struct tu *t);
const struct tu_stats *tu_stats(struct tu *t);
void tu_free(struct tu *t);

#endif
