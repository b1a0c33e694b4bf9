/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86_64: the KCFI sequences Linux 6.12 decodes and FineIBT rewrites.
 *
 * Call site (doc/manual.md "What is emitted"): 6+4+2+2 bytes immediately before
 * the transfer, through the register R the branch uses (x86_check_reg):
 *	movl	$-H, %r10d		41 ba imm32
 *	addl	-(M+4)(%R), %r10d	44/45 03 modrm disp8
 *	je	1f			74 02
 *	ud2				0f 0b	(listed in .kcfi_traps)
 * 1:	call	*%R			or the retpoline thunk for %r11
 * A memory target, a thunk call, %r10, %r12 and %rsp first go to R = %r11.
 * Linux's decoder reads the expected type from the movl at trap-12 and the
 * target register from the addl at trap-6; FineIBT overwrites exactly these
 * 14 bytes of thunk calls, which always use %r11.
 *
 * Preamble (2.1): __cfi_f, an STT_FUNC with f's binding, P single-byte NOPs
 * and "movl $H, %eax", sized so that f keeps its alignment.
 *
 * Reading branches (in either mode) and the preamble also serve the i386
 * backend, arches/i386.c, through arches/x86.h.
 */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <string.h>

#include "arches/x86.h"
#include "asmpass/arch.h"
#include "asmpass/pattern.h"
#include "asmpass/stmt.h"

/* kcfi_arch_opts.state: what the TU itself defines. */
enum {
	X86_TU_THUNKS = 1 << 0,		/* some __x86_indirect_thunk_<reg> */
	X86_TU_THUNK_R11 = 1 << 1,	/* __x86_indirect_thunk_r11 */
};

/* emitter.needs: what the checks of the TU call. */
enum {
	X86_NEEDS_THUNK_R11 = 1 << 0,
};

/* -pg in PIC code: GCC's x86_function_profiler prints the call of mcount
 * (__fentry__, or the -mfentry-name) by itself, outside any insn, as
 * "1:	call	*NAME@GOTPCREL(%rip)".  Through the GOT slot of NAME it calls
 * NAME: a known function, not a pointer of the program. */
static const char profiler_pattern[] =
	"^\\s*1:\\s*call\\s+\\*\\s*[A-Za-z_.$][A-Za-z0-9_.$]*@GOTPCREL\\(%rip\\)\\s*$";
/* The same in 32-bit mode, where PIC code reaches the GOT through %ebx:
 * "1:	call	*mcount@GOT(%ebx)".  Also i386's TLS general-dynamic call
 * under -fno-plt, "call *___tls_get_addr@GOT(%esi)", which GCC prints from
 * an insn that is no call to the plugin (*tls_global_dynamic_32_gnu): the
 * dynamic linker's function, through its GOT slot, never a pointer of the
 * program. */
static const char profiler_pattern32[] =
	"^\\s*(?:1:\\s*call\\s+\\*\\s*[A-Za-z_.$][A-Za-z0-9_.$]*@GOT\\(%ebx\\)|"
	"call\\s+\\*\\s*___tls_get_addr@GOT\\(%e(?:ax|bx|cx|dx|si|di|bp)\\))\\s*$";
static pcre2_code *profiler_re[2];
static pcre2_match_data *profiler_md;

int x86_init(void)
{
	if (profiler_md)
		return 0;	/* the other mode's backend did it */
	profiler_re[0] = pattern_compile("x86_64", profiler_pattern);
	profiler_re[1] = pattern_compile("i386", profiler_pattern32);
	if (!profiler_re[0] || !profiler_re[1])
		return -1;
	profiler_md = pcre2_match_data_create_from_pattern(profiler_re[0], NULL);
	return profiler_md ? 0 : -1;
}

/* ---- reading a branch statement ---------------------------------------
 *
 * GNU as (AT&T syntax) reads a statement as prefix words, a mnemonic and
 * operands, mnemonics, prefixes and register names in any letter case
 * (tests/asmpass/spellings.sh lists what it accepts and what that
 * assembles to).  Every spelling of an indirect branch is classified as
 * one, so that none passes unannotated and an annotation always binds to
 * the branch it precedes.  A check replaces the branch by the same branch
 * through a register (or the r11 thunk); spellings whose meaning that
 * would change are marked `refuse`, for the core to refuse where a check
 * is due. */

static const char refuse_far[] =
	"a far branch loads a code segment selector with its target; no KCFI "
	"check can guard it";
static const char refuse_16[] =
	"a 16-bit near branch (callw, jmpw, data16 or a 16-bit register) "
	"truncates its target, and CPUs disagree on how; it reaches no function "
	"entry a check could test";
static const char refuse_suffix[] =
	"the l suffix asks for a 32-bit near branch, which does not exist in "
	"64-bit mode";
