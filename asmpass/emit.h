/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a backend may do while emitting: print lines, and ask the core for the
 * pieces that are the same on every architecture (trap labels and the
 * .kcfi_traps entries that point at them).  The lines go into a buffer: the
 * core decides where in the output they land (asmpass/tu.c). */
#ifndef KCFI_ASMPASS_EMIT_H
#define KCFI_ASMPASS_EMIT_H

#include <stdbool.h>
#include <stddef.h>

struct buf;
struct section;

struct emitter {
	struct buf *out;
	const struct section *section;	/* where the code being emitted lives */
	const char *trap_word;		/* ".long", ".word", or NULL: no table */
	bool cfi;			/* the TU has had a .cfi_startproc */
	unsigned needs;			/* backend-private: support code the TU's
					 * end must provide (see tu_end()) */
	char error[256];		/* set by emit_fail() */
};

void emit(struct emitter *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The label the check's branch-if-equal goes to, with the serial of its
 * site, for a format string of emit(); emit_trap() defines it. */
#define EMIT_CALL_LABEL ".Lkcfi%u_call"
/* The end of every check, on every architecture: the trap, printed from
 * FMT (whole lines), between the label its .kcfi_traps entry points at
 * and that entry, then EMIT_CALL_LABEL, where the branch follows.  One
 * place, so that no backend can list a trap without its label or put
 * anything between the trap and the branch it guards. */
void emit_trap(struct emitter *e, unsigned serial, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record why a sequence cannot be emitted; returns -1 for convenience. */
int emit_fail(struct emitter *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
