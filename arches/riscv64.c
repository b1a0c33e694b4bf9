/* SPDX-License-Identifier: GPL-2.0-or-later */
/* riscv64: the KCFI sequence Linux 6.12's riscv trap handler decodes.
 *
 * Call site (doc/manual.md "What is emitted"), immediately before the transfer:
 *	lw	t1, -(M*n+4)(rN)	the callee's id; n = 2 with RVC, else 4
 *	lui	t2, hi20		t2 = the expected id, sign-extended like
 *	addiw	t2, t2, lo12		  lw's result (see materialise())
 *	beq	t2, t1, 1f		rs1 = expected id, rs2 = callee's id
 *	ebreak				listed in .kcfi_traps
 * 1:	jalr	rN			or the tail-call jump, see below
 * Linux (arch/riscv/kernel/cfi.c) reports rs1 of the 32-bit beq right before
 * the ebreak as the "expected type" and takes the target from rs1 of the
 * jalr/c.jalr right after it.  Clang emits "beq t1, t2", so a Clang kernel
 * reports the callee's id under that name; here the expected id goes in
 * rs1, and the report names the pointer's type as on x86_64 and arm64.
 * That beq's encoding is a deliberate difference from Clang's check (same
 * comparison, same length, same registers, operands swapped).  Clang
 * leaves tail calls as "jr rN", which RVC turns into c.jr, which the decoder
 * does not know; here they are spelled as a 32-bit "jalr zero, 0(rN)", so
 * the report names the target (doc/manual.md "Differences from Clang").  A target in t1 or t2 moves
 * that scratch to the first of t3..t6 it does not collide with; the beq
 * still takes the expected-id register as rs1 and the loaded one as rs2.
 *
 * Whether RVC is on follows the assembler: -march= on its command line, then
 * .attribute arch, .option rvc/norvc/arch/push/pop in the input.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/arch.h"
#include "asmpass/pattern.h"
#include "asmpass/stmt.h"

/* Indirect forms first: jalr rs | jalr rd, rs | jalr [rd,] off(rs) |
 * jalr rd, rs, off | jalr rs, off | jr rs | jr off(rs) | jr rs, off |
 * c.jr rs | c.jalr rs, the offset any expression (0x0, 1-1, %lo(sym));
 * then every direct branch.  GNU as reads mnemonics in any letter case and
 * registers in lower case only.  Any other operands of jalr/jr/c.jr/c.jalr
 * still make an indirect branch, one no check can be made for.  ret is a
 * return, like "jr ra" (ra is never a sibcall register). */
static const char branch_pattern[] =
	"^(?:"
	"(?<op>(?i:jalr|jr|c\\.jalr|c\\.jr))\\s+"
	"(?:(?<rd>[a-z][a-z0-9]*)\\s*,\\s*)?"
	"(?:(?<off>[^,]*?)\\s*\\(\\s*(?<rs>[a-z][a-z0-9]*)\\s*\\)"
	"|(?<rs2>[a-z][a-z0-9]*)(?:\\s*,\\s*(?<off2>[^,]*?))?)"
	"|(?<direct>(?i:call|tail|jal|j|jump|c\\.j|c\\.jal"
	"|c\\.beqz|c\\.bnez|beqz?|bnez?|blez|bgez|bltz|bgtz|bltu?|bgeu?|bgtu?|bleu?))\\s+\\S.*"
	"|(?<other>(?i:jalr|jr|c\\.jalr|c\\.jr))(?:\\s.*)?"
	")\\s*$";

static pcre2_code *branch_re;
static pcre2_match_data *branch_md;
static uint32_t grp_op, grp_rd, grp_off, grp_rs, grp_rs2, grp_off2, grp_direct, grp_other;

