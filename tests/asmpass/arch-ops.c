/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The backend interface of asmpass/arch.h: every registered backend has
 * every required operation (a missing one fails here, not as a call
 * through NULL in some user's build), arch_missing() catches each one
 * missing, and each optional operation, absent, means what arch.h says. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "asmpass/arch.h"

static int failures;

static void expect(int ok, const char *what, const char *backend)
{
	printf("%s: %s: %s\n", ok ? "ok" : "FAIL", backend, what);
	if (!ok)
		failures++;
}

static uint64_t two_regs(const struct kcfi_branch *b)
{
	(void)b;
	return 6;
}

static bool yes_begin(const struct kcfi_branch *b, const char *s, size_t n)
{
	(void)b, (void)s, (void)n;
	return true;
}

static int syntax_one(const char *n, size_t l)
{
	(void)n, (void)l;
	return 1;
}

static enum kcfi_app_line app_syntax(const char *line, size_t len)
{
	(void)line, (void)len;
	return KCFI_APP_SYNTAX;
}

static void stub_jump(struct emitter *e, const char *t, const char *l)
{
	(void)e, (void)t, (void)l;
}

/* One required member cleared in a copy of A: arch_missing() must name it.
 * The list is written out here, apart from arch.c's, so that a member
 * dropped from arch_missing() shows up as a failure. */
#define CLEARED(member)                                                         \
	do {                                                                    \
		struct kcfi_arch c = *a;                                        \
		memset(&c.member, 0, sizeof(c.member));                         \
		const char *m = arch_missing(&c);                               \
		expect(m && !strcmp(m, #member), "without " #member " it is refused, naming it", \
		       a->name);                                                \
	} while (0)

static void required(const struct kcfi_arch *a)
{
	CLEARED(name);
	CLEARED(serves);
	CLEARED(classify);
	CLEARED(emit_check);
	CLEARED(emit_entry);
	CLEARED(gpr);
	CLEARED(gpr_name);
	CLEARED(check_clobbers);
	CLEARED(comment);
	CLEARED(nop);
	struct kcfi_arch c = *a;
	c.nop = "";
	expect(arch_missing(&c) && !strcmp(arch_missing(&c), "nop"),
	       "an empty nop is a missing one", a->name);
}

/* The optional members that come in pairs: one without the other. */
static void pairs(const struct kcfi_arch *a)
{
	struct kcfi_arch c = *a;
	c.emit_stub_jump = stub_jump, c.stub_align = 0;
	const char *m = arch_missing(&c);
	expect(m && !strcmp(m, "stub_align"), "emit_stub_jump without stub_align is refused", a->name);
	c = *a;
	c.emit_stub_jump = NULL, c.stub_align = 16;
	m = arch_missing(&c);
	expect(m && !strcmp(m, "emit_stub_jump"), "stub_align without emit_stub_jump is refused",
	       a->name);
	c = *a;
	c.seq_begin = yes_begin, c.seq_step = NULL;
	m = arch_missing(&c);
	expect(m && !strcmp(m, "seq_step"), "seq_begin without seq_step is refused", a->name);
	c = *a;
	c.syntax_directive = syntax_one, c.syntax_refusal = NULL;
	m = arch_missing(&c);
	expect(m && !strcmp(m, "syntax_refusal"), "syntax_directive without syntax_refusal is refused",
	       a->name);
	c = *a;
	c.app_line = app_syntax, c.app_by_linemarkers = false;
	m = arch_missing(&c);
	expect(m && !strcmp(m, "app_by_linemarkers"), "app_line without app_by_linemarkers is refused",
	       a->name);
}

/* A copy of A with every optional member cleared is still complete, and
 * each wrapper gives the meaning arch.h documents for an absent one. */
static void absent(const struct kcfi_arch *a)
{
	struct kcfi_arch c = {
		.name = a->name, .serves = a->serves, .classify = a->classify,
		.emit_check = a->emit_check, .emit_entry = a->emit_entry, .gpr = a->gpr,
		.gpr_name = a->gpr_name, .check_clobbers = two_regs, .comment = a->comment,
		.nop = a->nop,
	};
	expect(arch_missing(&c) == NULL, "the required members alone are complete", a->name);
	struct kcfi_arch_opts o = { .isa = 7 };
	struct kcfi_branch b = { .cls = INSN_ICALL };
	expect(arch_init(&c) == 0, "absent init: nothing to prepare", a->name);
	expect(!arch_has_stubs(&c), "absent emit_stub_jump: no extern stubs", a->name);
	arch_tu_start(&c, &o);
	expect(o.isa == 0, "absent tu_start: isa 0", a->name);
	arch_observe(&c, &o, "option", 6, "push", 4);
	expect(o.isa == 0, "absent observe: no directive changes the state", a->name);
	expect(arch_branch_clobbers(&c, &b) == 6, "absent branch_clobbers: check_clobbers", a->name);
	expect(!arch_seq_begin(&c, &b, "call x", 6), "absent seq_begin: no sequence", a->name);
	expect(!arch_lenient_directive(&c, "byte", 4, "0x66", 4), "absent lenient_directive: none",
	       a->name);
	expect(!arch_state_directive(&c, "thumb", 5, "", 0), "absent state_directive: none", a->name);
	expect(!arch_profiler_call(&c, "\tcall\t*mcount@GOT(%ebx)\n", 23),
	       "absent profiler_call: none", a->name);
	expect(arch_syntax_directive(&c, "intel_syntax", 12) == -1, "absent syntax_directive: -1",
	       a->name);
	expect(arch_code_id(&c, 0xfa1e0ff3u) == 0xfa1e0ff3u, "absent code_id: the id itself",
	       a->name);
	expect(!c.app_by_linemarkers, "absent app_by_linemarkers: #APP and #NO_APP", a->name);
	expect(arch_app_line(&c, "\t.syntax unified\n", 17) == KCFI_APP_OTHER,
	       "absent app_line: no line is one", a->name);
	arch_tu_end(&c, NULL, &o, 0);	/* absent: writes nothing, so no emitter is needed */
}

/* The pointer width a backend serves its own name with. */
static unsigned bits_of(const struct kcfi_arch *a)
{
	return a->serves(a->name, strlen(a->name), 64) ? 64 : a->serves(a->name, strlen(a->name), 32) ? 32 : 0;
}

int main(void)
{
	size_t n = 0;
	for (const struct kcfi_arch *a; (a = arch_nth(n)); n++) {
		const char *m = arch_missing(a);
		char what[128];
		snprintf(what, sizeof(what), "has every required operation%s%s", m ? "; lacks " : "",
			 m ? m : "");
		expect(!m, what, a->name ? a->name : "(unnamed)");
		if (m)
			continue;
		unsigned bits = bits_of(a);
		const char *broken = "not asked";
		expect(bits && arch_for_triple(a->name, bits, NULL, &broken) == a && !broken,
		       "chosen for its own name, checked and initialised", a->name);
		required(a);
		pairs(a);
		absent(a);
	}
	expect(n == 5, "five backends registered", "registry");
	return failures ? 1 : 0;
}
