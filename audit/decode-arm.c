/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm (ARMv7-A, ELF32): ARM state and Thumb-2, decoded by hand for just
 * the forms KCFI needs (doc/abi.md 3a).
 *
 * One section mixes ARM code, Thumb code and data (literal pools, the
 * preambles' ids); only the assembler's mapping symbols ($a, $t, $d) say
 * which is which, and a wrong guess would walk data as instructions or
 * Thumb as ARM.  So the walk follows them, and a section without any
 * (stripped) falls back on the Thumb bit of its function symbols.
 *
 * The check right before "blx rT" (call) or "bx rT" (sibcall):
 *	[push {r3}]		only for a sibcall through ip
 *	bic	S, rT, #1	S: ip; lr when T is ip (a call); r3 when saved
 *	ldr	S, [S, #-4]
 *	eor	S, S, #b0	four byte lanes, each a modified immediate:
 *	eor	S, S, #b1	their sum is the id
 *	eor	S, S, #b2
 *	eors	S, S, #b3
 *	[pop {r3}]
 *	beq	1f		beq.w in Thumb
 *	bkpt	#imm		ARM 0x8000|31<<5|T, Thumb 0x80|T
 *	[nop]			Thumb only
 * 1:	blx/bx	rT
 * Linux 6.12 finds the trap by the BKPT alone: no trap table.
 *
 * Indirect branches: blx/bx through a register (bx lr is a return), bxj,
 * and whatever else writes pc from data: mov/add.. pc, ldr pc, ldm {pc},
 * tbb/tbh.  Returns among those (pop {.., pc}, ldm sp!, ldr pc, [sp], #4,
 * mov pc, lr) are not branches a pointer steers.  None but blx/bx can carry
 * a check: kcfi-as refuses the others unless the plugin marked them (jump
 * tables), and then a record explains them.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/insn-form.h"
#include "audit/tables.h"
#include "common/kcfi-traps.h"

enum { R3 = 3, IP = 12, SP = 13, LR = 14, PC = 15 };

/* ARM state (A32) forms, the condition field (bits 28-31) masked out
 * unless the form says AL. */
static const struct form
	A32_BKPT = { 0x0ff000f0, 0x01200070 },
	A32_BKPT_AL = { 0xfff000f0, 0xe1200070 },
	A32_BIC_1_AL = { 0xfff00fff, 0xe3c00001 },	/* bic rD, rN, #1 */
	A32_EOR_IMM_AL = { 0xfff00000, 0xe2200000 },
	A32_EORS_IMM_AL = { 0xfff00000, 0xe2300000 },
	A32_BX = { 0x0ffffff0, 0x012fff10 },
	A32_BLX = { 0x0ffffff0, 0x012fff30 },
	A32_BXJ = { 0x0ffffff0, 0x012fff20 },
	A32_LDR_PC = { 0x0c50f000, 0x0410f000 },	/* ldr pc, ... */
	A32_POP_PC = { 0x0fffffff, 0x049df004 },	/* ldr pc, [sp], #4 */
	A32_LDR_LIT = { 0x0f7f0000, 0x051f0000 },	/* ldr rT, [pc, #+-imm12] */
	A32_LDM_PC = { 0x0e108000, 0x08108000 },	/* ldm rN, {.., pc} */
	A32_MOVW = { 0x0ff00000, 0x03000000 },
	A32_MOVT = { 0x0ff00000, 0x03400000 },
	A32_ADD_PC = { 0x0fff0ff0, 0x008f0000 },	/* add rD, pc, rM */
	A32_LOAD = { 0x0c100000, 0x04100000 };		/* ldr, ldrb: write rT */

/* The words of the check that are the same at every site. */
#define A32_BEQ_OVER_TRAP UINT32_C(0x0a000000)	/* beq .+8 */
#define A32_LDR_MINUS_4_AL UINT32_C(0xe5100004)	/* ldr rT, [rN, #-4], rT, rN ORed in */
#define A32_LDR_R3_POP UINT32_C(0xe49d3004)	/* ldr r3, [sp], #4 */
#define A32_LDM_R3_POP UINT32_C(0xe8bd0008)	/* ldm sp!, {r3} */
#define A32_STR_R3_PUSH UINT32_C(0xe52d3004)	/* str r3, [sp, #-4]! */
#define A32_STM_R3_PUSH UINT32_C(0xe92d0008)	/* stmdb sp!, {r3} */

/* Thumb forms, of the first halfword (T16 alone or a T32's first half). */
static const struct form
	T16_BKPT = { 0xff00, 0xbe00 },
	T16_BX_BLX = { 0xff07, 0x4700 },
	T16_MOV_HI = { 0xff00, 0x4600 },		/* mov rD, rM, any registers */
	T16_ADD_HI = { 0xff00, 0x4400 },
	T16_LDR_LIT = { 0xf800, 0x4800 },
	T16_ADD_PC = { 0xff78, 0x4478 },		/* add rD, pc */
	T16_SHIFT_ADD_MOV = { 0xc000, 0x0000 },		/* shifts, add/sub, mov/cmp imm */
	T16_MOV_CMP_IMM = { 0xe000, 0x2000 },		/* of those: rD at 8 */
	T32_BIC_IMM = { 0xfff0, 0xf020 },		/* bic.w (i = 0, S = 0) */
	T32_LDR_W = { 0xff70, 0xf850 },			/* ldr.w rT, [rN, ...] */
	T32_LDR_LIT = { 0xff7f, 0xf85f },		/* ldr.w rT, [pc, #+-imm12] */
	T32_EOR_IMM = { 0xfbf0, 0xf080 },
	T32_EORS_IMM = { 0xfbf0, 0xf090 },
	T32_LDM_IA = { 0xffd0, 0xe890 },
	T32_LDM_DB = { 0xffd0, 0xe910 },
	T32_TBB_TBH = { 0xfff0, 0xe8d0 },
	T32_MOVW = { 0xfbf0, 0xf240 },
	T32_MOVT = { 0xfbf0, 0xf2c0 },
	T32_DATA = { 0xfa00, 0xf000 };			/* data processing, modified imm */

enum {
	T16_NOP = 0xbf00,
	T16_MOV_R8_R8 = 0x46c0,	/* the nop GNU as writes without v6T2 */
	T16_POP_R3 = 0xbc08,
	T16_PUSH_R3 = 0xb408,
	T32_BEQ_W_OVER_TRAP_1 = 0xf000,	/* beq.w .+8, first halfword */
	T32_BEQ_W_OVER_TRAP_2 = 0x8002,
	T32_BIC_IMM_1 = 0x0001,		/* bic.w: its second halfword, rD masked */
	T32_BIC_IMM_1_MASK = 0xf0ff,
	T32_LDR_MINUS_4_2 = 0x0c04,	/* ldr.w rT, [rN, #-4]: second halfword, rT at 12 */
	T32_TBB_TBH_2 = 0xf000,		/* tbb/tbh: second halfword, rM and H masked */
	T32_TBB_TBH_2_MASK = 0xffe0,
	T32_TBH_BIT = 0x10,
	T16_BLX_BIT = 0x80,
	T32_LDM_PC_BIT = 0x8000,	/* ldm's second halfword, the list: pc */
	T32_NOT_DATA_BIT = 0x8000,	/* second halfword: set for branches, clear for
					 * data processing (eor.w) */
};

static const char *const reg_names[16] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7",
	"r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc",
};

static uint32_t ror32(uint32_t v, unsigned n)
{
	n &= 31;
	return n ? v >> n | v << (32 - n) : v;
}

/* ARMExpandImm: imm8 rotated right by twice the 4-bit rotation. */
static uint32_t arm_imm(uint32_t w)
{
	return ror32(w & 0xff, ((w >> 8) & 15) * 2);
}

/* ThumbExpandImm of i:imm3:imm8 from the two halfwords. */
static uint32_t thumb_imm(uint16_t hw1, uint16_t hw2)
{
	uint32_t imm12 = (uint32_t)((hw1 >> 10) & 1) << 11 | (uint32_t)((hw2 >> 12) & 7) << 8 |
			 (hw2 & 0xff);
	uint32_t b = imm12 & 0xff;
	if (!(imm12 & 0xc00)) {
		switch ((imm12 >> 8) & 3) {
		case 0: return b;
		case 1: return b << 16 | b;
		case 2: return b << 24 | b << 8;
		default: return b << 24 | b << 16 | b << 8 | b;
		}
	}
	return ror32(0x80 | (imm12 & 0x7f), imm12 >> 7);
}

/* The four eor immediates, each inside its own byte lane: the id. */
static bool id_of(const uint32_t v[4], uint32_t *id)
{
	*id = 0;
	for (unsigned k = 0; k < 4; k++) {
		if (v[k] & ~(UINT32_C(0xff) << (8 * k)))
			return false;
		*id |= v[k];
	}
	return true;
}

static uint32_t word(const struct audit_file *f, size_t shndx, uint64_t off)
{
	const unsigned char *p = audit_bytes(f, (struct loc){ shndx, off }, 4);
	return p ? le32(p) : 0;
}

static uint16_t half(const struct audit_file *f, size_t shndx, uint64_t off)
{
	const unsigned char *p = audit_bytes(f, (struct loc){ shndx, off }, 2);
	return p ? le16(p) : 0;
}

static const char *tests_other(unsigned tested)
{
	static char problem[128];	/* audit_branch() reads it at once */
	snprintf(problem, sizeof(problem), "the KCFI check in front of it tests %s, but the "
		 "branch does not go through %s", reg_names[tested], reg_names[tested]);
	return problem;
}

/* ARM state: the check ending at the branch at OFF through register T. */
static void check_arm(const struct audit_file *f, size_t shndx, uint64_t off, unsigned t,
		      struct check *c)
{
	memset(c, 0, sizeof(*c));
	if (off < 32)
		return;
	uint32_t bkpt = word(f, shndx, off - 4), beq = word(f, shndx, off - 8);
	unsigned imm = field(bkpt, 8, 12) << 4 | field(bkpt, 0, 4);
	if (!form_is(bkpt, A32_BKPT_AL) || (imm & ~KCFI_ARM_BKPT_REG_BITS) != KCFI_ARM_BKPT_ARM ||
	    beq != A32_BEQ_OVER_TRAP)
		return;
	uint64_t end = off - 8;
	uint32_t pop = word(f, shndx, end - 4);
	bool saved = pop == A32_LDR_R3_POP || pop == A32_LDM_R3_POP;
	if (saved)
		end -= 4;
	if (end < 24 || (saved && end < 28))
		return;
	uint32_t bic = word(f, shndx, end - 24), ldr = word(f, shndx, end - 20), v[4];
	unsigned s = field(bic, 12, 4), tested = field(bic, 16, 4);
	if (!form_is(bic, A32_BIC_1_AL) || ldr != (A32_LDR_MINUS_4_AL | s << 16 | s << 12) ||
	    s == tested || (saved && s != R3) || (imm & KCFI_ARM_BKPT_REG_BITS) != tested)
		return;
	for (unsigned k = 0; k < 4; k++) {
		uint32_t e = word(f, shndx, end - 16 + 4 * k);
		if (!form_is(e, k == 3 ? A32_EORS_IMM_AL : A32_EOR_IMM_AL) || field(e, 16, 4) != s ||
		    field(e, 12, 4) != s)
			return;
		v[k] = arm_imm(e);
	}
	uint32_t push = saved ? word(f, shndx, end - 28) : 0;
	if ((saved && push != A32_STR_R3_PUSH && push != A32_STM_R3_PUSH) || !id_of(v, &c->id))
		return;
	c->present = true;
	c->trap = (struct loc){ shndx, off - 4 };
	if (t != tested)
		c->problem = tests_other(tested);
}

/* Thumb: the same, before the 16-bit blx/bx at OFF. */
static void check_thumb(const struct audit_file *f, size_t shndx, uint64_t off, unsigned t,
			struct check *c)
{
	memset(c, 0, sizeof(*c));
	if (off < 32)
		return;
	uint16_t nop = half(f, shndx, off - 2), bkpt = half(f, shndx, off - 4);
	/* nop.n: the hint, or "mov r8, r8" where GNU as has no v6T2 (no .arch) */
	if ((nop != T16_NOP && nop != T16_MOV_R8_R8) || !form_is(bkpt, T16_BKPT) ||
	    (bkpt & 0xff & ~KCFI_ARM_BKPT_REG_BITS) != KCFI_ARM_BKPT_THUMB ||
	    half(f, shndx, off - 8) != T32_BEQ_W_OVER_TRAP_1 ||
	    half(f, shndx, off - 6) != T32_BEQ_W_OVER_TRAP_2)
		return;
	uint64_t end = off - 8;
	bool saved = half(f, shndx, end - 2) == T16_POP_R3;
	if (saved)
		end -= 2;
	if (end < 24 || (saved && end < 26))
		return;
	uint16_t b1 = half(f, shndx, end - 24), b2 = half(f, shndx, end - 22);
	uint16_t l1 = half(f, shndx, end - 20), l2 = half(f, shndx, end - 18);
	unsigned s = field(b2, 8, 4), tested = field(b1, 0, 4);
	uint32_t v[4];
	/* bic.w S, rT, #1; ldr.w S, [S, #-4] */
	if (!form_is(b1, T32_BIC_IMM) || (b2 & T32_BIC_IMM_1_MASK) != T32_BIC_IMM_1 ||
	    l1 != (T32_LDR_W.bits | s) || l2 != (s << 12 | T32_LDR_MINUS_4_2) || s == tested ||
	    (saved && s != R3) || (bkpt & KCFI_ARM_BKPT_REG_BITS) != tested)
		return;
	for (unsigned k = 0; k < 4; k++) {
		uint16_t e1 = half(f, shndx, end - 16 + 4 * k), e2 = half(f, shndx, end - 14 + 4 * k);
		if (!form_is(e1, k == 3 ? T32_EORS_IMM : T32_EOR_IMM) || field(e1, 0, 4) != s ||
		    (e2 & T32_NOT_DATA_BIT) || field(e2, 8, 4) != s)
			return;
		v[k] = thumb_imm(e1, e2);
	}
	if ((saved && half(f, shndx, end - 26) != T16_PUSH_R3) || !id_of(v, &c->id))
		return;
	c->present = true;
	c->trap = (struct loc){ shndx, off - 4 };
	if (t != tested)
		c->problem = tests_other(tested);
}

/* Addresses code computes, for a linked file without relocations: movw +
 * movt of one register (non-PIC), and the PIC "ldr rD, =(f - pc); add rD,
 * pc, rD".  Per register, reset at every stretch of code. */
struct refs {
	bool on;
	uint32_t lo[16], lit[16];
	struct loc lo_at[16], lit_at[16];
	uint16_t have_lo, have_lit;
};

static void refs_reset(struct refs *r, bool on)
{
	memset(r, 0, sizeof(*r));
	r->on = on;
}

static void refs_movw(struct refs *r, unsigned d, uint32_t v, struct loc at)
{
	r->lo[d] = v;
	r->lo_at[d] = at;
	r->have_lo |= (uint16_t)(1u << d);
	r->have_lit &= (uint16_t)~(1u << d);
}

static void refs_movt(struct audit_file *f, struct refs *r, unsigned d, uint32_t v)
{
	if (r->have_lo >> d & 1)
		audit_code_ref(f, r->lo_at[d], (uint64_t)(v << 16 | r->lo[d]));
	r->have_lo &= (uint16_t)~(1u << d);
}

static void refs_literal(const struct audit_file *f, struct refs *r, unsigned d, uint64_t addr,
			 struct loc at)
{
	struct loc lit;
	const unsigned char *p;
	r->have_lo &= (uint16_t)~(1u << d);
	r->have_lit &= (uint16_t)~(1u << d);
	if (!audit_addr_loc(f, addr, &lit) || !(p = audit_bytes(f, lit, 4)))
		return;
	r->lit[d] = le32(p);
	r->lit_at[d] = at;
	r->have_lit |= (uint16_t)(1u << d);
}

static void refs_add_pc(struct audit_file *f, struct refs *r, unsigned d, uint64_t pc)
{
	if (r->have_lit >> d & 1)
		audit_code_ref(f, r->lit_at[d], (uint32_t)(pc + r->lit[d]));
	r->have_lit &= (uint16_t)~(1u << d);
}

/* A write to D other than those: what was pending for it is gone. */
static void refs_clobber(struct refs *r, unsigned d)
{
	r->have_lo &= (uint16_t)~(1u << d);
	r->have_lit &= (uint16_t)~(1u << d);
}

static void branch(struct audit_file *f, size_t shndx, uint64_t off, unsigned len, bool call,
		   int t, bool thumb, const char *what)
{
	char spelling[48];
	struct check c;
	memset(&c, 0, sizeof(c));
	if (t >= 0) {
		snprintf(spelling, sizeof(spelling), "%s %s", what, reg_names[t]);
		if (thumb)
			check_thumb(f, shndx, off, (unsigned)t, &c);
		else
			check_arm(f, shndx, off, (unsigned)t, &c);
	} else {
		snprintf(spelling, sizeof(spelling), "%s", what);
	}
	audit_branch(f, shndx, off, len, call, &c, spelling);
}

static void arm_insn(struct audit_file *f, size_t shndx, uint64_t off, uint32_t w, struct refs *r)
{
	uint64_t pc = (f->rel ? 0 : f->secs[shndx].sh.sh_addr) + off + 8;
	struct loc at = { shndx, off };
	unsigned cond = w >> 28, rd = (w >> 12) & 15, rn = (w >> 16) & 15;
	if (cond == 0xf)
		return;		/* the unconditional space: blx <label>, pld, ... */
	if (form_is(w, A32_BX)) {
		unsigned m = w & 15;
		if (m != LR && m != PC)
			branch(f, shndx, off, 4, false, (int)m, false, "bx");
		return;
	}
	if (form_is(w, A32_BLX)) {
		if ((w & 15) != PC)
			branch(f, shndx, off, 4, true, (int)(w & 15), false, "blx");
		return;
	}
	if (form_is(w, A32_BXJ)) {
		branch(f, shndx, off, 4, false, -1, false, "bxj");
		return;
	}
	if (form_is(w, A32_LDR_PC)) {
		/* ldr pc, [sp], #4 returns; ldr pc, [pc, #-4] with the
		 * target's address next to it is the linker's long-branch
		 * veneer, a direct branch. */
		if (!form_is(w, A32_POP_PC) && !form_is(w, A32_LDR_LIT))
			branch(f, shndx, off, 4, false, -1, false, "ldr pc");
		return;
	}
	if (form_is(w, A32_LDM_PC)) {
		/* Returns: pop/ldm sp!, and the APCS frame's ldmdb fp,
		 * {.., sp, pc}, which restores sp with pc. */
		if (rn != SP && !(w & (1u << SP)))
			branch(f, shndx, off, 4, false, -1, false, "ldm {pc}");
		return;
	}
	unsigned op = (w >> 21) & 15;
	bool dp = (w & 0x0c000000) == 0 && !(op >= 8 && op <= 11) &&
		  !(!(w & 0x02000000) && (w & 0x90) == 0x90);
	if (dp && rd == PC) {
		/* mov pc, lr and subs pc, lr, #N return; the rest (add pc,
		 * pc, rN, lsl #2: a jump table) branches. */
		bool ret = (op == 13 && (w & 0x02000fff) == LR) ||
			   (op == 2 && rn == LR && (w & 0x02000000));
		if (!ret)
			branch(f, shndx, off, 4, false, -1, false,
			       op == 13 ? "mov pc" : op == 4 ? "add pc" : "data processing into pc");
		return;
	}
	if (!r->on)
		return;
	if (form_is(w, A32_MOVW))
		refs_movw(r, rd, (w >> 4 & 0xf000) | (w & 0xfff), at);
	else if (form_is(w, A32_MOVT))
		refs_movt(f, r, rd, (w >> 4 & 0xf000) | (w & 0xfff));
	else if (form_is(w, A32_LDR_LIT))	/* U, bit 23: add the offset */
		refs_literal(f, r, rd, w & 0x00800000 ? pc + (w & 0xfff) : pc - (w & 0xfff), at);
	else if (form_is(w, A32_ADD_PC) && (w & 15) == rd)	/* add rD, pc, rD */
		refs_add_pc(f, r, rd, pc);
	else if (dp || form_is(w, A32_LOAD))
		refs_clobber(r, rd);
}

/* A Thumb instruction at OFF: HW1 alone (16-bit) or with HW2. */
static void thumb_insn(struct audit_file *f, size_t shndx, uint64_t off, uint16_t hw1, uint16_t hw2,
		       bool wide, struct refs *r)
{
	uint64_t pc = (f->rel ? 0 : f->secs[shndx].sh.sh_addr) + off + 4;
	struct loc at = { shndx, off };
	if (!wide) {
		unsigned m = (hw1 >> 3) & 15, d = ((hw1 >> 4) & 8) | (hw1 & 7);
		if (form_is(hw1, T16_BX_BLX)) {
			bool call = hw1 & T16_BLX_BIT;
			if (m != PC && (call || m != LR))
				branch(f, shndx, off, 2, call, (int)m, true, call ? "blx" : "bx");
		} else if (form_is(hw1, T16_MOV_HI) && d == PC) {
			if (m != LR)
				branch(f, shndx, off, 2, false, -1, true, "mov pc");
		} else if (form_is(hw1, T16_ADD_HI) && d == PC) {
			branch(f, shndx, off, 2, false, -1, true, "add pc");
		} else if (r->on && form_is(hw1, T16_LDR_LIT)) {
			refs_literal(f, r, (hw1 >> 8) & 7, (pc & ~(uint64_t)3) + (hw1 & 0xff) * 4u, at);
		} else if (r->on && form_is(hw1, T16_ADD_PC)) {
			refs_add_pc(f, r, d, pc);
		} else if (r->on && form_is(hw1, T16_SHIFT_ADD_MOV)) {
			refs_clobber(r, form_is(hw1, T16_MOV_CMP_IMM) ? (hw1 >> 8) & 7 : hw1 & 7);
		}
		return;
	}
	unsigned rt = hw2 >> 12, rn = hw1 & 15;
	if (form_is(hw1, T32_LDR_W) && rt == PC) {
		/* not ldr pc, [sp], #4 (a return) nor ldr.w pc, [pc, #N] (a
		 * veneer's direct branch) */
		if (!(hw1 == 0xf85d && hw2 == 0xfb04) && rn != PC)
			branch(f, shndx, off, 4, false, -1, true, "ldr pc");
	} else if ((form_is(hw1, T32_LDM_IA) || form_is(hw1, T32_LDM_DB)) &&
		   (hw2 & T32_LDM_PC_BIT)) {
		if (rn != SP)					/* ldm {.., pc}, not pop */
			branch(f, shndx, off, 4, false, -1, true, "ldm {pc}");
	} else if (form_is(hw1, T32_TBB_TBH) && (hw2 & T32_TBB_TBH_2_MASK) == T32_TBB_TBH_2) {
		branch(f, shndx, off, 4, false, -1, true, hw2 & T32_TBH_BIT ? "tbh" : "tbb");
	} else if (r->on) {
		unsigned d = (hw2 >> 8) & 15;
		uint32_t imm16 = (uint32_t)(hw1 & 15) << 12 | (uint32_t)((hw1 >> 10) & 1) << 11 |
				 (uint32_t)((hw2 >> 12) & 7) << 8 | (hw2 & 0xff);
		if (form_is(hw1, T32_MOVW))
			refs_movw(r, d, imm16, at);
		else if (form_is(hw1, T32_MOVT))
			refs_movt(f, r, d, imm16);
		else if (form_is(hw1, T32_LDR_LIT))
			refs_literal(f, r, rt, hw1 & 0x80 ? (pc & ~(uint64_t)3) + (hw2 & 0xfff)
							  : (pc & ~(uint64_t)3) - (hw2 & 0xfff), at);
		else if (form_is(hw1, T32_DATA) && !(hw2 & T32_NOT_DATA_BIT))
			refs_clobber(r, d);
	}
}

/* The state at OFF of section S and where it next may change: the mapping
 * symbols, or without them the Thumb bit of the function there. */
static char state_at(const struct audit_file *f, size_t shndx, uint64_t off, uint64_t *end)
{
	const struct section *s = &f->secs[shndx];
	size_t lo = 0, hi = s->nmaps ? s->nmaps : s->nfuncs;
	/* The first mapping (or function) symbol after OFF. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((s->nmaps ? s->maps[mid].off : f->syms[s->funcs[mid]].value) <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	*end = s->size;
	if (s->nmaps) {
		if (lo < s->nmaps && s->maps[lo].off < s->size)
			*end = s->maps[lo].off;
		char k = lo ? s->maps[lo - 1].kind : 'a';
		return k == 't' ? 't' : k == 'd' ? 'd' : 'a';
	}
	if (lo < s->nfuncs && f->syms[s->funcs[lo]].value < s->size)
		*end = f->syms[s->funcs[lo]].value;
	return lo && f->syms[s->funcs[lo - 1]].thumb ? 't' : 'a';
}

static int arm_scan(struct audit_file *f, size_t shndx)
{
	const struct section *s = &f->secs[shndx];
	bool want_refs = !f->rel && !f->has_relocs;
	struct refs r;
	uint64_t off = 0, end;
	while (s->data && off < s->size) {
		char k = state_at(f, shndx, off, &end);
		if (end <= off)
			end = off + 1;
		refs_reset(&r, want_refs);
		if (k == 'd') {
			/* A literal pool's words may be addresses the code loads. */
			for (uint64_t o = (off + 3) & ~(uint64_t)3; want_refs && o + 4 <= end; o += 4)
				audit_code_ref(f, (struct loc){ shndx, o }, le32(s->data + o));
			off = end;
		} else if (k == 'a') {
			for (off = (off + 3) & ~(uint64_t)3; off + 4 <= end; off += 4)
				arm_insn(f, shndx, off, le32(s->data + off), &r);
			off = end;
		} else {
			for (off = (off + 1) & ~(uint64_t)1; off + 2 <= end;) {
				uint16_t hw1 = le16(s->data + off);
				bool wide = (hw1 & 0xf800) >= 0xe800;
				if (wide && off + 4 > end)
					break;
				thumb_insn(f, shndx, off, hw1, wide ? le16(s->data + off + 2) : 0, wide, &r);
				off += wide ? 4 : 2;
			}
			off = end;
		}
	}
	return 0;
}

