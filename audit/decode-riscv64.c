/* SPDX-License-Identifier: GPL-2.0-or-later */
/* riscv64: 4-byte instructions and 2-byte RVC ones, decoded by hand for
 * just the forms KCFI needs (doc/abi.md 3).  The check right before
 * "jalr rN" (or c.jalr, c.jr, "jalr zero, 0(rN)"):
 *	lw	T, -(M*n+4)(rN)
 *	lui	E, hi		or c.lui; absent when hi is 0
 *	addiw	E, E, lo	or c.addiw; "addi E, zero, lo" / c.li without lui
 *	beq	E, T, .+4+L	the 32-bit encoding
 *	ebreak			or c.ebreak (L bytes), listed in .kcfi_traps
 * GNU as compresses what it can under RVC, so each step back tries the
 * 4-byte form first, then the 2-byte one.  A jalr right after an auipc of
 * its own register is the "call sym" / "tail sym" pair: a direct call.
 */
#include "config.h"

#include <stdio.h>

#include "audit/audit.h"
#include "audit/insn-form.h"

/* The forms the walk and the check are made of (the RISC-V unprivileged
 * ISA: RV64I, and C for the 16-bit ones). */
static const struct form
	RV_LUI = { 0x7f, 0x37 },
	RV_AUIPC = { 0x7f, 0x17 },
	RV_ADDI = { 0x707f, 0x13 },
	RV_ADDIW = { 0x707f, 0x1b },
	RV_LW = { 0x707f, 0x2003 },
	RV_BEQ = { 0x707f, 0x63 },
	RV_JALR = { 0x707f, 0x67 },
	RV_C_ADDI = { 0xe003, 0x0001 },
	RV_C_ADDIW = { 0xe003, 0x2001 },
	RV_C_LI = { 0xe003, 0x4001 },
	RV_C_LUI = { 0xe003, 0x6001 },
	RV_C_JR = { 0xf07f, 0x8002 },		/* c.jr rs1: rs2 = 0 (else c.mv) */
	RV_C_JALR = { 0xf07f, 0x9002 };		/* c.jalr rs1; rs1 = 0 is c.ebreak */

enum {
	RV_EBREAK = 0x00100073,
	RV_NOP = 0x00000013,		/* addi zero, zero, 0 */
	RV_C_EBREAK = 0x9002,
	RV_C_NOP = 0x0001,
	RV_ZERO = 0, RV_RA = 1, RV_SP = 2, RV_GP = 3,
};

/* A 16-bit instruction: the low two bits are not 11. */
static bool compressed(uint16_t h)
{
	return (h & 3) != 3;
}

static unsigned rd(uint32_t w)		/* also the 16-bit rd/rs1 */
{
	return field(w, 7, 5);
}

static unsigned rs1(uint32_t w)
{
	return field(w, 15, 5);
}

static unsigned rs2(uint32_t w)
{
	return field(w, 20, 5);
}

static int32_t imm_i(uint32_t w)	/* addi, addiw, lw, jalr */
{
	return (int32_t)w >> 20;
}

/* The 6-bit immediate of c.addi, c.addiw, c.li: imm[5] at 12, imm[4:0] at 2. */
static uint32_t imm_ci(uint16_t h)
{
	return (uint32_t)field(h, 12, 1) << 5 | field(h, 2, 5);
}

static const unsigned char *at(const struct audit_file *f, size_t shndx, uint64_t off, size_t n)
{
	return audit_bytes(f, (struct loc){ shndx, off }, n);
}

static int32_t sext(uint32_t v, unsigned bits)
{
	uint32_t m = 1u << (bits - 1);
	return (int32_t)((v ^ m) - m);
}

