/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86_64 and i386: finding indirect branches and the KCFI check in front
 * of each.
 *
 * x86 code is variable length, so a real disassembler walks it: capstone
 * (libcapstone-dev).  binutils' libopcodes would do as well, but it is
 * built for printing text (its stable interface is a fprintf callback, its
 * ABI changes with every binutils release and Debian ships it only as a
 * static library); capstone hands back each instruction's operands as
 * data, and cs_disasm_iter() decodes in place without allocating.
 *
 * The check itself is fixed bytes (doc/abi.md 1), compared as such:
 *	41 ba <-H>	movl $-H, %r10d
 *	45 03 53 <d8>	addl d8(%r11), %r10d
 *	74 02		je 1f
 *	0f 0b		ud2
 * right before the branch, which must go through the register the addl
 * reads: call/jmp *%r11 (with the prefixes kcfi-as keeps) or call/jmp
 * __x86_indirect_thunk_r11.  kcfi-as always uses %r11; Clang does too
 * behind a retpoline, but otherwise loads from the branch's own register
 * (44 03 57 fc: addl -4(%rdi), %r10d before jmp *%rdi), which Linux's
 * decoder reads as well (it takes the register from the addl's ModRM), so
 * any general register is accepted when the branch uses the same one.
 * Indirect branches are call/jmp through a register or memory, and direct
 * call/jmp of a retpoline thunk (__x86_indirect_thunk_<reg>), which is how
 * a retpoline kernel spells every indirect branch.
 *
 * i386 (doc/abi.md 1a) has Clang's generic check instead, a cmpl of the id
 * in front of the target with an int3 behind a je, and no trap table; the
 * walk, the thunks and the preamble are the same in 32-bit mode.
 */
#include "config.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <string.h>

#include "audit/audit.h"

/* Opcode bytes (Intel SDM vol. 2) of the checks and of what the walk
 * tells apart. */
enum {
	X86_REX = 0x40, X86_REX_R = 0x04, X86_REX_B = 0x01,
	X86_ADD_R32_RM32 = 0x03,	/* addl r/m32, r32 */
	X86_JE_REL8 = 0x74,
	X86_CMP_RM32_IMM32 = 0x81,	/* /7 */
	X86_NOP = 0x90,
	X86_MOV_R32_IMM32 = 0xb8,	/* +register */
	X86_INT3 = 0xcc,
	X86_CALL_REL32 = 0xe8,
	X86_JMP_REL32 = 0xe9,
	X86_TWO_BYTE = 0x0f,		/* 0f 0b: ud2; 0f 8x: jcc rel32 */
	X86_UD2_2 = 0x0b,
	X86_JCC_REL32_2 = 0x80,
	X86_GRP5 = 0xff,		/* /2: call r/m, /4: jmp r/m */
	X86_MODRM_REG = 0x38,
	X86_MODRM_CALL = 2 << 3,
	X86_MODRM_JMP = 4 << 3,
	X86_MODRM_RIP_CALL = 0x15,	/* mod 00 reg /2 rm 101: disp32(%rip) */
	X86_MODRM_RIP_JMP = 0x25,
	X86_MODRM_RM_SIB = 4,		/* rm 100: a SIB byte follows */
	X86_SIB_BASE_ONLY = 0x24,	/* no index, base %esp/%rsp/%r12 */
	X86_R10 = 10,
};

/* movl $-H, %r10d; and je 1f, ud2 (doc/abi.md 1) */
static const unsigned char check_head[] = { X86_REX | X86_REX_B, X86_MOV_R32_IMM32 + X86_R10 - 8 };
static const unsigned char check_tail[] = { X86_JE_REL8, 2, X86_TWO_BYTE, X86_UD2_2 };

static const char *const gpr_names[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
static const char *const gpr_names32[8] = {
	"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
};

/* The number (ModRM order) of the general register NAME, or -1: 64-bit
 * names, or with M32 the 32-bit ones. */
static int gpr_by_name(const char *name, bool m32)
{
	for (int i = 0; i < (m32 ? 8 : 16); i++)
		if (!strcmp(name, m32 ? gpr_names32[i] : gpr_names[i]))
			return i;
	return -1;
}

static int gpr_of(x86_reg r, bool m32)
{
	static const x86_reg regs[16] = {
		X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX, X86_REG_RSP, X86_REG_RBP,
		X86_REG_RSI, X86_REG_RDI, X86_REG_R8, X86_REG_R9, X86_REG_R10, X86_REG_R11,
		X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15,
	};
	static const x86_reg regs32[8] = {
		X86_REG_EAX, X86_REG_ECX, X86_REG_EDX, X86_REG_EBX, X86_REG_ESP, X86_REG_EBP,
		X86_REG_ESI, X86_REG_EDI,
	};
	for (int i = 0; i < (m32 ? 8 : 16); i++)
		if ((m32 ? regs32[i] : regs[i]) == r)
			return i;
	return -1;
}

/* "addl d8(%reg), %r10d" ending right before END: REX.R (+B), 03, ModRM
 * mod 01 reg 010 (with REX.R: r10), a SIB 24 for rm 100 (%rsp, %r12), the
 * displacement.  Its register, and its length in *LEN; -1 if none. */
static int addl_before(const struct audit_file *f, size_t shndx, uint64_t end, unsigned *len)
{
	for (unsigned n = 4; n <= 5; n++) {
		if (end < n)
			break;
		const unsigned char *p = audit_bytes(f, (struct loc){ shndx, end - n }, n);
		if (!p || (p[0] & ~X86_REX_B) != (X86_REX | X86_REX_R) || p[1] != X86_ADD_R32_RM32 ||
		    (p[2] & 0xf8) != 0x50)
			continue;
		bool sib = (p[2] & 7) == X86_MODRM_RM_SIB;
		if (sib != (n == 5) || (sib && p[3] != X86_SIB_BASE_ONLY))
			continue;
		int r = (p[2] & 7) | (p[0] & X86_REX_B) << 3;
		if (r == X86_R10)	/* the movl before it has just overwritten %r10 */
			return -1;
		*len = n;
		return r;
	}
	return -1;
}

static bool thunk_name(const char *name, const char **reg)
{
	static const char *const prefixes[] = {
		"__x86_indirect_thunk_", "__x86_indirect_call_thunk_", "__x86_indirect_jump_thunk_",
	};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], n) && name[n]) {
			*reg = name + n;
			return true;
		}
	}
	return false;
}

