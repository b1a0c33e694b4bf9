/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The translation-unit pass: the line stream and the statement dispatch;
 * see tu.h and doc/directives.md.  The other tu-*.c files each hold one
 * concern of it (tu-state.h lists them), none holds an instruction's
 * spelling: that is the backend's (asmpass/arch.h).  They return verdicts
 * (verdict.h); this file carries them out, the one place that writes
 * output, keeps the assembler's line numbers and reports errors.
 *
 * Every input line is copied to the sink unchanged, except:
 *  - .kcfi_* directive lines, consumed (replaced by an empty line so the
 *    assembler's line numbers stay those of the input);
 *  - an annotated indirect branch, replaced by the backend's check sequence;
 *  - between .kcfi_func and the function's label, output is held back so the
 *    preamble can be placed after the alignment and before the prefix NOPs.
 * After any text that adds lines, a "# N "file"" marker resynchronises the
 * assembler's idea of the line number with the input's.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/tu-state.h"
#include "common/kcfi-targets.h"

/* ---- output and line numbers ------------------------------------------ */

static void put(struct tu *t, const char *p, size_t n)
{
	sink_write(t->out, p, n);
}

static void put_buf(struct tu *t, const struct buf *b)
{
	sink_write(t->out, b->data, b->len);
}

/* The next input line is line N again, whatever we inserted. */
static void resync(struct tu *t, unsigned long n)
{
	if (t->opts.no_line_markers)
		return;
	char num[DECIMAL_MAX];
	const struct slice line[] = {
		SLICE_LIT("# "), put_decimal(num, n), SLICE_LIT(" \""),
		{ t->loc.file, t->file_len }, SLICE_LIT("\"\n"),
	};
	sink_join(t->out, line, sizeof(line) / sizeof(line[0]));
}

/* The verdict a handler is about to fill in. */
static struct verdict *fresh(struct tu *t)
{
	verdict_reset(&t->v);
	return &t->v;
}

/* V_FAIL: the message at the current line, or at the C source position
 * the input names (with the assembly line, for -save-temps). */
static int report(struct tu *t, const struct verdict *v)
{
	struct diag_loc at;
	if (v->at_source && tu_src_where(t, &at)) {
		diag_error(&at, "%s (assembly: %s:%lu)", v->msg, t->loc.file, t->loc.line);
	} else {
		at = t->loc;
		at.col = v->col;
		diag_error(&at, "%s", v->msg);
	}
	t->failed = true;
	return -1;
}

/* Lines a handler put in front of input line N. */
static void insert(struct tu *t, const struct verdict *v, unsigned long n)
{
	if (!v->before.len)
		return;
	put_buf(t, &v->before);
	resync(t, n);
}

static void place_preamble(void *p)
{
	struct tu *t = p;
	put_buf(t, &t->v.preamble);
	resync(t, t->mark_set ? t->mark_line : t->loc.line);
}

/* From .kcfi_func to the function's label the output is held, so that the
 * preamble can go after the function's alignment and before GCC's
 * patchable prefix, which begins at the mark if there is one. */
static void entry_step(struct tu *t, const struct verdict *v)
{
	switch (v->entry) {
	case ENTRY_NONE:
		break;
	case ENTRY_HOLD:
		sink_hold(t->out);
		t->mark_set = false;
		break;
	case ENTRY_MARK:
		t->mark_set = true;
		t->mark_off = sink_held_len(t->out);
		t->mark_line = t->loc.line;
		break;
	case ENTRY_PLACE:
		sink_release(t->out, t->mark_set ? t->mark_off : sink_held_len(t->out),
			     place_preamble, t);
		break;
	}
}

/* Carry out verdict K on the current input line LINE (N bytes: for a line
 * marker, what follows its file name).  Returns V_PASS if the line is still
 * to be written as it is, else what became of it. */
static enum verdict_kind carry_out(struct tu *t, enum verdict_kind k, const char *line, size_t n)
{
	struct verdict *v = &t->v;
	if (k == V_BRANCH)
		k = tu_annotated(t, v);
	if (k == V_FAIL) {
		report(t, v);
		return V_FAIL;
	}
	if (v->diag.len) {
		fwrite(v->diag.data, 1, v->diag.len, stderr);
		t->diag_errors += v->diag_fails;
	}
	entry_step(t, v);
	insert(t, v, t->loc.line);
	switch (k) {
	case V_PASS:
	case V_BRANCH:
	case V_FAIL:
		break;
	case V_BLANK:
		put(t, "\n", 1);
		break;
	case V_REPLACE:
		put_buf(t, &v->text);
		resync(t, t->loc.line + 1);
		break;
	case V_HOLD:
		t->held.len = 0;
		t->held_line = t->loc.line;
		buf_append(&t->held, line, n);
		break;
	}
	return k;
}

/* A line of a held sequence (tu-seq.c).  Once complete, the held lines are
 * one branch: they go out as they were, after what tu_annotated() put in
 * front of them, or its check replaces them all. */
static int seq_line(struct tu *t, enum asmline_kind k, const char *p, size_t n)
{
	struct verdict *v = fresh(t);
	enum verdict_kind r = tu_seq_line(t, k, p, n, v);
	if (r != V_FAIL)
		buf_append(&t->held, p, n);
	if (r == V_BRANCH)
		r = tu_annotated(t, v);
	switch (r) {
	case V_FAIL:
		return report(t, v);
	case V_PASS:
		insert(t, v, t->held_line);
		put_buf(t, &t->held);
		break;
	case V_REPLACE:
		put_buf(t, &v->text);
		resync(t, t->loc.line + 1);
		break;
	default:
		break;
	}
	return 0;
}

struct tu *tu_new(const struct kcfi_options *opts, struct sink *out)
{
	struct tu *t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	t->opts = *opts;
	t->out = out;
	section_state_init(&t->sec);
	return t;
}

void tu_free(struct tu *t)
{
	if (!t)
		return;
	typetab_free(&t->types);
	symver_free(&t->symvers);
	section_state_free(&t->sec);
	buf_free(&t->func.name);
	buf_free(&t->scratch);
	buf_free(&t->call_prefix);
	buf_free(&t->early);
	buf_free(&t->fn_type);
	tu_src_free(t);
	for (size_t i = 0; i < sizeof(t->reserved_by) / sizeof(t->reserved_by[0]); i++)
		free(t->reserved_by[i].why);
	buf_free(&t->seq.first);
	buf_free(&t->held);
	verdict_free(&t->v);
	free(t);
}

bool tu_instrumented(const struct tu *t)
{
	return t->instrumented;
}

const struct tu_stats *tu_stats(struct tu *t)
{
	struct kcfi_typeids_stats st;
	kcfi_typeids_stats(t->types.typeids, &st);
	t->stats.types_assembled = st.assembled;
	t->stats.params_reused = st.params_reused;
	return &t->stats;
}

/* ---- statements -------------------------------------------------------- */

static bool is_debug_directive(struct slice name)
{
	return slice_eq(name, "loc") || slice_eq(name, "loc_mark_labels") ||
	       slice_starts(name, "cfi_");
}

/* ".LTRAMP" and a number: the label GCC gives a trampoline template. */
static bool is_trampoline_label(struct slice name)
{
	if (!slice_starts(name, ".LTRAMP") || name.n == 7)
		return false;
	for (size_t i = 7; i < name.n; i++)
		if (name.p[i] < '0' || name.p[i] > '9')
			return false;
	return true;
}

/* Does S put bytes into the current section, whatever its operands?  Not
 * .ascii, .skip, .zero, .fill or alignment, which may put none.  The list
 * need not be complete: a directive missing from it only keeps a pending
 * prefix (t->prefix_line) pending, which can refuse a .kcfi_ line, never
 * let one through. */
static bool emits_data(const struct stmt *s)
{
	static const char *const data[] = {
		"byte", "2byte", "4byte", "8byte", "short", "hword", "word", "value", "int",
		"long", "quad", "octa", "asciz", "string", "insn", "inst",
	};
	if (!s->args.n)
		return false;
	for (size_t i = 0; i < sizeof(data) / sizeof(data[0]); i++)
		if (dir_is(s, data[i]))
			return true;
	return false;
}

static enum verdict_kind on_label(struct tu *t, struct stmt *s, struct verdict *v)
{
	if (t->call.active)
		return v_fail(v, 0, "label '%.*s' between %s (line %lu) and the branch it annotates",
			      (int)s->name.n, s->name.p, kcfi_dir_name(t->call.kind), t->call.line);
	/* GCC prints the template of its nested-function trampolines (aarch64:
	 * "br x17") as text under .LTRAMPn.  It is data, copied to the stack
	 * and entered only through a call, which is checked: its branch needs
	 * no annotation.  The next label ends it. */
	t->in_tramp = is_trampoline_label(s->name);
	enum verdict_kind k = t->func.active ? tu_entry_label(t, s, v) : V_PASS;
	if (k == V_PASS && t->instrumented && !t->in_app && t->fn_type.len &&
	    t->fn_type.len == s->name.n && !memcmp(t->fn_type.data, s->name.p, s->name.n))
		tu_function_start(t);
	return k;
}

/* GCC prints a syntax switch (x86 -masm=intel) before the plugin's first
 * word, when the backend that must read what follows is not known yet:
 * every backend says what the directive means to it then. */
static enum verdict_kind on_syntax(struct tu *t, const struct stmt *s, struct verdict *v)
{
	if (t->instrumented) {
		if (arch_syntax_directive(t->arch, s->name.p, s->name.n) > 0)
			return v_fail(v, 0, "%s", t->arch->syntax_refusal);
		return V_PASS;
	}
	const struct kcfi_arch *a;
	for (unsigned i = 0; i < 32 && (a = arch_nth(i)); i++) {
		int r = arch_syntax_directive(a, s->name.p, s->name.n);
		if (r > 0)
			t->foreign_syntax |= 1u << i;
		else if (r == 0)
			t->foreign_syntax &= ~(1u << i);
	}
	return V_PASS;
}

static enum verdict_kind on_directive(struct tu *t, struct stmt *s, struct verdict *v)
{
	if (t->call.active && !is_debug_directive(s->name) &&
	    !arch_state_directive(t->arch, s->name.p, s->name.n, s->args.p, s->args.n)) {
		/* Directives GCC prints inside a call pattern, as the backend
		 * knows them (x86 TLS GD: .byte 0x66; aarch64: .tlsdesccall).
		 * Other data could be an instruction of its own. */
		if (annot_lenient(t->call.kind) &&
		    arch_lenient_directive(t->arch, s->name.p, s->name.n, s->args.p, s->args.n))
			return tu_on_lenient(t, s, v);
		return v_fail(v, 0, "directive '.%.*s' between %s (line %lu) and the branch it "
			      "annotates", (int)s->name.n, s->name.p, kcfi_dir_name(t->call.kind),
			      t->call.line);
	}
	if (t->instrumented && !t->in_app && dir_is(s, "size"))
		tu_function_range(t, s->args, v);
	if (t->instrumented && !t->in_app && dir_is(s, "type")) {
		tu_function_type(t, s->args);
		tu_src_forget(t);
	}
	if (!t->in_app && dir_is(s, "file"))
		tu_src_file(t, s->args);
	if (t->prefix_line && emits_data(s))	/* rare: not on every directive */
		prefix_used(t);
	if (!t->instrumented)
		tu_record_early(t, s);
	else
		arch_observe(t->arch, &t->arch_opts, s->name.p, s->name.n, s->args.p, s->args.n);
	const char *msg;
	int r = section_apply(&t->sec, s->name.p, s->name.n, s->args.p, s->args.n, &msg);
	if (r < 0)
		return v_fail(v, 0, "%s", msg);
	if (r > 0)
		t->in_tramp = false;
	/* Inline assembly may switch syntax for itself and back. */
	if (!t->in_app && on_syntax(t, s, v) == V_FAIL)
		return V_FAIL;
	if (r > 0 || !t->instrumented)
		return V_PASS;
	if (dir_is(s, "symver"))
		symver_note(&t->symvers, s->args);
	if (t->func.active)
		tu_entry_directive(t, s);
	return V_PASS;
}

static enum verdict_kind on_insn(struct tu *t, struct stmt *s, const char *line, size_t n,
				 struct verdict *v)
{
	if (!t->instrumented)
		return V_PASS;
	if (t->func.active)
		return tu_entry_insn(t, s, v);
	return tu_on_insn(t, s, line, n, v);
}

/* The statements of P..N, each carried out as its handler decides.  Returns
 * V_PASS if the line is still to be written as it is. */
static enum verdict_kind statements(struct tu *t, const char *p, size_t n)
{
	struct slice rest = { p, n };
	struct stmt s;
	const char *comment = t->arch ? t->arch->comment : "#";
	while (stmt_next(&rest, comment, &s)) {
		struct verdict *v;
		enum verdict_kind k;
		switch (s.kind) {
		case STMT_EMPTY:
			continue;
		case STMT_LABEL:
			k = on_label(t, &s, v = fresh(t));
			break;
		case STMT_DIRECTIVE:
			k = on_directive(t, &s, v = fresh(t));
			break;
		default:
			k = on_insn(t, &s, p, n, v = fresh(t));
			break;
		}
		k = carry_out(t, k, p, n);
		if (k != V_PASS)
			return k;
	}
	return V_PASS;
}

/* The hot path: most lines are single instructions that no directive waits
 * for and that cannot branch.  Those need no statement splitting: the backend
 * classifies the line as it stands, and anything else takes the full path.
 * So does a line with a comment: "blr x1 // why" is a branch that a
 * backend's reading of whole statements would not see as one. */
static bool plain_insn(struct tu *t, const char *p, size_t n)
{
	if (!t->instrumented || t->call.active || t->func.active || line_is_compound(p, n) ||
	    memchr(p, t->arch->comment[0], n))
		return false;
	struct slice s = { p, n };
	struct kcfi_branch b;
	slice_trim(&s);
	if (t->arch->classify(s.p, s.n, &b) != INSN_OTHER)
		return false;
	prefix_used(t);
	return true;
}

/* A line marker "# 12 "file.c" 1" is a comment to us, but GNU as (every
 * target here) reads statements after its file name: "# 12 "f.c"; call
 * *%rax" calls.  Whatever follows the name is read as statements. */
static enum verdict_kind marker_line(struct tu *t, const char *p, size_t n)
{
	const char *q = memchr(p, '"', n), *end = p + n;
	if (!q || !line_is_compound(q, (size_t)(end - q)))
		return V_PASS;
	for (q++; q < end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < end)
			q++;
	if (q >= end)
		return V_PASS;
	q++;
	return statements(t, q, (size_t)(end - q));
}

static bool is_cfi_startproc(const char *p, size_t n)
{
	struct slice s = { p, n };
	slice_trim(&s);
	return slice_starts(s, ".cfi_startproc");
}

/* Is P..N final.cc's line marker before an asm statement ("C N "FILE" 1",
 * N > 0, FILE not empty) or after it ("C 0 "" 2"), C being COMMENT?  GCC
 * prints them at the start of a line, with the file name as it is: so the
 * opening one ends in '" 1', whatever quotes the name holds. */
static enum asmline_kind linemarker_edge(const char *comment, const char *p, size_t n)
{
	size_t c = strlen(comment);
	if (n && p[n - 1] == '\n')
		n--;
	if (n < c + 7 || memcmp(p, comment, c) || p[c] != ' ')
		return ASMLINE_EOF;
	p += c + 1;
	n -= c + 1;
	if (n == 6 && !memcmp(p, "0 \"\" 2", 6))
		return ASMLINE_NO_APP;
	size_t d = 0;
	while (d < n && p[d] >= '0' && p[d] <= '9')
		d++;
	if (!d || p[0] == '0' || n < d + 6 || memcmp(p + d, " \"", 2) ||
	    memcmp(p + n - 3, "\" 1", 3))
		return ASMLINE_EOF;
	return ASMLINE_APP;
}

/* K as the core reads it: on a backend whose inline assembly is known by
 * line markers (arch.h app_by_linemarkers), "#APP" is only a comment and
 * the markers are the edges.  GCC never nests asm statements, so an edge
 * that would nest or close what it did not open is a comment in the asm
 * text itself. */
static enum asmline_kind app_edge(const struct tu *t, enum asmline_kind k, const char *p, size_t n)
{
	if (k == ASMLINE_APP || k == ASMLINE_NO_APP)
		return ASMLINE_BLANK;
	if (k != ASMLINE_OTHER && k != ASMLINE_BLANK && k != ASMLINE_MARKER)
		return k;
	enum asmline_kind e = linemarker_edge(t->arch->comment, p, n);
	if ((e == ASMLINE_APP && !t->in_app) ||
	    (e == ASMLINE_NO_APP && t->in_app && !t->app_unmarked))
		return e;
	return k;
}

/* Asm text without line markers around it, on such a backend (arch.h
 * app_line()): the line after a possible ASM_APP_ON says whether it was
 * one.  GCC starts asm text with a tab of its own unless the text has one,
 * so a line that does not is no asm; nor is the start of ASM_APP_OFF or of
 * a declaration, an asm statement's line marker, or the plugin's directive
 * (an asm statement without a location, in a function).  The block is
 * marked before that line, as the ASM_APP_ON line emits nothing; it ends
 * before the line that completes ASM_APP_OFF, as the one before it emits
 * nothing either.  Called with K from app_edge(). */
static void app_unmarked(struct tu *t, enum asmline_kind k, const char *p, size_t n)
{
	enum kcfi_app_line a = k == ASMLINE_DIRECTIVE ? arch_app_line(t->arch, p, n)
						     : KCFI_APP_OTHER;
	bool after_state = t->app_after_state;
	t->app_after_state = a == KCFI_APP_STATE;
	if (t->app_on_line) {
		t->app_on_line = false;
		if (t->in_app || !n || p[0] != '\t' || a == KCFI_APP_STATE || k == ASMLINE_APP ||
		    k == ASMLINE_KCFI)
			return;
		t->in_app = true;
		t->app_unmarked = true;
		t->app_started = false;
		t->app_line = t->loc.line;
		tu_app_begin(t, fresh(t));
		insert(t, &t->v, t->loc.line);
	} else if (a == KCFI_APP_SYNTAX && !after_state && !t->in_app) {
		t->app_on_line = true;
	} else if (a == KCFI_APP_SYNTAX && after_state && t->app_unmarked) {
		tu_app_end(t, fresh(t));
		insert(t, &t->v, t->loc.line);
		t->in_app = false;
		t->app_unmarked = false;
	}
}

/* A .kcfi_* directive line. */
static enum verdict_kind kcfi_directive(struct tu *t, const char *p, size_t n, struct verdict *v)
{
	struct kcfi_directive d;
	const char *msg;
	size_t col;
	if (kcfi_directive_parse(p, n, &d, &msg, &col))
		return v_fail(v, col, "%s", msg);
	if (tu_directive_allowed(t, &d, v) == V_FAIL)
		return V_FAIL;
	switch (d.kind) {
	case KD_VERSION:
		return tu_on_version(t, &d, v);
	case KD_TYPE:
		return tu_on_type(t, &d, v);
	case KD_FUNC:
		return tu_on_func(t, &d, v);
	case KD_EXTERN:
		return tu_on_extern(t, &d, v);
	case KD_CALL:
	case KD_CALL_UNCHECKED:
	case KD_CALL_DIRECT:
	case KD_BRANCH_NOCALL:
		return tu_on_call(t, &d, v);
	case KD_TYPEINFO:
		return tu_on_typeinfo(t, &d, v);
	case KD_RESERVED:
		return tu_on_reserved(t, &d, v);
	case KD_STUB_ALIAS:
		return tu_on_stub_alias(t, &d, v);
	case KD_REQUIRE_PLUGIN:
		return tu_on_require_plugin(t);
	case KD_CONVERSION:
		return tu_on_conversion(t, &d, v);
	}
	return V_BLANK;
}

static int tu_line(struct tu *t, enum asmline_kind k, const char *p, size_t n)
{
	t->loc.line++;
	if (t->arch && t->arch->app_by_linemarkers) {
		k = app_edge(t, k, p, n);
		if (t->arch->app_line && !t->seq.active)
			app_unmarked(t, k, p, n);
	}
	if (t->fn_start_pending) {
		tu_function_start_label(t, fresh(t));
		insert(t, &t->v, t->loc.line);
	}
	/* GNU as ends a statement at a NUL byte and reads on after it, so
	 * "nop\0call *%rax" is a call to it and a nop to us: refuse. */
	const char *nul = t->instrumented ? memchr(p, '\0', n) : NULL;
	if (nul) {
		v_fail(fresh(t), (size_t)(nul - p) + 1, "NUL byte in the input: GNU as would "
		       "start a new statement there");
		return report(t, &t->v);
	}
	if (t->seq.active)
		return seq_line(t, k, p, n);
	enum verdict_kind r = V_PASS;
	if (t->in_app && !t->app_started && k != ASMLINE_BLANK && k != ASMLINE_MARKER &&
	    k != ASMLINE_NO_APP && k != ASMLINE_KCFI)
		t->app_started = true;
	switch (k) {
	case ASMLINE_APP:
		t->in_app = true;
		t->app_started = false;
		t->app_line = t->loc.line;
		put(t, p, n);
		/* The block's start label goes after the #APP line. */
		tu_app_begin(t, fresh(t));
		insert(t, &t->v, t->loc.line + 1);
		return 0;
	case ASMLINE_NO_APP:
		t->in_app = false;
		tu_app_end(t, fresh(t));
		insert(t, &t->v, t->loc.line);
		break;
	case ASMLINE_DEBUG:
		if (!t->cfi && is_cfi_startproc(p, n))
			t->cfi = true;
		tu_src_loc(t, (struct slice){ p, n });
		/* ".loc 1 2 3; call *%rax": the assembler reads on after ';'. */
		if (line_is_compound(p, n))
			r = statements(t, p, n);
		break;
	case ASMLINE_MARKER:
		r = marker_line(t, p, n);
		break;
	case ASMLINE_BLANK:
		break;
	case ASMLINE_KCFI:
		r = carry_out(t, kcfi_directive(t, p, n, fresh(t)), p, n);
		return r == V_FAIL ? -1 : 0;
	case ASMLINE_INSN:
		if (plain_insn(t, p, n))
			break;
		r = statements(t, p, n);
		break;
	default:
		r = statements(t, p, n);
		break;
	}
	if (r == V_FAIL)
		return -1;
	if (r == V_PASS)
		put(t, p, n);
	return 0;
}

static int feed(struct tu *t, struct asmline_scanner *sc, const char *name)
{
	t->loc.file = name;
	t->file_len = strlen(name);
	t->loc.line = 0;
	const char *p;
	size_t n;
	enum asmline_kind k;
	int rc = 0;
	while ((k = asmline_next(sc, &p, &n)) != ASMLINE_EOF) {
		if (tu_line(t, k, p, n)) {
			rc = -1;
			break;
		}
	}
	if (!rc && asmline_read_error(sc)) {
		diag_error(NULL, "%s: read error", name);
		rc = -1;
	}
	asmline_close(sc);
	return rc;
}

int tu_feed(struct tu *t, int fd, const char *name)
{
	return feed(t, asmline_open(fd), name);
}

int tu_feed_mem(struct tu *t, const char *p, size_t n, const char *name)
{
	return feed(t, asmline_open_mem(p, n), name);
}

/* A refusal at the end of the input, at input line LINE. */
static int fail_at_end(struct tu *t, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at_end(struct tu *t, unsigned long line, const char *fmt, ...)
{
	struct verdict *v = fresh(t);
	va_list ap;
	va_start(ap, fmt);
	v_vfail(v, 0, false, fmt, ap);
	va_end(ap);
	t->loc.line = line;
	return report(t, v);
}

int tu_finish(struct tu *t)
{
	if (t->call.active)
		return fail_at_end(t, t->call.line, "%s at the end of the input: no branch follows it",
				   kcfi_dir_name(t->call.kind));
	if (t->func.active)
		return fail_at_end(t, t->func.line, ".kcfi_func %s: the input ends before its "
				   "definition", t->func.name.data);
	if (t->seq.active)
		return fail_at_end(t, t->seq.call.line, "%s: the input ends inside the branch it "
				   "annotates", kcfi_dir_name(t->seq.call.kind));
	if (t->in_app && !t->app_unmarked && t->arch && t->arch->app_by_linemarkers)
		/* Without its closing marker (a GCC built for an assembler
		 * that lacks "# 0"), the rest of the unit went unchecked. */
		return fail_at_end(t, t->app_line, "inline assembly begins here, but no line "
				   "marker '%s 0 \"\" 2' ends it", t->arch->comment);
	if (t->require_plugin && !t->instrumented)
		return fail_at_end(t, t->require_line, "this code was generated without the kcfi "
				   "plugin although its source was compiled with -fsanitize=kcfi "
				   "-flto: link through kcfi-gcc (or give lto1 -fplugin=kcfi.so)");
	if (t->diag_errors)
		return -1;	/* reported, each at its line */
	if (t->instrumented) {
		struct verdict *v = fresh(t);
		struct emitter em = { .out = &v->text, .section = &t->sec.cur,
				      .trap_word = t->arch->trap_word, .cfi = t->cfi };
		arch_tu_end(t->arch, &em, &t->arch_opts, t->needs);
		put_buf(t, &v->text);
		typetab_write_names(&t->types, t->out, t->arch);
	}
	return 0;
}
