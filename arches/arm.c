/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm: 32-bit ARM (ARMv7-A), in Thumb-2 and in ARM state, for the KCFI trap
 * Linux 6.12 handles there.
 *
 * Linux 6.12's arm CFI handler (arch/arm/kernel/hw_breakpoint.c) is reached
 * through the debug-event path: a BKPT instruction (DSCR method of entry
 * "BKPT instruction") is a CFI failure, reported without target or type
 * (report_cfi_failure_noaddr), and CONFIG_CFI_PERMISSIVE resumes 4 bytes
 * after the BKPT.  So the trap here is BKPT, not the UDF LLVM 22's arm
 * backend uses (6.12 takes that for an ordinary undefined instruction).
 *
 * Call site (doc/abi.md, arm), immediately before the transfer:
 *	bic	ip, rT, #1		the callee's id sits before its entry; a
 *	ldr	ip, [ip, #-4]		Thumb function's address has bit 0 set
 *	eor	ip, ip, #(H & 0xff)	ip ^= H, one byte at a time (each is a
 *	eor	ip, ip, #(H & 0xff00)	valid modified immediate in both
 *	eor	ip, ip, #(H & 0xff0000)	states), so one scratch register does;
 *	eors	ip, ip, #(H & 0xff000000)  Z is set iff the ids are equal
 *	beq	1f			(beq.w in Thumb: a fixed layout)
 *	bkpt	#imm			imm names rT, as LLVM's udf does:
 *	nop				ARM 0x8000|(31<<5)|T, Thumb 0x80|T; the
 * 1:	blx	rT			Thumb nop keeps "resume 4 bytes after
 *					the trap" at the blx (or bx rT: sibcall)
 * ip (r12) is the AAPCS intra-procedure scratch: free at every call.  When
 * the target is ip itself, a call uses lr instead (blx overwrites it
 * anyway), a sibcall (bx ip, lr live) saves and restores r3 around the
 * compare; pop does not change the flags beq reads.
 *
 * Preamble: the id as a .word right before the entry, aligned to 4 so the
 * load is an aligned one, with no symbol: a label there would take the
 * .thumb_func GCC printed for the function's own label.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/arch.h"
#include "asmpass/pattern.h"
#include "asmpass/stmt.h"
#include "common/kcfi-traps.h"

/* Branches as GNU as reads them in unified syntax, any letter case, with an
 * optional condition and .n/.w width suffix:
 *   ind   blx/bx through a register (bx lr is a return, sorted out below);
 *         any operand that is no symbol-looking name is left to the
 *         assembler to reject, never taken for "not a branch"
 *   bxj   Jazelle branch: an indirect jump no check can keep
 *   tbl   tbb/tbh: Thumb-2 jump tables
 *   call  bl/blx to a label
 *   jump  b, b<cond>, cbz, cbnz
 *   pcw   anything else that writes pc: ldr/mov/add.. pc, .. and ldm/pop
 *         with pc in the list; returns among them are sorted out below. */
#define COND "(?:eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)"
static const char branch_pattern[] =
	"(?i)^(?:"
	"(?<ind>blx|bx)(?<cond>" COND ")?(?:\\.[nw])?\\s+(?<reg>[a-z][a-z0-9_]*)"
	"|(?<bxj>bxj)\\b.*"
	"|(?<tbl>tb[bh])\\b.*"
	"|(?<call>blx?)" COND "?(?:\\.[nw])?\\s+[^\\s,{}\\[]+"
	"|(?:b" COND "?|cbn?z)(?:\\.[nw])?\\s+\\S.*"
	"|(?<pcw>(?:ldr|mov|mvn|add|adc|sub|sbc|rsb|rsc|and|orr|eor|bic|lsl|lsr|asr|ror)"
	"\\w*\\s+(?:pc|r15)\\s*,.*"
	"|(?:pop|ldm)\\w*\\s+[^{]*\\{[^}]*\\b(?:pc|r15)\\b[^}]*\\}.*)"
	")\\s*$";

/* Returns among the pc writers: pop {.., pc}, ldm sp!, {.., pc}, ldr pc,
 * [sp], #4 (GCC's one-register pop in ARM state) and mov pc, lr. */
static const char return_pattern[] =
	"(?i)^(?:"
	"pop\\w*\\s+\\{.*"
	"|ldm(?:ia|fd)?" COND "?(?:\\.[nw])?\\s+(?:sp|r13)!\\s*,.*"
	"|ldr" COND "?(?:\\.[nw])?\\s+(?:pc|r15)\\s*,\\s*\\[\\s*(?:sp|r13)\\s*\\]\\s*,\\s*#4"
	"|mov" COND "?(?:\\.[nw])?\\s+(?:pc|r15)\\s*,\\s*(?:lr|r14)"
	")\\s*$";

static pcre2_code *branch_re, *return_re;
static pcre2_match_data *branch_md, *return_md;
static uint32_t grp_ind, grp_cond, grp_reg, grp_bxj, grp_tbl, grp_call, grp_pcw;

enum {
	ARM_REG_MASK = 0xf,	/* flags: target register number */
	ARM_ISA_THUMB = 1,	/* opts->isa: the assembler is in Thumb state */
	ARM_ISA_DIVIDED = 2,	/* opts->isa: .syntax divided */
	ARM_ISA_NO_THUMB2 = 4,	/* opts->isa: .arch has Thumb-1 only */
	ARM_IP = 12,
	ARM_SP = 13,
	ARM_LR = 14,
};

static int arm_gpr(const char *p, size_t n);
static const char *arm_gpr_name(unsigned n);

static int arm_init(void)
{
	branch_re = pattern_compile("arm", branch_pattern);
	return_re = pattern_compile("arm", return_pattern);
	if (!branch_re || !return_re)
		return -1;
	branch_md = pcre2_match_data_create_from_pattern(branch_re, NULL);
	return_md = pcre2_match_data_create_from_pattern(return_re, NULL);
	grp_ind = pattern_group_number(branch_re, "ind");
	grp_cond = pattern_group_number(branch_re, "cond");
	grp_reg = pattern_group_number(branch_re, "reg");
	grp_bxj = pattern_group_number(branch_re, "bxj");
	grp_tbl = pattern_group_number(branch_re, "tbl");
	grp_call = pattern_group_number(branch_re, "call");
	grp_pcw = pattern_group_number(branch_re, "pcw");
	return branch_md && return_md ? 0 : -1;
}

static bool group_set(const PCRE2_SIZE *ov, uint32_t g)
{
	return ov[2 * g] != PCRE2_UNSET;
}

static enum insn_class arm_classify(const char *s, size_t len, struct kcfi_branch *b)
{
	memset(b, 0, sizeof(*b));
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
			r = arm_gpr(b->reg, strlen(b->reg));
		if (!call && r == ARM_LR)
			return b->cls = INSN_OTHER;	/* bx lr: a return */
		if (r < 0 && (!strcmp(b->reg, "pc") || !strcmp(b->reg, "r15")))
			b->refuse = "a branch through pc stays within the function (bx pc "
				    "switches state); KCFI checks only branches through r0-r12";
		else if (r < 0 && call)
			/* blx to a label: a direct, state-switching call */
			return b->cls = INSN_CALL;
		else if (r < 0 || r == ARM_SP)
			b->refuse = "its target is no general register";
		else if (r == ARM_LR)
			b->refuse = "blx lr overwrites its own target; KCFI checks only "
				    "branches through r0-r12";
		else if (group_set(ov, grp_cond))
			b->refuse = "a conditional indirect branch (in ARM state, or in a "
				    "Thumb IT block) cannot have a check put before it "
				    "under the same condition; compile with -mthumb or "
				    "keep the call unconditional";
		if (r >= 0) {
			b->flags = (unsigned)r;
			snprintf(b->reg, sizeof(b->reg), "%s", arm_gpr_name((unsigned)r));
		}
		return b->cls = call ? INSN_ICALL : INSN_IJUMP;
	}
	if (group_set(ov, grp_bxj)) {
		b->refuse = "bxj may enter Jazelle state, which a check cannot follow";
		return b->cls = INSN_IJUMP;
	}
	if (group_set(ov, grp_tbl)) {
		b->refuse = "tbb/tbh is a jump table within the function, not a call";
		return b->cls = INSN_IJUMP;
	}
	if (group_set(ov, grp_pcw)) {
		if (pcre2_match(return_re, (PCRE2_SPTR)s, len, 0, 0, return_md, NULL) >= 0)
			return b->cls = INSN_OTHER;
		b->refuse = "it writes pc from data (ldr/mov/add pc, ldm {pc}); "
			    "KCFI checks only blx and bx through a register";
		return b->cls = INSN_IJUMP;
	}
	if (group_set(ov, grp_call))
		return b->cls = INSN_CALL;
	return b->cls = INSN_JUMP;
}

