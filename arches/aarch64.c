/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aarch64: the KCFI sequence Linux 6.12's arm64 BRK handler decodes.
 *
 * Call site (doc/manual.md "What is emitted"), immediately before the transfer:
 *	ldur	w16, [xN, #-(4M+4)]	the callee's id, stored before its entry
 *	movk	w17, #(H & 0xffff)	the expected id; both halves are written,
 *	movk	w17, #(H >> 16), lsl #16  so x17's old contents do not matter
 *	cmp	w16, w17
 *	b.eq	1f
 *	brk	#(0x8000 | (17 << 5) | N)
 * 1:	blr	xN			or br xN (sibcall)
 * The kernel recognises a CFI trap by the BRK immediate alone (no table) and
 * reads the target from x[imm & 31] and the expected id from x[(imm>>5) & 31].
 * A target in x16 or x17 (BTI sibcalls go through x16/x17) cannot also be a
 * scratch: that scratch becomes w9, and the immediate names w9 if it held
 * the expected id.
 *
 * Preamble (2.2): the id as a .word right before the entry, before any
 * patchable prefix NOPs; no symbol of its own in Clang, a local __cfi_ label
 * here (see emit_entry).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/arch.h"
#include "asmpass/pattern.h"
#include "asmpass/stmt.h"
#include "common/kcfi-traps.h"

/* Branch statements, mnemonics and registers in any letter case, as GNU as
 * reads them.  GCC prints conditions without the dot (beq, bgt); both
 * spellings are accepted.  Every register branch is indirect: blr/br with
 * any operand (a name that is no x register is left for the assembler to
 * reject, but is never taken for "not a branch"), the pointer-authenticated
 * blraa/blrab/braa/brab[z], and ret through another register than x30.
 * Plain ret, retaa and retab are returns. */
static const char branch_pattern[] =
	"(?i)^(?:"
	"(?<ind>blr|br)\\s+(?<reg>[a-z0-9_]+)"
	"|(?<pac>(?:blr|br)a[ab]z?)\\b.*"
	"|ret\\s+(?<ret>[a-z0-9_]+)"
	"|(?<call>bl)\\s+[^\\s,]+"
	"|(?:b|b\\.?(?:eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al|nv)"
	"|cbn?z|tbn?z)\\s+\\S.*"
	")\\s*$";

static pcre2_code *branch_re;
static pcre2_match_data *branch_md;
static uint32_t grp_ind, grp_reg, grp_pac, grp_ret, grp_call;

enum {
	A64_REG_MASK = 0xff,	/* flags: target register number */
	/* General registers by number: the AAPCS64 intra-procedure scratch
	 * pair the check uses, the stand-in when the target is one of them,
	 * the frame pointer and the link register. */
	A64_X9 = 9,
	A64_IP0 = 16,
	A64_IP1 = 17,
	A64_FP = 29,
	A64_LR = 30,
	/* ldur's signed 9-bit offset: the id is at most this far below. */
	A64_LDUR_REACH = 256,
};

static unsigned a64_brk_imm(unsigned expected_reg, unsigned target_reg)
{
	return KCFI_A64_BRK_BASE | expected_reg << KCFI_A64_BRK_TYPE_SHIFT | target_reg;
}

static int a64_gpr(const char *p, size_t n);
static const char *a64_gpr_name(unsigned n);

static int a64_init(void)
{
	branch_re = pattern_compile("aarch64", branch_pattern);
	if (!branch_re)
		return -1;
	branch_md = pcre2_match_data_create_from_pattern(branch_re, NULL);
	grp_ind = pattern_group_number(branch_re, "ind");
	grp_reg = pattern_group_number(branch_re, "reg");
	grp_pac = pattern_group_number(branch_re, "pac");
	grp_ret = pattern_group_number(branch_re, "ret");
	grp_call = pattern_group_number(branch_re, "call");
	return branch_md ? 0 : -1;
}

/* An x register as the target of a branch: its number, or -1. */
static int xreg(const char *p)
{
	int r = a64_gpr(p, strlen(p));
	return r >= 0 && p[0] != 'w' ? r : -1;
}

static enum insn_class a64_classify(const char *s, size_t len, struct kcfi_branch *b)
{
	memset(b, 0, sizeof(*b));
	/* Every branch mnemonic starts with b, c(bz) t(bz) or r(et). */
	char c = len ? ascii_lower(s[0]) : 0;
	if (c != 'b' && c != 'c' && c != 't' && c != 'r')
		return b->cls = INSN_OTHER;
	int rc = pcre2_match(branch_re, (PCRE2_SPTR)s, len, 0, 0, branch_md, NULL);
	if (rc < 0)
		return b->cls = INSN_OTHER;
	const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(branch_md);
	const char *p;
	size_t n;
	if (pattern_group(ov, grp_ind, s, &p, &n)) {
		bool call = n == 3;
		int r = -1;
		if (pattern_group_lower(ov, grp_reg, s, b->reg, sizeof(b->reg)))
			r = xreg(b->reg);
		if (r < 0) {
			b->refuse = "its target is no x register";
		} else {
			/* x16 for ip0, x30 for LR: as the check's messages name it */
			b->flags = (unsigned)r;
			snprintf(b->reg, sizeof(b->reg), "%s", a64_gpr_name((unsigned)r));
		}
		return b->cls = call ? INSN_ICALL : INSN_IJUMP;
	}
	if (pattern_group(ov, grp_pac, s, &p, &n)) {
		b->refuse = "a pointer-authenticated branch (blraa, braa ...) authenticates its "
			    "target first, which a check before it cannot see; compile without "
			    "the -mbranch-protection forms that use them for calls";
		return b->cls = ascii_lower(p[1]) == 'l' ? INSN_ICALL : INSN_IJUMP;
	}
	char reg[8];
	if (pattern_group_lower(ov, grp_ret, s, reg, sizeof(reg)) && xreg(reg) == A64_LR)
		return b->cls = INSN_OTHER;		/* ret x30: a return */
	if (ov[2 * grp_ret] != PCRE2_UNSET) {
		b->refuse = "ret through another register than x30 is a jump the return "
			    "stack mispredicts; KCFI checks only blr and br";
		return b->cls = INSN_IJUMP;
	}
	if (pattern_group(ov, grp_call, s, &p, &n))
		return b->cls = INSN_CALL;
	return b->cls = INSN_JUMP;
}

/* x0..x30 and w0..w30 by number, ip0/ip1 (x16/x17), fp, lr; sp, xzr and
 * the vector registers are no general registers a check could write. */
static int a64_gpr(const char *p, size_t n)
{
	if (n == 3 && (!memcmp(p, "ip0", 3) || !memcmp(p, "ip1", 3)))
		return A64_IP0 + (p[2] - '0');
	if (n == 2 && !memcmp(p, "fp", 2))
		return A64_FP;
	if (n == 2 && !memcmp(p, "lr", 2))
		return A64_LR;
	if (n < 2 || n > 3 || (p[0] != 'x' && p[0] != 'w') || p[1] < '0' || p[1] > '9' ||
	    (n == 3 && (p[1] == '0' || p[2] < '0' || p[2] > '9')))
		return -1;
	unsigned v = (unsigned)(p[1] - '0');
	if (n == 3)
		v = v * 10 + (unsigned)(p[2] - '0');
	return v <= A64_LR ? (int)v : -1;
}

static const char *a64_gpr_name(unsigned n)
{
	static const char *const names[31] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",
		"x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19",
		"x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30",
	};
	return n < 31 ? names[n] : "?";
}