static bool arm_is_trap(const struct audit_file *f, struct loc at)
{
	const unsigned char *p = audit_bytes(f, at, 2);
	if (p && form_is(le16(p), T16_BKPT))
		return true;
	p = audit_bytes(f, at, 4);
	return p && form_is(le32(p), A32_BKPT);
}

/* Does a $d mapping symbol start exactly at AT? */
static bool data_starts_at(const struct audit_file *f, struct loc at)
{
	const struct section *s = &f->secs[at.shndx];
	size_t lo = 0, hi = s->nmaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->maps[mid].off < at.off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nmaps && s->maps[lo].off == at.off; lo++)
		if (s->maps[lo].kind == 'd')
			return true;
	return false;
}

/* The id is a data word right before the entry, with no symbol of its own
 * (doc/abi.md 3a): only the mapping symbols tell it from code.  A literal
 * pool at the end of the function before is data there too, but it lies
 * inside that function (its symbol's size, its range record), where a
 * preamble never does.  Where that function has no size (the C library's
 * start files), only a word that is a stretch of data of its own, right
 * after code, counts: as the assembler marks a .word between two
 * functions' code. */
static bool arm_preamble(const struct audit_file *f, const struct symbol *fn,
			 const struct symbol *cfi, uint32_t *id)
{
	(void)cfi;
	struct loc w = { fn->shndx, fn->value - 4 };
	const unsigned char *p;
	if (fn->value < 4 || fn->value % 4 || audit_mapping_at(f, w) != 'd' ||
	    audit_mapping_at(f, (struct loc){ fn->shndx, fn->value }) == 'd' ||
	    tables_instrumented(f, w) || !(p = audit_bytes(f, w, 4)))
		return false;
	size_t before = audit_func_at(f, w);
	const struct symbol *g = before == (size_t)-1 ? NULL : &f->syms[before];
	if (g && w.off < g->value + g->size)
		return false;
	if (!data_starts_at(f, w) && (!g || !g->size))
		return false;
	*id = le32(p);
	return true;
}