/* r0..r15 and the assembler's aliases a1-a4, v1-v8, sb, sl, fp, ip, sp,
 * lr; pc is no register a check could write. */
static int arm_gpr(const char *p, size_t n)
{
	static const struct {
		const char name[3];
		unsigned char reg;
	} alias[] = {
		{ "sb", 9 }, { "sl", 10 }, { "fp", 11 }, { "ip", 12 }, { "sp", 13 }, { "lr", 14 },
	};
	if (n == 2)
		for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
			if (!memcmp(p, alias[i].name, 2))
				return alias[i].reg;
	if (n < 2 || n > 3 || p[1] < '0' || p[1] > '9' ||
	    (n == 3 && (p[1] == '0' || p[2] < '0' || p[2] > '9')))
		return -1;
	unsigned v = (unsigned)(p[1] - '0');
	if (n == 3)
		v = v * 10 + (unsigned)(p[2] - '0');
	switch (p[0]) {
	case 'r': return v <= 14 ? (int)v : -1;
	case 'a': return v >= 1 && v <= 4 ? (int)v - 1 : -1;
	case 'v': return v >= 1 && v <= 8 ? (int)v + 3 : -1;
	default: return -1;
	}
}

/* As GCC's reg_names[] spells them, so messages match its options
 * (-ffixed-ip). */