/* The id built in register E, ending at END: its value and where it starts. */
static bool id_before(const struct audit_file *f, size_t shndx, uint64_t end, unsigned e,
		      uint32_t *id, uint64_t *start)
{
	const unsigned char *p;
	int32_t lo;
	bool need_lui;
	if (end >= 4 && (p = at(f, shndx, end - 4, 4)) && form_is(le32(p), RV_ADDIW) &&
	    rd(le32(p)) == e && rs1(le32(p)) == e) {
		lo = imm_i(le32(p));			/* addiw E, E, lo */
		need_lui = true;
		end -= 4;
	} else if (end >= 4 && (p = at(f, shndx, end - 4, 4)) && form_is(le32(p), RV_ADDI) &&
		   rd(le32(p)) == e && rs1(le32(p)) == RV_ZERO) {
		lo = imm_i(le32(p));			/* addi E, zero, lo */
		need_lui = false;
		end -= 4;
	} else if (end >= 2 && (p = at(f, shndx, end - 2, 2)) && rd(le16(p)) == e &&
		   (form_is(le16(p), RV_C_ADDIW) || form_is(le16(p), RV_C_LI))) {
		uint16_t h = le16(p);			/* c.addiw / c.li */
		lo = sext(imm_ci(h), 6);
		need_lui = form_is(h, RV_C_ADDIW);
		end -= 2;
	} else {
		return false;
	}
	uint32_t hi = 0;
	if (need_lui) {
		if (end >= 4 && (p = at(f, shndx, end - 4, 4)) && form_is(le32(p), RV_LUI) &&
		    rd(le32(p)) == e) {
			hi = le32(p) & 0xfffff000;
			end -= 4;
		} else if (end >= 2 && (p = at(f, shndx, end - 2, 2)) && form_is(le16(p), RV_C_LUI) &&
			   rd(le16(p)) == e) {
			hi = (uint32_t)sext(imm_ci(le16(p)) << 12, 18);
			end -= 2;
		} else {
			return false;
		}
	}
	*id = hi + (uint32_t)lo;
	*start = end;
	return true;
}

static void check_before(const struct audit_file *f, size_t shndx, uint64_t off, unsigned n,
			 struct check *c)
{
	const unsigned char *p;
	c->present = false;
	c->problem = NULL;
	unsigned elen;
	if (off >= 4 && (p = at(f, shndx, off - 4, 4)) && le32(p) == RV_EBREAK)
		elen = 4;
	else if (off >= 2 && (p = at(f, shndx, off - 2, 2)) && le16(p) == RV_C_EBREAK)
		elen = 2;
	else
		return;
	uint64_t beq_at = off - elen;
	if (beq_at < 4 || !(p = at(f, shndx, beq_at - 4, 4)))
		return;
	uint32_t b = le32(p);
	unsigned e = rs1(b), t = rs2(b);
	/* The B-type offset: imm[12|10:5] at 25, imm[4:1|11] at 7. */
	uint32_t imm = field(b, 31, 1) << 12 | field(b, 7, 1) << 11 | field(b, 25, 6) << 5 |
		       field(b, 8, 4) << 1;
	if (!form_is(b, RV_BEQ) || imm != 4 + elen || e == t)
		return;
	uint32_t id;
	uint64_t start;
	if (!id_before(f, shndx, beq_at - 4, e, &id, &start) || start < 4 ||
	    !(p = at(f, shndx, start - 4, 4)))
		return;
	uint32_t lw = le32(p);
	if (!form_is(lw, RV_LW) || rd(lw) != t || rs1(lw) != n)
		return;
	c->present = true;
	c->id = id;
	c->trap = (struct loc){ shndx, off - elen };
}

/* An auipc of register R right before OFF (the first half of call/tail). */
static bool after_auipc(const struct audit_file *f, size_t shndx, uint64_t off, unsigned r)
{
	const unsigned char *p = off >= 4 ? at(f, shndx, off - 4, 4) : NULL;
	if (p && form_is(le32(p), RV_AUIPC) && rd(le32(p)) == r)
		return true;
	if (f->rel) {
		const struct reloc *x = off >= 4 ? audit_reloc_at(f, shndx, off - 4) : NULL;
		return x && (x->type == R_RISCV_CALL || x->type == R_RISCV_CALL_PLT);
	}
	return false;
}