static bool arm_is_branch_reloc(const struct audit_file *f, const struct section *s,
				const struct reloc *r)
{
	(void)f;
	(void)s;
	switch (r->type) {
	case R_ARM_PC24:
	case R_ARM_CALL:
	case R_ARM_JUMP24:
	case R_ARM_PLT32:
	case R_ARM_THM_PC22:	/* THM_CALL */
	case R_ARM_THM_JUMP24:
	case R_ARM_THM_JUMP19:
	case R_ARM_THM_PC11:
	case R_ARM_THM_PC9:
	case R_ARM_V4BX:
		return true;
	default:
		return false;
	}
}

static int64_t arm_bias(uint32_t type)
{
	(void)type;
	return 0;
}

/* REL addends sit in the instruction or word the relocation patches; only
 * those of relocations that may take an address matter here. */
static int64_t arm_rel_addend(const struct audit_file *f, const struct section *t, uint64_t off,
			      uint32_t type)
{
	(void)f;
	const unsigned char *p = t->data && off <= t->size && t->size - off >= 4 ? t->data + off : NULL;
	if (!p)
		return 0;
	uint32_t w = le32(p);
	uint16_t hw1 = le16(p), hw2 = le16(p + 2);
	switch (type) {
	case R_ARM_ABS32:
	case R_ARM_REL32:
	case R_ARM_TARGET1:
	case R_ARM_GOTOFF:
	case R_ARM_GOT_PREL:
		return (int32_t)w;
	case R_ARM_MOVW_ABS_NC:
	case R_ARM_MOVT_ABS:
		return (int16_t)((w >> 4 & 0xf000) | (w & 0xfff));
	case R_ARM_THM_MOVW_ABS_NC:
	case R_ARM_THM_MOVT_ABS:
		return (int16_t)((hw1 & 15) << 12 | ((hw1 >> 10) & 1) << 11 | ((hw2 >> 12) & 7) << 8 |
				 (hw2 & 0xff));
	default:
		return 0;
	}
}

const struct audit_arch audit_arm = {
	.name = "arm",
	.machine = EM_ARM,
	.trap_name = "bkpt",
	.trap_table = false,
	.scan = arm_scan,
	.is_trap = arm_is_trap,
	.preamble = arm_preamble,
	.is_branch_reloc = arm_is_branch_reloc,
	.reloc_target_bias = arm_bias,
	.elf32 = true,
	.rel_addend = arm_rel_addend,
};
