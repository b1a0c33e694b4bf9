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
#include "audit/tables.h"

enum { R3 = 3, IP = 12, SP = 13, LR = 14, PC = 15 };

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
	unsigned imm = ((bkpt >> 4) & 0xfff0) | (bkpt & 15);
	if ((bkpt & 0xfff000f0) != 0xe1200070 || (imm & 0xfff0) != (0x8000 | 31u << 5) ||
	    beq != 0x0a000000)
		return;
	uint64_t end = off - 8;
	uint32_t pop = word(f, shndx, end - 4);
	bool saved = pop == 0xe49d3004 || pop == 0xe8bd0008;	/* ldr r3, [sp], #4 / ldm */
	if (saved)
		end -= 4;
	if (end < 24 || (saved && end < 28))
		return;
	uint32_t bic = word(f, shndx, end - 24), ldr = word(f, shndx, end - 20), v[4];
	unsigned s = (bic >> 12) & 15, tested = (bic >> 16) & 15;
	if ((bic & 0xfff00fff) != 0xe3c00001 || ldr != (0xe5100004 | s << 16 | s << 12) ||
	    s == tested || (saved && s != R3) || (imm & 15) != tested)
		return;
	for (unsigned k = 0; k < 4; k++) {
		uint32_t e = word(f, shndx, end - 16 + 4 * k);
		uint32_t want = k == 3 ? 0xe2300000 : 0xe2200000;	/* eors / eor, cond AL */
		if ((e & 0xfff00000) != want || ((e >> 16) & 15) != s || ((e >> 12) & 15) != s)
			return;
		v[k] = arm_imm(e);
	}
	uint32_t push = saved ? word(f, shndx, end - 28) : 0;
	if ((saved && push != 0xe52d3004 && push != 0xe92d0008) || !id_of(v, &c->id))
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
	if ((nop != 0xbf00 && nop != 0x46c0) || (bkpt & 0xfff0) != 0xbe80 ||
	    half(f, shndx, off - 8) != 0xf000 ||
	    half(f, shndx, off - 6) != 0x8002)
		return;
	uint64_t end = off - 8;
	bool saved = half(f, shndx, end - 2) == 0xbc08;		/* pop {r3} */
	if (saved)
		end -= 2;
	if (end < 24 || (saved && end < 26))
		return;
	uint16_t b1 = half(f, shndx, end - 24), b2 = half(f, shndx, end - 22);
	uint16_t l1 = half(f, shndx, end - 20), l2 = half(f, shndx, end - 18);
	unsigned s = (b2 >> 8) & 15, tested = b1 & 15;
	uint32_t v[4];
	/* bic.w S, rT, #1; ldr.w S, [S, #-4] */
	if ((b1 & 0xfff0) != 0xf020 || (b2 & 0xf0ff) != 0x0001 || l1 != (0xf850 | s) ||
	    l2 != (s << 12 | 0xc04) || s == tested || (saved && s != R3) || (bkpt & 15) != tested)
		return;
	for (unsigned k = 0; k < 4; k++) {
		uint16_t e1 = half(f, shndx, end - 16 + 4 * k), e2 = half(f, shndx, end - 14 + 4 * k);
		uint16_t want = k == 3 ? 0xf090 : 0xf080;		/* eors.w / eor.w */
		if ((e1 & 0xfbf0) != want || (e1 & 15) != s || (e2 & 0x8000) || ((e2 >> 8) & 15) != s)
			return;
		v[k] = thumb_imm(e1, e2);
	}
	if ((saved && half(f, shndx, end - 26) != 0xb408) || !id_of(v, &c->id))
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
	if ((w & 0x0ffffff0) == 0x012fff10) {			/* bx */
		unsigned m = w & 15;
		if (m != LR && m != PC)
			branch(f, shndx, off, 4, false, (int)m, false, "bx");
		return;
	}
	if ((w & 0x0ffffff0) == 0x012fff30) {			/* blx */
		if ((w & 15) != PC)
			branch(f, shndx, off, 4, true, (int)(w & 15), false, "blx");
		return;
	}
	if ((w & 0x0ffffff0) == 0x012fff20) {			/* bxj */
		branch(f, shndx, off, 4, false, -1, false, "bxj");
		return;
	}
	if ((w & 0x0c50f000) == 0x0410f000) {			/* ldr pc, ... */
		/* ldr pc, [sp], #4 returns; ldr pc, [pc, #-4] with the
		 * target's address next to it is the linker's long-branch
		 * veneer, a direct branch. */
		if ((w & 0x0fffffff) != 0x049df004 && (w & 0x0f7f0000) != 0x051f0000)
			branch(f, shndx, off, 4, false, -1, false, "ldr pc");
		return;
	}
	if ((w & 0x0e108000) == 0x08108000) {			/* ldm {.., pc} */
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
	if ((w & 0x0ff00000) == 0x03000000)			/* movw */
		refs_movw(r, rd, (w >> 4 & 0xf000) | (w & 0xfff), at);
	else if ((w & 0x0ff00000) == 0x03400000)		/* movt */
		refs_movt(f, r, rd, (w >> 4 & 0xf000) | (w & 0xfff));
	else if ((w & 0x0f7f0000) == 0x051f0000)		/* ldr rD, [pc, #+-imm] */
		refs_literal(f, r, rd, w & 0x00800000 ? pc + (w & 0xfff) : pc - (w & 0xfff), at);
	else if ((w & 0x0fff0ff0) == 0x008f0000 && (w & 15) == rd)	/* add rD, pc, rD */
		refs_add_pc(f, r, rd, pc);
	else if (dp || (w & 0x0c100000) == 0x04100000)
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
		if ((hw1 & 0xff07) == 0x4700) {			/* bx, blx */
			bool call = hw1 & 0x80;
			if (m != PC && (call || m != LR))
				branch(f, shndx, off, 2, call, (int)m, true, call ? "blx" : "bx");
		} else if ((hw1 & 0xff00) == 0x4600 && d == PC) {	/* mov pc, rM */
			if (m != LR)
				branch(f, shndx, off, 2, false, -1, true, "mov pc");
		} else if ((hw1 & 0xff00) == 0x4400 && d == PC) {	/* add pc, rM */
			branch(f, shndx, off, 2, false, -1, true, "add pc");
		} else if (r->on && (hw1 & 0xf800) == 0x4800) {	/* ldr rT, [pc, #imm] */
			refs_literal(f, r, (hw1 >> 8) & 7, (pc & ~(uint64_t)3) + (hw1 & 0xff) * 4u, at);
		} else if (r->on && (hw1 & 0xff78) == 0x4478) {	/* add rD, pc */
			refs_add_pc(f, r, d, pc);
		} else if (r->on && (hw1 & 0xc000) == 0) {		/* shifts, add/sub, mov imm */
			refs_clobber(r, (hw1 & 0xe000) == 0x2000 ? (hw1 >> 8) & 7 : hw1 & 7);
		}
		return;
	}
	unsigned rt = hw2 >> 12, rn = hw1 & 15;
	if ((hw1 & 0xff70) == 0xf850 && rt == PC) {		/* ldr.w pc, ... */
		/* not ldr pc, [sp], #4 (a return) nor ldr.w pc, [pc, #N] (a
		 * veneer's direct branch) */
		if (!(hw1 == 0xf85d && hw2 == 0xfb04) && rn != PC)
			branch(f, shndx, off, 4, false, -1, true, "ldr pc");
	} else if (((hw1 & 0xffd0) == 0xe890 || (hw1 & 0xffd0) == 0xe910) && (hw2 & 0x8000)) {
		if (rn != SP)					/* ldm {.., pc}, not pop */
			branch(f, shndx, off, 4, false, -1, true, "ldm {pc}");
	} else if ((hw1 & 0xfff0) == 0xe8d0 && (hw2 & 0xffe0) == 0xf000) {
		branch(f, shndx, off, 4, false, -1, true, hw2 & 0x10 ? "tbh" : "tbb");
	} else if (r->on) {
		unsigned d = (hw2 >> 8) & 15;
		uint32_t imm16 = (uint32_t)(hw1 & 15) << 12 | (uint32_t)((hw1 >> 10) & 1) << 11 |
				 (uint32_t)((hw2 >> 12) & 7) << 8 | (hw2 & 0xff);
		if ((hw1 & 0xfbf0) == 0xf240)
			refs_movw(r, d, imm16, at);
		else if ((hw1 & 0xfbf0) == 0xf2c0)
			refs_movt(f, r, d, imm16);
		else if ((hw1 & 0xff7f) == 0xf85f)		/* ldr.w rT, [pc, #+-imm12] */
			refs_literal(f, r, rt, hw1 & 0x80 ? (pc & ~(uint64_t)3) + (hw2 & 0xfff)
							  : (pc & ~(uint64_t)3) - (hw2 & 0xfff), at);
		else if ((hw1 & 0xfa00) == 0xf000 && !(hw2 & 0x8000))	/* data processing */
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
	if (p && (le16(p) & 0xff00) == 0xbe00)
		return true;
	p = audit_bytes(f, at, 4);
	return p && (le32(p) & 0x0ff000f0) == 0x01200070;
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