static const char refuse_suffix32[] =
	"the q suffix asks for a 64-bit near branch, which does not exist in "
	"32-bit mode";
static const char refuse_rex[] =
	"a REX prefix with R, X or B set changes which registers the branch "
	"uses; write the register itself";
static const char refuse_prefix[] =
	"it has a prefix a checked branch cannot carry over (kcfi-as keeps "
	"notrack, ds, cs, bnd, fs, gs, rex, rex64, rex.W, {disp8}, {disp32}, "
	"{load}, {store}, {nooptimize} and {rex})";
static const char refuse_reg[] =
	"its target is not a 64-bit general register";
static const char refuse_reg32[] =
	"its target is not a 32-bit general register";
static const char refuse_seg[] =
	"it names two segment overrides";

/* Prefix words: what each sets in the flags, or why a check cannot keep
 * it.  rex64, rex and rex.W change nothing in a near branch, which is
 * 64-bit anyway; segment words other than fs/gs, data/address size and
 * lock/rep prefixes are refused (GNU as rejects most of them on a branch in
 * 64-bit mode anyway). */
static const struct {
	const char *word;
	unsigned char len;
	unsigned flag;
	const char *refuse;
} prefix_words[] = {
	{ "cs", 2, X86_CS, NULL }, { "ds", 2, X86_DS, NULL },
	{ "fs", 2, X86_FS, NULL }, { "gs", 2, X86_GS, NULL },
	{ "es", 2, 0, refuse_prefix }, { "ss", 2, 0, refuse_prefix },
	{ "bnd", 3, X86_BND, NULL }, { "rex", 3, 0, NULL }, { "rep", 3, 0, refuse_prefix },
	{ "lock", 4, 0, refuse_prefix }, { "repe", 4, 0, refuse_prefix },
	{ "repz", 4, 0, refuse_prefix },
	{ "repne", 5, 0, refuse_prefix }, { "repnz", 5, 0, refuse_prefix },
	{ "rex64", 5, 0, NULL },
	{ "data16", 6, 0, refuse_16 }, { "data32", 6, 0, refuse_prefix },
	{ "addr16", 6, 0, refuse_prefix }, { "addr32", 6, 0, refuse_prefix },
	{ "notrack", 7, X86_NOTRACK, NULL },
	{ "xacquire", 8, 0, refuse_prefix }, { "xrelease", 8, 0, refuse_prefix },
	{ "{rex}", 5, 0, NULL }, { "{load}", 6, 0, NULL }, { "{store}", 7, 0, NULL },
	{ "{disp8}", 7, X86_DISP8, NULL }, { "{disp32}", 8, X86_DISP32, NULL },
	{ "{nooptimize}", 12, 0, NULL },
};

/* Is the word P..N a prefix?  Adds its flag to *FLAGS, and the reason a
 * check cannot keep it to *REFUSE (the first such reason stays). */
