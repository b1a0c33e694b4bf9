/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What one translation unit's pass holds, shared by the files that make up
 * the pass (tu*.c); not an interface beyond them, which is tu.h.
 *
 * The files form a star: tu.c reads the lines, dispatches each statement to
 * the handler of its concern and carries out the handler's verdict
 * (verdict.h).  Only tu.c writes output, renumbers lines and reports
 * errors; the handlers call no other tu*.c file. */
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
#include "asmpass/annot.h"
#include "asmpass/records.h"
#include "asmpass/symbol.h"
#include "asmpass/verdict.h"
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
	unsigned nops;		/* NOPs after that label */
};

struct tu {
	struct kcfi_options opts;
	/* Output and line numbers: tu.c's alone. */
	struct sink *out;
	struct diag_loc loc;
	size_t file_len;		/* strlen(loc.file), for the line markers */
	struct verdict v;		/* the handler's verdict being carried out */
	struct buf held;		/* the lines of a V_HOLD, from input line held_line */
	unsigned long held_line;
	/* Where the pending function's preamble goes in the held output
	 * (ENTRY_MARK), and the number of the line there. */
	bool mark_set;
	size_t mark_off;
	unsigned long mark_line;

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
	unsigned diag_errors;		/* -Werror=kcfi-cast's, reported */

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
	 * directive or .kcfi_func came now.  0: none.  GNU as writes the
	 * prefix bytes into their section at once, so only bytes put after
	 * them in that section (prefix_sec) end it: labels, alignment that may
	 * pad nothing, and code in other sections do not. */
	unsigned long prefix_line;
	unsigned long long prefix_sec;
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
		struct buf first;		/* its first line, which messages show */
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

/* Bytes were just written into the current section: a prefix pending in
 * it (t->prefix_line) applied to them. */
static inline void prefix_used(struct tu *t)
{
	if (t->prefix_line && section_hash(&t->sec.cur) == t->prefix_sec)
		t->prefix_line = 0;
}

/* GNU as takes directive names in any letter case. */
static inline bool dir_is(const struct stmt *s, const char *name)
{
	return word_ieq(s->name.p, s->name.n, name);
}

/* The handlers, each file one concern.  A handler that can change what
 * becomes of the line returns its verdict and fills in t->v's details. */

/* tu-srcloc.c: where in the C source the line being read comes from. */
void tu_src_file(struct tu *t, struct slice args);
void tu_src_loc(struct tu *t, struct slice stmt);
void tu_src_forget(struct tu *t);
bool tu_src_where(const struct tu *t, struct diag_loc *at);
void tu_src_free(struct tu *t);

/* tu-exempt.c: records of instrumented functions and of #APP blocks.  The
 * lines go in v->before, wherever tu.c places them. */
void tu_function_type(struct tu *t, struct slice args);
void tu_function_start(struct tu *t);
enum verdict_kind tu_function_start_label(struct tu *t, struct verdict *v);
enum verdict_kind tu_function_range(struct tu *t, struct slice args, struct verdict *v);
enum verdict_kind tu_app_begin(struct tu *t, struct verdict *v);
enum verdict_kind tu_app_end(struct tu *t, struct verdict *v);

/* tu-directives.c: the .kcfi_* directives that only change the TU's state. */
void tu_record_early(struct tu *t, const struct stmt *s);
enum verdict_kind tu_directive_allowed(struct tu *t, const struct kcfi_directive *d,
				       struct verdict *v);
enum verdict_kind tu_on_version(struct tu *t, const struct kcfi_directive *d, struct verdict *v);
enum verdict_kind tu_on_type(struct tu *t, const struct kcfi_directive *d, struct verdict *v);
enum verdict_kind tu_on_typeinfo(struct tu *t, const struct kcfi_directive *d, struct verdict *v);
enum verdict_kind tu_on_reserved(struct tu *t, const struct kcfi_directive *d, struct verdict *v);
enum verdict_kind tu_on_call(struct tu *t, const struct kcfi_directive *d, struct verdict *v);
enum verdict_kind tu_on_require_plugin(struct tu *t);
enum verdict_kind tu_on_conversion(struct tu *t, const struct kcfi_directive *d,
				   struct verdict *v);

/* tu-stubs.c: .kcfi_extern and .kcfi_stub_alias. */
enum verdict_kind tu_on_extern(struct tu *t, const struct kcfi_directive *d, struct verdict *v);
enum verdict_kind tu_on_stub_alias(struct tu *t, const struct kcfi_directive *d,
				   struct verdict *v);

/* tu-entry.c: from .kcfi_func to the function's label. */
enum verdict_kind tu_on_func(struct tu *t, const struct kcfi_directive *d, struct verdict *v);
enum verdict_kind tu_entry_label(struct tu *t, struct stmt *s, struct verdict *v);
enum verdict_kind tu_entry_insn(struct tu *t, struct stmt *s, struct verdict *v);
void tu_entry_directive(struct tu *t, struct stmt *s);

/* tu-callsite.c: which branch a call-site directive annotates. */
enum verdict_kind tu_on_lenient(struct tu *t, const struct stmt *s, struct verdict *v);
enum verdict_kind tu_on_insn(struct tu *t, struct stmt *s, const char *line, size_t n,
			     struct verdict *v);

/* tu-seq.c: the lines of a branch spelt as several statements. */
enum verdict_kind tu_seq_line(struct tu *t, enum asmline_kind k, const char *p, size_t n,
			      struct verdict *v);

/* tu-check.c: what becomes of an annotated branch (v->branch): V_PASS,
 * with what goes in front of it in v->before, V_REPLACE or V_FAIL. */
enum verdict_kind tu_annotated(struct tu *t, struct verdict *v);

#endif