enum {
	RV_LINK_SHIFT = 8,		/* flags: link register number (jalr rd) */
	RV_REG_MASK = 0xff,		/* flags: target register number */
	RV_ISA_C = 1u << 0,		/* isa: compressed instructions are on */
	RV_NREGS = 32,
	RV_S0 = 8,			/* the frame pointer, "fp" */
	RV_T1 = 6,			/* the check's scratch pair */
	RV_T2 = 7,
	RV_T3 = 28,			/* t3..t6: stand-ins when the target is one */
	/* lw's signed 12-bit offset: the id is at most this far below. */
	RV_LW_REACH = 2048,
	/* Instruction lengths: a NOP, compressed or not. */
	RV_INSN_C = 2,
	RV_INSN = 4,
};

static const char *const abi_names[RV_NREGS] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

/* x0..x31, ABI names and fp; -1 for anything else. */
static int reg_number(const char *p, size_t n)
{
	if (n >= 2 && n <= 3 && p[0] == 'x') {
		char *end;
		char tmp[4] = { 0 };
		memcpy(tmp, p + 1, n - 1);
		long v = strtol(tmp, &end, 10);
		if (!*end && v >= 0 && v < RV_NREGS)
			return (int)v;
	}
	if (n == 2 && !memcmp(p, "fp", 2))
		return RV_S0;
	for (int i = 0; i < RV_NREGS; i++)
		if (strlen(abi_names[i]) == n && !memcmp(abi_names[i], p, n))
			return i;
	return -1;
}

static int rv_init(void)
{
	branch_re = pattern_compile("riscv64", branch_pattern);
	if (!branch_re)
		return -1;
	branch_md = pcre2_match_data_create_from_pattern(branch_re, NULL);
	grp_op = pattern_group_number(branch_re, "op");
	grp_rd = pattern_group_number(branch_re, "rd");
	grp_off = pattern_group_number(branch_re, "off");
	grp_rs = pattern_group_number(branch_re, "rs");
	grp_rs2 = pattern_group_number(branch_re, "rs2");
	grp_off2 = pattern_group_number(branch_re, "off2");
	grp_direct = pattern_group_number(branch_re, "direct");
	grp_other = pattern_group_number(branch_re, "other");
	return branch_md ? 0 : -1;
}

static const char refuse_operands[] =
	"kcfi-as does not know these operands (it checks jalr/jr/c.jalr/c.jr "
	"through an x register or ABI name, with offset 0)";

/* Is the offset P..N zero ("", "0", "0x0", "-0")?  Anything else, an
 * expression included, is not known to be. */
