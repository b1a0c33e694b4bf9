/* Call-site pairing: a pending .kcfi_call* directive meets the branch it
 * annotates, which is then checked, passed on with its exemption record, or
 * refused.  Every instruction statement of an instrumented TU comes here,
 * so an indirect branch nobody annotated is caught here too. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/exempt.h"
#include "asmpass/tu-state.h"

bool tu_lenient(const struct pending_call *c)
{
	return c->kind == KD_CALL_DIRECT || c->kind == KD_BRANCH_NOCALL;
}

/* Statements a lenient directive may pass over before its branch: GCC prints
 * some branches as the last line of a multi-instruction pattern (aarch64
 * compressed jump tables: ldrb; adr; add; br — x86 TLS GD: data16 leaq;
 * .byte 0x66; rex64; call *__tls_get_addr@GOTPCREL(%rip)).  A backend with
 * a longer one says so (arm's Thumb-2 PIC jump table). */
enum { LENIENT_MAX = 4 };

int tu_on_lenient(struct tu *t, const struct stmt *s)
{
	unsigned max = t->arch->lenient_statements ? t->arch->lenient_statements : LENIENT_MAX;
	if (++t->call.skipped <= max)
		return 0;
	return tu_fail(t, 0, "%s (line %lu): no branch within %u statements (at '%.*s')",
		    tu_dir_name(t->call.kind), t->call.line, max,
		    (int)s->text.n, s->text.p);
}

const char *tu_class_name(enum insn_class c)
{
	switch (c) {
	case INSN_CALL: return "a direct call";
	case INSN_JUMP: return "a direct jump";
	case INSN_ICALL: return "an indirect call";
	case INSN_IJUMP: return "an indirect jump";
	default: return "not a branch";
	}
}

/* Is S the only statement of LINE? A replaced branch takes its line with it. */
bool tu_alone_on_line(const struct tu *t, const char *line, size_t n, const struct stmt *s)
{
	struct slice rest = { line, n };
	struct stmt o;
	unsigned count = 0;
	while (stmt_next(&rest, t->arch->comment, &o))
		if (o.kind != STMT_EMPTY)
			count++;
	return count == 1;
}

/* An annotated branch that stays as it is: put back the prefix line we
 * held, if any, in front of it. */
static int pass_branch(struct tu *t, const char *line, size_t n)
{
	if (!t->call_prefix.len)
		return 0;
	sink_printf(t->out, "\t%.*s\n", (int)t->call_prefix.len, t->call_prefix.data);
	tu_put(t, line, n);
	tu_resync(t, t->loc.line + 1);
	return 1;
}

/* The check in front of a call writes some registers (the backend says
 * which).  Refuse it if one of them is a register the program needs there:
 * the static chain the call passes, or one the user reserved (.kcfi_reserved).
 * Emitting it would silently change what the program does. */
static int check_registers(struct tu *t, const struct pending_call *c,
			   const struct kcfi_branch *b, struct slice text)
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
		return 0;
	}
	char regs[128];
	size_t len = 0;
	regs[0] = '\0';
	for (unsigned i = 0; i < 64 && len < sizeof(regs); i++)
		if (writes >> i & 1)
			len += (size_t)snprintf(regs + len, sizeof(regs) - len, "%s%s",
						len ? ", " : "", t->arch->gpr_name(i));
	bool in_func = t->func.name.len > 0;
	return tu_fail_src(t, "the KCFI check of '%.*s' in %s%s would overwrite %s (the %s check "
		    "writes %s), %s", (int)text.n, text.p,
		    in_func ? t->func.name.data : "this unit", in_func ? "()" : "",
		    t->arch->gpr_name((unsigned)n), t->arch->name, regs, why);
}

/* Is a branch of class CLS what directive KIND may annotate? */
bool tu_kind_ok(enum kcfi_dir kind, enum insn_class cls)
{
	switch (kind) {
	case KD_CALL_DIRECT:
		return insn_is_branch(cls);
	case KD_BRANCH_NOCALL:
		return cls == INSN_IJUMP;
	default:
		return insn_is_indirect(cls);
	}
}

