/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the two x86 backends share: arches/x86_64.c reads every AT&T
 * spelling of a branch and writes the preamble for both, in 64-bit mode
 * (arch_x86_64) and in 32-bit mode (arch_i386, arches/i386.c, for gcc -m32
 * and i686 compilers).  Only the check and the registers differ. */
#ifndef KCFI_ARCHES_X86_H
#define KCFI_ARCHES_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asmpass/arch.h"

/* kcfi_branch.flags of an x86 branch. */
enum {
	X86_THUNK = 1 << 0,	/* call/jmp __x86_indirect_thunk_<reg> */
	X86_CS = 1 << 1,	/* written with a cs prefix */
	X86_RETURN_THUNK = 1 << 2,	/* jmp __x86_return_thunk_<reg> */
	X86_INLINE = 1 << 3,		/* GCC's inline retpoline (seq_step) */
	/* Prefixes the checked branch keeps (the first three) or that move to
	 * the load of a memory target (the others). */
	X86_DS = 1 << 4,		/* ds (3e, notrack's byte) */
	X86_NOTRACK = 1 << 5,
	X86_BND = 1 << 6,
	X86_FS = 1 << 7,		/* fs/gs as a word: the segment of a memory target */
	X86_GS = 1 << 8,
	X86_DISP8 = 1 << 9,		/* {disp8}/{disp32}: the encoding of its displacement */
	X86_DISP32 = 1 << 10,
};

/* classify() for 64-bit mode, or for 32-bit mode with M32: the same
 * spellings, but near branches go through 32-bit registers and take the l
 * suffix there. */
enum insn_class x86_classify_mode(const char *s, size_t len, struct kcfi_branch *b, bool m32);
/* init() of both: compiles the patterns of both modes. */
int x86_init(void);
/* profiler_call() of the mode: GCC's -pg call through the GOT in PIC code. */
bool x86_profiler_call_mode(const char *line, size_t len, bool m32);
uint32_t x86_code_id(uint32_t h);
int x86_gpr(const char *p, size_t n);
void x86_emit_entry(struct emitter *e, const struct kcfi_entry *f);
bool x86_lenient_directive(const char *name, size_t nlen, const char *args, size_t alen);

/* Pieces of emit_check() (arches/x86-check.c).  A return thunk never
 * reaches a function entry, so there is nothing to check: -1 after
 * emit_fail() for one, else 0. */
int x86_refuse_return_thunk(struct emitter *e, const struct kcfi_branch *b);
/* "MOV <memory target>, %REG" with what the branch said about the operand:
 * the segment of an fs/gs prefix word, the displacement's encoding. */
void x86_emit_load_target(struct emitter *e, const struct kcfi_branch *b, const char *mov,
			  const char *reg);
/* The branch through %REG with the prefixes that stay with it, in one
 * spelling. */
void x86_emit_branch(struct emitter *e, const struct kcfi_branch *b, const char *reg);

#endif
