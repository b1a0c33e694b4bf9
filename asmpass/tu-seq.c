/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Branches the compiler spells as several statements (arch seq_begin(),
 * x86 inline retpolines): tu.c holds their lines (V_HOLD) until the
 * backend has seen the whole sequence, which is then one annotated branch
 * (V_BRANCH). */
#include "config.h"

#include "asmpass/tu-state.h"

/* One more line of the sequence t->seq began. */
enum verdict_kind tu_seq_line(struct tu *t, enum asmline_kind k, const char *p, size_t n,
			      struct verdict *v)
{
	const struct pending_call *c = &t->seq.call;
	if (k == ASMLINE_BLANK || k == ASMLINE_MARKER)
		return V_HOLD;
	if (k == ASMLINE_APP || k == ASMLINE_NO_APP || k == ASMLINE_KCFI)
		return v_fail(v, 0, "'%.*s' inside the branch that %s (line %lu) annotates",
			      (int)(n && p[n - 1] == '\n' ? n - 1 : n), p, kcfi_dir_name(c->kind),
			      c->line);
	struct slice rest = { p, n };
	struct stmt s;
	struct kcfi_branch b;
	bool done = false;
	while (stmt_next(&rest, t->arch->comment, &s)) {
		if (s.kind == STMT_EMPTY)
			continue;
		if (done)
			return v_fail(v, 0, "'%.*s' shares its line with the end of the branch "
				      "that %s (line %lu) annotates", (int)s.text.n, s.text.p,
				      kcfi_dir_name(c->kind), c->line);
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
			return v_fail(v, 0, "%s (line %lu): %s", kcfi_dir_name(c->kind), c->line, err);
		}
	}
	if (!done)
		return V_HOLD;
	t->seq.active = false;
	if (!annot_kind_ok(c->kind, b.cls))
		return v_fail(v, 0, "%s (line %lu) must annotate an indirect jump, but the "
			      "sequence that follows it is %s", kcfi_dir_name(c->kind), c->line,
			      annot_class_name(b.cls));
	v->branch.call = c;
	v->branch.text = (struct slice){ t->seq.first.data, t->seq.first.len };
	v->branch.prefix = (struct slice){ NULL, 0 };
	v->branch.b = b;
	return V_BRANCH;
}