static bool prefix_word(const char *p, size_t n, unsigned *flags, const char **refuse)
{
	const char *why = NULL;
	char c = ascii_lower(p[0]);
	if (n > 4 && c == 'r' && word_ieq(p, 4, "rex.")) {
		/* rex.W, rex.WRXB, REX.b ... */
		for (size_t i = 4; i < n; i++) {
			char b = ascii_lower(p[i]);
			if (b != 'w' && b != 'r' && b != 'x' && b != 'b')
				return false;
			if (b != 'w')
				why = refuse_rex;
		}
	} else if (c == '{' && p[n - 1] == '}') {
		why = refuse_prefix;	/* {vex}, {evex}...: unless listed */
		for (size_t i = 0; i < sizeof(prefix_words) / sizeof(prefix_words[0]); i++)
			if (prefix_words[i].len == n && prefix_words[i].word[0] == '{' &&
			    word_ieq(p, n, prefix_words[i].word)) {
				*flags |= prefix_words[i].flag;
				why = NULL;
				break;
			}
	} else {
		size_t i = 0, end = sizeof(prefix_words) / sizeof(prefix_words[0]);
		if (n > 8)
			return false;
		for (; i < end; i++)
			if (prefix_words[i].len == n && prefix_words[i].word[0] == c &&
			    word_ieq(p, n, prefix_words[i].word))
				break;
		if (i == end)
			return false;
		*flags |= prefix_words[i].flag;
		why = prefix_words[i].refuse;
	}
	if (why && !*refuse)
		*refuse = why;
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The 64-bit general registers by their encoding (GCC's reg_names[] spells
 * the first eight without size, ax, si; the others as r8..r15). */
enum { X86_R10 = 10, X86_R11 = 11 };
static const char *const gpr_names[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

static bool x86_reg64(const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof(gpr_names) / sizeof(gpr_names[0]); i++)
		if (strlen(gpr_names[i]) == n && !memcmp(gpr_names[i], p, n))
			return true;
	return false;
}

/* eax..edi, lower case: the registers a near branch goes through in 32-bit
 * mode. */
static bool x86_reg32(const char *p, size_t n)
{
	static const char *const names[8] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi" };
	for (size_t i = 0; i < 8; i++)
		if (n == 3 && !memcmp(p, names[i], 3))
			return true;
	return false;
}

/* A register of the width of a near branch in the mode (M32: 32-bit). */
static bool x86_reg_near(const char *p, size_t n, bool m32)
{
	return m32 ? x86_reg32(p, n) : x86_reg64(p, n);
}

/* ax..di and r8w..r15w, lower case. */
static bool x86_reg16(const char *p, size_t n)
{
	static const char *const legacy[8] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di" };
	for (size_t i = 0; i < 8; i++)
		if (n == 2 && !memcmp(p, legacy[i], 2))
			return true;
	return n >= 3 && p[0] == 'r' && p[n - 1] == 'w' && x86_reg64(p, n - 1) && p[1] >= '0' &&
	       p[1] <= '9';
}

/* Does operand P..N address memory through a base or index register: does
 * it end in "(%reg...)" or "(,%reg...)"?  Without a '*', that is what makes
 * GNU as take "call OPERAND" as indirect ("call sym(%rip)", "call (%rax)");
 * "call (sym)" and "call %fs:8" are direct calls. */
static bool base_index(const char *p, size_t n)
{
	if (!n || p[n - 1] != ')')
		return false;
	const char *open = NULL;
	for (size_t i = n - 1; i-- > 0;)
		if (p[i] == '(') {
			open = p + i + 1;
			break;
		}
	if (!open)
		return false;
	while (blank(*open))
		open++;
	return *open == '%' || *open == ',';
}

/* "%name" at the start of P..N: the name's length (0 if none). */
static size_t reg_len(const char *p, size_t n)
{
	size_t i = 1;
	if (!n || p[0] != '%')
		return 0;
	while (i < n && ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
			 (p[i] >= '0' && p[i] <= '9')))
		i++;
	return i - 1;
}

/* A thunk of GCC's: PREFIX and a register of the mode's width, case as
 * written (symbol names are case-sensitive).  Copies the register to REG. */
static bool thunk_of(const char *p, size_t n, const char *prefix, char *reg, bool m32)
{
	size_t k = strlen(prefix);
	if (n <= k || n - k >= 4 || memcmp(p, prefix, k) || !x86_reg_near(p + k, n - k, m32))
		return false;
	memcpy(reg, p + k, n - k);
	reg[n - k] = '\0';
	return true;
}

enum x86_op { OP_NONE, OP_NEAR, OP_NEAR16, OP_NEAR32, OP_FAR };

/* The branch mnemonic W..N (any case): its kind, *CALL, or OP_NONE; *COND
 * for conditional jumps (jcc, jrcxz: always direct).  OP_NEAR32 is a suffix
 * of the wrong width for the mode: l in 64-bit mode, q in 32-bit (M32). */
static enum x86_op branch_mnemonic(const char *w, size_t n, bool *call, bool *cond, bool m32)
{
	char m[8];
	*cond = false;
	if (n < 2 || n > 6)
		return OP_NONE;
	for (size_t i = 0; i < n; i++)
		m[i] = ascii_lower(w[i]);
	m[n] = '\0';
	const char *base = m;
	enum x86_op op = OP_NEAR;
	if (m[0] == 'l' && (!strncmp(m, "lcall", 5) || !strncmp(m, "ljmp", 4))) {
		op = OP_FAR;
		base = m + 1;
	}
	size_t k = !strncmp(base, "call", 4) ? 4 : !strncmp(base, "jmp", 3) ? 3 : 0;
	if (!k) {
		if (m[0] != 'j' || op == OP_FAR)
			return OP_NONE;
		for (size_t i = 1; i < n; i++)
			if (m[i] < 'a' || m[i] > 'z')
				return OP_NONE;
		*cond = true;
		*call = false;
		return OP_NEAR;
	}
	*call = base[0] == 'c';
	switch (base[k]) {
	case '\0':
		break;
	case 'q':
		if (m32 && op != OP_FAR)
			op = OP_NEAR32;
		break;
	case 'w':
		if (op != OP_FAR)
			op = OP_NEAR16;
		break;
	case 'l':
		if (!m32 && op != OP_FAR)
			op = OP_NEAR32;
		break;
	default:
		return OP_NONE;
	}
	return base[k] && base[k + 1] ? OP_NONE : op;
}

