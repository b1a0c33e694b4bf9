/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What becomes of an annotated branch: it stays as it is, with a record
 * saying why it is unchecked, or the backend's check replaces it; or it is
 * refused, when a check cannot be made without changing the program. */
#include "config.h"

#include <stdio.h>

#include "common/exempt.h"
#include "asmpass/tu-state.h"

/* Why directive C leaves its branch unchecked; false: it gets a check. */
static bool exempt(struct tu *t, const struct pending_call *c, enum kcfi_exempt_reason *why)
{
	switch (c->kind) {
	case KD_CALL_UNCHECKED:
		t->stats.unchecked_nosan++;
		*why = KCFI_EXEMPT_NO_SANITIZE;
		return true;
	case KD_CALL_DIRECT:
		t->stats.direct++;
		*why = KCFI_EXEMPT_DIRECT;
		return true;
	case KD_BRANCH_NOCALL:
		t->stats.nocall++;
		*why = KCFI_EXEMPT_JUMP_TABLE;
		return true;
	default:
		break;
	}
	const struct type_entry *e = typetab_get(&t->types, c->id);
	if (e && e->unprototyped) {
		/* As Clang: a pointer to T() may hold any function returning T. */
		t->stats.unchecked_noproto++;
		*why = KCFI_EXEMPT_UNPROTOTYPED;
		return true;
	}
	return false;
}

/* The branch stays.  Only indirect branches are records: .kcfi_call_direct
 * may annotate a direct one.  Prefix statements held for it go back in
 * front of it, after the record's label, which must name the whole
 * instruction.  The line itself stays as written: it may hold statements
 * after the branch, which must still be read (an indirect branch among them
 * needs its own annotation). */
static enum verdict_kind unchecked(struct tu *t, enum kcfi_exempt_reason why, struct verdict *v)
{
	struct slice prefix = v->branch.prefix;
	if (insn_is_indirect(v->branch.b.cls)) {
		record_branch(&v->before, t->type_opts.model.ptr_bits, t->exempt_serial++, why);
		t->stats.exempt_records++;
	}
	if (prefix.n)
		buf_printf(&v->before, "\t%.*s\n", (int)prefix.n, prefix.p);
	return V_PASS;
}

/* The check in front of a call writes some registers (the backend says
 * which).  Refuse it if one of them is a register the program needs there:
 * the static chain the call passes, or one the user reserved (.kcfi_reserved).
 * Emitting it would silently change what the program does. */
static enum verdict_kind check_registers(struct tu *t, const struct pending_call *c,
					 const struct kcfi_branch *b, struct slice text,
					 struct verdict *v)
{
	uint64_t writes = t->arch->check_clobbers(b);
	uint64_t at_branch = arch_branch_clobbers(t->arch, b);
	char why[512];
	int n;
	if (c->chain >= 0 && (writes >> c->chain & 1)) {
		n = c->chain;
		snprintf(why, sizeof(why), "which passes this call's static chain "
			 "(__builtin_call_with_static_chain): kcfi-as cannot check such a call on %s; "
			 "make it from a no_sanitize(\"kcfi\") function or without the chain",
			 t->arch->name);
	} else if (at_branch & c->args) {
		n = __builtin_ctzll(at_branch & c->args);
		snprintf(why, sizeof(why), "which carries an argument of this call (regparm or "
			 "-mregparm): kcfi-as can check it only through a register; make it "
			 "from a no_sanitize(\"kcfi\") function or without register arguments");
	} else if (writes & t->reserved) {
		n = __builtin_ctzll(writes & t->reserved);
		const char *by = t->reserved_by[n].why;
		if (t->reserved_by[n].kind == KR_OPTION)
			snprintf(why, sizeof(why), "which %s reserves: build this file without "
				 "%s or without -fsanitize=kcfi", by, by);
		else
			snprintf(why, sizeof(why), "which holds the global register variable %s: "
				 "put it in another register or build this file without "
				 "-fsanitize=kcfi", *by ? by : "(unnamed)");
	} else {
		return V_PASS;
	}
	char regs[128];
	size_t len = 0;
	regs[0] = '\0';
	for (unsigned i = 0; i < 64 && len < sizeof(regs); i++)
		if (writes >> i & 1)
			len += (size_t)snprintf(regs + len, sizeof(regs) - len, "%s%s",
						len ? ", " : "", t->arch->gpr_name(i));
	bool in_func = t->func.name.len > 0;
	return v_fail_src(v, "the KCFI check of '%.*s' in %s%s would overwrite %s (the %s check "
			  "writes %s), %s", (int)text.n, text.p,
			  in_func ? t->func.name.data : "this unit", in_func ? "()" : "",
			  t->arch->gpr_name((unsigned)n), t->arch->name, regs, why);
}

/* The branch in v->branch. */
enum verdict_kind tu_annotated(struct tu *t, struct verdict *v)
{
	const struct pending_call *c = v->branch.call;
	struct slice text = v->branch.text;
	enum kcfi_exempt_reason why;
	if (exempt(t, c, &why))
		return unchecked(t, why, v);
	if (v->branch.b.refuse)
		return v_fail_src(v, "'%.*s' (annotated by .kcfi_call at line %lu) cannot be "
				  "checked by KCFI: %s", (int)text.n, text.p, c->line,
				  v->branch.b.refuse);
	if (t->arch->check_statements && c->reserve < t->arch->check_statements)
		return v_fail(v, 0, ".kcfi_call (line %lu) reserves %u statements, the %s check "
			      "needs %u: branch ranges computed by the compiler would be wrong",
			      c->line, c->reserve, t->arch->name, t->arch->check_statements);
	/* What the call needs kept as it is, for a backend that picks its
	 * scratch register among several (i386). */
	struct kcfi_branch b = v->branch.b;
	b.busy = c->args | t->reserved | (c->chain >= 0 ? UINT64_C(1) << c->chain : 0);
	if (check_registers(t, c, &b, text, v) == V_FAIL)
		return V_FAIL;
	struct emitter em = { .out = &v->text, .section = &t->sec.cur,
			      .trap_word = t->arch->trap_word, .cfi = t->cfi };
	struct kcfi_site site = { .id = typetab_get(&t->types, c->id)->id,
				  .prefix_nops = t->prefix_nops, .serial = t->serial++ };
	if (t->arch->emit_check(&em, &b, &site, &t->arch_opts))
		return v_fail_src(v, "%s", em.error);
	t->needs |= em.needs;
	t->stats.checks++;
	return V_REPLACE;
}
