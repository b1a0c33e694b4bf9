/* .kcfi_extern: extern stubs and the aliases that replace them where the
 * function is defined (doc/extern-stubs.md), and __kcfi_typeid_ symbols. */
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

/* .kcfi_func NAME, ..., stub: the program defines NAME, so units that only
 * declare it must not reach it through a stub of their own.  Their stubs
 * are weak; this strong (or, for a weak NAME, weak) hidden alias takes
 * their place at link time, and every pointer to NAME in the program is
 * NAME itself (doc/extern-stubs.md).  TARGET is NAME, or the function
 * defined here as NAME's default version (symver.c). */
void tu_emit_stub_alias(struct tu *t, struct slice name, struct slice target,
		     const char *binding)
{
	char alias[512];
	snprintf(alias, sizeof(alias), "%s", tu_prefixed_symbol(t, KCFI_STUB_PREFIX, name));
	struct emitter em = { .sink = t->out, .section = &t->sec.cur,
			      .trap_word = t->arch->trap_word };
	emit(&em, "\t%s\t%s\n\t.hidden\t%s\n\t.type\t%s, %%function\n\t.set\t%s, %.*s\n",
	     binding, alias, alias, alias, alias, (int)target.n, target.p);
	tu_resync(t, t->loc.line);
}

/* .kcfi_extern NAME, ID, stub: __kcfi_stub_NAME, which the unit uses in
 * place of NAME (doc/extern-stubs.md): a preamble with ID and a jump to
 * NAME, hidden, weak and in a COMDAT group of its own so that a program or
 * a shared library keeps one and every pointer to NAME within it is equal. */
static int emit_extern_stub(struct tu *t, const struct kcfi_directive *d, uint32_t id)
{
	if (!arch_has_stubs(t->arch))
		return tu_fail(t, 0, "extern stubs are not implemented for %s", t->arch->name);
	if (t->prefix_nops)
		return tu_fail(t, 0, "extern stubs cannot be combined with patchable prefix NOPs "
			    "(-fpatchable-function-entry=N,M with M > 0)");
	char stub[512], cfi[512], sect[512];
	size_t n = tu_unquoted(d->name).n;
	if (n > sizeof(stub) - 32)
		return tu_fail(t, 0, "symbol name too long for an extern stub");
	snprintf(stub, sizeof(stub), "%s", tu_prefixed_symbol(t, KCFI_STUB_PREFIX, d->name));
	snprintf(cfi, sizeof(cfi), "%s", tu_prefixed_symbol(t, "__cfi_" KCFI_STUB_PREFIX, d->name));
	snprintf(sect, sizeof(sect), "%s", tu_prefixed_symbol(t, ".text." KCFI_STUB_PREFIX, d->name));
	struct emitter em = { .sink = t->out, .section = &t->sec.cur,
			      .trap_word = t->arch->trap_word, .cfi = t->cfi };
	emit(&em, "\t.pushsection\t%s,\"axG\",%%progbits,%s,comdat\n\t.balign\t%u\n",
	     sect, stub, t->arch->stub_align);
	/* __cfi_ local: one per group copy, for people and disassemblers.
	 * No arity: stubs serve user space, where nothing reads it. */
	struct kcfi_entry e = { .cfi_sym = cfi, .binding = NULL, .typed = true,
				.id = id, .align = t->arch->stub_align, .arity = -1 };
	t->arch->emit_entry(&em, &e);
	/* Weak: a definition of NAME in the program comes with a strong alias
	 * of this name (tu_emit_stub_alias), which wins. */
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
	tu_exempt_record(t, jump, jump, KCFI_EXEMPT_EXTERN_STUB);
	t->stats.exempt_records++;
	if (t->cfi)
		emit(&em, "\t.cfi_endproc\n");
	emit(&em, "\t.size\t%s, .-%s\n\t.popsection\n", stub, stub);
	t->stats.stubs++;
	return 0;
}

int tu_on_extern(struct tu *t, const struct kcfi_directive *d)
{
	const struct type_entry *e = tu_need_type(t, d);
	if (!e)
		return -1;
	/* Defined here as its default version (.symver): an alias, no stub. */
	const char *local = d->stub && t->symvers.n ?
		symver_local_for(&t->symvers, d->name, e->id) : NULL;
	if (local)
		tu_emit_stub_alias(t, d->name, (struct slice){ local, strlen(local) }, ".globl");
	else if (d->stub && emit_extern_stub(t, d, e->id))
		return -1;
	if (!clang_allows_typeid_name(d->name)) {
		t->stats.typeids_skipped++;
		return d->stub;
	}
	/* The value is what code compares against, so on x86 it is masked like
	 * every preamble and call site (SYM_TYPED_FUNC_START puts it in one). */
	uint32_t v = arch_code_id(t->arch, e->id);
	char num[DECIMAL_MAX];
	const struct slice lines[] = {
		SLICE_LIT("\t.weak\t__kcfi_typeid_"), d->name,
		SLICE_LIT("\n\t.set\t__kcfi_typeid_"), d->name,
		SLICE_LIT(", "), put_decimal(num, v), SLICE_LIT("\n"),
	};
	sink_join(t->out, lines, sizeof(lines) / sizeof(lines[0]));
	t->stats.typeids++;
	return 1;
}