enum insn_class x86_classify_mode(const char *s, size_t len, struct kcfi_branch *b, bool m32)
{
	memset(b, 0, sizeof(*b));
	unsigned flags = 0;
	const char *refuse = NULL;
	size_t i = 0, w;
	bool prefixed = false;

	/* Prefix words, then the mnemonic. */
	for (;;) {
		for (w = i; w < len && !blank(s[w]); w++)
			;
		if (w == i || !prefix_word(s + i, w - i, &flags, &refuse))
			break;
		prefixed = true;
		for (i = w; i < len && blank(s[i]); i++)
			;
	}
	if (i == len)
		return b->cls = prefixed ? INSN_PREFIX : INSN_OTHER;
	bool call, cond;
	enum x86_op op = branch_mnemonic(s + i, w - i, &call, &cond, m32);
	if (op == OP_NONE)
		return b->cls = INSN_OTHER;
	if (cond)
		return b->cls = INSN_JUMP;
	b->prefix = s;
	b->prefix_len = i;

	/* The operand. */
	const char *o = s + w, *end = s + len;
	while (o < end && blank(*o))
		o++;
	bool star = o < end && *o == '*';
	if (star)
		for (o++; o < end && blank(*o); o++)
			;
	size_t n = (size_t)(end - o), r = reg_len(o, n);
	enum insn_class direct = call ? INSN_CALL : INSN_JUMP;
	enum insn_class indirect = call ? INSN_ICALL : INSN_IJUMP;

	if (!star && op != OP_FAR && thunk_of(o, n, "__x86_indirect_thunk_", b->reg, m32)) {
		b->flags = flags | X86_THUNK;
	} else if (!star && op != OP_FAR && thunk_of(o, n, "__x86_return_thunk_", b->reg, m32)) {
		b->flags = flags | X86_RETURN_THUNK;
	} else if (r && r + 1 == n) {
		/* call %rax, call *%RAX (call *%eax in 32-bit mode): through a
		 * register. */
		char reg[8];
		for (size_t k = 0; k < r && k < sizeof(reg) - 1; k++)
			reg[k] = ascii_lower(o[1 + k]);
		reg[r < sizeof(reg) - 1 ? r : sizeof(reg) - 1] = '\0';
		if (r < sizeof(reg) && x86_reg_near(reg, r, m32))
			memcpy(b->reg, reg, r + 1);
		else if (!refuse)
			refuse = r < sizeof(reg) && x86_reg16(reg, r) ? refuse_16 :
				 m32 ? refuse_reg32 : refuse_reg;
		b->flags = flags;
	} else if (star || base_index(o, n)) {
		/* call *sym(%rip), call *%fs:8, call (%rax), call sym(%rip) */
		if ((flags & (X86_FS | X86_GS)) && r && r + 1 < n && o[r + 1] == ':' && !refuse)
			refuse = refuse_seg;
		b->mem = o;
		b->mem_len = n;
		b->flags = flags;
	} else {
		return b->cls = direct;		/* call sym, call (sym), call %fs:8 */
	}
	if (!refuse && op == OP_NEAR16)
		refuse = refuse_16;
	if (!refuse && op == OP_NEAR32)
		refuse = m32 ? refuse_suffix32 : refuse_suffix;
	if (op == OP_FAR)
		refuse = refuse_far;
	b->refuse = refuse;
	return b->cls = indirect;
}

static enum insn_class x86_classify(const char *s, size_t len, struct kcfi_branch *b)
{
	return x86_classify_mode(s, len, b, false);
}

/* Never let a type id look like ENDBR64/ENDBR32 in either sign, or the
 * preamble's movl immediate (or the caller's) would be a valid IBT landing
 * pad.  Same rule as X86AsmPrinter::MaskKCFIType. */
#define X86_ENDBR64 UINT32_C(0xfa1e0ff3)	/* f3 0f 1e fa as a little-endian word */
#define X86_ENDBR32 UINT32_C(0xfb1e0ff3)

uint32_t x86_code_id(uint32_t h)
{
	switch (h) {
	case X86_ENDBR64:
	case 0u - X86_ENDBR64:
	case X86_ENDBR32:
	case 0u - X86_ENDBR32:
		return h + 1;
	default:
		return h;
	}
}


/* rax eax ax al ah, rsi esi si sil, r10 r10d r10w r10b; a leading '%' is
 * allowed. */
int x86_gpr(const char *p, size_t n)
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

/* The register the check reads the id through: the one the branch already
 * uses, as with Clang (three instructions, no move), except where that
 * cannot serve, and then %r11:
 *   - a memory target has no register (it is loaded, as by Clang);
 *   - thunk calls and GCC's inline retpoline end in the %r11 thunk:
 *     Linux 6.12 finds checked callers for FineIBT and for re-hashing
 *     through .retpoline_sites and rewrites them assuming %r11;
 *   - %r10 is the check's scratch;
 *   - with %rsp or %r12 as base, the addl needs a SIB byte and is 5 bytes,
 *     and Linux's decoder expects it at exactly trap-6. */
