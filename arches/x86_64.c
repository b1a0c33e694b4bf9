/* x86_64: the KCFI sequences Linux 6.12 decodes and FineIBT rewrites.
 *
 * Call site (KCFI-ABI.md 1.1, 4.1, 4.2): the target is moved or loaded into
 * %r11, then 6+4+2+2 bytes immediately before the transfer:
 *	movl	$-H, %r10d		41 ba imm32
 *	addl	-(M+4)(%r11), %r10d	45 03 53 disp8
 *	je	1f			74 02
 *	ud2				0f 0b	(listed in .kcfi_traps)
 * 1:	call	*%r11			or the retpoline thunk for %r11
 * Linux's decoder reads the expected type from the movl at trap-12 and the
 * target register from the addl at trap-6; FineIBT overwrites exactly these 14
 * bytes and requires the target in %r11.
 *
 * Preamble (2.1): __cfi_f, an STT_FUNC with f's binding, P single-byte NOPs
 * and "movl $H, %eax", sized so that f keeps its alignment.
 */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <string.h>

#include "asmpass/arch.h"
#include "asmpass/pattern.h"

enum {
	X86_THUNK = 1 << 0,	/* call/jmp __x86_indirect_thunk_<reg> */
	X86_CS = 1 << 1,	/* written with a cs prefix */
	X86_RETURN_THUNK = 1 << 2,	/* jmp __x86_return_thunk_<reg> */
};

/* A branch statement, after comments and surrounding blanks are gone.  The
 * operand alternatives are tried in order: register, retpoline thunk, return
 * thunk through a register, memory, anything else (a direct target: label,
 * symbol, symbol@PLT).
 *
 * __x86_return_thunk_<reg> is what GCC writes for __builtin_eh_return's
 * indirect return under -mfunction-return=thunk-extern -fcf-protection (the
 * plain __x86_return_thunk, a return, is a direct target).  It is an indirect
 * jump that is not a call: the plugin marks it .kcfi_branch_nocall. */
static const char branch_pattern[] =
	"^(?<pfx>(?:(?:notrack|cs|ds|bnd)\\s+)*)"
	"(?<op>call|callq|jmp|jmpq)\\s+"
	"(?:\\*\\s*%(?<reg>r(?:[abcd]x|[sd]i|[sb]p|8|9|1[0-5]))"
	"|__x86_indirect_thunk_(?<thunk>r(?:[abcd]x|[sd]i|[sb]p|8|9|1[0-5]))"
	"|__x86_return_thunk_(?<rthunk>r(?:[abcd]x|[sd]i|[sb]p|8|9|1[0-5]))"
	"|\\*\\s*(?<mem>\\S.*?)"
	"|(?<direct>[^*\\s].*?))\\s*$";

static const char prefix_pattern[] = "^(?:(?:notrack|cs|ds|bnd)(?:\\s+|$))+$";

static pcre2_code *branch_re, *prefix_re;
static pcre2_match_data *branch_md;
static uint32_t grp_pfx, grp_op, grp_reg, grp_thunk, grp_rthunk, grp_mem;

static int x86_init(void)
{
	branch_re = pattern_compile("x86_64", branch_pattern);
	prefix_re = pattern_compile("x86_64", prefix_pattern);
	if (!branch_re || !prefix_re)
		return -1;
	branch_md = pcre2_match_data_create_from_pattern(branch_re, NULL);
	grp_pfx = pattern_group_number(branch_re, "pfx");
	grp_op = pattern_group_number(branch_re, "op");
	grp_reg = pattern_group_number(branch_re, "reg");
	grp_thunk = pattern_group_number(branch_re, "thunk");
	grp_rthunk = pattern_group_number(branch_re, "rthunk");
	grp_mem = pattern_group_number(branch_re, "mem");
	return branch_md ? 0 : -1;
}

/* Is the first word a mnemonic or prefix that can start a branch? Cheap
 * enough to run on every instruction, so the pattern only sees candidates. */
static bool may_branch(const char *s, size_t len, bool *conditional)
{
	size_t w = 0;
	while (w < len && s[w] >= 'a' && s[w] <= 'z')
		w++;
	*conditional = false;
	switch (w) {
	case 2:
		return !memcmp(s, "cs", 2) || !memcmp(s, "ds", 2) ||
		       (s[0] == 'j' && (*conditional = true));
	case 3:
		if (!memcmp(s, "jmp", 3) || !memcmp(s, "bnd", 3))
			return true;
		return s[0] == 'j' && (*conditional = true);
	case 4:
		if (!memcmp(s, "call", 4) || !memcmp(s, "jmpq", 4))
			return true;
		return s[0] == 'j' && (*conditional = true);
	case 5:
		return !memcmp(s, "callq", 5) || (s[0] == 'j' && (*conditional = true));
	case 7:
		return !memcmp(s, "notrack", 7);
	default:
		return false;
	}
}

