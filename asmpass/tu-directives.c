/* What each .kcfi_* directive line does to the TU (doc/directives.md).
 * Function entries and .kcfi_extern have files of their own (tu-entry.c,
 * tu-stubs.c); call-site directives only arm t->call here, the pairing with
 * their branch is tu-callsite.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int on_version(struct tu *t, const struct kcfi_directive *d)
{
	if (t->instrumented)
		return tu_fail(t, 0, "duplicate .kcfi_version");
	char triple[128];
	size_t n = d->triple.n < sizeof(triple) - 1 ? d->triple.n : sizeof(triple) - 1;
	memcpy(triple, d->triple.p, n);
	triple[n] = '\0';
	const char *broken;
	t->arch = arch_for_triple(triple, d->ptr_bits, t->opts.x86_mode, &broken);
	if (broken)
		return tu_fail(t, 0, "target \"%s\": %s (asmpass/arch.h), a bug of kcfi-as, "
			    "please report it; build this file without -fsanitize=kcfi "
			    "meanwhile", triple, broken);
	if (!t->arch && t->opts.x86_mode && !strcmp(t->opts.x86_mode, "--x32"))
		return tu_fail(t, 0, "no KCFI backend for x32 (--x32, gcc -mx32): build this file "
			    "without -fsanitize=kcfi, or for i386 (-m32) or x86_64 (-m64)");
	if (!t->arch)
		return tu_fail(t, 0, "no KCFI backend for target \"%s\" with %u-bit pointers%s%s",
			    triple, d->ptr_bits, t->opts.x86_mode ? " under " : "",
			    t->opts.x86_mode ? t->opts.x86_mode : "");
	for (unsigned i = 0; i < 32 && arch_nth(i); i++)
		if (arch_nth(i) == t->arch && (t->foreign_syntax >> i & 1))
			return tu_fail(t, 0, "%s", t->arch->syntax_refusal);
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
	return 0;
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

static int on_type(struct tu *t, const struct kcfi_directive *d)
{
	char stack[1024], *heap;
	struct slice text = type_text(d, stack, sizeof(stack), &heap);
	struct kcfi_type_error err;
	int rc = typetab_define(&t->types, d->id, text.p, text.n, t->loc.line, &t->type_opts, &err);
	free(heap);
	if (rc)
		return tu_fail(t, err.column ? d->type_col + err.column - 1 : 0, "%s", err.message);
	return 0;
}

/* .kcfi_typeinfo SYM, "TYPE": the data behind __builtin_linux_abi_kcfi_name
 * and _hash.  SYM is a 4-aligned local object: the id as the checks use it
 * (ENDBR-masked on x86, like __kcfi_typeid_), then the "_ZTS..." string.
 * It goes to .rodata at once; push/pop leaves the current section alone. */
static int on_typeinfo(struct tu *t, const struct kcfi_directive *d)
{
	char stack[1024], *heap;
	struct slice text = type_text(d, stack, sizeof(stack), &heap);
	struct kcfi_type_error err;
	struct kcfi_typeid r;
	int rc = kcfi_typeid_of_type(text.p, text.n, &t->type_opts, &r, &err);
	free(heap);
	if (rc)
		return tu_fail(t, err.column ? d->type_col + err.column - 1 : 0, "%s", err.message);
	uint32_t v = arch_code_id(t->arch, r.id);
	sink_printf(t->out, "\t.pushsection\t.rodata\n\t.balign\t4\n%.*s:\n\t.long\t%u\n"
		    "\t.string\t\"%s\"\n\t.popsection\n",
		    (int)d->name.n, d->name.p, v, r.mangled);
	kcfi_typeid_release(&r);
	return 1;
}

const struct type_entry *tu_need_type(struct tu *t, const struct kcfi_directive *d)
{
	const struct type_entry *e = typetab_get(&t->types, d->id);
	if (!e)
		tu_fail(t, 0, "%s refers to type %u, which no .kcfi_type defined", tu_dir_name(d->kind), d->id);
	else
		typetab_use(&t->types, d->id);	/* its name goes into the object */
	return e;
}

/* .kcfi_reserved REG, KIND, "WHY": a check must not write REG.  Only
 * general registers matter (no check writes any other); the first reason
 * given for one is kept for the message. */
