/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The .kcfi_* directives that set up the TU's state (doc/directives.md);
 * tu.c dispatches each directive line.  Function entries and .kcfi_extern
 * have files of their own (tu-entry.c, tu-stubs.c); call-site directives
 * only arm t->call here, the pairing with their branch is tu-callsite.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/records.h"
#include "asmpass/tu-state.h"

/* Beyond this, early directives are not kept: real compiler output has a
 * handful before .kcfi_version, a plain .S with inline directives may have
 * thousands and never needs them. */
enum { EARLY_MAX = 16384 };

void tu_record_early(struct tu *t, const struct stmt *s)
{
	if (t->early.len + s->text.n + 1 > EARLY_MAX)
		return;
	buf_append(&t->early, s->text.p, s->text.n);
	buf_append(&t->early, "\n", 1);
}

static void replay_early(struct tu *t)
{
	const char *p = t->early.data, *end = p + t->early.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct slice line = { p, (size_t)(nl - p) };
		struct stmt s;
		if (stmt_next(&line, t->arch->comment, &s) && s.kind == STMT_DIRECTIVE)
			arch_observe(t->arch, &t->arch_opts, s.name.p, s.name.n, s.args.p, s.args.n);
		p = nl + 1;
	}
	t->early.len = 0;
}

/* Its line gives way to a marker: the input is named for the assembler's
 * own messages. */
enum verdict_kind tu_on_version(struct tu *t, const struct kcfi_directive *d, struct verdict *v)
{
	if (t->instrumented)
		return v_fail(v, 0, "duplicate .kcfi_version");
	char triple[128];
	size_t n = d->triple.n < sizeof(triple) - 1 ? d->triple.n : sizeof(triple) - 1;
	memcpy(triple, d->triple.p, n);
	triple[n] = '\0';
	const char *broken;
	t->arch = arch_for_triple(triple, d->ptr_bits, t->opts.x86_mode, &broken);
	if (broken)
		return v_fail(v, 0, "target \"%s\": %s (asmpass/arch.h), a bug of kcfi-as, "
			    "please report it; build this file without -fsanitize=kcfi "
			    "meanwhile", triple, broken);
	if (!t->arch && t->opts.x86_mode && !strcmp(t->opts.x86_mode, "--x32"))
		return v_fail(v, 0, "no KCFI backend for x32 (--x32, gcc -mx32): build this file "
			    "without -fsanitize=kcfi, or for i386 (-m32) or x86_64 (-m64)");
	if (!t->arch)
		return v_fail(v, 0, "no KCFI backend for target \"%s\" with %u-bit pointers%s%s",
			    triple, d->ptr_bits, t->opts.x86_mode ? " under " : "",
			    t->opts.x86_mode ? t->opts.x86_mode : "");
	for (unsigned i = 0; i < 32 && arch_nth(i); i++)
		if (arch_nth(i) == t->arch && (t->foreign_syntax >> i & 1))
			return v_fail(v, 0, "%s", t->arch->syntax_refusal);
	t->instrumented = true;
	t->prefix_nops = d->prefix;
	t->arch_opts.cs_prefix = t->opts.cs_prefix;
	t->arch_opts.march = t->opts.march;
	arch_tu_start(t->arch, &t->arch_opts);
	replay_early(t);
	t->type_opts.hash = t->opts.hash;
	t->type_opts.normalize_integers = t->opts.normalize_integers;
	t->type_opts.generalize_pointers = t->opts.generalize_pointers;
	t->type_opts.model.ptr_bits = (unsigned char)d->ptr_bits;
	t->type_opts.model.long_bits = (unsigned char)d->long_bits;
	t->type_opts.model.char_signed = d->char_signed;
	record_pad(&v->before);
	return V_REPLACE;
}

/* A directive's type text without its escapes.  Most types have none and
 * are used where they stand; the others are unescaped into BUF when they fit,
 * else onto the heap, which *HEAP then holds for the caller to free. */
static struct slice type_text(const struct kcfi_directive *d, char *buf, size_t size, char **heap)
{
	*heap = NULL;
	if (!d->type_escaped)
		return d->type;
	char *text = d->type.n < size ? buf : (*heap = malloc(d->type.n + 1));
	if (!text)
		abort();
	return (struct slice){ text, kcfi_unescape(d->type, text, d->type.n + 1) };
}

enum verdict_kind tu_on_type(struct tu *t, const struct kcfi_directive *d, struct verdict *v)
{
	char stack[1024], *heap;
	struct slice text = type_text(d, stack, sizeof(stack), &heap);
	struct kcfi_type_error err;
	int rc = typetab_define(&t->types, d->id, text.p, text.n, t->loc.line, &t->type_opts, &err);
	free(heap);
	if (rc)
		return v_fail(v, err.column ? d->type_col + err.column - 1 : 0, "%s", err.message);
	return V_BLANK;
}