/* A linked file without relocations: the addresses its code computes,
 * for the addresses-taken check: "auipc rN, %pcrel_hi(f)" (medany, PIC)
 * or "lui rN, %hi(f)" / c.lui (medlow), then "addi rM, rN, lo" (or
 * c.addi), and "addi rM, gp, off" once the linker relaxed a pair to the
 * global pointer.  The upper part is kept per register until the next
 * function; the pair need not be neighbours. */
struct uppers {
	uint64_t val[32];
	struct loc at[32];
	uint32_t have;
	uint64_t gp;		/* __global_pointer$, 0 if none */
};

static void upper(struct uppers *u, unsigned rd, uint64_t v, struct loc at)
{
	if (!rd)
		return;
	u->val[rd] = v;
	u->at[rd] = at;
	u->have |= 1u << rd;
}

static void lower(struct audit_file *f, struct uppers *u, unsigned rd, unsigned rs1, int32_t imm,
		  struct loc at)
{
	if (u->have >> rs1 & 1)
		audit_code_ref(f, u->at[rs1], u->val[rs1] + (uint64_t)(int64_t)imm);
	else if (rs1 == RV_GP && u->gp)
		audit_code_ref(f, at, u->gp + (uint64_t)(int64_t)imm);
	if (rd != rs1)
		u->have &= ~(1u << rd);
}

static void code_refs32(struct audit_file *f, size_t shndx, uint64_t off, uint32_t w,
			struct uppers *u)
{
	uint64_t pc = f->secs[shndx].sh.sh_addr + off;
	struct loc at = { shndx, off };
	unsigned d = rd(w);
	if (form_is(w, RV_AUIPC))
		upper(u, d, pc + (uint64_t)(int64_t)(int32_t)(w & 0xfffff000), at);
	else if (form_is(w, RV_LUI))
		upper(u, d, (uint64_t)(int64_t)(int32_t)(w & 0xfffff000), at);
	else if (form_is(w, RV_ADDI))
		lower(f, u, d, rs1(w), imm_i(w), at);
	else if (d)
		u->have &= ~(1u << d);	/* most other formats write rd there */
}

static void code_refs16(struct audit_file *f, size_t shndx, uint64_t off, uint16_t h,
			struct uppers *u)
{
	struct loc at = { shndx, off };
	unsigned d = rd(h);
	int32_t imm6 = sext(imm_ci(h), 6);
	if (form_is(h, RV_C_LUI) && d != RV_ZERO && d != RV_SP)	/* else c.addi16sp */
		upper(u, d, (uint64_t)(int64_t)imm6 << 12, at);
	else if (form_is(h, RV_C_ADDI) && d)
		lower(f, u, d, d, imm6, at);
}