/* The registers that receive the callee's id and the expected id: x16 and
 * x17, but never the target itself (then x9 stands in). */
static void scratch(const struct kcfi_branch *b, unsigned *loaded, unsigned *expected)
{
	unsigned target = b->flags & A64_REG_MASK;
	*loaded = target == A64_IP0 ? A64_X9 : A64_IP0;
	*expected = target == A64_IP1 ? A64_X9 : A64_IP1;
}

static uint64_t a64_check_clobbers(const struct kcfi_branch *b)
{
	unsigned loaded, expected;
	scratch(b, &loaded, &expected);
	return UINT64_C(1) << loaded | UINT64_C(1) << expected;
}

static int a64_emit_check(struct emitter *e, const struct kcfi_branch *b,
			  const struct kcfi_site *site, const struct kcfi_arch_opts *opts)
{
	(void)opts;
	unsigned target = b->flags & A64_REG_MASK;
	unsigned loaded, expected;
	scratch(b, &loaded, &expected);
	unsigned off = 4 * site->prefix_nops + 4;
	if (off > A64_LDUR_REACH)
		return emit_fail(e, "%u patchable prefix NOPs put the type id out of "
				 "ldur's reach (at most 63)", site->prefix_nops);
	unsigned n = site->serial;

	emit(e, "\tldur\tw%u, [x%u, #-%u]\n", loaded, target, off);
	emit(e, "\tmovk\tw%u, #%u\n", expected, site->id & 0xffffu);
	emit(e, "\tmovk\tw%u, #%u, lsl #16\n", expected, site->id >> 16);
	emit(e, "\tcmp\tw%u, w%u\n", loaded, expected);
	emit(e, "\tb.eq\t" EMIT_CALL_LABEL "\n", n);
	emit_trap(e, n, "\tbrk\t#0x%x\n", a64_brk_imm(expected, target));
	emit(e, "\t%s\t%s\n", b->cls == INSN_ICALL ? "blr" : "br", b->reg);
	return 0;
}