/* .kcfi_typeinfo SYM, "TYPE": the data behind __builtin_linux_abi_kcfi_name
 * and _hash.  SYM is a 4-aligned local object: the id as the checks use it
 * (ENDBR-masked on x86, like __kcfi_typeid_), then the "_ZTS..." string.
 * It goes to .rodata at once; push/pop leaves the current section alone. */
enum verdict_kind tu_on_typeinfo(struct tu *t, const struct kcfi_directive *d, struct verdict *v)
{
	char stack[1024], *heap;
	struct slice text = type_text(d, stack, sizeof(stack), &heap);
	struct kcfi_type_error err;
	struct kcfi_typeid r;
	int rc = kcfi_typeid_of_type(text.p, text.n, &t->type_opts, &r, &err);
	free(heap);
	if (rc)
		return v_fail(v, err.column ? d->type_col + err.column - 1 : 0, "%s", err.message);
	uint32_t id = arch_code_id(t->arch, r.id);
	buf_printf(&v->text, "\t.pushsection\t.rodata\n\t.balign\t4\n%.*s:\n\t.long\t%u\n"
		   "\t.string\t\"%s\"\n\t.popsection\n",
		   (int)d->name.n, d->name.p, id, r.mangled);
	kcfi_typeid_release(&r);
	return V_REPLACE;
}

/* .kcfi_reserved REG, KIND, "WHY": a check must not write REG.  Only
 * general registers matter (no check writes any other); the first reason
 * given for one is kept for the message. */
enum verdict_kind tu_on_reserved(struct tu *t, const struct kcfi_directive *d, struct verdict *v)
{
	if (t->code_seen)
		return v_fail(v, 0, ".kcfi_reserved after the first .kcfi_func or .kcfi_call: "
			    "the checks before it could not take it into account");
	struct slice reg = sym_unquoted(d->name);
	int n = t->arch->gpr(reg.p, reg.n);
	if (n < 0 || (t->reserved >> n & 1))
		return V_BLANK;
	char *why = malloc(d->why.n + 1);
	if (!why)
		abort();
	kcfi_unescape(d->why, why, d->why.n + 1);
	t->reserved |= UINT64_C(1) << n;
	t->reserved_by[n].kind = d->reserve_kind;
	t->reserved_by[n].why = why;
	return V_BLANK;
}

/* A string operand without its escapes, malloc'd. */
static char *unescaped(struct slice s)
{
	char *p = malloc(s.n + 1);
	if (!p)
		abort();
	kcfi_unescape(s, p, s.n + 1);
	return p;
}

static const char *const conversion_kinds[] = {
#define KIND_NAME(e, s) s,
	KCFI_CONVERSION_KINDS(KIND_NAME)
#undef KIND_NAME
};
enum { CONVERSION_DECL = sizeof(conversion_kinds) / sizeof(conversion_kinds[0]) - 1 };
#define KIND_INDEX(e, s) CONVERSION_INDEX_##e,
enum { KCFI_CONVERSION_KINDS(KIND_INDEX) };
#undef KIND_INDEX

/* .kcfi_conversion NAME, "FROM", "TO", "FILE", LINE, "CONTEXT", KIND: the
 * function NAME of type FROM became a pointer of type TO.  Where the two
 * type ids differ (and for every decl, which kcfi-audit judges against
 * the definition) a KCFI_CONVERSION record; where they differ, under
 * --kcfi-warn-cast, a warning or error at FILE:LINE (not for a union
 * store, see common/exempt.h). */
