/* Branches the compiler spells as several statements (arch seq_begin(),
 * x86 inline retpolines): their lines are held until the backend has seen
 * the whole sequence, then treated as one annotated branch. */
#include "config.h"

#include <string.h>

#include "asmpass/tu-state.h"

/* A direct branch where a directive wants an indirect one: the first
 * statement of a branch the compiler spells as several (x86 inline
 * retpolines).  Hold its lines until tu_seq_line() has seen all of them. */
int tu_begin_seq(struct tu *t, const struct pending_call *c, struct stmt *s,
	      const char *line, size_t n)
{
	if (t->call_prefix.len || !tu_alone_on_line(t, line, n, s))
		return tu_fail(t, 0, "'%.*s' (begun by %s at line %lu) shares its line with other "
			    "statements", (int)s->text.n, s->text.p, tu_dir_name(c->kind), c->line);
	t->seq.active = true;
	t->seq.call = *c;
	t->seq.text.len = 0;
	buf_append(&t->seq.text, line, n);
	return 1;
}

/* One more line of the held sequence. */
int tu_seq_line(struct tu *t, enum asmline_kind k, const char *p, size_t n)
{
	const struct pending_call *c = &t->seq.call;
	buf_append(&t->seq.text, p, n);
	if (k == ASMLINE_BLANK || k == ASMLINE_MARKER)
		return 0;
	if (k == ASMLINE_APP || k == ASMLINE_NO_APP || k == ASMLINE_KCFI)
		return tu_fail(t, 0, "'%.*s' inside the branch that %s (line %lu) annotates",
			    (int)(n && p[n - 1] == '\n' ? n - 1 : n), p, tu_dir_name(c->kind), c->line);
	struct slice rest = { p, n };
	struct stmt s;
	struct kcfi_branch b;
	bool done = false;
	while (stmt_next(&rest, t->arch->comment, &s)) {
		if (s.kind == STMT_EMPTY)
			continue;
		if (done)
			return tu_fail(t, 0, "'%.*s' shares its line with the end of the branch "
				    "that %s (line %lu) annotates", (int)s.text.n, s.text.p,
				    tu_dir_name(c->kind), c->line);
		enum seq_stmt kind = s.kind == STMT_LABEL ? SEQ_LABEL :
				     s.kind == STMT_DIRECTIVE ? SEQ_DIRECTIVE : SEQ_INSN;
		struct slice x = kind == SEQ_LABEL ? s.name : s.text;
		char err[200] = "";
		switch (t->arch->seq_step(kind, x.p, x.n, &b, err, sizeof(err))) {
		case SEQ_MORE:
			break;
		case SEQ_DONE:
			done = true;
			break;
		case SEQ_BAD:
			return tu_fail(t, 0, "%s (line %lu): %s", tu_dir_name(c->kind), c->line, err);
		}
	}
	if (!done)
		return 0;
	struct pending_call call = *c;
	t->seq.active = false;
	if (!tu_kind_ok(call.kind, b.cls))
		return tu_fail(t, 0, "%s (line %lu) must annotate an indirect jump, but the "
			    "sequence that follows it is %s", tu_dir_name(call.kind), call.line,
			    tu_class_name(b.cls));
	/* Messages name the sequence by its first statement. */
	const char *p0 = t->seq.text.data, *nl = memchr(p0, '\n', t->seq.text.len);
	struct slice first = { p0, nl ? (size_t)(nl - p0) : t->seq.text.len };
	slice_trim(&first);
	return tu_annotated(t, &call, first, &b, NULL, 0, true) < 0 ? -1 : 0;
}
