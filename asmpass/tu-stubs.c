/* SPDX-License-Identifier: GPL-2.0-or-later */
/* .kcfi_extern: extern stubs and the aliases that replace them where the
 * function is defined (doc/extern-stubs.md), and __kcfi_typeid_ symbols;
 * .kcfi_stub_alias. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/exempt.h"
#include "asmpass/tu-state.h"
#include "common/kcfi-targets.h"

static bool clang_allows_typeid_name(struct slice s)
{
	/* CodeGenModule::allowKCFIIdentifier: only [A-Za-z0-9_.]. */
	if (s.n && s.p[0] == '"')
		return false;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.'))
			return false;
	}
	return s.n > 0;
}

/* .kcfi_stub_alias NAME[, weak]: a public alias the unit defines, as for
 * its functions (sym_stub_alias()). */
enum verdict_kind tu_on_stub_alias(struct tu *t, const struct kcfi_directive *d,
				   struct verdict *v)
{
	sym_stub_alias(&v->before, &t->scratch, d->name, d->name, d->weak ? ".weak" : ".globl");
	return V_REPLACE;
}

/* .kcfi_extern NAME, ID, stub: __kcfi_stub_NAME, which the unit uses in
 * place of NAME (doc/extern-stubs.md): a preamble with ID and a jump to
 * NAME, hidden, weak and in a COMDAT group of its own so that a program or
 * a shared library keeps one and every pointer to NAME within it is equal. */
static enum verdict_kind extern_stub(struct tu *t, const struct kcfi_directive *d, uint32_t id,
				     struct verdict *v)
{
	if (!arch_has_stubs(t->arch))
		return v_fail(v, 0, "extern stubs are not implemented for %s", t->arch->name);
	if (t->prefix_nops)
		return v_fail(v, 0, "extern stubs cannot be combined with patchable prefix NOPs "
			      "(-fpatchable-function-entry=N,M with M > 0)");
	char stub[512], cfi[512], sect[512];
	size_t n = sym_unquoted(d->name).n;
	if (n > sizeof(stub) - 32)
		return v_fail(v, 0, "symbol name too long for an extern stub");
	snprintf(stub, sizeof(stub), "%s", sym_prefixed(&t->scratch, KCFI_STUB_PREFIX, d->name));
	snprintf(cfi, sizeof(cfi), "%s", sym_prefixed(&t->scratch, "__cfi_" KCFI_STUB_PREFIX, d->name));
	snprintf(sect, sizeof(sect), "%s", sym_prefixed(&t->scratch, ".text." KCFI_STUB_PREFIX, d->name));
	struct emitter em = { .out = &v->text, .section = &t->sec.cur,
			      .trap_word = t->arch->trap_word, .cfi = t->cfi };
	emit(&em, "\t.pushsection\t%s,\"axG\",%%progbits,%s,comdat\n\t.balign\t%u\n",
	     sect, stub, t->arch->stub_align);
	/* __cfi_ local: one per group copy, for people and disassemblers.
	 * No arity: stubs serve user space, where nothing reads it. */
	struct kcfi_entry e = { .cfi_sym = cfi, .binding = NULL, .typed = true,
				.id = id, .align = t->arch->stub_align, .arity = -1 };
	t->arch->emit_entry(&em, &e);
	/* Weak: a definition of NAME in the program comes with a strong alias
	 * of this name (sym_stub_alias), which wins. */
	emit(&em, "\t.weak\t%s\n\t.hidden\t%s\n\t.type\t%s, %%function\n%s:\n",
	     stub, stub, stub, stub);
	if (t->cfi)
		emit(&em, "\t.cfi_startproc\n");
	char target[512];
	snprintf(target, sizeof(target), "%.*s", (int)d->name.n, d->name.p);
	unsigned jump = t->exempt_serial++;
	char label[32];
	snprintf(label, sizeof(label), ".Lkcfi_exempt%u", jump);
	t->arch->emit_stub_jump(&em, target, label);
	record_exempt(&v->text, t->type_opts.model.ptr_bits, jump, jump, KCFI_EXEMPT_EXTERN_STUB);
	t->stats.exempt_records++;
	if (t->cfi)
		emit(&em, "\t.cfi_endproc\n");
	emit(&em, "\t.size\t%s, .-%s\n\t.popsection\n", stub, stub);
	t->stats.stubs++;
	return V_REPLACE;
}

/* The stub or alias replaces the line (an alias goes in front of it), and
 * so does the __kcfi_typeid_ symbol. */
enum verdict_kind tu_on_extern(struct tu *t, const struct kcfi_directive *d, struct verdict *v)
{
	const struct type_entry *e = typetab_need(&t->types, d->id);
	if (!e)
		return v_fail(v, 0, TYPETAB_UNDEFINED, kcfi_dir_name(d->kind), d->id);
	/* Defined here as its default version (.symver): an alias, no stub. */
	const char *local = d->stub && t->symvers.n ?
		symver_local_for(&t->symvers, d->name, e->id) : NULL;
	if (local)
		sym_stub_alias(&v->before, &t->scratch, d->name,
			       (struct slice){ local, strlen(local) }, ".globl");
	else if (d->stub && extern_stub(t, d, e->id, v) == V_FAIL)
		return V_FAIL;
	if (!clang_allows_typeid_name(d->name)) {
		t->stats.typeids_skipped++;
		return d->stub ? V_REPLACE : V_BLANK;
	}
	/* The value is what code compares against, so on x86 it is masked like
	 * every preamble and call site (SYM_TYPED_FUNC_START puts it in one). */
	uint32_t id = arch_code_id(t->arch, e->id);
	char num[DECIMAL_MAX];
	const struct slice lines[] = {
		SLICE_LIT("\t.weak\t__kcfi_typeid_"), d->name,
		SLICE_LIT("\n\t.set\t__kcfi_typeid_"), d->name,
		SLICE_LIT(", "), put_decimal(num, id), SLICE_LIT("\n"),
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		buf_append(&v->text, lines[i].p, lines[i].n);
	t->stats.typeids++;
	return V_REPLACE;
}
