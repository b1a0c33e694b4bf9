/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aarch64: fixed 4-byte instructions, decoded by hand for just the forms
 * KCFI needs (doc/abi.md 2).  The check right before "blr/br xN":
 *	ldur	wT, [xN, #-(4M+4)]	T = 16, or 9 when N is 16
 *	movk	wE, #lo			E = 17, or 9 when N is 17
 *	movk	wE, #hi, lsl #16
 *	cmp	wT, wE
 *	b.eq	.+8
 *	brk	#(0x8000 | E << 5 | N)	Linux reads N and E here; no trap table
 */
#include "config.h"

#include <stdio.h>

#include "audit/audit.h"
#include "audit/insn-form.h"
#include "common/kcfi-traps.h"

/* The forms the walk and the check are made of (Arm ARM, A64 encodings). */
static const struct form
	A64_BRK = { 0xffe0001f, 0xd4200000 },		/* brk #imm16 */
	A64_LDUR_W = { 0xffe00c00, 0xb8400000 },	/* ldur wT, [xN, #simm9] */
	A64_MOVK_W = { 0xffe00000, 0x72800000 },	/* movk wD, #imm16 */
	A64_MOVK_W_16 = { 0xffe00000, 0x72a00000 },	/* movk wD, #imm16, lsl #16 */
	A64_CMP_W = { 0xffe0fc1f, 0x6b00001f },		/* cmp wN, wM (subs wzr) */
	A64_B_EQ_8 = { 0xffffffff, 0x54000040 },	/* b.eq .+8 */
	A64_BR_BLR = { 0xffdffc1f, 0xd61f0000 },	/* br, blr (not ret) */
	A64_BR_BLR_PAC = { 0xfedff800, 0xd61f0800 },	/* braa, blraaz, ... (not retaa) */
	A64_ADR_ADRP = { 0x1f000000, 0x10000000 },
	A64_ADD_X_IMM = { 0xffc00000, 0x91000000 };	/* add xD, xN, #imm12 */

#define A64_NOP UINT32_C(0xd503201f)
#define A64_BLR_BIT (UINT32_C(1) << 21)		/* of br/blr: the call */
#define A64_ADRP_BIT (UINT32_C(1) << 31)	/* of adr/adrp: the page */

/* Register and immediate fields. */
static unsigned rd(uint32_t w)	/* also Rt */
{
	return field(w, 0, 5);
}

static unsigned rn(uint32_t w)
{
	return field(w, 5, 5);
}

static unsigned rm(uint32_t w)
{
	return field(w, 16, 5);
}

static unsigned imm16(uint32_t w)	/* movk, brk */
{
	return field(w, 5, 16);
}

static uint32_t word(const struct audit_file *f, size_t shndx, uint64_t off)
{
	const unsigned char *p = audit_bytes(f, (struct loc){ shndx, off }, 4);
	return p ? le32(p) : 0;
}

static bool is_kcfi_brk(uint32_t w, unsigned n, unsigned e)
{
	unsigned imm = imm16(w);
	return form_is(w, A64_BRK) && (imm & KCFI_A64_BRK_FIXED_BITS) == KCFI_A64_BRK_BASE &&
	       (imm & KCFI_A64_BRK_REG_BITS) == n &&
	       (imm >> KCFI_A64_BRK_TYPE_SHIFT & KCFI_A64_BRK_REG_BITS) == e;
}

static void check_before(const struct audit_file *f, size_t shndx, uint64_t off, unsigned n,
			 struct check *c)
{
	c->present = false;
	c->problem = NULL;
	if (off < 24)
		return;
	uint32_t ldur = word(f, shndx, off - 24), lo = word(f, shndx, off - 20),
		 hi = word(f, shndx, off - 16), cmp = word(f, shndx, off - 12),
		 beq = word(f, shndx, off - 8), brk = word(f, shndx, off - 4);
	unsigned t = rd(ldur), e = rd(lo);
	if (!form_is(ldur, A64_LDUR_W) || rn(ldur) != n ||
	    !form_is(lo, A64_MOVK_W) || !form_is(hi, A64_MOVK_W_16) || rd(hi) != e ||
	    !form_is(cmp, A64_CMP_W) || rn(cmp) != t || rm(cmp) != e ||
	    !form_is(beq, A64_B_EQ_8) || !is_kcfi_brk(brk, n, e) || t == e)
		return;
	c->present = true;
	c->id = imm16(lo) | (uint32_t)imm16(hi) << 16;
	c->trap = (struct loc){ shndx, off - 4 };
}

/* A linked file without relocations: the addresses its code computes,
 * "adrp xN, f" + "add xM, xN, :lo12:f" (the small code model, PIC or
 * not) or "adr xN, f" (tiny), for the addresses-taken check.  The two of a
 * pair need not be neighbours: the page is kept per register, from the
 * adrp to the next adrp of that register or the next function. */
struct pages {
	uint64_t page[32];
	struct loc at[32];
	uint32_t have;
};

static void code_refs(struct audit_file *f, size_t shndx, uint64_t off, uint32_t w,
		      struct pages *pg)
{
	uint64_t pc = f->secs[shndx].sh.sh_addr + off;
	unsigned d = rd(w), n = rn(w);
	if (form_is(w, A64_ADR_ADRP)) {
		uint64_t imm = (uint64_t)field(w, 5, 19) << 2 | field(w, 29, 2);
		imm = (imm ^ (1u << 20)) - (1u << 20);	/* 21 bits, signed */
		if (w & A64_ADRP_BIT) {
			pg->page[d] = (pc & ~(uint64_t)0xfff) + (imm << 12);
			pg->at[d] = (struct loc){ shndx, off };
			pg->have |= 1u << d;
		} else {
			audit_code_ref(f, (struct loc){ shndx, off }, pc + imm);
		}
	} else if (form_is(w, A64_ADD_X_IMM) && (pg->have >> n & 1)) {
		audit_code_ref(f, pg->at[n], pg->page[n] + field(w, 10, 12));
		if (d != n)
			pg->have &= ~(1u << d);
	}
}

static int a64_scan(struct audit_file *f, size_t shndx)
{
	const struct section *s = &f->secs[shndx];
	bool refs = !f->rel && !f->has_relocs;
	struct pages pg = { .have = 0 };
	size_t next_fn = 0;
	for (uint64_t off = 0; s->data && off + 4 <= s->size; off += 4) {
		uint32_t w = le32(s->data + off);
		unsigned at = audit_sweep_at(f, s, &next_fn, off);
		if (at)
			pg.have = 0;
		if (at & AUDIT_AT_CFI)
			continue;
		if (refs)
			code_refs(f, shndx, off, w, &pg);
		bool plain = form_is(w, A64_BR_BLR);
		bool pac = form_is(w, A64_BR_BLR_PAC);
		if (!plain && !pac)
			continue;
		bool call = w & A64_BLR_BIT;
		unsigned n = rn(w);
		char spelling[32];
		snprintf(spelling, sizeof(spelling), "%s%s x%u", call ? "blr" : "br", pac ? "a*" : "", n);
		struct check c;
		check_before(f, shndx, off, n, &c);
		if (c.present && pac)
			c.problem = "a pointer-authenticated branch: the KCFI check cannot guard it";
		audit_branch(f, shndx, off, 4, call, &c, spelling);
	}
	return 0;
}

static bool a64_is_trap(const struct audit_file *f, struct loc at)
{
	const unsigned char *p = audit_bytes(f, at, 4);
	return p && form_is(le32(p), A64_BRK) && (imm16(le32(p)) & KCFI_A64_BRK_BASE);
}

/* __cfi_f: the id as a .word, then only NOPs up to f. */
static bool a64_preamble(const struct audit_file *f, const struct symbol *fn,
			 const struct symbol *cfi, uint32_t *id)
{
	if (!cfi)
		return false;	/* no opcode marks the .word: the label must */
	if (cfi->shndx != fn->shndx || cfi->value + 4 > fn->value || (fn->value - cfi->value) % 4)
		return false;
	const unsigned char *p = audit_bytes(f, (struct loc){ fn->shndx, cfi->value },
					     fn->value - cfi->value);
	if (!p)
		return false;
	for (uint64_t i = 4; i < fn->value - cfi->value; i += 4)
		if (le32(p + i) != A64_NOP)
			return false;
	*id = le32(p);
	return true;
}

static bool a64_is_branch_reloc(const struct audit_file *f, const struct section *s,
				const struct reloc *r)
{
	(void)f;
	(void)s;
	return r->type == R_AARCH64_CALL26 || r->type == R_AARCH64_JUMP26 ||
	       r->type == R_AARCH64_CONDBR19 || r->type == R_AARCH64_TSTBR14;
}

static int64_t a64_bias(uint32_t type)
{
	(void)type;
	return 0;
}

const struct audit_arch audit_aarch64 = {
	.name = "aarch64",
	.machine = EM_AARCH64,
	.trap_name = "brk",
	.trap_table = false,
	.scan = a64_scan,
	.is_trap = a64_is_trap,
	.preamble = a64_preamble,
	.is_branch_reloc = a64_is_branch_reloc,
	.reloc_target_bias = a64_bias,
};