static enum insn_class x86_classify(const char *s, size_t len, struct kcfi_branch *b)
{
	bool conditional;
	memset(b, 0, sizeof(*b));
	if (!may_branch(s, len, &conditional))
		return b->cls = INSN_OTHER;
	if (conditional)
		return b->cls = INSN_JUMP;	/* jcc, jrcxz: always direct */

	int rc = pcre2_match(branch_re, (PCRE2_SPTR)s, len, 0, 0, branch_md, NULL);
	if (rc < 0) {
		/* GCC prints the cs prefix of a thunk call on a line of its own. */
		rc = pcre2_match(prefix_re, (PCRE2_SPTR)s, len, 0, 0, branch_md, NULL);
		return b->cls = rc >= 0 ? INSN_PREFIX : INSN_OTHER;
	}
	const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(branch_md);
	const char *op = "", *p;
	size_t op_len, n;
	pattern_group(ov, grp_op, s, &op, &op_len);
	bool call = op[0] == 'c';
	pattern_group(ov, grp_pfx, s, &b->prefix, &b->prefix_len);
	if (b->prefix_len && (memmem(b->prefix, b->prefix_len, "cs", 2)))
		b->flags |= X86_CS;

	if (pattern_group(ov, grp_reg, s, &p, &n) || pattern_group(ov, grp_thunk, s, &p, &n) ||
	    pattern_group(ov, grp_rthunk, s, &p, &n)) {
		if (ov[2 * grp_thunk] != PCRE2_UNSET)
			b->flags |= X86_THUNK;
		if (ov[2 * grp_rthunk] != PCRE2_UNSET)
			b->flags |= X86_RETURN_THUNK;
		memcpy(b->reg, p, n);
		b->reg[n] = '\0';
	} else if (pattern_group(ov, grp_mem, s, &p, &n)) {
		b->mem = p;
		b->mem_len = n;
	} else {
		return b->cls = call ? INSN_CALL : INSN_JUMP;
	}
	return b->cls = call ? INSN_ICALL : INSN_IJUMP;
}

/* Never let a type id look like ENDBR64/ENDBR32 in either sign, or the
 * preamble's movl immediate (or the caller's) would be a valid IBT landing
 * pad.  Same rule as X86AsmPrinter::MaskKCFIType. */
static uint32_t x86_code_id(uint32_t h)
{
	switch (h) {
	case 0xfa1e0ff3u:
	case 0x05e1f00du:	/* -0xfa1e0ff3 */
	case 0xfb1e0ff3u:
	case 0x04e1f00du:	/* -0xfb1e0ff3 */
		return h + 1;
	default:
		return h;
	}
}

/* General registers by their encoding: rax rcx rdx rbx rsp rbp rsi rdi
 * r8..r15.  GCC's reg_names[] spells the first eight without size (ax, si),
 * the others as r8..r15. */