static const char *x86_check_reg(const struct kcfi_branch *b)
{
	if (b->mem)
		return "r11";
	if (b->flags & (X86_THUNK | X86_INLINE))
		return "r11";
	if (!strcmp(b->reg, "r10") || !strcmp(b->reg, "r12") || !strcmp(b->reg, "rsp"))
		return "r11";
	return b->reg;
}

/* The target is moved or loaded into the check's register first. */
static bool x86_moves_target(const struct kcfi_branch *b)
{
	return b->mem || strcmp(b->reg, x86_check_reg(b)) != 0;
}

static uint64_t x86_check_clobbers(const struct kcfi_branch *b)
{
	return UINT64_C(1) << X86_R10 | (uint64_t)x86_moves_target(b) << X86_R11;
}

/* ---- retpolines -------------------------------------------------------
 *
 * With -mindirect-branch=thunk-inline GCC prints each indirect call as
 *	jmp	La			call form only
 * Lb:	call	Lc			(a sibcall starts here)
 * Ld:	pause
 *	lfence
 *	jmp	Ld
 * Lc:	[.cfi_def_cfa_offset 16]	with CFI
 *	mov	%reg, (%rsp)
 *	ret
 * La:	call	Lb			call form only
 * with .LIND labels of its own.  A checked one becomes the same sequence
 * through %r11 behind the check, under the same labels: with
 * -fno-dwarf2-cfi-asm GCC's .eh_frame refers to Lc. */

static struct {
	unsigned step;
	bool call_form;
	char la[32], lb[32], lc[32], ld[32];
	char reg[8];
	char cfi[512];			/* GCC's CFI lines after Lc */
	size_t cfi_len;
} rp;

enum { RP_LB, RP_CALL_LC, RP_LD, RP_PAUSE, RP_LFENCE, RP_JMP_LD, RP_LC, RP_MOV, RP_RET,
       RP_LA, RP_CALL_LB };

/* "MNEMONIC OPERAND" with MNEMONIC as given: the operand, or NULL. */
static const char *operand_of(const char *s, size_t len, const char *mnemonic, size_t *n)
{
	size_t m = strlen(mnemonic), i = m;
	if (len <= m || memcmp(s, mnemonic, m) || (s[m] != ' ' && s[m] != '\t'))
		return NULL;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	*n = len - i;
	return *n ? s + i : NULL;
}

