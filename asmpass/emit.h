/* What a backend may do while emitting: print lines, and ask the core for the
 * pieces that are the same on every architecture (trap labels and the
 * .kcfi_traps entries that point at them). */
#ifndef KCFI_ASMPASS_EMIT_H
#define KCFI_ASMPASS_EMIT_H

#include <stdbool.h>
#include <stddef.h>

struct sink;
struct section;

struct emitter {
	struct sink *sink;
	const struct section *section;	/* where the code being emitted lives */
	const char *trap_word;		/* ".long", ".word", or NULL: no table */
	bool cfi;			/* the TU has had a .cfi_startproc */
	unsigned needs;			/* backend-private: support code the TU's
					 * end must provide (see tu_end()) */
	char error[256];		/* set by emit_fail() */
};

void emit(struct emitter *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "\t.LkcfiN_trap:" — place immediately before the trap instruction. */
void emit_trap_label(struct emitter *e, unsigned serial);
/* The .kcfi_traps entry for that label; place after the trap instruction. */
void emit_trap_entry(struct emitter *e, unsigned serial);
/* Record why a sequence cannot be emitted; returns -1 for convenience. */
int emit_fail(struct emitter *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