/* Retpoline thunks of a linked file, by place: kernels define them as
 * untyped labels (SYM_CODE_START), so no function lookup finds them. */
struct thunk {
	struct loc at;
	const char *name;
};
static struct thunk thunks[128];
static size_t nthunks;

static void find_thunks(const struct audit_file *f)
{
	const char *reg;
	nthunks = 0;
	for (size_t k = 0; k < f->nsyms && nthunks < sizeof(thunks) / sizeof(thunks[0]); k++) {
		const struct symbol *y = &f->syms[k];
		if (y->shndx > 0 && y->shndx < f->nsecs && y->value != UINT64_MAX &&
		    thunk_name(y->name, &reg))
			thunks[nthunks++] = (struct thunk){ { y->shndx, y->value }, y->name };
	}
}

/* The name of the symbol a direct call/jmp at OFF (LEN bytes, rel32 last)
 * goes to, if it is a retpoline thunk. */
static const char *thunk_target(const struct audit_file *f, size_t shndx, uint64_t off,
				unsigned len, uint64_t imm)
{
	struct loc at;
	const char *reg;
	if (f->rel) {
		const struct reloc *r = len >= 5 ? audit_reloc_at(f, shndx, off + len - 4) : NULL;
		if (!r)
			return NULL;
		const struct symbol *y = &f->syms[r->sym];
		if (y->type != STT_SECTION)
			return thunk_name(y->name, &reg) ? y->name : NULL;
		if (!audit_reloc_loc(f, r, 4, &at))
			return NULL;
	} else if (!audit_addr_loc(f, imm, &at)) {
		return NULL;
	}
	for (size_t i = 0; i < nthunks; i++)
		if (thunks[i].at.shndx == at.shndx && thunks[i].at.off == at.off)
			return thunks[i].name;
	return NULL;
}

