/* The translation-unit pass: the line stream and the statement dispatch;
 * see tu.h and doc/directives.md.  The other tu-*.c files each hold one
 * concern of it (tu-state.h lists them), none holds an instruction's
 * spelling: that is the backend's (asmpass/arch.h).
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

int tu_fail(struct tu *t, size_t col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct diag_loc at = t->loc;
	at.col = col;
	diag_error(&at, "%s", msg);
	t->failed = true;
	return -1;
}

/* An error about the user's code: at its C source line when the input
 * says which, with the assembly line after the message for -save-temps. */
int tu_fail_src(struct tu *t, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct diag_loc at;
	if (!tu_src_where(t, &at))
		return tu_fail(t, 0, "%s", msg);
	diag_error(&at, "%s (assembly: %s:%lu)", msg, t->loc.file, t->loc.line);
	t->failed = true;
	return -1;
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
	buf_free(&t->seq.text);
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

void tu_put(struct tu *t, const char *p, size_t n)
{
	sink_write(t->out, p, n);
}

/* The next input line is line N again, whatever we inserted. */
void tu_resync(struct tu *t, unsigned long n)
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

/* Strip the quotes a symbol may be written with. */
struct slice tu_unquoted(struct slice s)
{
	if (s.n >= 2 && s.p[0] == '"' && s.p[s.n - 1] == '"')
		return (struct slice){ s.p + 1, s.n - 2 };
	return s;
}

bool tu_same_symbol(struct slice a, struct slice b)
{
	a = tu_unquoted(a);
	b = tu_unquoted(b);
	return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

/* PREFIX + NAME as a symbol, quoted if NAME had to be; kept in t->scratch. */
const char *tu_prefixed_symbol(struct tu *t, const char *prefix, struct slice name)
{
	bool quoted = name.n >= 2 && name.p[0] == '"';
	struct slice bare = tu_unquoted(name);
	t->scratch.len = 0;
	if (quoted)
		buf_append(&t->scratch, "\"", 1);
	buf_append(&t->scratch, prefix, strlen(prefix));
	buf_append(&t->scratch, bare.p, bare.n);
	if (quoted)
		buf_append(&t->scratch, "\"", 1);
	buf_append(&t->scratch, "", 1);
	return t->scratch.data;
}

const char *tu_dir_name(enum kcfi_dir k)
{
	static const char *const names[] = {
		[KD_VERSION] = KCFI_DIR_VERSION, [KD_TYPE] = KCFI_DIR_TYPE,
		[KD_FUNC] = KCFI_DIR_FUNC, [KD_EXTERN] = KCFI_DIR_EXTERN,
		[KD_CALL] = KCFI_DIR_CALL, [KD_CALL_UNCHECKED] = KCFI_DIR_CALL_UNCHECKED,
		[KD_CALL_DIRECT] = KCFI_DIR_CALL_DIRECT,
		[KD_BRANCH_NOCALL] = KCFI_DIR_BRANCH_NOCALL,
		[KD_REQUIRE_PLUGIN] = KCFI_DIR_REQUIRE_PLUGIN,
		[KD_TYPEINFO] = KCFI_DIR_TYPEINFO, [KD_RESERVED] = KCFI_DIR_RESERVED,
		[KD_STUB_ALIAS] = KCFI_DIR_STUB_ALIAS,
	};
	return names[k];
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

static int on_label(struct tu *t, struct stmt *s)
{
	t->prefix_line = 0;	/* a label ends a prefix (it stands alone) */
	if (t->call.active)
		return tu_fail(t, 0, "label '%.*s' between %s (line %lu) and the branch it annotates",
			    (int)s->name.n, s->name.p, tu_dir_name(t->call.kind), t->call.line);
	/* GCC prints the template of its nested-function trampolines (aarch64:
	 * "br x17") as text under .LTRAMPn.  It is data, copied to the stack
	 * and entered only through a call, which is checked: its branch needs
	 * no annotation.  The next label ends it. */
	t->in_tramp = is_trampoline_label(s->name);
	int r = t->func.active ? tu_entry_label(t, s) : 0;
	if (!r && t->instrumented && !t->in_app && t->fn_type.len &&
	    t->fn_type.len == s->name.n && !memcmp(t->fn_type.data, s->name.p, s->name.n))
		tu_function_start(t);
	return r;
}

/* GCC prints a syntax switch (x86 -masm=intel) before the plugin's first
 * word, when the backend that must read what follows is not known yet:
 * every backend says what the directive means to it then. */
static int on_syntax(struct tu *t, const struct stmt *s)
{
	if (t->instrumented) {
		if (arch_syntax_directive(t->arch, s->name.p, s->name.n) > 0)
			return tu_fail(t, 0, "%s", t->arch->syntax_refusal);
		return 0;
	}
	const struct kcfi_arch *a;
	for (unsigned i = 0; i < 32 && (a = arch_nth(i)); i++) {
		int r = arch_syntax_directive(a, s->name.p, s->name.n);
		if (r > 0)
			t->foreign_syntax |= 1u << i;
		else if (r == 0)
			t->foreign_syntax &= ~(1u << i);
	}
	return 0;
}

static int on_directive(struct tu *t, struct stmt *s)
{
	if (t->call.active && !is_debug_directive(s->name) &&
	    !arch_state_directive(t->arch, s->name.p, s->name.n, s->args.p, s->args.n)) {
		/* Directives GCC prints inside a call pattern, as the backend
		 * knows them (x86 TLS GD: .byte 0x66; aarch64: .tlsdesccall).
		 * Other data could be an instruction of its own. */
		if (tu_lenient(&t->call) &&
		    arch_lenient_directive(t->arch, s->name.p, s->name.n, s->args.p, s->args.n))
			return tu_on_lenient(t, s);
		return tu_fail(t, 0, "directive '.%.*s' between %s (line %lu) and the branch it annotates",
			    (int)s->name.n, s->name.p, tu_dir_name(t->call.kind), t->call.line);
	}
	if (t->instrumented && !t->in_app && dir_is(s, "size"))
		tu_function_range(t, s->args);
	if (t->instrumented && !t->in_app && dir_is(s, "type")) {
		tu_function_type(t, s->args);
		tu_src_forget(t);
	}
	if (!t->in_app && dir_is(s, "file"))
		tu_src_file(t, s->args);
	if (!is_debug_directive(s->name))
		t->prefix_line = 0;	/* data or alignment ends a prefix */
	if (!t->instrumented)
		tu_record_early(t, s);
	else
		arch_observe(t->arch, &t->arch_opts, s->name.p, s->name.n, s->args.p, s->args.n);
	const char *msg;
	int r = section_apply(&t->sec, s->name.p, s->name.n, s->args.p, s->args.n, &msg);
	if (r < 0)
		return tu_fail(t, 0, "%s", msg);
	if (r > 0)
		t->in_tramp = false;
	/* Inline assembly may switch syntax for itself and back. */
	if (!t->in_app && on_syntax(t, s))
		return -1;
	if (r > 0 || !t->instrumented)
		return 0;
	if (dir_is(s, "symver"))
		symver_note(&t->symvers, s->args);
	if (t->func.active)
		tu_entry_directive(t, s);
	return 0;
}

static int statements(struct tu *t, const char *p, size_t n)
{
	struct slice rest = { p, n };
	struct stmt s;
	const char *comment = t->arch ? t->arch->comment : "#";
	while (stmt_next(&rest, comment, &s)) {
		int r = 0;
		switch (s.kind) {
		case STMT_EMPTY:
			continue;
		case STMT_LABEL:
			r = on_label(t, &s);
			break;
		case STMT_DIRECTIVE:
			r = on_directive(t, &s);
			break;
		case STMT_INSN:
			r = tu_on_insn(t, &s, p, n);
			break;
		}
		if (r)
			return r;
	}
	return 0;
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
	t->prefix_line = 0;
	return true;
}

/* A line marker "# 12 "file.c" 1" is a comment to us, but GNU as (every
 * target here) reads statements after its file name: "# 12 "f.c"; call
 * *%rax" calls.  Whatever follows the name is read as statements. */
static int marker_line(struct tu *t, const char *p, size_t n)
{
	const char *q = memchr(p, '"', n), *end = p + n;
	if (!q || !line_is_compound(q, (size_t)(end - q)))
		return 0;
	for (q++; q < end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < end)
			q++;
	if (q >= end)
		return 0;
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
		tu_app_begin(t, t->loc.line);
	} else if (a == KCFI_APP_SYNTAX && !after_state && !t->in_app) {
		t->app_on_line = true;
	} else if (a == KCFI_APP_SYNTAX && after_state && t->app_unmarked) {
		tu_app_end(t);
		t->in_app = false;
		t->app_unmarked = false;
	}
}

static int tu_line(struct tu *t, enum asmline_kind k, const char *p, size_t n)
{
	t->loc.line++;
	if (t->arch && t->arch->app_by_linemarkers) {
		k = app_edge(t, k, p, n);
		if (t->arch->app_line && !t->seq.active)
			app_unmarked(t, k, p, n);
	}
	if (t->fn_start_pending)
		tu_function_start_label(t);
	/* GNU as ends a statement at a NUL byte and reads on after it, so
	 * "nop\0call *%rax" is a call to it and a nop to us: refuse. */
	const char *nul = t->instrumented ? memchr(p, '\0', n) : NULL;
	if (nul)
		return tu_fail(t, (size_t)(nul - p) + 1, "NUL byte in the input: GNU as would "
			    "start a new statement there");
	if (t->seq.active)
		return tu_seq_line(t, k, p, n) < 0 ? -1 : 0;
	int r = 0;
	if (t->in_app && !t->app_started && k != ASMLINE_BLANK && k != ASMLINE_MARKER &&
	    k != ASMLINE_NO_APP && k != ASMLINE_KCFI)
		t->app_started = true;
	switch (k) {
	case ASMLINE_APP:
		t->in_app = true;
		t->app_started = false;
		t->app_line = t->loc.line;
		tu_put(t, p, n);
		tu_app_begin(t, t->loc.line + 1);
		return 0;
	case ASMLINE_NO_APP:
		t->in_app = false;
		tu_app_end(t);
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
		return tu_kcfi_line(t, p, n);
	case ASMLINE_INSN:
		if (plain_insn(t, p, n))
			break;
		r = statements(t, p, n);
		break;
	default:
		r = statements(t, p, n);
		break;
	}
	if (r < 0)
		return -1;
	if (r == 0)
		tu_put(t, p, n);
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

int tu_finish(struct tu *t)
{
	if (t->call.active) {
		t->loc.line = t->call.line;
		return tu_fail(t, 0, "%s at the end of the input: no branch follows it",
			    tu_dir_name(t->call.kind));
	}
	if (t->func.active) {
		t->loc.line = t->func.line;
		return tu_fail(t, 0, ".kcfi_func %s: the input ends before its definition",
			    t->func.name.data);
	}
	if (t->seq.active) {
		t->loc.line = t->seq.call.line;
		return tu_fail(t, 0, "%s: the input ends inside the branch it annotates",
			    tu_dir_name(t->seq.call.kind));
	}
	if (t->in_app && !t->app_unmarked && t->arch && t->arch->app_by_linemarkers) {
		/* Without its closing marker (a GCC built for an assembler
		 * that lacks "# 0"), the rest of the unit went unchecked. */
		t->loc.line = t->app_line;
		return tu_fail(t, 0, "inline assembly begins here, but no line marker "
			    "'%s 0 \"\" 2' ends it", t->arch->comment);
	}
	if (t->require_plugin && !t->instrumented) {
		t->loc.line = t->require_line;
		return tu_fail(t, 0, "this code was generated without the kcfi plugin although "
			    "its source was compiled with -fsanitize=kcfi -flto: link "
			    "through kcfi-gcc (or give lto1 -fplugin=kcfi.so)");
	}
	if (t->instrumented) {
		struct emitter em = { .sink = t->out, .section = &t->sec.cur,
				      .trap_word = t->arch->trap_word, .cfi = t->cfi };
		arch_tu_end(t->arch, &em, &t->arch_opts, t->needs);
		typetab_write_names(&t->types, t->out, t->arch);
	}
	return 0;
}