enum { X86_R10 = 10, X86_R11 = 11 };
static const char *const gpr_names[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

/* rax eax ax al ah, rsi esi si sil, r10 r10d r10w r10b; a leading '%' is
 * allowed. */
static int x86_gpr(const char *p, size_t n)
{
	static const char *const legacy[8] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di" };
	if (n && p[0] == '%') {
		p++;
		n--;
	}
	if (n >= 2 && p[0] == 'r' && p[1] >= '0' && p[1] <= '9') {
		size_t d = 1;
		unsigned v = 0;
		while (d < n && d < 3 && p[d] >= '0' && p[d] <= '9')
			v = v * 10 + (unsigned)(p[d++] - '0');
		bool sized = d + 1 == n && (p[d] == 'd' || p[d] == 'w' || p[d] == 'b');
		if ((d == n || sized) && v >= 8 && v <= 15 && !(d == 3 && p[1] == '0'))
			return (int)v;
		return -1;
	}
	for (int i = 0; i < 8; i++) {
		const char *b = legacy[i];
		/* ax, eax, rax */
		if ((n == 2 && !memcmp(p, b, 2)) ||
		    (n == 3 && (p[0] == 'e' || p[0] == 'r') && !memcmp(p + 1, b, 2)))
			return i;
		/* al cl dl bl, ah ch dh bh */
		if (i < 4 && n == 2 && p[0] == b[0] && (p[1] == 'l' || p[1] == 'h'))
			return i;
		/* spl bpl sil dil */
		if (i >= 4 && n == 3 && !memcmp(p, b, 2) && p[2] == 'l')
			return i;
	}
	return -1;
}

static const char *x86_gpr_name(unsigned n)
{
	return n < 16 ? gpr_names[n] : "?";
}

/* The target goes to %r11 unless it is there already. */
static bool x86_moves_target(const struct kcfi_branch *b)
{
	return b->mem || strcmp(b->reg, "r11") != 0;
}

static uint64_t x86_check_clobbers(const struct kcfi_branch *b)
{
	return UINT64_C(1) << X86_R10 | (uint64_t)x86_moves_target(b) << X86_R11;
}

static int x86_emit_check(struct emitter *e, const struct kcfi_branch *b,
			  const struct kcfi_site *site, const struct kcfi_arch_opts *opts)
{
	const char *insn = b->cls == INSN_ICALL ? "call" : "jmp";
	unsigned n = site->serial;
	int disp = -(int)(site->prefix_nops + 4);

	/* A return thunk never reaches a function entry: nothing to check. */
	if (b->flags & X86_RETURN_THUNK)
		return emit_fail(e, "'__x86_return_thunk_%s' is an indirect return, not a call: "
				 "it takes .kcfi_branch_nocall", b->reg);

	if (b->mem)
		emit(e, "\tmovq\t%.*s, %%r11\n", (int)b->mem_len, b->mem);
	else if (x86_moves_target(b))
		emit(e, "\tmovq\t%%%s, %%r11\n", b->reg);

	emit(e, "\tmovl\t$%u, %%r10d\n", (unsigned)(0u - x86_code_id(site->id)));
	emit(e, "\taddl\t%d(%%r11), %%r10d\n", disp);
	emit(e, "\tje\t.Lkcfi%u_call\n", n);
	emit_trap_label(e, n);
	emit(e, "\tud2\n");
	emit_trap_entry(e, n);
	emit(e, ".Lkcfi%u_call:\n", n);
	if (b->flags & X86_THUNK) {
		/* GCC adds cs only for thunks of r8-r15; r11 is one of them.  On a
		 * line of its own: GNU as drops "cs call sym" prefixes. */
		if ((b->flags & X86_CS) || opts->cs_prefix)
			emit(e, "\tcs\n");
		emit(e, "\t%s\t__x86_indirect_thunk_r11\n", insn);
	} else {
		emit(e, "\t%.*s%s\t*%%r11\n", (int)b->prefix_len, b->prefix, insn);
	}
	return 0;
}

/* P single-byte NOPs so that P + 5 + M is a multiple of the function's
 * alignment: the entry keeps its alignment and the id sits at entry-(M+4). */
static void x86_emit_entry(struct emitter *e, const struct kcfi_entry *f)
{
	unsigned used = f->prefix_nops + (f->typed ? 5 : 0);
	unsigned pad = (f->align - used % f->align) % f->align;

	if (f->typed) {
		if (f->binding)
			emit(e, "\t%s\t%s\n", f->binding, f->cfi_sym);
		emit(e, "\t.type\t%s, @function\n%s:\n", f->cfi_sym, f->cfi_sym);
	}
	for (unsigned i = 0; i < pad; i++)
		emit(e, "\tnop\n");
	if (f->typed)
		emit(e, "\tmovl\t$%u, %%eax\n\t.size\t%s, .-%s\n",
		     x86_code_id(f->id), f->cfi_sym, f->cfi_sym);
}

static bool x86_serves(const char *arch, size_t len, unsigned ptr_bits)
{
	return ptr_bits == 64 &&
	       ((len == 6 && !memcmp(arch, "x86_64", 6)) || (len == 5 && !memcmp(arch, "amd64", 5)));
}

const struct kcfi_arch arch_x86_64 = {
	.name = "x86_64",
	.serves = x86_serves,
	.init = x86_init,
	.classify = x86_classify,
	.emit_check = x86_emit_check,
	.emit_entry = x86_emit_entry,
	.gpr = x86_gpr,
	.gpr_name = x86_gpr_name,
	.check_clobbers = x86_check_clobbers,
	.code_id = x86_code_id,
	.comment = "#",
	.align_pow2 = false,
	.nop_bytes = 1,
	.check_statements = 0,	/* GNU as relaxes x86 branches */
	.trap_word = ".long",
};