static const char *arm_gpr_name(unsigned n)
{
	static const char *const names[15] = {
		"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7",
		"r8", "r9", "r10", "fp", "ip", "sp", "lr",
	};
	return n < 15 ? names[n] : "?";
}

/* The register the check computes in, and whether it must be saved. */
static unsigned scratch(const struct kcfi_branch *b, bool *saved)
{
	unsigned target = b->flags & ARM_REG_MASK;
	*saved = false;
	if (target != ARM_IP)
		return ARM_IP;
	if (b->cls == INSN_ICALL)
		return ARM_LR;
	*saved = true;
	return 3;
}

/* r3, although restored, counts as written: between push and pop it does
 * not hold what a global register variable there would expect. */
static uint64_t arm_check_clobbers(const struct kcfi_branch *b)
{
	bool saved;
	return UINT64_C(1) << scratch(b, &saved);
}

/* r3 is back when blx/bx reads the arguments: only ip or lr is changed. */
static uint64_t arm_branch_clobbers(const struct kcfi_branch *b)
{
	bool saved;
	unsigned s = scratch(b, &saved);
	return saved ? 0 : UINT64_C(1) << s;
}

static int arm_emit_check(struct emitter *e, const struct kcfi_branch *b,
			  const struct kcfi_site *site, const struct kcfi_arch_opts *opts)
{
	bool thumb = opts->isa & ARM_ISA_THUMB;
	if (opts->isa & ARM_ISA_DIVIDED)
		return emit_fail(e, "the check is written in unified syntax, but this code "
				 "is under .syntax divided");
	if (thumb && (opts->isa & ARM_ISA_NO_THUMB2))
		return emit_fail(e, "the check is Thumb-2 code, and .arch names an "
				 "architecture whose Thumb state is Thumb-1 only; compile "
				 "with -marm, or for ARMv6T2, ARMv7 or later");
	/* A Thumb NOP is 2 bytes, an ARM one 4, and a caller does not know which
	 * state its callee is in before it looks: Clang's arm backend assumes 4,
	 * which misplaces the id of Thumb callees.  Refused rather than guessed. */
	if (site->prefix_nops)
		return emit_fail(e, "patchable prefix NOPs (-fpatchable-function-entry=N,M "
				 "with M > 0) are not supported on arm");
	unsigned target = b->flags & ARM_REG_MASK;
	bool saved;
	const char *s = arm_gpr_name(scratch(b, &saved));
	unsigned n = site->serial;
	uint32_t h = site->id;

	if (saved)
		emit(e, "\tpush\t{%s}\n", s);
	emit(e, "\tbic\t%s, %s, #1\n", s, b->reg);
	emit(e, "\tldr\t%s, [%s, #-4]\n", s, s);
	emit(e, "\teor\t%s, %s, #%u\n", s, s, h & 0xffu);
	emit(e, "\teor\t%s, %s, #%u\n", s, s, h & 0xff00u);
	emit(e, "\teor\t%s, %s, #%u\n", s, s, h & 0xff0000u);
	emit(e, "\teors\t%s, %s, #%u\n", s, s, h & 0xff000000u);
	if (saved)
		emit(e, "\tpop\t{%s}\n", s);
	emit(e, "\t%s\t" EMIT_CALL_LABEL "\n", thumb ? "beq.w" : "beq", n);
	if (thumb)
		emit_trap(e, n, "\tbkpt\t#0x%x\n\tnop.n\n", KCFI_ARM_BKPT_THUMB | target);
	else
		emit_trap(e, n, "\tbkpt\t#0x%x\n", KCFI_ARM_BKPT_ARM | target);
	emit(e, "\t%s\t%s\n", b->cls == INSN_ICALL ? "blx" : "bx", b->reg);
	return 0;
}

