/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call-site pairing: a pending .kcfi_call* directive meets the branch it
 * annotates (V_BRANCH: tu-check.c decides what becomes of it), a statement
 * it may pass over, or one it must refuse.  Every instruction statement of
 * an instrumented TU comes here, so an indirect branch nobody annotated is
 * caught here too. */
#include "config.h"

#include <string.h>

#include "common/exempt.h"
#include "asmpass/tu-state.h"

/* Statements a lenient directive may pass over before its branch: GCC prints
 * some branches as the last line of a multi-instruction pattern (aarch64
 * compressed jump tables: ldrb; adr; add; br — x86 TLS GD: data16 leaq;
 * .byte 0x66; rex64; call *__tls_get_addr@GOTPCREL(%rip)).  A backend with
 * a longer one says so (arm's Thumb-2 PIC jump table). */
enum { LENIENT_MAX = 4 };

/* Prefix statements held for the branch (hold_prefix()) go back out in
 * front of the statement they were written before, when that statement is
 * not the branch after all: the assembler applies them to whatever comes
 * next, so dropping or moving them would change the program. */
static void release_prefix(struct tu *t, struct verdict *v)
{
	if (!t->call_prefix.len)
		return;
	buf_printf(&v->before, "\t%.*s\n", (int)t->call_prefix.len, t->call_prefix.data);
	t->call_prefix.len = 0;
}

enum verdict_kind tu_on_lenient(struct tu *t, const struct stmt *s, struct verdict *v)
{
	unsigned max = t->arch->lenient_statements ? t->arch->lenient_statements : LENIENT_MAX;
	if (++t->call.skipped > max)
		return v_fail(v, 0, "%s (line %lu): no branch within %u statements (at '%.*s')",
			      kcfi_dir_name(t->call.kind), t->call.line, max, (int)s->text.n,
			      s->text.p);
	release_prefix(t, v);
	return V_PASS;
}

static bool alone(const struct tu *t, const char *line, size_t n)
{
	return stmt_alone(line, n, t->arch->comment);
}

/* A direct branch where the directive wants an indirect one: the first
 * statement of a branch the compiler spells as several (x86 inline
 * retpolines).  tu.c holds the lines until tu-seq.c has seen them all. */
static enum verdict_kind begin_seq(struct tu *t, const struct stmt *s, struct slice prefix,
				   const char *line, size_t n, struct verdict *v)
{
	const struct pending_call *c = &t->call;
	if (prefix.n || !alone(t, line, n))
		return v_fail(v, 0, "'%.*s' (begun by %s at line %lu) shares its line with other "
			      "statements", (int)s->text.n, s->text.p, kcfi_dir_name(c->kind),
			      c->line);
	t->seq.active = true;
	t->seq.call = *c;
	/* Messages name the sequence by its first line. */
	const char *nl = memchr(line, '\n', n);
	struct slice first = { line, nl ? (size_t)(nl - line) : n };
	slice_trim(&first);
	t->seq.first.len = 0;
	buf_append(&t->seq.first, first.p, first.n);
	return V_HOLD;
}

/* S, of class B, right after the directive (and after the PREFIX statements
 * held for it, if any). */
static enum verdict_kind annotated(struct tu *t, const struct stmt *s, const struct kcfi_branch *b,
				   struct slice prefix, const char *line, size_t n,
				   struct verdict *v)
{
	struct pending_call *c = &t->call;
	c->active = false;
	bool ok = annot_kind_ok(c->kind, b->cls);
	if (!ok && (b->cls == INSN_CALL || b->cls == INSN_JUMP) &&
	    arch_seq_begin(t->arch, b, s->text.p, s->text.n))
		return begin_seq(t, s, prefix, line, n, v);
	/* A jump table's bounds check may sit inside its pattern, before the
	 * table jump: arm Thumb-2 casesi is "cmp; bhi .Ldefault; tbb".  A
	 * direct jump that begins no sequence is no branch .kcfi_branch_nocall
	 * could mean: passed over like the cmp. */
	if (!ok && c->kind == KD_BRANCH_NOCALL && b->cls == INSN_JUMP) {
		c->active = true;
		return tu_on_lenient(t, s, v);
	}
	if (!ok)
		return v_fail(v, 0, "%s (line %lu) must annotate %s, but '%.*s' is %s",
			      kcfi_dir_name(c->kind), c->line, annot_wants(c->kind),
			      (int)s->text.n, s->text.p, annot_class_name(b->cls));
	/* A check replaces the branch's line, and with it anything else on it. */
	bool checked = c->kind == KD_CALL && !typetab_get(&t->types, c->id)->unprototyped;
	if (checked && !alone(t, line, n))
		return v_fail(v, 0, "annotated branch '%.*s' shares its line with other statements",
			      (int)s->text.n, s->text.p);
	/* PREFIX now travels with the verdict (tu-check.c puts it back). */
	t->call_prefix.len = 0;
	v->branch.call = c;
	v->branch.text = s->text;
	v->branch.prefix = prefix;
	v->branch.b = *b;
	return V_BRANCH;
}