static int rv_scan(struct audit_file *f, size_t shndx)
{
	const struct section *s = &f->secs[shndx];
	bool refs = !f->rel && !f->has_relocs;
	struct uppers u = { .have = 0 };
	size_t gp = refs ? audit_symbol(f, "__global_pointer$") : (size_t)-1;
	if (gp != (size_t)-1 && f->syms[gp].shndx > 0 && f->syms[gp].shndx < f->nsecs &&
	    f->syms[gp].value != UINT64_MAX)
		u.gp = f->secs[f->syms[gp].shndx].sh.sh_addr + f->syms[gp].value;
	size_t next_fn = 0;
	uint64_t off = 0;
	while (s->data && off + 2 <= s->size) {
		/* Start again at every function symbol: an instruction never
		 * steps over one. */
		unsigned at = audit_sweep_at(f, s, &next_fn, off);
		if (at)
			u.have = 0;
		uint64_t stop = next_fn < s->nfuncs ? f->syms[s->funcs[next_fn]].value : UINT64_MAX;
		if (at & AUDIT_AT_CFI) {
			off = off + 4 < stop ? off + 4 : stop;
			continue;
		}
		uint16_t h = le16(s->data + off);
		char spelling[40];
		if (refs && compressed(h))
			code_refs16(f, shndx, off, h, &u);
		else if (refs && off + 4 <= s->size)
			code_refs32(f, shndx, off, le32(s->data + off), &u);
		if (compressed(h)) {
			unsigned r = rd(h);
			bool cjalr = form_is(h, RV_C_JALR) && r;
			bool cjr = form_is(h, RV_C_JR) && r && r != RV_RA;	/* c.jr ra: ret */
			if (cjalr || cjr) {
				struct check c;
				snprintf(spelling, sizeof(spelling), "%s x%u", cjalr ? "c.jalr" : "c.jr", r);
				check_before(f, shndx, off, r, &c);
				audit_branch(f, shndx, off, 2, cjalr, &c, spelling);
			}
			off = off + 2 < stop ? off + 2 : stop;
			continue;
		}
		if (off + 4 > s->size)
			break;
		uint32_t w = le32(s->data + off);
		unsigned d = rd(w), s1 = rs1(w);
		if (form_is(w, RV_JALR) && !(d == RV_ZERO && s1 == RV_RA) &&	/* not ret */
		    !after_auipc(f, shndx, off, s1)) {
			struct check c;
			snprintf(spelling, sizeof(spelling), "jalr x%u, %d(x%u)", d, imm_i(w), s1);
			check_before(f, shndx, off, s1, &c);
			if (c.present && imm_i(w))
				c.problem = "the branch adds an offset to the register the check tested";
			audit_branch(f, shndx, off, 4, d != RV_ZERO, &c, spelling);
		}
		off = off + 4 < stop ? off + 4 : stop;
	}
	return 0;
}

static bool rv_is_trap(const struct audit_file *f, struct loc a)
{
	const unsigned char *p = audit_bytes(f, a, 2);
	if (p && le16(p) == RV_C_EBREAK)
		return true;
	p = audit_bytes(f, a, 4);
	return p && le32(p) == RV_EBREAK;
}

/* __cfi_f: the id as a .word, then only NOPs (nop or c.nop) up to f. */
static bool rv_preamble(const struct audit_file *f, const struct symbol *fn,
			const struct symbol *cfi, uint32_t *id)
{
	if (!cfi)
		return false;	/* no opcode marks the .word: the label must */
	if (cfi->shndx != fn->shndx || cfi->value + 4 > fn->value)
		return false;
	uint64_t len = fn->value - cfi->value;
	const unsigned char *p = audit_bytes(f, (struct loc){ fn->shndx, cfi->value }, len);
	if (!p)
		return false;
	for (uint64_t i = 4; i < len;) {
		if (i + 2 <= len && le16(p + i) == RV_C_NOP)
			i += 2;
		else if (i + 4 <= len && le32(p + i) == RV_NOP)
			i += 4;
		else
			return false;
	}
	*id = le32(p);
	return true;
}

static bool rv_is_branch_reloc(const struct audit_file *f, const struct section *s,
			       const struct reloc *r)
{
	(void)f;
	(void)s;
	switch (r->type) {
	case R_RISCV_CALL:
	case R_RISCV_CALL_PLT:
	case R_RISCV_JAL:
	case R_RISCV_BRANCH:
	case R_RISCV_RVC_JUMP:
	case R_RISCV_RVC_BRANCH:
		return true;
	default:
		return false;
	}
}

static int64_t rv_bias(uint32_t type)
{
	(void)type;
	return 0;
}

const struct audit_arch audit_riscv64 = {
	.name = "riscv64",
	.machine = EM_RISCV,
	.trap_name = "ebreak",
	.trap_table = true,
	.scan = rv_scan,
	.is_trap = rv_is_trap,
	.preamble = rv_preamble,
	.is_branch_reloc = rv_is_branch_reloc,
	.reloc_target_bias = rv_bias,
};