/* The id right before the entry.  GCC may align a Thumb function to 2
 * only; the word is aligned to 4 (and the entry to what GCC asked, if
 * more: the gap before the word is never executed). */
static void arm_emit_entry(struct emitter *e, const struct kcfi_entry *f)
{
	if (!f->typed)
		return;
	unsigned a = f->align > 4 ? f->align : 4;
	emit(e, "\t.balign\t%u\n", a);
	if (a > 4)
		emit(e, "\t.space\t%u\n", a - 4);
	emit(e, "\t.word\t%u\n", f->id);
}

static void arm_tu_start(struct kcfi_arch_opts *o)
{
	o->isa = 0;	/* GNU as starts in ARM state, unified syntax off only if asked */
}

/* Architectures whose Thumb state is Thumb-1: the check's 32-bit Thumb
 * instructions (bic/eor with modified immediates, beq.w) do not exist
 * there, and gas's complaint would point into a temporary file.  GCC names
 * the architecture in .arch even when given only -mcpu.  Older than ARMv6T2,
 * and the M-profile baselines. */
static bool thumb1_only(const char *a, size_t n)
{
	static const char *const old[] = { "armv2", "armv3", "armv4", "armv5" };
	size_t k = 0;
	while (k < n && a[k] != '+' && a[k] != ' ' && a[k] != '\t')
		k++;
	for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++)
		if (k >= strlen(old[i]) && !strncasecmp(a, old[i], strlen(old[i])))
			return true;
	if (k >= 5 && !strncasecmp(a, "armv6", 5))
		return !(k == 7 && !strncasecmp(a + 5, "t2", 2));
	return word_ieq(a, k, "armv8-m.base");
}

/* .thumb/.arm/.code 16|32/.force_thumb switch the state the check is
 * assembled in; .syntax divided would read it differently; .arch says
 * whether Thumb state has Thumb-2. */
static void arm_observe(struct kcfi_arch_opts *o, const char *name, size_t nl,
			const char *args, size_t al)
{
	while (al && (args[al - 1] == ' ' || args[al - 1] == '\t'))
		al--;
	if (word_ieq(name, nl, "thumb") || word_ieq(name, nl, "force_thumb") ||
	    (word_ieq(name, nl, "code") && word_ieq(args, al, "16")))
		o->isa |= ARM_ISA_THUMB;
	else if (word_ieq(name, nl, "arm") || (word_ieq(name, nl, "code") && word_ieq(args, al, "32")))
		o->isa &= ~(unsigned)ARM_ISA_THUMB;
	else if (word_ieq(name, nl, "arch"))
		o->isa = thumb1_only(args, al) ? o->isa | ARM_ISA_NO_THUMB2
					       : o->isa & ~(unsigned)ARM_ISA_NO_THUMB2;
	else if (word_ieq(name, nl, "syntax"))
		o->isa = word_ieq(args, al, "divided") ? o->isa | ARM_ISA_DIVIDED
						       : o->isa & ~(unsigned)ARM_ISA_DIVIDED;
}

