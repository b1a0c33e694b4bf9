/* The translation-unit state machine; see tu.h and doc/directives.md.
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

#include "asmpass/arch.h"
#include "asmpass/diag.h"
#include "asmpass/directive.h"
#include "asmpass/exempt.h"
#include "asmpass/section.h"
#include "asmpass/sink.h"
#include "asmpass/stmt.h"
#include "asmpass/symver.h"
#include "asmpass/tu.h"
#include "asmpass/typetab.h"
#include "grammar/asmline.h"

struct pending_call {
	bool active;
	enum kcfi_dir kind;
	unsigned id;
	int chain;		/* gpr() of its static chain, -1: none */
	uint64_t args;		/* gpr() mask of the registers carrying arguments */
	unsigned reserve;
	unsigned long line;
	unsigned skipped;	/* statements passed over (see on_lenient) */
};

struct pending_func {
	bool active;
	struct buf name;	/* as written, NUL-terminated */
	bool typed;
	unsigned id;
	unsigned long line;
	unsigned align;
	const char *binding;
	bool stub_alias;	/* .kcfi_func ..., stub: define __kcfi_stub_NAME */
	bool prefix_seen;	/* the .LPFE label of GCC's patchable prefix */
	size_t prefix_off;	/* where it starts in the held output */
	unsigned long prefix_line;
	unsigned nops;		/* NOPs after that label */
};

struct tu {
	struct kcfi_options opts;
	struct sink *out;
	struct diag_loc loc;
	size_t file_len;		/* strlen(loc.file), for the line markers */
	bool in_app;
	/* The #APP block being read: its start label's serial and the section
	 * it began in (name, NUL, group), for its .debug_kcfi_exempt range.  Empty
	 * when the block is not recorded (see app_begin()). */
	bool app_started;		/* its first line of code was seen */
	unsigned app_serial;
	char app_section[256];
	size_t app_section_len;
	bool in_tramp;			/* in GCC's trampoline template (.LTRAMPn:) */
	bool failed;

	bool instrumented;
	const struct kcfi_arch *arch;
	struct kcfi_arch_opts arch_opts;
	struct kcfi_typeid_opts type_opts;
	unsigned prefix_nops;
	bool require_plugin;
	unsigned long require_line;

	/* Directives seen before .kcfi_version, one per line, replayed to the
	 * backend's observe() once the target is known (riscv prints its ISA
	 * with .attribute/.option before the plugin's first word). */
	struct buf early;

	struct typetab types;
	struct symver_table symvers;	/* defaults defined here (symver.c) */
	struct section_state sec;
	struct pending_call call;
	struct buf call_prefix;		/* a prefix line ("cs") seen after it */
	/* The line of a statement of prefixes alone ("rex.B", "data16") that
	 * nothing has followed yet: the assembler applies them to the next
	 * instruction, which would be a check or a preamble if a call-site
	 * directive or .kcfi_func came now.  0: none. */
	unsigned long prefix_line;
	struct pending_func func;
	/* .kcfi_reserved: general registers the program keeps, and why. */
	uint64_t reserved;
	struct {
		enum kcfi_reserve_kind kind;
		char *why;
	} reserved_by[64];
	bool code_seen;			/* a .kcfi_func or .kcfi_call came */
	/* A branch the compiler spelt as several statements (arch seq_begin()),
	 * being collected; its lines are held back until it is complete. */
	struct {
		bool active;
		struct pending_call call;	/* the directive it answers */
		struct buf text;		/* its input lines */
	} seq;
	unsigned needs;			/* emitters' needs, for tu_end() */
	bool cfi;			/* a .cfi_startproc was seen */
	bool intel_syntax;		/* .intel_syntax is in force (outside #APP) */
	unsigned serial;
	unsigned exempt_serial;		/* labels of .debug_kcfi_exempt records */
	struct buf scratch;
	struct tu_stats stats;
};

static int fail(struct tu *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct tu *t, size_t col, const char *fmt, ...)
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