/* The id as data right before the prefix NOPs (or the entry).  Clang names
 * nothing here; the local __cfi_ label is for people and the scan tests
 * reading the assembly, and costs a local symbol. */
static void a64_emit_entry(struct emitter *e, const struct kcfi_entry *f)
{
	if (!f->typed)
		return;
	emit(e, "%s:\n\t.word\t%u\n", f->cfi_sym, f->id);
}

/* BTI C (spelt as its hint, which every assembler takes): the stub is a
 * target of indirect calls under -mbranch-protection=bti, a NOP elsewhere.
 * Then through the GOT entry &NAME would have read (see the x86_64
 * stub for why not the PLT); x16 is the register BTI lets br reach a
 * "bti c" through, and free at a call. */
static void a64_emit_stub_jump(struct emitter *e, const char *target, const char *label)
{
	emit(e, "\thint\t34\n\tadrp\tx16, :got:%s\n\tldr\tx16, [x16, :got_lo12:%s]\n"
	     "%s:\n\tbr\tx16\n\tbl\t%s\n", target, target, label, target);
}

/* GCC marks the blr of a TLS descriptor call with .tlsdesccall, between
 * the directive (.kcfi_call_direct) and the branch. */
static bool a64_lenient_directive(const char *name, size_t nlen, const char *args, size_t alen)
{
	(void)args;
	(void)alen;
	return word_ieq(name, nlen, "tlsdesccall");
}

static bool a64_serves(const char *arch, size_t len, unsigned ptr_bits)
{
	return ptr_bits == 64 &&
	       ((len == 7 && !memcmp(arch, "aarch64", 7)) || (len == 5 && !memcmp(arch, "arm64", 5)));
}

const struct kcfi_arch arch_aarch64 = {
	.name = "aarch64",
	.serves = a64_serves,
	.init = a64_init,
	.classify = a64_classify,
	.emit_check = a64_emit_check,
	.emit_entry = a64_emit_entry,
	.emit_stub_jump = a64_emit_stub_jump,
	.stub_align = 16,
	.gpr = a64_gpr,
	.gpr_name = a64_gpr_name,
	.check_clobbers = a64_check_clobbers,
	.lenient_directive = a64_lenient_directive,
	.comment = "//",
	.align_pow2 = true,
	.nop = "nop",
	/* ldur movk movk cmp b.eq brk: GNU as does not relax aarch64 branches,
	 * so GCC must have sized all six (doc/directives.md 3.3, reserved length). */
	.check_statements = KCFI_CHECK_STATEMENTS_AARCH64,
	.trap_word = NULL,	/* Linux finds arm64 CFI traps by BRK immediate */
};