/* The i386 check right before the branch at OFF through register REG
 * (-1: through memory, or a far branch), doc/abi.md 1a:
 *	81 78+r <d8> <H>	cmpl $H, d8(%r)		(%esp: 81 7c 24 <d8> <H>;
 *							 d32: 81 b8+r, 81 bc 24)
 *	74 01			je 1f
 *	cc			int3
 * There is no trap table: the int3 raises SIGTRAP wherever it is. */
static void check_before32(const struct audit_file *f, size_t shndx, uint64_t off, int reg,
			   struct check *c)
{
	static char problem[128];	/* audit_branch() reads it at once */
	static const struct { unsigned len, modrm, sib, imm; } forms[] = {
		{ 7, 0x78, 0, 3 }, { 8, 0x7c, 1, 4 }, { 10, 0xb8, 0, 6 }, { 11, 0xbc, 1, 7 },
	};
	memset(c, 0, sizeof(*c));
	const unsigned char *t = off >= 3 ? audit_bytes(f, (struct loc){ shndx, off - 3 }, 3) : NULL;
	if (!t || t[0] != X86_JE_REL8 || t[1] != 1 || t[2] != X86_INT3)
		return;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		unsigned n = forms[i].len;
		const unsigned char *p = off - 3 >= n ?
			audit_bytes(f, (struct loc){ shndx, off - 3 - n }, n) : NULL;
		/* ModRM: mod 01 (d8) or 10 (d32), reg 111 (/7: cmp), rm the
		 * base; rm 100 (%esp) needs the SIB byte 24. */
		if (!p || p[0] != X86_CMP_RM32_IMM32 || (p[1] & 0xf8) != (forms[i].modrm & 0xf8) ||
		    ((p[1] & 7) == X86_MODRM_RM_SIB) != forms[i].sib ||
		    (forms[i].sib && p[2] != X86_SIB_BASE_ONLY))
			continue;
		int tested = p[1] & 7;
		c->present = true;
		c->id = le32(p + forms[i].imm);
		c->trap = (struct loc){ shndx, off - 1 };
		if (reg != tested) {
			snprintf(problem, sizeof(problem), "the KCFI check in front of it tests %%%s, "
				 "but the branch does not go through %%%s", gpr_names32[tested],
				 gpr_names32[tested]);
			c->problem = problem;
		}
		return;
	}
}

/* The check right before the branch at OFF, which goes through general
 * register REG (-1: through memory, or a far branch). */
static void check_before(const struct audit_file *f, size_t shndx, uint64_t off, int reg,
			 struct check *c)
{
	static char problem[128];	/* audit_branch() reads it at once */
	memset(c, 0, sizeof(*c));
	unsigned addl;
	const unsigned char *t = off >= 4 ? audit_bytes(f, (struct loc){ shndx, off - 4 }, 4) : NULL;
	if (!t || memcmp(t, check_tail, 4))
		return;
	int tested = addl_before(f, shndx, off - 4, &addl);
	uint64_t head = off - 4 - (tested < 0 ? 0 : addl);
	const unsigned char *p = tested >= 0 && head >= 6 ?
		audit_bytes(f, (struct loc){ shndx, head - 6 }, 6) : NULL;
	if (!p || memcmp(p, check_head, 2))
		return;
	c->present = true;
	c->id = 0u - le32(p + 2);
	c->trap = (struct loc){ shndx, off - 2 };
	if (reg != tested) {
		snprintf(problem, sizeof(problem), "the KCFI check in front of it tests %%%s, but "
			 "the branch does not go through %%%s", gpr_names[tested], gpr_names[tested]);
		c->problem = problem;
	}
}