static int wrong_kind(struct tu *t, const struct pending_call *c, struct slice text,
		      enum insn_class cls)
{
	return tu_fail(t, 0, "%s (line %lu) must annotate %s, but '%.*s' is %s",
		    tu_dir_name(c->kind), c->line,
		    c->kind == KD_CALL_DIRECT ? "a call or jump" :
		    c->kind == KD_BRANCH_NOCALL ? "an indirect jump" : "an indirect branch",
		    (int)text.n, text.p, tu_class_name(cls));
}

/* What an annotated branch B (statement TEXT, on input LINE) becomes.
 * Returns 1 if it was replaced (emitted here), 0 if the line passes
 * unchanged, -1 on error.  SEQ: B stands for the multi-statement branch held
 * in t->seq.text, which this passes on itself when it stays (LINE unused). */
int tu_annotated(struct tu *t, const struct pending_call *c, struct slice text,
	      const struct kcfi_branch *b, const char *line, size_t n, bool seq)
{
	bool pass = false;
	switch (c->kind) {
	case KD_CALL_UNCHECKED:
		t->stats.unchecked_nosan++;
		pass = true;
		break;
	case KD_CALL_DIRECT:
		t->stats.direct++;
		pass = true;
		break;
	case KD_BRANCH_NOCALL:
		t->stats.nocall++;
		pass = true;
		break;
	default:
		break;
	}

	const struct type_entry *e = pass ? NULL : typetab_get(&t->types, c->id);
	if (e && e->unprototyped) {
		/* As Clang: a pointer to T() may hold any function returning T. */
		t->stats.unchecked_noproto++;
		pass = true;
	}
	if (pass) {
		enum kcfi_exempt_reason why =
			c->kind == KD_CALL_UNCHECKED ? KCFI_EXEMPT_NO_SANITIZE :
			c->kind == KD_CALL_DIRECT ? KCFI_EXEMPT_DIRECT :
			c->kind == KD_BRANCH_NOCALL ? KCFI_EXEMPT_JUMP_TABLE : KCFI_EXEMPT_UNPROTOTYPED;
		/* Only indirect branches are records: .kcfi_call_direct may
		 * annotate a direct one. */
		if (insn_is_indirect(b->cls))
			tu_exempt_branch(t, why);
	}
	if (pass && seq) {
		/* The held lines began this many lines before the current one. */
		unsigned long lines = 0;
		for (const char *q = t->seq.text.data, *qe = q + t->seq.text.len;
		     (q = memchr(q, '\n', (size_t)(qe - q))); q++)
			lines++;
		tu_resync(t, t->loc.line + 1 - lines);
		tu_put(t, t->seq.text.data, t->seq.text.len);
		return 1;
	}
	if (pass && insn_is_indirect(b->cls) && !t->call_prefix.len)
		tu_resync(t, t->loc.line);
	if (pass)
		return pass_branch(t, line, n);
	if (b->refuse)
		return tu_fail_src(t, "'%.*s' (annotated by .kcfi_call at line %lu) cannot be checked "
			    "by KCFI: %s", (int)text.n, text.p, c->line, b->refuse);
	if (t->arch->check_statements && c->reserve < t->arch->check_statements)
		return tu_fail(t, 0, ".kcfi_call (line %lu) reserves %u statements, the %s check "
			    "needs %u: branch ranges computed by the compiler would be wrong",
			    c->line, c->reserve, t->arch->name, t->arch->check_statements);
	/* What the call needs kept as it is, for a backend that picks its
	 * scratch register among several (i386). */
	struct kcfi_branch kept = *b;
	kept.busy = c->args | t->reserved | (c->chain >= 0 ? UINT64_C(1) << c->chain : 0);
	b = &kept;
	if (check_registers(t, c, b, text))
		return -1;

	struct emitter em = { .sink = t->out, .section = &t->sec.cur,
			      .trap_word = t->arch->trap_word, .cfi = t->cfi };
	struct kcfi_site site = { .id = e->id, .prefix_nops = t->prefix_nops,
				  .serial = t->serial++ };
	if (t->arch->emit_check(&em, b, &site, &t->arch_opts))
		return tu_fail_src(t, "%s", em.error);
	t->needs |= em.needs;
	tu_resync(t, t->loc.line + 1);
	t->stats.checks++;
	return 1;
}

/* The annotated instruction.  Returns 1 if it was replaced (emitted here),
 * 0 if the line passes unchanged, -1 on error. */