/* ASM_APP_OFF of GCC's arm back end: after any asm text, the plugin's
 * .kcfi_call included, it restates the state of the function.  Divided
 * syntax is not a restatement: emit_check() refuses to write under it. */
static bool arm_state_directive(const char *name, size_t nl, const char *args, size_t al)
{
	while (al && (args[al - 1] == ' ' || args[al - 1] == '\t'))
		al--;
	return word_ieq(name, nl, "thumb") || word_ieq(name, nl, "arm") ||
	       (word_ieq(name, nl, "syntax") && word_ieq(args, al, "unified"));
}

/* GCC's ASM_APP_ON is "\t.syntax unified" (or divided), its ASM_APP_OFF
 * "\t.thumb" (or .arm) then "\t.syntax unified"; a function's declaration
 * is "\t.syntax unified" then "\t.arm", "\t.thumb" or "\t.code...".  Only
 * that exact text counts: GCC writes the first line of asm text after a
 * tab of its own, the others as the author did. */
static enum kcfi_app_line arm_app_line(const char *p, size_t n)
{
	if (n && p[n - 1] == '\n')
		n--;
	if (n < 5 || p[0] != '\t' || p[1] != '.')
		return KCFI_APP_OTHER;
	struct slice s = { p + 2, n - 2 };
	if (slice_eq(s, "syntax unified") || slice_eq(s, "syntax divided"))
		return KCFI_APP_SYNTAX;
	if (slice_eq(s, "thumb") || slice_eq(s, "arm") || slice_starts(s, "code\t") ||
	    slice_starts(s, "code "))
		return KCFI_APP_STATE;
	return KCFI_APP_OTHER;
}

static bool arm_serves(const char *arch, size_t len, unsigned ptr_bits)
{
	/* arm, armv7l, armhf ... but not armeb: big-endian is another ABI. */
	return ptr_bits == 32 && len >= 3 && !memcmp(arch, "arm", 3) &&
	       !(len >= 5 && !memcmp(arch + len - 2, "eb", 2));
}

const struct kcfi_arch arch_arm = {
	.name = "arm",
	.serves = arm_serves,
	.init = arm_init,
	.classify = arm_classify,
	.emit_check = arm_emit_check,
	.emit_entry = arm_emit_entry,
	.emit_stub_jump = NULL,	/* extern stubs: not yet on arm */
	.tu_start = arm_tu_start,
	.observe = arm_observe,
	.state_directive = arm_state_directive,
	.gpr = arm_gpr,
	.gpr_name = arm_gpr_name,
	.check_clobbers = arm_check_clobbers,
	.branch_clobbers = arm_branch_clobbers,
	.comment = "@",
	/* ASM_APP_ON is ".syntax unified" (or divided), which also starts
	 * every function's declaration: the line markers are inline
	 * assembly's own, and text without them is told by the line after. */
	.app_by_linemarkers = true,
	.app_line = arm_app_line,
	.align_pow2 = true,
	/* push bic ldr eor eor eor eors pop beq bkpt(+nop): GCC sizes an asm
	 * statement at 4 bytes; GNU as does not relax cbz, tbb/tbh tables
	 * or literal pool loads, so the budget must cover the longest form. */
	.nop = "nop",	/* GCC's patchable-entry NOP; such prefixes are refused anyway */
	.check_statements = KCFI_CHECK_STATEMENTS_ARM,
	/* Thumb-2 PIC jump table (thumb2_casesi_internal_pic, the kernel's
	 * decompressor): cmp; bhi; adr; ldr; add; then bx. */
	.lenient_statements = 5,
	.trap_word = NULL,	/* Linux 6.12 finds arm CFI traps by BKPT alone */
};