/* A GCC inline-retpoline label: ".LIND" and digits. */
static bool rp_label(const char *p, size_t n)
{
	if (n < 6 || n >= sizeof(rp.la) || memcmp(p, ".LIND", 5))
		return false;
	for (size_t i = 5; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return true;
}

/* Bytes of P..N before the first of STOP (the slices are not terminated). */
static size_t span_to(const char *p, size_t n, const char *stop)
{
	size_t i = 0;
	while (i < n && !strchr(stop, p[i]))
		i++;
	return i;
}

static void rp_keep(char *dst, const char *p, size_t n)
{
	memcpy(dst, p, n);
	dst[n] = '\0';
}

/* Is P..N the name NAME? */
static bool rp_is(const char *p, size_t n, const char *name)
{
	return strlen(name) == n && !memcmp(p, name, n);
}

static bool x86_seq_begin(const struct kcfi_branch *b, const char *s, size_t len)
{
	const char *op;
	size_t n;
	memset(&rp, 0, sizeof(rp));
	if (b->prefix_len)
		return false;
	if ((op = operand_of(s, len, "jmp", &n)) && rp_label(op, n)) {
		rp.call_form = true;
		rp_keep(rp.la, op, n);
		rp.step = RP_LB;
		return true;
	}
	if ((op = operand_of(s, len, "call", &n)) && rp_label(op, n)) {
		rp_keep(rp.lc, op, n);
		rp.step = RP_LD;
		return true;
	}
	return false;
}

static enum seq_verdict rp_bad(char *err, size_t size, const char *want, const char *p, size_t n)
{
	snprintf(err, size, "GCC's inline retpoline expected %s, found '%.*s'", want, (int)n, p);
	return SEQ_BAD;
}

static enum seq_verdict x86_seq_step(enum seq_stmt kind, const char *p, size_t n,
				     struct kcfi_branch *out, char *err, size_t size)
{
	const char *op;
	size_t m;
	bool label = kind == SEQ_LABEL, insn = kind == SEQ_INSN;

	switch (rp.step) {
	case RP_LB:
		if (!label || !rp_label(p, n))
			return rp_bad(err, size, "a .LIND label", p, n);
		rp_keep(rp.lb, p, n);
		break;
	case RP_CALL_LC:
		if (!insn || !(op = operand_of(p, n, "call", &m)) || !rp_label(op, m))
			return rp_bad(err, size, "'call .LINDn'", p, n);
		rp_keep(rp.lc, op, m);
		break;
	case RP_LD:
		if (!label || !rp_label(p, n))
			return rp_bad(err, size, "a .LIND label", p, n);
		rp_keep(rp.ld, p, n);
		break;
	case RP_PAUSE:
		if (!insn || !rp_is(p, n, "pause"))
			return rp_bad(err, size, "'pause'", p, n);
		break;
	case RP_LFENCE:
		if (!insn || !rp_is(p, n, "lfence"))
			return rp_bad(err, size, "'lfence'", p, n);
		break;
	case RP_JMP_LD:
		if (!insn || !(op = operand_of(p, n, "jmp", &m)) || !rp_is(op, m, rp.ld))
			return rp_bad(err, size, "a jump back to its pause", p, n);
		break;
	case RP_LC:
		if (!label || !rp_is(p, n, rp.lc))
			return rp_bad(err, size, "the label its first call goes to", p, n);
		break;
	case RP_MOV:
		if (kind == SEQ_DIRECTIVE && n > 5 && !memcmp(p, ".cfi_", 5) &&
		    rp.cfi_len + n + 3 < sizeof(rp.cfi)) {
			rp.cfi[rp.cfi_len++] = '\t';
			memcpy(rp.cfi + rp.cfi_len, p, n);
			rp.cfi_len += n;
			rp.cfi[rp.cfi_len++] = '\n';
			rp.cfi[rp.cfi_len] = '\0';
			return SEQ_MORE;
		}
		/* mov %reg, (%rsp) */
		if (!insn || (!(op = operand_of(p, n, "mov", &m)) && !(op = operand_of(p, n, "movq", &m))) ||
		    m < 10 || op[0] != '%')
			return rp_bad(err, size, "'mov %reg, (%rsp)'", p, n);
		size_t r = span_to(op + 1, m - 1, ", \t");
		const char *rest = op + 1 + r, *end = op + m;
		while (rest < end && (*rest == ' ' || *rest == '\t'))
			rest++;
		if (rest < end && *rest == ',')
			rest++;
		while (rest < end && (*rest == ' ' || *rest == '\t'))
			rest++;
		if (!x86_reg64(op + 1, r) || (size_t)(end - rest) != 6 || memcmp(rest, "(%rsp)", 6) ||
		    rp_is(op + 1, r, "rsp"))
			return rp_bad(err, size, "'mov %reg, (%rsp)'", p, n);
		rp_keep(rp.reg, op + 1, r);
		break;
	case RP_RET:
		if (!insn || !rp_is(p, n, "ret"))
			return rp_bad(err, size, "'ret'", p, n);
		if (!rp.call_form) {
			memset(out, 0, sizeof(*out));
			out->cls = INSN_IJUMP;
			out->flags = X86_INLINE;
			memcpy(out->reg, rp.reg, sizeof(out->reg));
			return SEQ_DONE;
		}
		break;
	case RP_LA:
		if (!label || !rp_is(p, n, rp.la))
			return rp_bad(err, size, "the label its first jump goes to", p, n);
		break;
	case RP_CALL_LB:
		if (!insn || !(op = operand_of(p, n, "call", &m)) || !rp_is(op, m, rp.lb))
			return rp_bad(err, size, "a call of its second label", p, n);
		memset(out, 0, sizeof(*out));
		out->cls = INSN_ICALL;
		out->flags = X86_INLINE;
		memcpy(out->reg, rp.reg, sizeof(out->reg));
		return SEQ_DONE;
	}
	rp.step++;
	return SEQ_MORE;
}

/* The retpoline seq_step() took apart, now through %r11.  With CFI, GCC's
 * lines come back where they were, and the state from before the sequence
 * is restored after it (GCC's own CFI leaves the offset at 16 for the rest
 * of the function). */
static void emit_inline_retpoline(struct emitter *e)
{
	bool cfi = rp.cfi_len > 0;
	if (cfi)
		emit(e, "\t.cfi_remember_state\n");
	if (rp.call_form)
		emit(e, "\tjmp\t%s\n%s:\n", rp.la, rp.lb);
	emit(e, "\tcall\t%s\n%s:\n\tpause\n\tlfence\n\tjmp\t%s\n%s:\n%s\tmov\t%%r11, (%%rsp)\n\tret\n",
	     rp.lc, rp.ld, rp.ld, rp.lc, rp.cfi);
	if (cfi)
		emit(e, "\t.cfi_restore_state\n");
	if (rp.call_form)
		emit(e, "%s:\n\tcall\t%s\n", rp.la, rp.lb);
}

/* -mindirect-branch=thunk: GCC defines, as hidden comdat functions, the
 * thunks of the registers it called through, the checks call the one of
 * %r11.  Defined here in the same shape and group when the TU defines thunks
 * but not that one; with thunk-extern (the kernel's) it defines none. */
static void x86_observe(struct kcfi_arch_opts *o, const char *name, size_t name_len,
			const char *args, size_t args_len)
{
	static const char thunk[] = ".text.__x86_indirect_thunk_";
	const size_t tn = sizeof(thunk) - 1;
	if (!((name_len == 7 && !memcmp(name, "section", 7)) ||
	      (name_len == 11 && !memcmp(name, "pushsection", 11))))
		return;
	if (args_len <= tn || memcmp(args, thunk, tn))
		return;
	size_t r = span_to(args + tn, args_len - tn, ", \t");
	if (!x86_reg64(args + tn, r))
		return;
	o->state |= X86_TU_THUNKS;
	if (r == 3 && !memcmp(args + tn, "r11", 3))
		o->state |= X86_TU_THUNK_R11;
}

static void x86_tu_end(struct emitter *e, const struct kcfi_arch_opts *o, unsigned needs)
{
	if (!(needs & X86_NEEDS_THUNK_R11) || !(o->state & X86_TU_THUNKS) ||
	    (o->state & X86_TU_THUNK_R11))
		return;
	const char *t = "__x86_indirect_thunk_r11";
	emit(e, "\t.pushsection\t.text.%s,\"axG\",@progbits,%s,comdat\n"
	     "\t.globl\t%s\n\t.hidden\t%s\n\t.type\t%s, @function\n%s:\n",
	     t, t, t, t, t, t);
	if (e->cfi)
		emit(e, "\t.cfi_startproc\n");
	emit(e, "\tcall\t.Lkcfi_thunk_r11_set\n.Lkcfi_thunk_r11_spin:\n\tpause\n\tlfence\n"
	     "\tjmp\t.Lkcfi_thunk_r11_spin\n.Lkcfi_thunk_r11_set:\n");
	if (e->cfi)
		emit(e, "\t.cfi_def_cfa_offset 16\n");
	emit(e, "\tmov\t%%r11, (%%rsp)\n\tret\n");
	if (e->cfi)
		emit(e, "\t.cfi_endproc\n");
	emit(e, "\t.size\t%s, .-%s\n\t.popsection\n", t, t);
}

/* Every comma-separated operand of P..N is VALUE (any case). */
static bool all_operands(const char *p, size_t n, const char *value)
{
	while (n) {
		size_t f = 0;
		while (f < n && p[f] != ',')
			f++;
		struct slice op = { p, f };
		slice_trim(&op);
		if (!word_ieq(op.p, op.n, value))
			return false;
		p += f;
		n -= f;
		if (n) {
			p++;
			n--;
			if (!n)
				return false;
		}
	}
	return true;
}

/* GCC's TLS GD call with -fno-plt pads itself with data16 prefixes written
 * as data (".byte 0x66"; ".value 0x6666" before the PLT form).  Only such
 * bytes may stand between a lenient directive and its branch: any other
 * data could be an instruction of its own. */
bool x86_lenient_directive(const char *name, size_t nlen, const char *args, size_t alen)
{
	if (word_ieq(name, nlen, "byte"))
		return alen && all_operands(args, alen, "0x66");
	if (word_ieq(name, nlen, "value") || word_ieq(name, nlen, "word") ||
	    word_ieq(name, nlen, "hword") || word_ieq(name, nlen, "2byte") ||
	    word_ieq(name, nlen, "short"))
		return alen && all_operands(args, alen, "0x6666");
	return false;
}

bool x86_profiler_call_mode(const char *line, size_t len, bool m32)
{
	if (len < 2 || line[0] == '.' || (!m32 && !memchr(line, '1', len < 8 ? len : 8)))
		return false;
	return pcre2_match(profiler_re[m32], (PCRE2_SPTR)line, len, 0, 0, profiler_md, NULL) >= 0;
}

static bool x86_profiler_call(const char *line, size_t len)
{
	return x86_profiler_call_mode(line, len, false);
}

static int x86_emit_check(struct emitter *e, const struct kcfi_branch *b,
			  const struct kcfi_site *site, const struct kcfi_arch_opts *opts)
{
	const char *insn = b->cls == INSN_ICALL ? "call" : "jmp";
	unsigned n = site->serial;
	int disp = -(int)(site->prefix_nops + 4);

	if (x86_refuse_return_thunk(e, b))
		return -1;
	if (b->mem)
		x86_emit_load_target(e, b, "movq", "r11");
	else if (x86_moves_target(b))
		emit(e, "\tmovq\t%%%s, %%r11\n", b->reg);

	const char *reg = x86_check_reg(b);
	emit(e, "\tmovl\t$%u, %%r10d\n", (unsigned)(0u - x86_code_id(site->id)));
	emit(e, "\taddl\t%d(%%%s), %%r10d\n", disp, reg);
	emit(e, "\tje\t" EMIT_CALL_LABEL "\n", n);
	emit_trap(e, n, "\tud2\n");	/* Linux's handle_cfi_failure() looks for ud2 */
	if (b->flags & X86_INLINE) {
		emit_inline_retpoline(e);
	} else if (b->flags & X86_THUNK) {
		/* GCC adds cs only for thunks of r8-r15; r11 is one of them.  On a
		 * line of its own: GNU as drops "cs call sym" prefixes. */
		if ((b->flags & X86_CS) || opts->cs_prefix)
			emit(e, "\tcs\n");
		emit(e, "\t%s\t__x86_indirect_thunk_r11\n", insn);
		e->needs |= X86_NEEDS_THUNK_R11;
	} else {
		x86_emit_branch(e, b, reg);
	}
	return 0;
}

enum { X86_PAD_LINES = 64 };

/* P single-byte NOPs (0x90) so that P + 5 + M is a multiple of the function's
 * alignment: the entry keeps its alignment and the id sits at entry-(M+4). */
void x86_emit_entry(struct emitter *e, const struct kcfi_entry *f)
{
	unsigned used = f->prefix_nops + (f->typed ? 5 : 0);
	unsigned pad = (f->align - used % f->align) % f->align;

	if (f->typed) {
		if (f->binding)
			emit(e, "\t%s\t%s\n", f->binding, f->cfi_sym);
		emit(e, "\t.type\t%s, @function\n%s:\n", f->cfi_sym, f->cfi_sym);
	}
	/* Up to a cache line of them as the lines Clang prints; more
	 * (aligned(1 << 24), .p2align 30) as one directive for the same bytes,
	 * so that neither time nor the rewritten text grows with the alignment. */
	if (pad < X86_PAD_LINES)
		for (unsigned i = 0; i < pad; i++)
			emit(e, "\tnop\n");
	else
		emit(e, "\t.fill\t%u, 1, 0x90\n", pad);
	/* -fsanitize-kcfi-arity: the register numbered N, b8+N, says that N
	 * argument registers are in use (7, %edi: some of the stack too).
	 * Linux 6.15's FineIBT-BHI reads it from that opcode byte. */
	static const char *const arity_reg[KCFI_ARITY_STACK + 1] = {
		"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
	};
	if (f->typed)
		emit(e, "\tmovl\t$%u, %%%s\n\t.size\t%s, .-%s\n", x86_code_id(f->id),
		     arity_reg[f->arity > 0 ? f->arity : 0], f->cfi_sym, f->cfi_sym);
}

/* ENDBR64 always: a stub may be the target of indirect calls in a program
 * running with IBT, and it is a NOP everywhere else.  The jump goes through
 * the GOT entry that &NAME would have read without the stub, not the PLT:
 * an IFUNC resolver may call the stub while the dynamic linker is still
 * relocating, before any PLT slot is bound (binutils' pr18841). */
static void x86_emit_stub_jump(struct emitter *e, const char *target, const char *label)
{
	emit(e, "\tendbr64\n%s:\n\tjmp\t*%s@GOTPCREL(%%rip)\n\tcall\t%s@PLT\n",
	     label, target, target);
}

/* GCC -masm=intel prints .intel_syntax; the patterns here read AT&T. */
static int x86_syntax_directive(const char *name, size_t len)
{
	if (word_ieq(name, len, "intel_syntax"))
		return 1;
	return word_ieq(name, len, "att_syntax") ? 0 : -1;
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
	.emit_stub_jump = x86_emit_stub_jump,
	.stub_align = 16,
	.gpr = x86_gpr,
	.gpr_name = x86_gpr_name,
	.check_clobbers = x86_check_clobbers,
	.observe = x86_observe,
	.seq_begin = x86_seq_begin,
	.seq_step = x86_seq_step,
	.profiler_call = x86_profiler_call,
	.lenient_directive = x86_lenient_directive,
	.syntax_directive = x86_syntax_directive,
	.syntax_refusal = "kcfi-as reads AT&T syntax only; compile without -masm=intel",
	.tu_end = x86_tu_end,
	.code_id = x86_code_id,
	.comment = "#",
	.align_pow2 = false,
	.nop = "nop",
	.check_statements = KCFI_CHECK_STATEMENTS_X86_64,
	.trap_word = ".long",
	.arity = true,
};