static void put(struct tu *t, const char *p, size_t n)
{
	sink_write(t->out, p, n);
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

/* ---- .debug_kcfi_exempt (asmpass/exempt.h) ---------------------------------- */

/* A record's three 64-bit words.  ELF32 has no 64-bit relocation: there
 * each is a 32-bit word and a zero (little-endian, as on every target). */
#define EXEMPT_WORDS64 "\t.quad\t%.*s, .Lkcfi_exempt%u, %u\n"
#define EXEMPT_WORDS32 "\t.long\t%.*s, 0, .Lkcfi_exempt%u, 0, %u, 0\n"

static void exempt_record(struct tu *t, unsigned start, unsigned end, enum kcfi_exempt_reason r)
{
	char from[32];
	int n = snprintf(from, sizeof(from), ".Lkcfi_exempt%u", start);
	sink_printf(t->out, "\t.pushsection\t" KCFI_EXEMPT_SECTION ",\"\",%%progbits\n\t.balign\t8\n");
	sink_printf(t->out, t->arch->elf32 ? EXEMPT_WORDS32 : EXEMPT_WORDS64, n, from,
		    end, (unsigned)r);
	sink_printf(t->out, "\t.popsection\n");
}

/* A label right before the branch on the next line, and its record: the
 * branch stays unchecked on purpose, for reason R. */
static void exempt_branch(struct tu *t, enum kcfi_exempt_reason r)
{
	unsigned n = t->exempt_serial++;
	sink_printf(t->out, ".Lkcfi_exempt%u:\n", n);
	exempt_record(t, n, n, r);
	t->stats.exempt_records++;
}

/* ".size NAME, .-NAME", GCC's line at the end of every function (and of
 * its .cold part): a record that NAME..here is code kcfi-as instrumented.
 * kcfi-audit tells an unchecked branch in such code (a lost check) from
 * one in code no instrumented unit produced (hand-written assembly, units
 * built without -fsanitize=kcfi), which kcfi-as never sees to record. */
static void function_range(struct tu *t, struct slice args)
{
	const char *comma = memchr(args.p, ',', args.n);
	if (!comma)
		return;
	struct slice name = { args.p, (size_t)(comma - args.p) }, rest;
	rest.p = comma + 1;
	rest.n = args.n - name.n - 1;
	slice_trim(&name);
	slice_trim(&rest);
	if (!name.n || rest.n != name.n + 2 || memcmp(rest.p, ".-", 2) ||
	    memcmp(rest.p + 2, name.p, name.n))
		return;
	unsigned n = t->exempt_serial++;
	sink_printf(t->out, ".Lkcfi_exempt%u:\n\t.pushsection\t" KCFI_EXEMPT_SECTION ",\"\",%%progbits\n"
		    "\t.balign\t8\n", n);
	sink_printf(t->out, t->arch->elf32 ? EXEMPT_WORDS32 : EXEMPT_WORDS64, (int)name.n,
		    name.p, n, (unsigned)KCFI_RANGE_INSTRUMENTED);
	sink_printf(t->out, "\t.popsection\n");
	resync(t, t->loc.line);
}

/* The section an #APP block starts in, as one string (name NUL group). */
static size_t section_key(const struct section *s, char *buf, size_t size)
{
	size_t a = strlen(s->name), b = s->group ? strlen(s->group) : 0;
	if (a + b + 2 > size)
		return 0;
	memcpy(buf, s->name, a + 1);
	if (b)
		memcpy(buf + a + 1, s->group, b);
	buf[a + 1 + b] = '\0';
	return a + b + 2;
}

/* An inline-assembly block begins (after its #APP line, before GCC's line
 * marker for the asm statement, whose numbering stays intact): mark its
 * start.
 * Kcfi-as does not read the block, so every indirect branch in it is
 * exempt, as with Clang; the range says where such branches may be.
 * Branches the block puts into other sections (.pushsection) are outside
 * the range, and kcfi-audit reports them. */
static void app_begin(struct tu *t)
{
	t->app_section_len = 0;
	if (!t->instrumented || !t->sec.cur.name)
		return;
	t->app_section_len = section_key(&t->sec.cur, t->app_section, sizeof(t->app_section));
	if (!t->app_section_len)
		return;
	t->app_serial = t->exempt_serial++;
	sink_printf(t->out, ".Lkcfi_exempt%u:\n", t->app_serial);
	resync(t, t->loc.line + 1);
}

/* Before its #NO_APP line: the end label and the record, if the block
 * held code (the plugin's own blocks hold nothing) and ends in the section
 * it began in. */
static void app_end(struct tu *t)
{
	char key[sizeof(t->app_section)];
	if (!t->app_section_len || !t->sec.cur.name)
		return;
	size_t n = section_key(&t->sec.cur, key, sizeof(key));
	t->app_section_len = 0;
	if (!t->app_started)
		return;
	if (n == 0 || memcmp(key, t->app_section, n))
		return;
	unsigned end = t->exempt_serial++;
	sink_printf(t->out, ".Lkcfi_exempt%u:\n", end);
	exempt_record(t, t->app_serial, end, KCFI_EXEMPT_INLINE_ASM);
	t->stats.exempt_records++;
	resync(t, t->loc.line);
}

/* Strip the quotes a symbol may be written with. */
static struct slice unquoted(struct slice s)
{
	if (s.n >= 2 && s.p[0] == '"' && s.p[s.n - 1] == '"')
		return (struct slice){ s.p + 1, s.n - 2 };
	return s;
}

static bool same_symbol(struct slice a, struct slice b)
{
	a = unquoted(a);
	b = unquoted(b);
	return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

/* PREFIX + NAME as a symbol, quoted if NAME had to be; kept in t->scratch. */
static const char *prefixed_symbol(struct tu *t, const char *prefix, struct slice name)
{
	bool quoted = name.n >= 2 && name.p[0] == '"';
	struct slice bare = unquoted(name);
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

static const char *dir_name(enum kcfi_dir k)
{
	static const char *const names[] = {
		[KD_VERSION] = ".kcfi_version", [KD_TYPE] = ".kcfi_type",
		[KD_FUNC] = ".kcfi_func", [KD_EXTERN] = ".kcfi_extern",
		[KD_CALL] = ".kcfi_call", [KD_CALL_UNCHECKED] = ".kcfi_call_unchecked",
		[KD_CALL_DIRECT] = ".kcfi_call_direct",
		[KD_BRANCH_NOCALL] = ".kcfi_branch_nocall",
		[KD_REQUIRE_PLUGIN] = ".kcfi_require_plugin",
		[KD_TYPEINFO] = ".kcfi_typeinfo", [KD_RESERVED] = ".kcfi_reserved",
	};
	return names[k];
}

/* ---- .kcfi_* directives ------------------------------------------------ */

/* Beyond this, early directives are not kept: real compiler output has a
 * handful before .kcfi_version, a plain .S with inline directives may have
 * thousands and never needs them. */
enum { EARLY_MAX = 16384 };

static void record_early(struct tu *t, const struct stmt *s)
{
	if (t->early.len + s->text.n + 1 > EARLY_MAX)
		return;
	buf_append(&t->early, s->text.p, s->text.n);
	buf_append(&t->early, "\n", 1);
}

static void replay_early(struct tu *t)
{
	if (!t->arch->observe)
		return;
	const char *p = t->early.data, *end = p + t->early.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct slice line = { p, (size_t)(nl - p) };
		struct stmt s;
		if (stmt_next(&line, t->arch->comment, &s) && s.kind == STMT_DIRECTIVE)
			t->arch->observe(&t->arch_opts, s.name.p, s.name.n, s.args.p, s.args.n);
		p = nl + 1;
	}
	t->early.len = 0;
}

static int on_version(struct tu *t, const struct kcfi_directive *d)
{
	if (t->instrumented)
		return fail(t, 0, "duplicate .kcfi_version");
	char triple[128];
	size_t n = d->triple.n < sizeof(triple) - 1 ? d->triple.n : sizeof(triple) - 1;
	memcpy(triple, d->triple.p, n);
	triple[n] = '\0';
	t->arch = arch_for_triple(triple, d->ptr_bits, t->opts.x86_mode);
	if (!t->arch && t->opts.x86_mode && !strcmp(t->opts.x86_mode, "--x32"))
		return fail(t, 0, "no KCFI backend for x32 (--x32, gcc -mx32): build this file "
			    "without -fsanitize=kcfi, or for i386 (-m32) or x86_64 (-m64)");
	if (!t->arch)
		return fail(t, 0, "no KCFI backend for target \"%s\" with %u-bit pointers%s%s",
			    triple, d->ptr_bits, t->opts.x86_mode ? " under " : "",
			    t->opts.x86_mode ? t->opts.x86_mode : "");
	if (t->intel_syntax)
		return fail(t, 0, "kcfi-as reads AT&T syntax only; compile without -masm=intel");
	t->instrumented = true;
	t->prefix_nops = d->prefix;
	t->arch_opts.cs_prefix = t->opts.cs_prefix;
	t->arch_opts.march = t->opts.march;
	if (t->arch->tu_start)
		t->arch->tu_start(&t->arch_opts);
	replay_early(t);
	t->type_opts.hash = t->opts.hash;
	t->type_opts.normalize_integers = t->opts.normalize_integers;
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
		return fail(t, err.column ? d->type_col + err.column - 1 : 0, "%s", err.message);
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
		return fail(t, err.column ? d->type_col + err.column - 1 : 0, "%s", err.message);
	uint32_t v = t->arch->code_id ? t->arch->code_id(r.id) : r.id;
	sink_printf(t->out, "\t.pushsection\t.rodata\n\t.balign\t4\n%.*s:\n\t.long\t%u\n"
		    "\t.string\t\"%s\"\n\t.popsection\n",
		    (int)d->name.n, d->name.p, v, r.mangled);
	kcfi_typeid_release(&r);
	return 1;
}

static const struct type_entry *need_type(struct tu *t, const struct kcfi_directive *d)
{
	const struct type_entry *e = typetab_get(&t->types, d->id);
	if (!e)
		fail(t, 0, "%s refers to type %u, which no .kcfi_type defined", dir_name(d->kind), d->id);
	return e;
}

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
static void emit_stub_alias(struct tu *t, struct slice name, struct slice target,
			    const char *binding)
{
	char alias[512];
	snprintf(alias, sizeof(alias), "%s", prefixed_symbol(t, "__kcfi_stub_", name));
	struct emitter em = { .sink = t->out, .section = &t->sec.cur,
			      .trap_word = t->arch->trap_word };
	emit(&em, "\t%s\t%s\n\t.hidden\t%s\n\t.type\t%s, %%function\n\t.set\t%s, %.*s\n",
	     binding, alias, alias, alias, alias, (int)target.n, target.p);
	resync(t, t->loc.line);
}

/* .kcfi_extern NAME, ID, stub: __kcfi_stub_NAME, which the unit uses in
 * place of NAME (doc/extern-stubs.md): a preamble with ID and a jump to
 * NAME, hidden, weak and in a COMDAT group of its own so that a program or
 * a shared library keeps one and every pointer to NAME within it is equal. */
static int emit_extern_stub(struct tu *t, const struct kcfi_directive *d, uint32_t id)
{
	if (!t->arch->emit_stub_jump)
		return fail(t, 0, "extern stubs are not implemented for %s", t->arch->name);
	if (t->prefix_nops)
		return fail(t, 0, "extern stubs cannot be combined with patchable prefix NOPs "
			    "(-fpatchable-function-entry=N,M with M > 0)");
	char stub[512], cfi[512], sect[512];
	size_t n = unquoted(d->name).n;
	if (n > sizeof(stub) - 32)
		return fail(t, 0, "symbol name too long for an extern stub");
	snprintf(stub, sizeof(stub), "%s", prefixed_symbol(t, "__kcfi_stub_", d->name));
	snprintf(cfi, sizeof(cfi), "%s", prefixed_symbol(t, "__cfi___kcfi_stub_", d->name));
	snprintf(sect, sizeof(sect), "%s", prefixed_symbol(t, ".text.__kcfi_stub_", d->name));
	struct emitter em = { .sink = t->out, .section = &t->sec.cur,
			      .trap_word = t->arch->trap_word, .cfi = t->cfi };
	emit(&em, "\t.pushsection\t%s,\"axG\",%%progbits,%s,comdat\n\t.balign\t16\n",
	     sect, stub);
	/* __cfi_ local: one per group copy, for people and disassemblers. */
	struct kcfi_entry e = { .cfi_sym = cfi, .binding = NULL, .typed = true,
				.id = id, .align = 16 };
	t->arch->emit_entry(&em, &e);
	/* Weak: a definition of NAME in the program comes with a strong alias
	 * of this name (emit_stub_alias), which wins. */
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
	exempt_record(t, jump, jump, KCFI_EXEMPT_EXTERN_STUB);
	t->stats.exempt_records++;
	if (t->cfi)
		emit(&em, "\t.cfi_endproc\n");
	emit(&em, "\t.size\t%s, .-%s\n\t.popsection\n", stub, stub);
	t->stats.stubs++;
	return 0;
}

static int on_extern(struct tu *t, const struct kcfi_directive *d)
{
	const struct type_entry *e = need_type(t, d);
	if (!e)
		return -1;
	/* Defined here as its default version (.symver): an alias, no stub. */
	const char *local = d->stub && t->symvers.n ?
		symver_local_for(&t->symvers, d->name, e->id) : NULL;
	if (local)
		emit_stub_alias(t, d->name, (struct slice){ local, strlen(local) }, ".globl");
	else if (d->stub && emit_extern_stub(t, d, e->id))
		return -1;
	if (!clang_allows_typeid_name(d->name)) {
		t->stats.typeids_skipped++;
		return d->stub;
	}
	/* The value is what code compares against, so on x86 it is masked like
	 * every preamble and call site (SYM_TYPED_FUNC_START puts it in one). */
	uint32_t v = t->arch->code_id ? t->arch->code_id(e->id) : e->id;
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

static int on_func(struct tu *t, const struct kcfi_directive *d)
{
	if (t->func.active)
		return fail(t, 0, ".kcfi_func %s (line %lu) was not followed by its definition",
			    t->func.name.data, t->func.line);
	if (d->has_id && !need_type(t, d))
		return -1;
	struct pending_func *f = &t->func;
	f->name.len = 0;
	buf_append(&f->name, d->name.p, d->name.n);
	buf_append(&f->name, "", 1);
	f->active = true;
	f->typed = d->has_id;
	f->id = d->has_id ? typetab_get(&t->types, d->id)->id : 0;
	f->line = t->loc.line;
	f->align = 1;
	f->binding = NULL;
	f->stub_alias = d->stub;
	if (d->stub && d->has_id && t->symvers.n)
		symver_defined(&t->symvers, d->name, f->id);
	f->prefix_seen = false;
	f->nops = 0;
	t->code_seen = true;
	sink_hold(t->out);
	return 0;
}

/* .kcfi_reserved REG, KIND, "WHY": a check must not write REG.  Only
 * general registers matter (no check writes any other); the first reason
 * given for one is kept for the message. */
static int on_reserved(struct tu *t, const struct kcfi_directive *d)
{
	if (t->code_seen)
		return fail(t, 0, ".kcfi_reserved after the first .kcfi_func or .kcfi_call: "
			    "the checks before it could not take it into account");
	struct slice reg = unquoted(d->name);
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
	if (d->kind == KD_CALL && !need_type(t, d))
		return -1;
	int chain = -1;
	if (d->chain.n) {
		struct slice reg = unquoted(d->chain);
		chain = t->arch->gpr(reg.p, reg.n);
		if (chain < 0)
			return fail(t, 0, ".kcfi_call: the static chain register '%.*s' is no "
				    "general register of %s", (int)reg.n, reg.p, t->arch->name);
	}
	uint64_t args = 0;
	for (unsigned i = 0; i < d->nargs; i++) {
		struct slice reg = unquoted(d->args[i]);
		int n = t->arch->gpr(reg.p, reg.n);
		if (n < 0)
			return fail(t, 0, ".kcfi_call: the argument register '%.*s' is no "
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

static int kcfi_line(struct tu *t, const char *p, size_t n)
{
	struct kcfi_directive d;
	const char *msg;
	size_t col;
	if (kcfi_directive_parse(p, n, &d, &msg, &col))
		return fail(t, col, "%s", msg);
	if (d.kind != KD_VERSION && d.kind != KD_REQUIRE_PLUGIN && !t->instrumented)
		return fail(t, 0, "%s before .kcfi_version", dir_name(d.kind));
	if (t->call.active)
		return fail(t, 0, "%s between %s (line %lu) and the branch it annotates",
			    dir_name(d.kind), dir_name(t->call.kind), t->call.line);
	if (t->prefix_line && (d.kind == KD_FUNC || d.kind == KD_CALL || d.kind == KD_CALL_UNCHECKED ||
			       d.kind == KD_CALL_DIRECT || d.kind == KD_BRANCH_NOCALL))
		return fail(t, 0, "%s after the prefix at line %lu: the assembler would apply the "
			    "prefix to the code kcfi-as puts here, not to what the prefix was "
			    "written for; put it on the line of its instruction",
			    dir_name(d.kind), t->prefix_line);

	int rc = 0;
	switch (d.kind) {
	case KD_VERSION:
		rc = on_version(t, &d);
		if (!rc) {
			/* Name the input for the assembler's own messages. */
			resync(t, t->loc.line + 1);
			return 0;
		}
		break;
	case KD_TYPE:
		rc = on_type(t, &d);
		break;
	case KD_FUNC:
		rc = on_func(t, &d);
		break;
	case KD_EXTERN:
		rc = on_extern(t, &d);
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
		resync(t, t->loc.line + 1);
		return 0;
	}
	put(t, "\n", 1);
	return 0;
}

/* ---- function entries -------------------------------------------------- */

struct entry_ctx {
	struct tu *t;
	const struct kcfi_entry *e;
	unsigned long resume_line;
};

static void insert_entry(void *p)
{
	struct entry_ctx *c = p;
	struct emitter em = { .sink = c->t->out, .section = &c->t->sec.cur,
			      .trap_word = c->t->arch->trap_word };
	c->t->arch->emit_entry(&em, c->e);
	resync(c->t, c->resume_line);
}

/* The label of the pending function: release what was held back, with the
 * preamble at the right place. */
static int finish_entry(struct tu *t)
{
	struct pending_func *f = &t->func;
	unsigned nops = f->prefix_seen ? f->nops : 0;
	if (nops != t->prefix_nops)
		return fail(t, 0, "%s has %u patchable prefix NOPs, but callers in this "
			    "translation unit assume %u (-fpatchable-function-entry)",
			    f->name.data, nops, t->prefix_nops);
	struct slice name = { f->name.data, f->name.len - 1 };
	struct kcfi_entry e = {
		.cfi_sym = prefixed_symbol(t, "__cfi_", name),
		.binding = f->binding,
		.typed = f->typed,
		.id = f->id,
		.align = f->align,
		.prefix_nops = t->prefix_nops,
	};
	struct entry_ctx c = { t, &e, f->prefix_seen ? f->prefix_line : t->loc.line };
	size_t at = f->prefix_seen ? f->prefix_off : sink_held_len(t->out);
	sink_release(t->out, at, insert_entry, &c);
	if (f->stub_alias && f->binding)
		emit_stub_alias(t, name, name, f->binding);
	if (f->typed)
		t->stats.preambles++;
	else
		t->stats.padded++;
	f->active = false;
	return 0;
}

/* GNU as takes directive names in any letter case. */
static bool dir_is(const struct stmt *s, const char *name)
{
	return word_ieq(s->name.p, s->name.n, name);
}

/* The alignment in bytes (GNU as takes up to 2^31 in ELF). */
static unsigned parse_align(const struct tu *t, struct stmt *s)
{
	unsigned long v = strtoul(s->args.p, NULL, 0);
	if (dir_is(s, "p2align") || (dir_is(s, "align") && t->arch->align_pow2))
		return v <= 31 ? 1u << v : 1;
	return v >= 1 && v <= (1ul << 31) ? (unsigned)v : 1;
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
		return fail(t, 0, "label '%.*s' between %s (line %lu) and the branch it annotates",
			    (int)s->name.n, s->name.p, dir_name(t->call.kind), t->call.line);
	/* GCC prints the template of its nested-function trampolines (aarch64:
	 * "br x17") as text under .LTRAMPn.  It is data, copied to the stack
	 * and entered only through a call, which is checked: its branch needs
	 * no annotation.  The next label ends it. */
	t->in_tramp = is_trampoline_label(s->name);
	if (!t->func.active)
		return 0;
	struct slice fname = { t->func.name.data, t->func.name.len - 1 };
	if (same_symbol(s->name, fname))
		return finish_entry(t);
	if (!t->func.prefix_seen && slice_starts(s->name, ".LPFE")) {
		t->func.prefix_seen = true;
		t->func.prefix_off = sink_held_len(t->out);
		t->func.prefix_line = t->loc.line;
	}
	return 0;
}

static bool lenient(const struct pending_call *c)
{
	return c->kind == KD_CALL_DIRECT || c->kind == KD_BRANCH_NOCALL;
}

/* Statements a lenient directive may pass over before its branch: GCC prints
 * some branches as the last line of a multi-instruction pattern (aarch64
 * compressed jump tables: ldrb; adr; add; br — x86 TLS GD: data16 leaq;
 * .byte 0x66; rex64; call *__tls_get_addr@GOTPCREL(%rip)). */
enum { LENIENT_MAX = 4 };

static int on_lenient(struct tu *t, const struct stmt *s)
{
	if (++t->call.skipped <= LENIENT_MAX)
		return 0;
	return fail(t, 0, "%s (line %lu): no branch within %u statements (at '%.*s')",
		    dir_name(t->call.kind), t->call.line, LENIENT_MAX,
		    (int)s->text.n, s->text.p);
}

static int on_directive(struct tu *t, struct stmt *s)
{
	if (t->call.active && !is_debug_directive(s->name)) {
		/* Directives GCC prints inside a call pattern, as the backend
		 * knows them (x86 TLS GD: .byte 0x66; aarch64: .tlsdesccall).
		 * Other data could be an instruction of its own. */
		if (lenient(&t->call) && t->arch->lenient_directive &&
		    t->arch->lenient_directive(s->name.p, s->name.n, s->args.p, s->args.n))
			return on_lenient(t, s);
		return fail(t, 0, "directive '.%.*s' between %s (line %lu) and the branch it annotates",
			    (int)s->name.n, s->name.p, dir_name(t->call.kind), t->call.line);
	}
	if (t->instrumented && !t->in_app && dir_is(s, "size"))
		function_range(t, s->args);
	if (!is_debug_directive(s->name))
		t->prefix_line = 0;	/* data or alignment ends a prefix */
	if (!t->instrumented)
		record_early(t, s);
	else if (t->arch->observe)
		t->arch->observe(&t->arch_opts, s->name.p, s->name.n, s->args.p, s->args.n);
	const char *msg;
	int r = section_apply(&t->sec, s->name.p, s->name.n, s->args.p, s->args.n, &msg);
	if (r < 0)
		return fail(t, 0, "%s", msg);
	if (r > 0)
		t->in_tramp = false;
	/* GCC prints .intel_syntax (-masm=intel) before the plugin's first
	 * word; inline assembly may switch syntax for itself and back. */
	if (!t->in_app && (dir_is(s, "intel_syntax") || dir_is(s, "att_syntax"))) {
		t->intel_syntax = ascii_lower(s->name.p[0]) == 'i';
		if (t->intel_syntax && t->instrumented)
			return fail(t, 0, "kcfi-as reads AT&T syntax only; compile without -masm=intel");
	}
	if (r > 0 || !t->instrumented)
		return 0;
	if (dir_is(s, "symver"))
		symver_note(&t->symvers, s->args);
	if (!t->func.active)
		return 0;
	if (dir_is(s, "p2align") || dir_is(s, "balign") || dir_is(s, "align")) {
		unsigned a = parse_align(t, s);
		if (a > t->func.align)
			t->func.align = a;
	} else if (dir_is(s, "globl") || dir_is(s, "global") || dir_is(s, "weak")) {
		struct slice fname = { t->func.name.data, t->func.name.len - 1 };
		if (same_symbol(s->args, fname))
			t->func.binding = dir_is(s, "weak") ? ".weak" : ".globl";
	}
	return 0;
}

static const char *class_name(enum insn_class c)
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
static bool alone_on_line(const struct tu *t, const char *line, size_t n, const struct stmt *s)
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
	put(t, line, n);
	resync(t, t->loc.line + 1);
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
	char why[512];
	int n;
	if (c->chain >= 0 && (writes >> c->chain & 1)) {
		n = c->chain;
		snprintf(why, sizeof(why), "which passes this call's static chain "
			 "(__builtin_call_with_static_chain): kcfi-as cannot check such a call on %s; "
			 "make it from a no_sanitize(\"kcfi\") function or without the chain",
			 t->arch->name);
	} else if (writes & c->args) {
		n = __builtin_ctzll(writes & c->args);
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
	return fail(t, 0, "the KCFI check of '%.*s' in %s%s would overwrite %s (the %s check "
		    "writes %s), %s", (int)text.n, text.p,
		    in_func ? t->func.name.data : "this unit", in_func ? "()" : "",
		    t->arch->gpr_name((unsigned)n), t->arch->name, regs, why);
}

/* Is a branch of class CLS what directive KIND may annotate? */
static bool kind_ok(enum kcfi_dir kind, enum insn_class cls)
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
	return fail(t, 0, "%s (line %lu) must annotate %s, but '%.*s' is %s",
		    dir_name(c->kind), c->line,
		    c->kind == KD_CALL_DIRECT ? "a call or jump" :
		    c->kind == KD_BRANCH_NOCALL ? "an indirect jump" : "an indirect branch",
		    (int)text.n, text.p, class_name(cls));
}

/* What an annotated branch B (statement TEXT, on input LINE) becomes.
 * Returns 1 if it was replaced (emitted here), 0 if the line passes
 * unchanged, -1 on error.  SEQ: B stands for the multi-statement branch held
 * in t->seq.text, which this passes on itself when it stays (LINE unused). */
static int annotated(struct tu *t, const struct pending_call *c, struct slice text,
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
			exempt_branch(t, why);
	}
	if (pass && seq) {
		/* The held lines began this many lines before the current one. */
		unsigned long lines = 0;
		for (const char *q = t->seq.text.data, *qe = q + t->seq.text.len;
		     (q = memchr(q, '\n', (size_t)(qe - q))); q++)
			lines++;
		resync(t, t->loc.line + 1 - lines);
		put(t, t->seq.text.data, t->seq.text.len);
		return 1;
	}
	if (pass && insn_is_indirect(b->cls) && !t->call_prefix.len)
		resync(t, t->loc.line);
	if (pass)
		return pass_branch(t, line, n);
	if (b->refuse)
		return fail(t, 0, "'%.*s' (annotated by .kcfi_call at line %lu) cannot be checked "
			    "by KCFI: %s", (int)text.n, text.p, c->line, b->refuse);
	if (t->arch->check_statements && c->reserve < t->arch->check_statements)
		return fail(t, 0, ".kcfi_call (line %lu) reserves %u statements, the %s check "
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
		return fail(t, 0, "%s", em.error);
	t->needs |= em.needs;
	resync(t, t->loc.line + 1);
	t->stats.checks++;
	return 1;
}

/* A direct branch where a directive wants an indirect one: the first
 * statement of a branch the compiler spells as several (x86 inline
 * retpolines).  Hold its lines until seq_line() has seen all of them. */
static int begin_seq(struct tu *t, const struct pending_call *c, struct stmt *s,
		     const char *line, size_t n)
{
	if (t->call_prefix.len || !alone_on_line(t, line, n, s))
		return fail(t, 0, "'%.*s' (begun by %s at line %lu) shares its line with other "
			    "statements", (int)s->text.n, s->text.p, dir_name(c->kind), c->line);
	t->seq.active = true;
	t->seq.call = *c;
	t->seq.text.len = 0;
	buf_append(&t->seq.text, line, n);
	return 1;
}

/* One more line of the held sequence. */
static int seq_line(struct tu *t, enum asmline_kind k, const char *p, size_t n)
{
	const struct pending_call *c = &t->seq.call;
	buf_append(&t->seq.text, p, n);
	if (k == ASMLINE_BLANK || k == ASMLINE_MARKER)
		return 0;
	if (k == ASMLINE_APP || k == ASMLINE_NO_APP || k == ASMLINE_KCFI)
		return fail(t, 0, "'%.*s' inside the branch that %s (line %lu) annotates",
			    (int)(n && p[n - 1] == '\n' ? n - 1 : n), p, dir_name(c->kind), c->line);
	struct slice rest = { p, n };
	struct stmt s;
	struct kcfi_branch b;
	bool done = false;
	while (stmt_next(&rest, t->arch->comment, &s)) {
		if (s.kind == STMT_EMPTY)
			continue;
		if (done)
			return fail(t, 0, "'%.*s' shares its line with the end of the branch "
				    "that %s (line %lu) annotates", (int)s.text.n, s.text.p,
				    dir_name(c->kind), c->line);
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
			return fail(t, 0, "%s (line %lu): %s", dir_name(c->kind), c->line, err);
		}
	}
	if (!done)
		return 0;
	struct pending_call call = *c;
	t->seq.active = false;
	if (!kind_ok(call.kind, b.cls))
		return fail(t, 0, "%s (line %lu) must annotate an indirect jump, but the "
			    "sequence that follows it is %s", dir_name(call.kind), call.line,
			    class_name(b.cls));
	/* Messages name the sequence by its first statement. */
	const char *p0 = t->seq.text.data, *nl = memchr(p0, '\n', t->seq.text.len);
	struct slice first = { p0, nl ? (size_t)(nl - p0) : t->seq.text.len };
	slice_trim(&first);
	return annotated(t, &call, first, &b, NULL, 0, true) < 0 ? -1 : 0;
}

/* The annotated instruction.  Returns 1 if it was replaced (emitted here),
 * 0 if the line passes unchanged, -1 on error. */
static int on_annotated(struct tu *t, struct stmt *s, const struct kcfi_branch *b,
			const char *line, size_t n)
{
	struct pending_call c = t->call;
	t->call.active = false;
	bool ok = kind_ok(c.kind, b->cls);
	if (!ok && (b->cls == INSN_CALL || b->cls == INSN_JUMP) && t->arch->seq_begin &&
	    t->arch->seq_begin(b, s->text.p, s->text.n))
		return begin_seq(t, &c, s, line, n);
	if (!ok)
		return wrong_kind(t, &c, s->text, b->cls);
	bool checked = c.kind == KD_CALL && !typetab_get(&t->types, c.id)->unprototyped;
	if (checked && !alone_on_line(t, line, n, s))
		return fail(t, 0, "annotated branch '%.*s' shares its line with other statements",
			    (int)s->text.n, s->text.p);
	return annotated(t, &c, s->text, b, line, n, false);
}

static int on_insn(struct tu *t, struct stmt *s, const char *line, size_t n)
{
	if (!t->instrumented)
		return 0;
	if (t->func.active) {
		struct slice w = s->text;
		if (t->func.prefix_seen && slice_eq(w, "nop")) {
			t->func.nops++;
			return 0;
		}
		return fail(t, 0, "instruction '%.*s' before the label of %s (.kcfi_func at line %lu)",
			    (int)s->text.n, s->text.p, t->func.name.data, t->func.line);
	}
	struct kcfi_branch b;
	t->arch->classify(s->text.p, s->text.n, &b);
	t->prefix_line = b.cls == INSN_PREFIX && !t->call.active ? t->loc.line : 0;
	if (t->call.active && b.cls == INSN_PREFIX) {
		/* Hold it: the check goes between prefix and branch otherwise. */
		if (!alone_on_line(t, line, n, s))
			return fail(t, 0, "prefix '%.*s' shares its line with other statements",
				    (int)s->text.n, s->text.p);
		if (t->call_prefix.len)
			buf_append(&t->call_prefix, " ", 1);
		buf_append(&t->call_prefix, s->text.p, s->text.n);
		put(t, "\n", 1);
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
	if (t->call.active && lenient(&t->call) && !insn_is_branch(b.cls))
		return on_lenient(t, s);
	if (t->call.active)
		return on_annotated(t, s, &b, line, n);
	if (insn_is_indirect(b.cls) && t->in_tramp && !t->in_app) {
		t->stats.trampoline++;
		if (!alone_on_line(t, line, n, s))
			return 0;	/* no label can go right before it */
		exempt_branch(t, KCFI_EXEMPT_TRAMPOLINE);
		resync(t, t->loc.line);
		return 0;
	}
	if (insn_is_indirect(b.cls) && !t->in_app && t->arch->profiler_call &&
	    t->arch->profiler_call(line, n)) {
		t->stats.direct++;
		exempt_branch(t, KCFI_EXEMPT_DIRECT);
		resync(t, t->loc.line);
		return 0;
	}
	if (insn_is_indirect(b.cls) && !t->in_app)
		return fail(t, 0, "%s '%.*s' without a kcfi annotation: the compiler emitted "
			    "a branch the plugin did not see", class_name(b.cls),
			    (int)s->text.n, s->text.p);
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
			r = on_insn(t, &s, p, n);
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

static int tu_line(struct tu *t, enum asmline_kind k, const char *p, size_t n)
{
	t->loc.line++;
	/* GNU as ends a statement at a NUL byte and reads on after it, so
	 * "nop\0call *%rax" is a call to it and a nop to us: refuse. */
	const char *nul = t->instrumented ? memchr(p, '\0', n) : NULL;
	if (nul)
		return fail(t, (size_t)(nul - p) + 1, "NUL byte in the input: GNU as would "
			    "start a new statement there");
	if (t->seq.active)
		return seq_line(t, k, p, n) < 0 ? -1 : 0;
	int r = 0;
	if (t->in_app && !t->app_started && k != ASMLINE_BLANK && k != ASMLINE_MARKER &&
	    k != ASMLINE_NO_APP && k != ASMLINE_KCFI)
		t->app_started = true;
	switch (k) {
	case ASMLINE_APP:
		t->in_app = true;
		t->app_started = false;
		put(t, p, n);
		app_begin(t);
		return 0;
	case ASMLINE_NO_APP:
		t->in_app = false;
		app_end(t);
		break;
	case ASMLINE_DEBUG:
		if (!t->cfi && is_cfi_startproc(p, n))
			t->cfi = true;
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
		return kcfi_line(t, p, n);
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

int tu_finish(struct tu *t)
{
	if (t->call.active) {
		t->loc.line = t->call.line;
		return fail(t, 0, "%s at the end of the input: no branch follows it",
			    dir_name(t->call.kind));
	}
	if (t->func.active) {
		t->loc.line = t->func.line;
		return fail(t, 0, ".kcfi_func %s: the input ends before its definition",
			    t->func.name.data);
	}
	if (t->seq.active) {
		t->loc.line = t->seq.call.line;
		return fail(t, 0, "%s: the input ends inside the branch it annotates",
			    dir_name(t->seq.call.kind));
	}
	if (t->require_plugin && !t->instrumented) {
		t->loc.line = t->require_line;
		return fail(t, 0, "this code was generated without the kcfi plugin although "
			    "its source was compiled with -fsanitize=kcfi -flto: link "
			    "through kcfi-gcc (or give lto1 -fplugin=kcfi.so)");
	}
	if (t->instrumented && t->arch->tu_end) {
		struct emitter em = { .sink = t->out, .section = &t->sec.cur,
				      .trap_word = t->arch->trap_word, .cfi = t->cfi };
		t->arch->tu_end(&em, &t->arch_opts, t->needs);
	}
	return 0;
}
