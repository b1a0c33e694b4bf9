/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parts of a check the two x86 modes write alike (arch_x86_64 and
 * arch_i386 differ in the compare and the trap only), so that a spelling
 * of the branch they keep cannot be fixed in one mode and not the other. */
#include "config.h"

#include "arches/x86.h"

int x86_refuse_return_thunk(struct emitter *e, const struct kcfi_branch *b)
{
	if (!(b->flags & X86_RETURN_THUNK))
		return 0;
	return emit_fail(e, "'__x86_return_thunk_%s' is an indirect return, not a call: "
			 "it takes .kcfi_branch_nocall", b->reg);
}

void x86_emit_load_target(struct emitter *e, const struct kcfi_branch *b, const char *mov,
			  const char *reg)
{
	emit(e, "\t%s%s\t%s%.*s, %%%s\n",
	     b->flags & X86_DISP32 ? "{disp32} " : b->flags & X86_DISP8 ? "{disp8} " : "", mov,
	     b->flags & X86_FS ? "%fs:" : b->flags & X86_GS ? "%gs:" : "",
	     (int)b->mem_len, b->mem, reg);
}

void x86_emit_branch(struct emitter *e, const struct kcfi_branch *b, const char *reg)
{
	emit(e, "\t%s%s%s%s%s\t*%%%s\n", b->flags & X86_CS ? "cs " : "",
	     b->flags & X86_DS ? "ds " : "", b->flags & X86_NOTRACK ? "notrack " : "",
	     b->flags & X86_BND ? "bnd " : "", b->cls == INSN_ICALL ? "call" : "jmp", reg);
}