/* A linked file without relocations: addresses the instruction loads,
 * "lea f(%rip), %reg" (PIC) or "mov $f, %reg" / "push $f" (non-PIE), for
 * the addresses-taken check.  Branches are not among them: a direct call
 * takes no address. */
static void code_refs(struct audit_file *f, size_t shndx, uint64_t at, const cs_insn *insn,
		      uint64_t got)
{
	const cs_x86 *x = &insn->detail->x86;
	unsigned id = insn->id;
	for (uint8_t i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (id == X86_INS_LEA && op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
		    op->mem.index == X86_REG_INVALID)
			audit_code_ref(f, (struct loc){ shndx, at },
				       insn->address + insn->size + (uint64_t)op->mem.disp);
		/* i386 PIC: "leal f@GOTOFF(%reg), %r", the register holding the
		 * GOT's address (whichever GCC chose; an offset from anything
		 * else rarely lands exactly on a function's entry). */
		else if (id == X86_INS_LEA && got && op->type == X86_OP_MEM &&
			 op->mem.base != X86_REG_INVALID && op->mem.base != X86_REG_ESP &&
			 op->mem.base != X86_REG_EBP && op->mem.index == X86_REG_INVALID)
			audit_code_ref(f, (struct loc){ shndx, at },
				       (uint32_t)(got + (uint64_t)op->mem.disp));
		else if ((id == X86_INS_MOV || id == X86_INS_PUSH || id == X86_INS_MOVABS) &&
			 op->type == X86_OP_IMM && op->imm > 0)
			audit_code_ref(f, (struct loc){ shndx, at }, (uint64_t)op->imm);
	}
}

static int scan(struct audit_file *f, size_t shndx, bool m32)
{
	const struct section *s = &f->secs[shndx];
	csh h;
	if (!s->data)
		return 0;
	if (cs_open(CS_ARCH_X86, m32 ? CS_MODE_32 : CS_MODE_64, &h) != CS_ERR_OK) {
		audit_error(f->path, "capstone cannot decode %s", f->arch->name);
		return -1;
	}
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	find_thunks(f);
	cs_insn *insn = cs_malloc(h);
	/* i386 PIC code addresses from the GOT: _GLOBAL_OFFSET_TABLE_ */
	size_t gs = m32 ? audit_symbol(f, "_GLOBAL_OFFSET_TABLE_") : (size_t)-1;
	uint64_t got = gs != (size_t)-1 && f->syms[gs].shndx > 0 && f->syms[gs].shndx < f->nsecs &&
		       f->syms[gs].value != UINT64_MAX ?
		f->secs[f->syms[gs].shndx].sh.sh_addr + f->syms[gs].value : 0;
	uint64_t base = f->rel ? 0 : s->sh.sh_addr;
	size_t next_fn = 0;
	uint64_t off = 0;
	while (off < s->size) {
		/* Start again at every function symbol, so that data between
		 * functions cannot carry the decoder out of step. */
		while (next_fn < s->nfuncs && f->syms[s->funcs[next_fn]].value <= off)
			next_fn++;
		uint64_t limit = next_fn < s->nfuncs ? f->syms[s->funcs[next_fn]].value : s->size;
		if (limit > s->size)
			limit = s->size;
		const uint8_t *code = s->data + off;
		size_t size = (size_t)(limit - off);
		uint64_t addr = base + off;
		if (!cs_disasm_iter(h, &code, &size, &addr, insn)) {
			off++;		/* not an instruction: one byte on */
			continue;
		}
		uint64_t at = off;
		off += insn->size;
		unsigned id = insn->id;
		if (!f->rel && !f->has_relocs)
			code_refs(f, shndx, at, insn, got);
		if (id != X86_INS_CALL && id != X86_INS_JMP && id != X86_INS_LCALL &&
		    id != X86_INS_LJMP)
			continue;
		const cs_x86 *x = &insn->detail->x86;
		if (x->op_count < 1)
			continue;
		const cs_x86_op *op = &x->operands[0];
		bool call = id == X86_INS_CALL || id == X86_INS_LCALL;
		int via;		/* the register the branch goes through, or -1 */
		char spelling[256];
		if (op->type == X86_OP_IMM) {
			const char *reg, *name = thunk_target(f, shndx, at, insn->size,
							      (uint64_t)op->imm);
			if (!name || !thunk_name(name, &reg))
				continue;
			via = gpr_by_name(reg, m32);
			snprintf(spelling, sizeof(spelling), "%s %s", insn->mnemonic, name);
		} else {
			via = op->type == X86_OP_REG && id != X86_INS_LCALL && id != X86_INS_LJMP ?
				gpr_of(op->reg, m32) : -1;
			snprintf(spelling, sizeof(spelling), "%s %s", insn->mnemonic, insn->op_str);
		}
		struct check c;
		if (m32)
			check_before32(f, shndx, at, via, &c);
		else
			check_before(f, shndx, at, via, &c);
		audit_branch(f, shndx, at, insn->size, call, &c, spelling);
	}
	cs_free(insn, 1);
	cs_close(&h);
	return 0;
}