static int on_annotated(struct tu *t, struct stmt *s, const struct kcfi_branch *b,
			const char *line, size_t n)
{
	struct pending_call c = t->call;
	t->call.active = false;
	bool ok = tu_kind_ok(c.kind, b->cls);
	if (!ok && (b->cls == INSN_CALL || b->cls == INSN_JUMP) && arch_seq_begin(t->arch, b, s->text.p, s->text.n))
		return tu_begin_seq(t, &c, s, line, n);
	/* A jump table's bounds check may sit inside its pattern, before the
	 * table jump: arm Thumb-2 casesi is "cmp; bhi .Ldefault; tbb".  A
	 * direct jump that begins no sequence is no branch .kcfi_branch_nocall
	 * could mean: passed over like the cmp. */
	if (!ok && c.kind == KD_BRANCH_NOCALL && b->cls == INSN_JUMP) {
		t->call = c;
		return tu_on_lenient(t, s);
	}
	if (!ok)
		return wrong_kind(t, &c, s->text, b->cls);
	bool checked = c.kind == KD_CALL && !typetab_get(&t->types, c.id)->unprototyped;
	if (checked && !tu_alone_on_line(t, line, n, s))
		return tu_fail(t, 0, "annotated branch '%.*s' shares its line with other statements",
			    (int)s->text.n, s->text.p);
	return tu_annotated(t, &c, s->text, b, line, n, false);
}

int tu_on_insn(struct tu *t, struct stmt *s, const char *line, size_t n)
{
	if (!t->instrumented)
		return 0;
	if (t->func.active)
		return tu_entry_insn(t, s);
	struct kcfi_branch b;
	t->arch->classify(s->text.p, s->text.n, &b);
	t->prefix_line = b.cls == INSN_PREFIX && !t->call.active ? t->loc.line : 0;
	if (t->call.active && b.cls == INSN_PREFIX) {
		/* Hold it: the check goes between prefix and branch otherwise. */
		if (!tu_alone_on_line(t, line, n, s))
			return tu_fail(t, 0, "prefix '%.*s' shares its line with other statements",
				    (int)s->text.n, s->text.p);
		if (t->call_prefix.len)
			buf_append(&t->call_prefix, " ", 1);
		buf_append(&t->call_prefix, s->text.p, s->text.n);
		tu_put(t, "\n", 1);
		return 1;
	}
	if (t->call.active && t->call_prefix.len) {
		/* Classify "prefix branch" as one statement; the buffer keeps the
		 * joined text while its length still says "prefix only", which is
		 * what pass_branch() puts back if the branch stays unchanged. */
		size_t plen = t->call_prefix.len;
		buf_append(&t->call_prefix, " ", 1);
		buf_append(&t->call_prefix, s->text.p, s->text.n);
		struct stmt joined = *s;
		joined.text = (struct slice){ t->call_prefix.data, t->call_prefix.len };
		t->call_prefix.len = plen;
		t->arch->classify(joined.text.p, joined.text.n, &b);
		int r = on_annotated(t, &joined, &b, line, n);
		t->call_prefix.len = 0;
		return r;
	}
	if (t->call.active && tu_lenient(&t->call) && !insn_is_branch(b.cls))
		return tu_on_lenient(t, s);
	if (t->call.active)
		return on_annotated(t, s, &b, line, n);
	if (insn_is_indirect(b.cls) && t->in_tramp && !t->in_app) {
		t->stats.trampoline++;
		if (!tu_alone_on_line(t, line, n, s))
			return 0;	/* no label can go right before it */
		tu_exempt_branch(t, KCFI_EXEMPT_TRAMPOLINE);
		tu_resync(t, t->loc.line);
		return 0;
	}
	if (insn_is_indirect(b.cls) && !t->in_app && arch_profiler_call(t->arch, line, n)) {
		t->stats.direct++;
		tu_exempt_branch(t, KCFI_EXEMPT_DIRECT);
		tu_resync(t, t->loc.line);
		return 0;
	}
	if (insn_is_indirect(b.cls) && !t->in_app)
		return tu_fail(t, 0, "%s '%.*s' without a kcfi annotation: the compiler emitted "
			    "a branch the plugin did not see", tu_class_name(b.cls),
			    (int)s->text.n, s->text.p);
	return 0;
}