static int on_reserved(struct tu *t, const struct kcfi_directive *d)
{
	if (t->code_seen)
		return tu_fail(t, 0, ".kcfi_reserved after the first .kcfi_func or .kcfi_call: "
			    "the checks before it could not take it into account");
	struct slice reg = tu_unquoted(d->name);
	int n = t->arch->gpr(reg.p, reg.n);
	if (n < 0 || (t->reserved >> n & 1))
		return 0;
	char *why = malloc(d->why.n + 1);
	if (!why)
		abort();
	kcfi_unescape(d->why, why, d->why.n + 1);
	t->reserved |= UINT64_C(1) << n;
	t->reserved_by[n].kind = d->reserve_kind;
	t->reserved_by[n].why = why;
	return 0;
}

static int on_call(struct tu *t, const struct kcfi_directive *d)
{
	if (d->kind == KD_CALL && !tu_need_type(t, d))
		return -1;
	int chain = -1;
	if (d->chain.n) {
		struct slice reg = tu_unquoted(d->chain);
		chain = t->arch->gpr(reg.p, reg.n);
		if (chain < 0)
			return tu_fail(t, 0, ".kcfi_call: the static chain register '%.*s' is no "
				    "general register of %s", (int)reg.n, reg.p, t->arch->name);
	}
	uint64_t args = 0;
	for (unsigned i = 0; i < d->nargs; i++) {
		struct slice reg = tu_unquoted(d->args[i]);
		int n = t->arch->gpr(reg.p, reg.n);
		if (n < 0)
			return tu_fail(t, 0, ".kcfi_call: the argument register '%.*s' is no "
				    "general register of %s", (int)reg.n, reg.p, t->arch->name);
		args |= UINT64_C(1) << n;
	}
	t->code_seen = true;
	t->call_prefix.len = 0;
	t->call = (struct pending_call){
		.active = true, .kind = d->kind, .id = d->id, .chain = chain, .args = args,
		.reserve = d->reserve, .line = t->loc.line,
	};
	return 0;
}

int tu_kcfi_line(struct tu *t, const char *p, size_t n)
{
	struct kcfi_directive d;
	const char *msg;
	size_t col;
	if (kcfi_directive_parse(p, n, &d, &msg, &col))
		return tu_fail(t, col, "%s", msg);
	if (d.kind != KD_VERSION && d.kind != KD_REQUIRE_PLUGIN && !t->instrumented)
		return tu_fail(t, 0, "%s before .kcfi_version", tu_dir_name(d.kind));
	if (t->call.active)
		return tu_fail(t, 0, "%s between %s (line %lu) and the branch it annotates",
			    tu_dir_name(d.kind), tu_dir_name(t->call.kind), t->call.line);
	if (t->prefix_line && (d.kind == KD_FUNC || d.kind == KD_CALL || d.kind == KD_CALL_UNCHECKED ||
			       d.kind == KD_CALL_DIRECT || d.kind == KD_BRANCH_NOCALL))
		return tu_fail(t, 0, "%s after the prefix at line %lu: the assembler would apply the "
			    "prefix to the code kcfi-as puts here, not to what the prefix was "
			    "written for; put it on the line of its instruction",
			    tu_dir_name(d.kind), t->prefix_line);

	int rc = 0;
	switch (d.kind) {
	case KD_VERSION:
		rc = on_version(t, &d);
		if (!rc) {
			/* Name the input for the assembler's own messages. */
			tu_resync(t, t->loc.line + 1);
			return 0;
		}
		break;
	case KD_TYPE:
		rc = on_type(t, &d);
		break;
	case KD_FUNC:
		rc = tu_on_func(t, &d);
		break;
	case KD_EXTERN:
		rc = tu_on_extern(t, &d);
		break;
	case KD_CALL:
	case KD_CALL_UNCHECKED:
	case KD_CALL_DIRECT:
	case KD_BRANCH_NOCALL:
		rc = on_call(t, &d);
		break;
	case KD_TYPEINFO:
		rc = on_typeinfo(t, &d);
		break;
	case KD_RESERVED:
		rc = on_reserved(t, &d);
		break;
	case KD_STUB_ALIAS:
		/* A public alias the unit defines: as for its functions. */
		tu_emit_stub_alias(t, d.name, d.name, d.weak ? ".weak" : ".globl");
		rc = 1;
		break;
	case KD_REQUIRE_PLUGIN:
		if (!t->require_plugin)
			t->require_line = t->loc.line;
		t->require_plugin = true;
		break;
	}
	if (rc < 0)
		return -1;
	if (rc > 0) {
		/* The handler wrote lines of its own: renumber what follows. */
		tu_resync(t, t->loc.line + 1);
		return 0;
	}
	tu_put(t, "\n", 1);
	return 0;
}