static int x86_scan(struct audit_file *f, size_t shndx)
{
	return scan(f, shndx, false);
}

static int i386_scan(struct audit_file *f, size_t shndx)
{
	return scan(f, shndx, true);
}

static bool x86_is_trap(const struct audit_file *f, struct loc at)
{
	const unsigned char *p = audit_bytes(f, at, 2);
	return p && p[0] == X86_TWO_BYTE && p[1] == X86_UD2_2;
}

static bool i386_is_trap(const struct audit_file *f, struct loc at)
{
	const unsigned char *p = audit_bytes(f, at, 1);
	return p && p[0] == X86_INT3;
}

/* "movl $H, %reg" (b8+reg imm32) at P, then only patchable NOPs (0x90) up
 * to f; from FROM to P only padding NOPs too.  The register is %eax, or
 * under -fsanitize-kcfi-arity the one numbered by the arity (*ARITY). */
static bool movl_at(const struct audit_file *f, const struct symbol *fn, uint64_t from, uint64_t p,
		    uint32_t *id, int *arity)
{
	const unsigned char *b = audit_bytes(f, (struct loc){ fn->shndx, from }, fn->value - from);
	if (!b || (b[p - from] & 0xf8) != X86_MOV_R32_IMM32)
		return false;
	for (uint64_t i = from; i < fn->value; i++)
		if ((i < p || i >= p + 5) && b[i - from] != X86_NOP)
			return false;
	*id = le32(b + (p - from) + 1);
	*arity = b[p - from] - X86_MOV_R32_IMM32;
	return true;
}

/* The preamble: __cfi_f holds P padding NOPs and the movl (kcfi-as, Clang),
 * or the movl and the patchable NOPs (the kernel's SYM_TYPED_FUNC_START);
 * either way GCC's patchable NOPs may follow.  Without CFI (an alias of
 * a function whose __cfi_ symbol has the other name): the movl at
 * f-(M+5) for up to 16 patchable NOPs. */
/* Is there a __cfi_ symbol at OFF?  A movl to another register than %eax
 * with NOPs around it is ordinary code often enough; without a symbol of
 * its own (an alias's preamble) it counts only where one marks it. */
static bool cfi_at(const struct audit_file *f, size_t shndx, uint64_t off)
{
	for (size_t i = 0; i < f->nsyms; i++)
		if (f->syms[i].shndx == shndx && f->syms[i].value == off &&
		    !strncmp(f->syms[i].name, "__cfi_", 6))
			return true;
	return false;
}

static bool find_preamble(const struct audit_file *f, const struct symbol *fn,
			  const struct symbol *cfi, uint32_t *id, int *arity)
{
	if (cfi) {
		if (cfi->shndx != fn->shndx || cfi->value + 5 > fn->value ||
		    fn->value - cfi->value > 4096)
			return false;
		for (uint64_t p = cfi->value; p + 5 <= fn->value; p++)
			if (movl_at(f, fn, cfi->value, p, id, arity))
				return true;
		return false;
	}
	for (uint64_t m = 0; m <= 16 && fn->value >= m + 5; m++)
		if (movl_at(f, fn, fn->value - m - 5, fn->value - m - 5, id, arity) &&
		    (*arity == 0 || cfi_at(f, fn->shndx, fn->value - m - 5)))
			return true;
	return false;
}