/* A prefix statement ("cs", "notrack") after the directive: the check must
 * go in front of it, so it is held and its line left empty. */
static enum verdict_kind hold_prefix(struct tu *t, const struct stmt *s, const char *line,
				     size_t n, struct verdict *v)
{
	if (!alone(t, line, n))
		return v_fail(v, 0, "prefix '%.*s' shares its line with other statements",
			      (int)s->text.n, s->text.p);
	if (t->call_prefix.len)
		buf_append(&t->call_prefix, " ", 1);
	buf_append(&t->call_prefix, s->text.p, s->text.n);
	return V_BLANK;
}

/* The statement after held prefixes: classified as "prefix statement", one
 * statement, which is what the assembler makes of it.  The joined text is
 * kept past the held prefixes' length, which stays theirs until a verdict
 * says where they go: with the branch (annotated()), or back in front of a
 * statement passed over (tu_on_lenient()). */
static enum verdict_kind after_prefix(struct tu *t, const struct stmt *s, const char *line,
				      size_t n, struct verdict *v)
{
	size_t plen = t->call_prefix.len;
	buf_append(&t->call_prefix, " ", 1);
	buf_append(&t->call_prefix, s->text.p, s->text.n);
	t->call_prefix.len = plen;
	struct stmt joined = *s;
	joined.text = (struct slice){ t->call_prefix.data, plen + 1 + s->text.n };
	struct kcfi_branch b;
	t->arch->classify(joined.text.p, joined.text.n, &b);
	if (annot_lenient(t->call.kind) && !insn_is_branch(b.cls))
		return tu_on_lenient(t, s, v);
	return annotated(t, &joined, &b, (struct slice){ t->call_prefix.data, plen }, line, n, v);
}

/* An indirect branch no directive announced: GCC's trampoline template and
 * profiler calls stay unchecked on purpose, anything else is refused. */
static enum verdict_kind unannotated(struct tu *t, const struct stmt *s,
				     const struct kcfi_branch *b, const char *line, size_t n,
				     struct verdict *v)
{
	enum kcfi_exempt_reason why;
	if (t->in_tramp) {
		t->stats.trampoline++;
		if (!alone(t, line, n))
			return V_PASS;	/* no label can go right before it */
		why = KCFI_EXEMPT_TRAMPOLINE;
	} else if (arch_profiler_call(t->arch, line, n)) {
		t->stats.direct++;
		why = KCFI_EXEMPT_DIRECT;
	} else {
		return v_fail(v, 0, "%s '%.*s' without a kcfi annotation: the compiler emitted "
			      "a branch the plugin did not see", annot_class_name(b->cls),
			      (int)s->text.n, s->text.p);
	}
	record_branch(&v->before, t->type_opts.model.ptr_bits, t->exempt_serial++, why);
	t->stats.exempt_records++;
	return V_PASS;
}

enum verdict_kind tu_on_insn(struct tu *t, struct stmt *s, const char *line, size_t n,
			     struct verdict *v)
{
	struct kcfi_branch b;
	t->arch->classify(s->text.p, s->text.n, &b);
	if (!t->call.active) {
		/* A prefix alone applies to what follows: see t->prefix_line. */
		if (b.cls == INSN_PREFIX) {
			t->prefix_line = t->loc.line;
			t->prefix_sec = section_hash(&t->sec.cur);
		} else {
			prefix_used(t);
		}
		if (insn_is_indirect(b.cls) && !t->in_app)
			return unannotated(t, s, &b, line, n, v);
		return V_PASS;
	}
	/* No prefix is pending here: a directive after one is refused. */
	if (b.cls == INSN_PREFIX)
		return hold_prefix(t, s, line, n, v);
	if (t->call_prefix.len)
		return after_prefix(t, s, line, n, v);
	if (annot_lenient(t->call.kind) && !insn_is_branch(b.cls))
		return tu_on_lenient(t, s, v);
	return annotated(t, s, &b, (struct slice){ NULL, 0 }, line, n, v);
}