enum verdict_kind tu_on_conversion(struct tu *t, const struct kcfi_directive *d, struct verdict *v)
{
	size_t kind;
	for (kind = 0; kind <= CONVERSION_DECL; kind++)
		if (slice_eq(d->conv_kind, conversion_kinds[kind]))
			break;
	if (kind > CONVERSION_DECL)
		return v_fail(v, 0, ".kcfi_conversion: unknown kind '%.*s' (known: cast, init, "
			      "assign, arg, return, void*, union, decl)", (int)d->conv_kind.n,
			      d->conv_kind.p);
	char stack[1024], *heap;
	struct slice from_text = type_text(d, stack, sizeof(stack), &heap);
	char *to_text = unescaped(d->to);
	struct kcfi_typeids *cx = typetab_typeids(&t->types);
	struct kcfi_type_error err;
	struct kcfi_typeid from = { 0 }, to = { 0 };
	enum verdict_kind k = V_BLANK;
	if (kcfi_typeids_function(cx, from_text.p, from_text.n, &t->type_opts, &from, &err)) {
		k = v_fail(v, err.column ? d->type_col + err.column - 1 : 0, "%s", err.message);
		goto out;
	}
	if (kcfi_typeids_typename(cx, to_text, strlen(to_text), &t->type_opts, &to, &err)) {
		k = v_fail(v, err.column ? d->to_col + err.column - 1 : 0, "%s", err.message);
		goto out;
	}
	if (!to.is_function) {
		k = v_fail(v, d->to_col, ".kcfi_conversion: \"%s\" is no pointer to a function",
			   to_text);
		goto out;
	}
	bool differ = from.id != to.id;
	if (to.unprototyped || (!differ && kind != CONVERSION_DECL))
		goto out;	/* calls through T (*)() are not checked */
	struct slice sym = sym_unquoted(d->name);
	char *name = malloc(sym.n + 1), *file = unescaped(d->file);
	char *context = unescaped(d->context), line[16];
	if (!name)
		abort();
	memcpy(name, sym.p, sym.n);
	name[sym.n] = '\0';
	snprintf(line, sizeof(line), "%u", d->src_line);
	const char *strs[7] = { name, from.mangled, to.mangled, file, line, context,
				conversion_kinds[kind] };
	record_conversion(&v->text, arch_code_id(t->arch, from.id), arch_code_id(t->arch, to.id),
			  strs);
	k = V_REPLACE;
	/* A union store is a mismatch only if the union is read through the
	 * other member, which the unit cannot tell: recorded, not warned. */
	if (differ && t->opts.warn_cast && kind != CONVERSION_INDEX_UNION) {
		bool error = t->opts.warn_cast > 1;
		buf_printf(&v->diag, "%s:%u: %s: converting '%s' (%.*s) to '%s' changes its KCFI "
			   "type id [-W%skcfi-cast]\n", file, d->src_line,
			   error ? "error" : "warning", name, (int)from_text.n, from_text.p,
			   to_text, error ? "error=" : "");
		v->diag_fails = error;
	}
	free(name);
	free(file);
	free(context);
out:
	kcfi_typeid_release(&from);
	kcfi_typeid_release(&to);
	free(to_text);
	free(heap);
	return k;
}

enum verdict_kind tu_on_call(struct tu *t, const struct kcfi_directive *d, struct verdict *v)
{
	if (d->kind == KD_CALL && !typetab_need(&t->types, d->id))
		return v_fail(v, 0, TYPETAB_UNDEFINED, kcfi_dir_name(d->kind), d->id);
	int chain = -1;
	if (d->chain.n) {
		struct slice reg = sym_unquoted(d->chain);
		chain = t->arch->gpr(reg.p, reg.n);
		if (chain < 0)
			return v_fail(v, 0, ".kcfi_call: the static chain register '%.*s' is no "
				    "general register of %s", (int)reg.n, reg.p, t->arch->name);
	}
	uint64_t args = 0;
	for (unsigned i = 0; i < d->nargs; i++) {
		struct slice reg = sym_unquoted(d->args[i]);
		int n = t->arch->gpr(reg.p, reg.n);
		if (n < 0)
			return v_fail(v, 0, ".kcfi_call: the argument register '%.*s' is no "
				    "general register of %s", (int)reg.n, reg.p, t->arch->name);
		args |= UINT64_C(1) << n;
	}
	t->code_seen = true;
	t->call_prefix.len = 0;
	t->call = (struct pending_call){
		.active = true, .kind = d->kind, .id = d->id, .chain = chain, .args = args,
		.reserve = d->reserve, .line = t->loc.line,
	};
	return V_BLANK;
}

enum verdict_kind tu_on_require_plugin(struct tu *t)
{
	if (!t->require_plugin)
		t->require_line = t->loc.line;
	t->require_plugin = true;
	return V_BLANK;
}

/* Whether directive D may come here at all. */
enum verdict_kind tu_directive_allowed(struct tu *t, const struct kcfi_directive *d,
				       struct verdict *v)
{
	if (d->kind != KD_VERSION && d->kind != KD_REQUIRE_PLUGIN && !t->instrumented)
		return v_fail(v, 0, "%s before .kcfi_version", kcfi_dir_name(d->kind));
	if (t->call.active)
		return v_fail(v, 0, "%s between %s (line %lu) and the branch it annotates",
			      kcfi_dir_name(d->kind), kcfi_dir_name(t->call.kind), t->call.line);
	if (t->prefix_line && (d->kind == KD_FUNC || d->kind == KD_CALL ||
			       d->kind == KD_CALL_UNCHECKED || d->kind == KD_CALL_DIRECT ||
			       d->kind == KD_BRANCH_NOCALL))
		return v_fail(v, 0, "%s after the prefix at line %lu: the assembler would apply "
			      "the prefix to the code kcfi-as puts here, not to what the prefix "
			      "was written for; put it on the line of its instruction",
			      kcfi_dir_name(d->kind), t->prefix_line);
	return V_PASS;
}