static bool x86_preamble(const struct audit_file *f, const struct symbol *fn,
			 const struct symbol *cfi, uint32_t *id)
{
	int arity;
	return find_preamble(f, fn, cfi, id, &arity);
}

static int x86_preamble_arity(const struct audit_file *f, const struct symbol *fn,
			      const struct symbol *cfi)
{
	uint32_t id;
	int arity;
	return find_preamble(f, fn, cfi, &id, &arity) ? arity : -1;
}

/* Do the two bytes at P end in the opcode of a call, jmp or jcc whose
 * rel32 follows? */
static bool rel32_branch(const unsigned char *p)
{
	return p[1] == X86_CALL_REL32 || p[1] == X86_JMP_REL32 ||
	       (p[0] == X86_TWO_BYTE && (p[1] & 0xf0) == X86_JCC_REL32_2);
}

static bool x86_is_branch_reloc(const struct audit_file *f, const struct section *s,
				const struct reloc *r)
{
	(void)f;
	const unsigned char *p = s->data && r->off >= 2 && r->off <= s->size ? s->data + r->off - 2 : NULL;
	switch (r->type) {
	case R_X86_64_PLT32:
		return true;
	case R_X86_64_PC32:
		return p && rel32_branch(p);
	case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX:
	case R_X86_64_GOTPCREL:
		/* call/jmp *sym@GOTPCREL(%rip): ff 15 / ff 25 */
		return p && p[0] == X86_GRP5 &&
		       (p[1] == X86_MODRM_RIP_CALL || p[1] == X86_MODRM_RIP_JMP);
	default:
		return false;
	}
}

static int64_t x86_reloc_target_bias(uint32_t type)
{
	switch (type) {
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
	case R_X86_64_GOTPCREL:
	case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX:
		return 4;	/* relative to the end of the 32-bit field */
	default:
		return 0;
	}
}

const struct audit_arch audit_x86_64 = {
	.name = "x86_64",
	.machine = EM_X86_64,
	.trap_name = "ud2",
	.trap_table = true,
	.scan = x86_scan,
	.is_trap = x86_is_trap,
	.preamble = x86_preamble,
	.preamble_arity = x86_preamble_arity,
	.is_branch_reloc = x86_is_branch_reloc,
	.reloc_target_bias = x86_reloc_target_bias,
};

static bool i386_is_branch_reloc(const struct audit_file *f, const struct section *s,
				 const struct reloc *r)
{
	(void)f;
	const unsigned char *p = s->data && r->off >= 2 && r->off <= s->size ? s->data + r->off - 2 : NULL;
	switch (r->type) {
	case R_386_PLT32:
		return true;
	case R_386_PC32:
		return p && rel32_branch(p);
	case R_386_GOT32:
	case R_386_GOT32X:
		/* call/jmp *f@GOT(%reg) (-fno-plt): ff /2 or /4, a named function */
		return p && p[0] == X86_GRP5 && ((p[1] & X86_MODRM_REG) == X86_MODRM_CALL ||
						 (p[1] & X86_MODRM_REG) == X86_MODRM_JMP);
	default:
		return false;
	}
}

static int64_t i386_reloc_target_bias(uint32_t type)
{
	/* The implicit addend of a PC-relative field is -4, as x86_64's explicit one. */
	return type == R_386_PC32 || type == R_386_PLT32 ? 4 : 0;
}

const struct audit_arch audit_i386 = {
	.name = "i386",
	.machine = EM_386,
	.trap_name = "int3",
	.trap_table = false,
	.scan = i386_scan,
	.is_trap = i386_is_trap,
	.preamble = x86_preamble,
	.is_branch_reloc = i386_is_branch_reloc,
	.reloc_target_bias = i386_reloc_target_bias,
	.elf32 = true,
};