static bool zero_offset(const char *p, size_t n)
{
	size_t i = 0;
	if (i < n && (p[i] == '-' || p[i] == '+'))
		i++;
	if (i + 1 < n && p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X'))
		i += 2;
	for (; i < n; i++)
		if (p[i] != '0')
			return false;
	return true;
}

static enum insn_class rv_classify(const char *s, size_t len, struct kcfi_branch *b)
{
	memset(b, 0, sizeof(*b));
	char c = len ? ascii_lower(s[0]) : 0;
	if (c != 'j' && c != 'c' && c != 'b' && c != 't')
		return b->cls = INSN_OTHER;
	int rc = pcre2_match(branch_re, (PCRE2_SPTR)s, len, 0, 0, branch_md, NULL);
	if (rc < 0)
		return b->cls = INSN_OTHER;
	const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(branch_md);
	const char *p, *op;
	size_t n, op_len;
	char mn[8];
	if (pattern_group_lower(ov, grp_direct, s, mn, sizeof(mn))) {
		bool call = !strcmp(mn, "call") || !strcmp(mn, "jal") || !strcmp(mn, "c.jal");
		return b->cls = call ? INSN_CALL : INSN_JUMP;
	}
	if (pattern_group_lower(ov, grp_other, s, mn, sizeof(mn))) {
		b->refuse = refuse_operands;
		return b->cls = strstr(mn, "jalr") ? INSN_ICALL : INSN_IJUMP;
	}
	pattern_group(ov, grp_op, s, &op, &op_len);
	bool jalr = op_len >= 4 && word_ieq(op + op_len - 4, 4, "jalr");
	bool compressed = op_len > 2 && op[1] == '.';
	int rd = jalr ? 1 : 0;		/* jalr rs links in ra, jr in zero */
	bool has_rd = pattern_group(ov, grp_rd, s, &p, &n);
	if (has_rd)
		rd = reg_number(p, n);
	const char *rs;
	size_t rs_len;
	bool paren = pattern_group(ov, grp_rs, s, &rs, &rs_len);
	if (!paren)
		pattern_group(ov, grp_rs2, s, &rs, &rs_len);
	int target = reg_number(rs, rs_len);
	bool off = (pattern_group(ov, grp_off, s, &p, &n) || pattern_group(ov, grp_off2, s, &p, &n)) &&
		   (n || !paren);
	enum insn_class cls = rd ? INSN_ICALL : INSN_IJUMP;
	if (rd < 0 || target < 0 || (has_rd && !jalr) || (compressed && (has_rd || off))) {
		b->refuse = refuse_operands;	/* "jr a, b", "c.jr 0(t0)", "jalr T0" */
		return b->cls = jalr ? INSN_ICALL : INSN_IJUMP;
	}
	if (off && !zero_offset(p, n)) {
		if (rd == 0 && target == 1)
			cls = INSN_IJUMP;	/* jr 4(ra): no return */
		b->refuse = "a jump to a register plus an offset reaches no function entry "
			    "a check could test";
		return b->cls = cls;
	}
	if (rd == 0 && target == 1)
		return b->cls = INSN_OTHER;	/* jr ra: a return */
	memcpy(b->reg, abi_names[target], strlen(abi_names[target]) + 1);
	b->flags = (unsigned)target | (unsigned)rd << RV_LINK_SHIFT;
	return b->cls = cls;
}

/* H's low 12 bits as the signed immediate of addi/addiw. */
static int32_t lo12(uint32_t h)
{
	return (int32_t)((h & 0xfffu) ^ 0x800u) - 0x800;
}

/* lui's 20-bit immediate for H: the upper bits, plus one where lo12(H) is
 * negative, since adding it then subtracts. */
static uint32_t hi20(uint32_t h)
{
	return ((h + 0x800u) >> 12) & 0xfffffu;
}

/* t2 = H exactly as lw sign-extends it.  lui+addiw is Clang's pair; when the
 * upper part rounds to zero Clang keeps only "addi t2, t2, lo", reading a
 * stale t2 — here the constant is always built from zero. */
static void materialise(struct emitter *e, const char *reg, uint32_t h)
{
	int32_t lo = lo12(h);
	uint32_t hi = hi20(h);
	if (!hi) {
		emit(e, "\taddi\t%s, zero, %d\n", reg, lo);
		return;
	}
	emit(e, "\tlui\t%s, %u\n", reg, hi);
	if (lo)
		emit(e, "\taddiw\t%s, %s, %d\n", reg, reg, lo);
}

static int rv_gpr(const char *p, size_t n)
{
	return reg_number(p, n);
}

static const char *rv_gpr_name(unsigned n)
{
	return n < RV_NREGS ? abi_names[n] : "?";
}

/* The registers that receive the callee's id and the expected id: t1 and
 * t2, but never the target itself (then the first of t3..t6 stands in). */
static void scratch(const struct kcfi_branch *b, unsigned *loaded, unsigned *expected)
{
	unsigned target = b->flags & RV_REG_MASK;
	static const unsigned spare[] = { RV_T3, RV_T3 + 1, RV_T3 + 2, RV_T3 + 3 };
	size_t next = 0;
	*loaded = RV_T1;
	*expected = RV_T2;
	if (target == *loaded)
		*loaded = spare[next++];
	if (target == *expected)
		*expected = spare[next++];
}

static uint64_t rv_check_clobbers(const struct kcfi_branch *b)
{
	unsigned loaded, expected;
	scratch(b, &loaded, &expected);
	return UINT64_C(1) << loaded | UINT64_C(1) << expected;
}

static int rv_emit_check(struct emitter *e, const struct kcfi_branch *b,
			 const struct kcfi_site *site, const struct kcfi_arch_opts *opts)
{
	unsigned target = b->flags & RV_REG_MASK;
	unsigned link = b->flags >> RV_LINK_SHIFT;
	unsigned loaded, expected;
	scratch(b, &loaded, &expected);
	unsigned nop = (opts->isa & RV_ISA_C) ? RV_INSN_C : RV_INSN;
	unsigned off = site->prefix_nops * nop + 4;
	if (off > RV_LW_REACH)
		return emit_fail(e, "%u patchable prefix NOPs put the type id out of "
				 "lw's reach", site->prefix_nops);
	unsigned n = site->serial;

	emit(e, "\tlw\t%s, -%u(%s)\n", abi_names[loaded], off, abi_names[target]);
	materialise(e, abi_names[expected], site->id);
	/* rs1 = the expected id: Linux reports rs1 as the expected type. */
	emit(e, "\tbeq\t%s, %s, " EMIT_CALL_LABEL "\n", abi_names[expected], abi_names[loaded], n);
	emit_trap(e, n, "\tebreak\n");
	if (link == 1)
		emit(e, "\tjalr\t%s\n", abi_names[target]);	/* c.jalr with RVC: decoded */
	else if (link == 0)	/* never c.jr: Linux would not find the target */
		emit(e, "\t.insn\ti 0x67, 0, zero, %s, 0\n", abi_names[target]);
	else
		emit(e, "\tjalr\t%s, 0(%s)\n", abi_names[link], abi_names[target]);
	return 0;
}

/* As on aarch64: the id as data right before the prefix NOPs or the entry. */
/* `tail` goes through t1 as the PLT does: no argument register is
 * touched. */
/* Through the GOT entry &NAME would have read (see the x86_64 stub for why
 * not the PLT); t1 is a temporary no argument lives in. */
static void rv_emit_stub_jump(struct emitter *e, const char *target, const char *label)
{
	emit(e, "1:\tauipc\tt1, %%got_pcrel_hi(%s)\n\tld\tt1, %%pcrel_lo(1b)(t1)\n%s:\n\tjr\tt1\n"
	     "\tcall\t%s\n", target, label, target);
}

static void rv_emit_entry(struct emitter *e, const struct kcfi_entry *f)
{
	if (!f->typed)
		return;
	emit(e, "%s:\n\t.word\t%u\n", f->cfi_sym, f->id);
}

/* Does an ISA string ("rv64imafdc_zicsr", "rv64i2p1_m2p0_c2p0") include C or
 * Zca?  Single letters come first, each optionally versioned (2p0); then
 * '_'-separated multi-letter extensions. */
static bool isa_has_c(const char *p, size_t n)
{
	if (n < 4 || (memcmp(p, "rv32", 4) && memcmp(p, "rv64", 4)))
		return false;
	size_t i = 4;
	while (i < n) {
		char c = p[i];
		if (c == '_') {
			i++;
		} else if (c == 'z' || c == 's' || c == 'x') {
			size_t j = i;
			while (j < n && p[j] != '_')
				j++;
			/* zca, zca1p0 */
			if (j - i >= 3 && !memcmp(p + i, "zca", 3) &&
			    (j - i == 3 || (p[i + 3] >= '0' && p[i + 3] <= '9')))
				return true;
			i = j;
		} else {
			if (c == 'c')
				return true;
			i++;
			while (i < n && ((p[i] >= '0' && p[i] <= '9') || p[i] == 'p'))
				i++;
		}
	}
	return false;
}

static void rv_tu_start(struct kcfi_arch_opts *o)
{
	/* GNU as for riscv64-linux-gnu defaults to rv64gc. */
	const char *m = o->march;
	o->isa = !m || isa_has_c(m, strlen(m)) ? RV_ISA_C : 0;
}

/* The operand as a slice without quotes and blanks. */
static void unquote(const char **p, size_t *n)
{
	while (*n && (**p == ' ' || **p == '\t' || **p == '"')) {
		(*p)++;
		(*n)--;
	}
	while (*n && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t' || (*p)[*n - 1] == '"'))
		(*n)--;
}

static bool word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(p, w, n);
}

/* Splits the first comma-separated field off *P (*N bytes), unquoted, and
 * advances past it and its comma. */
static void next_field(const char **p, size_t *n, const char **f, size_t *fn)
{
	size_t w = 0;
	while (w < *n && (*p)[w] != ',')
		w++;
	*f = *p;
	*fn = w;
	unquote(f, fn);
	*p += w;
	*n -= w;
	if (*n) {
		(*p)++;
		(*n)--;
	}
}

/* .option arch, +c / -c / rv64gc (a full string) / +zca, ... */
static void option_arch(struct kcfi_arch_opts *o, const char *p, size_t n)
{
	while (n) {
		const char *a;
		size_t an;
		next_field(&p, &n, &a, &an);
		bool c_ext = an > 1 && (word_is(a + 1, an - 1, "c") || word_is(a + 1, an - 1, "zca"));
		if (c_ext && a[0] == '+')
			o->isa |= RV_ISA_C;
		else if (c_ext && a[0] == '-')
			o->isa &= ~RV_ISA_C;
		else if (an >= 4 && !memcmp(a, "rv", 2))
			o->isa = isa_has_c(a, an) ? RV_ISA_C : 0;
	}
}

static void rv_observe(struct kcfi_arch_opts *o, const char *name, size_t nlen,
		       const char *args, size_t alen)
{
	if (word_is(name, nlen, "attribute")) {
		/* .attribute arch, "rv64i2p1_..." (or its tag number, 5) */
		const char *rest = args, *tag;
		size_t rn = alen, tn;
		next_field(&rest, &rn, &tag, &tn);
		if (rn && (word_is(tag, tn, "arch") || word_is(tag, tn, "Tag_RISCV_arch") ||
			   word_is(tag, tn, "5"))) {
			unquote(&rest, &rn);
			o->isa = isa_has_c(rest, rn) ? RV_ISA_C : 0;
		}
		return;
	}
	if (!word_is(name, nlen, "option"))
		return;
	const char *a = args;
	size_t an = alen;
	unquote(&a, &an);
	if (word_is(a, an, "rvc")) {
		o->isa |= RV_ISA_C;
	} else if (word_is(a, an, "norvc")) {
		o->isa &= ~RV_ISA_C;
	} else if (word_is(a, an, "push")) {
		if (o->isa_depth < sizeof(o->isa_stack) / sizeof(o->isa_stack[0]))
			o->isa_stack[o->isa_depth] = o->isa;
		o->isa_depth++;
	} else if (word_is(a, an, "pop")) {
		if (o->isa_depth && --o->isa_depth < sizeof(o->isa_stack) / sizeof(o->isa_stack[0]))
			o->isa = o->isa_stack[o->isa_depth];
	} else if (an > 4 && !memcmp(a, "arch", 4) && (a[4] == ',' || a[4] == ' ' || a[4] == '\t')) {
		const char *rest = memchr(a, ',', an);
		if (rest)
			option_arch(o, rest + 1, an - (size_t)(rest + 1 - a));
	}
}

static bool rv_serves(const char *arch, size_t len, unsigned ptr_bits)
{
	return ptr_bits == 64 && len == 7 && !memcmp(arch, "riscv64", 7);
}

const struct kcfi_arch arch_riscv64 = {
	.name = "riscv64",
	.serves = rv_serves,
	.init = rv_init,
	.classify = rv_classify,
	.emit_check = rv_emit_check,
	.emit_entry = rv_emit_entry,
	.emit_stub_jump = rv_emit_stub_jump,
	.stub_align = 16,
	.tu_start = rv_tu_start,
	.observe = rv_observe,
	.gpr = rv_gpr,
	.gpr_name = rv_gpr_name,
	.check_clobbers = rv_check_clobbers,
	.comment = "#",
	.align_pow2 = true,
	.nop = "nop",
	/* lw lui addiw beq ebreak.  GNU as relaxes riscv branches, but GCC's
	 * length estimates also place literal pools and alignment: keep them
	 * honest as on aarch64. */
	.check_statements = KCFI_CHECK_STATEMENTS_RISCV64,
	.trap_word = ".word",
};
