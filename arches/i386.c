/* SPDX-License-Identifier: GPL-2.0-or-later */
/* i386 (gcc -m32, i686-linux-gnu-gcc): the KCFI sequence Clang 22 emits for
 * 32-bit x86 user space, so that objects of both compilers call each other.
 *
 * Clang has no i386 KCFI backend: its generic pass compares the id in front
 * of the target with the expected one and runs a debug trap (int3) when they
 * differ; no Linux trap handler decodes it, and there is no .kcfi_traps
 * table.  The preamble is x86_64's (movl $H, %eax behind NOP padding), so
 * the id sits at f-(M+4) as there.  Call site (doc/abi.md section 1a):
 *	movl	<operand>, %eax		memory targets only (%ecx, %edx if
 *					%eax carries an argument)
 *	cmpl	$H, -(M+4)(%reg)	the id where the target says it is
 *	je	1f
 *	int3				SIGTRAP; if a handler returns, the call goes on
 * 1:	call	*%reg
 * Clang puts the int3 (then a jump back) out of line after the function;
 * kcfi-as writes only where the branch was, so it stands inline, which does
 * the same.  Reading the branch and the preamble are x86_64.c's, in 32-bit
 * mode (arches/x86.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "arches/x86.h"
#include "asmpass/arch.h"

/* gpr() numbers: the register encoding, as x86_gpr() gives them. */
enum { I386_EAX = 0, I386_ECX = 1, I386_EDX = 2 };
static const char *const gpr_names[8] = {
	"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
};

static enum insn_class i386_classify(const char *s, size_t len, struct kcfi_branch *b)
{
	return x86_classify_mode(s, len, b, true);
}

static bool i386_profiler_call(const char *line, size_t len)
{
	return x86_profiler_call_mode(line, len, true);
}

static const char *i386_gpr_name(unsigned n)
{
	return n < 8 ? gpr_names[n] : "?";
}

/* A target in a register needs no scratch: the cmpl reads the id through
 * it, as Clang's does.  A memory target is loaded once, into a register, so
 * that the call goes where the check looked: the first of the registers a
 * call may clobber, %eax, %ecx, %edx, that the call does not need as it is.
 * %eax carries nothing into a call of the ordinary i386 ABI; fastcall,
 * thiscall and the static chain use %ecx and %edx, regparm and -mregparm
 * up to all three (the plugin lists them, .kcfi_call arg=,
 * doc/directives.md 3.7).  With none free, %eax, and the core refuses the
 * check. */
static unsigned i386_scratch(const struct kcfi_branch *b)
{
	static const unsigned order[] = { I386_EAX, I386_ECX, I386_EDX };
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (!(b->busy >> order[i] & 1))
			return order[i];
	return I386_EAX;
}

static uint64_t i386_check_clobbers(const struct kcfi_branch *b)
{
	return b->mem ? UINT64_C(1) << i386_scratch(b) : 0;
}

static int i386_emit_check(struct emitter *e, const struct kcfi_branch *b,
			   const struct kcfi_site *site, const struct kcfi_arch_opts *opts)
{
	const char *insn = b->cls == INSN_ICALL ? "call" : "jmp";
	unsigned n = site->serial;
	const char *reg = b->mem ? gpr_names[i386_scratch(b)] : b->reg;
	(void)opts;

	if (x86_refuse_return_thunk(e, b))
		return -1;
	/* The inline retpoline is read in 64-bit mode only (no seq_begin here),
	 * so it never gets this far. */
	if (b->mem)
		x86_emit_load_target(e, b, "movl", reg);
	emit(e, "\tcmpl\t$%u, %d(%%%s)\n", x86_code_id(site->id),
	     -(int)(site->prefix_nops + 4), reg);
	emit(e, "\tje\t" EMIT_CALL_LABEL "\n", n);
	emit_trap(e, n, "\tint3\n");	/* Clang's debugtrap; no table (trap_word) */
	if (b->flags & X86_THUNK) {
		/* -mindirect-branch=thunk: the register GCC chose has its thunk,
		 * which GCC defines or the program provides, as before. */
		if (b->flags & X86_CS)
			emit(e, "\tcs\n");
		emit(e, "\t%s\t__x86_indirect_thunk_%s\n", insn, b->reg);
	} else {
		x86_emit_branch(e, b, reg);
	}
	return 0;
}

/* An i386 triple, or an x86_64 one under the assembler's --32 (arch.c). */
static bool i386_serves(const char *arch, size_t len, unsigned ptr_bits)
{
	return ptr_bits == 32 && len == 4 && arch[0] == 'i' && arch[1] >= '3' && arch[1] <= '6' &&
	       !memcmp(arch + 2, "86", 2);
}

const struct kcfi_arch arch_i386 = {
	.name = "i386",
	.serves = i386_serves,
	.init = x86_init,
	.classify = i386_classify,
	.emit_check = i386_emit_check,
	.emit_entry = x86_emit_entry,
	/* No extern stubs: a stub would need the GOT pointer in %ebx, which an
	 * indirect call does not set up; the core refuses them by name. */
	.emit_stub_jump = NULL,
	.gpr = x86_gpr,
	.gpr_name = i386_gpr_name,
	.check_clobbers = i386_check_clobbers,
	.profiler_call = i386_profiler_call,
	.lenient_directive = x86_lenient_directive,
	.code_id = x86_code_id,
	.comment = "#",
	.align_pow2 = false,
	/* GCC's i386 patchable prefix is x86's one-byte nop; the check already
	 * reads the id at -(M+4), where x86_emit_entry() puts it. */
	.nop = "nop",
	.check_statements = 0,	/* GNU as relaxes x86 branches */
	.trap_word = NULL,	/* Clang's i386 checks have no .kcfi_traps either */
	.elf32 = true,
};
