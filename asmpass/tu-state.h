/* What one translation unit's pass holds, shared by the files that make up
 * the pass (tu*.c); not an interface beyond them, which is tu.h. */
#ifndef KCFI_ASMPASS_TU_STATE_H
#define KCFI_ASMPASS_TU_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asmpass/arch.h"
#include "asmpass/diag.h"
#include "asmpass/directive.h"
#include "common/exempt.h"
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
	unsigned skipped;	/* statements passed over (see tu_on_lenient) */
};

struct pending_func {
	bool active;
	struct buf name;	/* as written, NUL-terminated */
	bool typed;
	unsigned id;
	int arity;		/* -1: none */
	unsigned long line;
	/* Alignment directives seen while pending, with the section each was
	 * in: only those of the section the label lands in align the function
	 * (GCC aligns the __patchable_function_entries record in between). */
	struct func_align { unsigned long long section; unsigned align; } aligns[4];
	unsigned n_aligns;
	unsigned align_any;	/* the largest in any section */
	bool aligns_full;	/* more sections than slots: use align_any */
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
	/* The C source position of what is being read (tu-srcloc.c). */
	struct {
		char **files;		/* by .file number, NULL: not named */
		size_t n_files;
		unsigned long file, line, col;
		bool valid;
	} src;
	/* The #APP block being read: its start label's serial and the section
	 * it began in (name, NUL, group), for its .debug_srcinfo range.  Empty
	 * when the block is not recorded (see tu_app_begin()). */
	bool app_started;		/* its first line of code was seen */
	unsigned long app_line;		/* where it began (arch app_by_linemarkers) */
	/* On an arch with app_line(): the block has no line markers; the
	 * line before may have been ASM_APP_ON; it may have begun ASM_APP_OFF. */
	bool app_unmarked, app_on_line, app_after_state;
	unsigned app_serial;
	char app_section[256];
	size_t app_section_len;
	bool in_tramp;			/* in GCC's trampoline template (.LTRAMPn:) */
	/* Where the function being written starts, for its range record: the
	 * name of the last ".type NAME, @function", and once its label is
	 * seen, the local label .Lkcfi_fnN put right after it (fn_start_set;
	 * fn_start_pending until the label's line is out). */
	struct buf fn_type;
	bool fn_start_set, fn_start_pending;
	unsigned fn_start, fn_serial;
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
	/* Bit I: backend arch_nth(I) cannot read the syntax in force outside
	 * #APP (its syntax_directive()), as seen before .kcfi_version. */
	unsigned foreign_syntax;
	unsigned serial;
	unsigned exempt_serial;		/* labels of .debug_srcinfo records */
	struct buf scratch;
	struct tu_stats stats;
};

/* GNU as takes directive names in any letter case. */
static inline bool dir_is(const struct stmt *s, const char *name)
{
	return word_ieq(s->name.p, s->name.n, name);
}

/* tu.c */
int tu_fail(struct tu *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tu_put(struct tu *t, const char *p, size_t n);
void tu_resync(struct tu *t, unsigned long n);
struct slice tu_unquoted(struct slice s);
bool tu_same_symbol(struct slice a, struct slice b);
const char *tu_prefixed_symbol(struct tu *t, const char *prefix, struct slice name);
const char *tu_dir_name(enum kcfi_dir k);

/* tu-srcloc.c */
void tu_src_file(struct tu *t, struct slice args);
void tu_src_loc(struct tu *t, struct slice stmt);
void tu_src_forget(struct tu *t);
bool tu_src_where(const struct tu *t, struct diag_loc *at);
void tu_src_free(struct tu *t);
int tu_fail_src(struct tu *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* tu-exempt.c */
void tu_exempt_record(struct tu *t, unsigned start, unsigned end, enum kcfi_exempt_reason r);
void tu_exempt_branch(struct tu *t, enum kcfi_exempt_reason r);
void tu_function_type(struct tu *t, struct slice args);
void tu_function_start(struct tu *t);
void tu_function_start_label(struct tu *t);
void tu_function_range(struct tu *t, struct slice args);
void tu_app_begin(struct tu *t, unsigned long next_line);
void tu_app_end(struct tu *t);

/* tu-directives.c */
void tu_record_early(struct tu *t, const struct stmt *s);
const struct type_entry *tu_need_type(struct tu *t, const struct kcfi_directive *d);
int tu_kcfi_line(struct tu *t, const char *p, size_t n);

/* tu-stubs.c */
void tu_emit_stub_alias(struct tu *t, struct slice name, struct slice target,
		     const char *binding);
int tu_on_extern(struct tu *t, const struct kcfi_directive *d);

/* tu-entry.c */
int tu_on_func(struct tu *t, const struct kcfi_directive *d);
int tu_entry_label(struct tu *t, struct stmt *s);
int tu_entry_insn(struct tu *t, struct stmt *s);
void tu_entry_directive(struct tu *t, struct stmt *s);

/* tu-callsite.c */
bool tu_lenient(const struct pending_call *c);
int tu_on_lenient(struct tu *t, const struct stmt *s);
const char *tu_class_name(enum insn_class c);
bool tu_alone_on_line(const struct tu *t, const char *line, size_t n, const struct stmt *s);
bool tu_kind_ok(enum kcfi_dir kind, enum insn_class cls);
int tu_annotated(struct tu *t, const struct pending_call *c, struct slice text,
	      const struct kcfi_branch *b, const char *line, size_t n, bool seq);
int tu_on_insn(struct tu *t, struct stmt *s, const char *line, size_t n);

/* tu-seq.c */
int tu_begin_seq(struct tu *t, const struct pending_call *c, struct stmt *s,
	      const char *line, size_t n);
int tu_seq_line(struct tu *t, enum asmline_kind k, const char *p, size_t n);

#endif
