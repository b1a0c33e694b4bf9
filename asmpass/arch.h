/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one interface between the generic assembler pass and an architecture.
 *
 * The core (asmpass/) owns the stream, the directives and every policy
 * decision; a backend (arches/<arch>.c) only knows how its instructions are
 * spelled and which bytes Linux expects.  Shape borrowed from objtool: a
 * neutral classification of instructions, then one short emitter per job.
 */
#ifndef KCFI_ASMPASS_ARCH_H
#define KCFI_ASMPASS_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asmpass/emit.h"
#include "common/kcfi-targets.h"

/* What an instruction statement is, as far as control flow goes. */
enum insn_class {
	INSN_OTHER,
	INSN_CALL,		/* direct call */
	INSN_JUMP,		/* direct jump, conditional or not */
	INSN_ICALL,		/* call through a register or memory */
	INSN_IJUMP,		/* jump through a register or memory */
	INSN_PREFIX,		/* prefixes alone ("cs"), applying to the next insn */
};

static inline bool insn_is_indirect(enum insn_class c)
{
	return c == INSN_ICALL || c == INSN_IJUMP;
}

static inline bool insn_is_branch(enum insn_class c)
{
	return c != INSN_OTHER && c != INSN_PREFIX;
}

/* A decoded branch.  Filled by classify(), read back by emit_check() of the
 * same backend; the core only looks at `cls`. */
struct kcfi_branch {
	enum insn_class cls;
	char reg[8];			/* target register, when the target is one */
	const char *mem;		/* memory operand text, when the target is one */
	size_t mem_len;
	const char *prefix;		/* instruction prefixes as written ("notrack ") */
	size_t prefix_len;
	unsigned flags;			/* backend-private */
	/* Why no check can guard this indirect branch, or NULL.  Set by
	 * classify() for spellings the assembler accepts as indirect branches
	 * but a KCFI check cannot keep the meaning of (x86 far branches and
	 * 16-bit targets, aarch64 pointer-authenticated branches, riscv jumps
	 * to a register plus an offset): the core refuses them where a check
	 * is due and lets annotations that check nothing pass them. */
	const char *refuse;
	/* Set by the core before check_clobbers() and emit_check(): gpr()
	 * registers the program needs unchanged at this branch (its argument
	 * and static chain registers, the reserved ones).  A backend with a
	 * choice of scratch registers avoids them; the core refuses a check
	 * that still writes one. */
	uint64_t busy;
};

/* Everything the core knows about one checked call site. */
struct kcfi_site {
	uint32_t id;			/* type id, not yet masked */
	unsigned prefix_nops;		/* M of -fpatchable-function-entry=N,M */
	unsigned serial;		/* unique per TU, for local label names */
};

/* Everything the core knows about one function entry. */
struct kcfi_entry {
	const char *cfi_sym;		/* "__cfi_<name>", quoted if the name needs it */
	const char *binding;		/* ".globl", ".weak" or NULL (local) */
	bool typed;			/* false: alignment padding only */
	uint32_t id;			/* type id, not yet masked */
	unsigned align;			/* function alignment in bytes, >= 1 */
	unsigned prefix_nops;		/* M */
	int arity;			/* .kcfi_func ..., arity=N; -1: none */
};

/* Per-TU options that change what a backend emits. */
struct kcfi_arch_opts {
	bool cs_prefix;			/* x86: -mindirect-branch-cs-prefix was given */
	const char *march;		/* -march= given to the assembler, or NULL */
	/* Instruction-set state the assembler tracks (riscv: is RVC on?), owned
	 * by the backend's tu_start()/observe(); the core only keeps it per TU. */
	unsigned isa;
	unsigned isa_stack[16];		/* saved by ".option push" and the like */
	unsigned isa_depth;
	/* Other facts about the TU that a backend's observe() keeps (x86: which
	 * retpoline thunks the compiler defines in it). */
	unsigned state;
};

/* Statements of a branch the compiler spells as several statements under
 * labels of its own (x86: the inline retpoline of
 * -mindirect-branch=thunk-inline), as handed to seq_step(). */
enum seq_stmt {
	SEQ_LABEL,		/* the label's name */
	SEQ_DIRECTIVE,		/* the whole directive, dot included */
	SEQ_INSN,
};

enum seq_verdict {
	SEQ_MORE,		/* so far so good: the next statement, please */
	SEQ_DONE,		/* that was the last statement */
	SEQ_BAD,		/* not the sequence it began as */
};

/* What a directive line may be to GCC's ASM_APP_ON/ASM_APP_OFF (app_line()). */
enum kcfi_app_line {
	KCFI_APP_OTHER,
	KCFI_APP_SYNTAX,
	KCFI_APP_STATE,
};

/* A backend's operations come in two kinds.
 *
 * Required: the core cannot do its job without them, so a backend that
 * lacks one is refused when it is chosen (arch_for_triple() asks
 * arch_missing() once per process), and tests/asmpass/arch-ops fails for
 * it; no code path ever finds one NULL.
 *
 * Optional: each has exactly one meaning when absent, written next to it
 * and implemented by its arch_*() wrapper below.  The core calls optional
 * operations only through those wrappers, so "absent" cannot mean one thing
 * in one caller and a NULL dereference in another. */
struct kcfi_arch {
	/* ---- required ---- */
	const char *name;		/* "x86_64" */
	/* Does this backend serve TRIPLE's architecture (the part before the
	 * first '-') with pointers of PTR_BITS? */
	bool (*serves)(const char *arch, size_t arch_len, unsigned ptr_bits);
	/* Classify one statement (no label, no comment, no trailing newline). */
	enum insn_class (*classify)(const char *stmt, size_t len,
				    struct kcfi_branch *out);
	/* Replace the branch B (already classified) by check + trap + branch.
	 * Returns 0, or -1 after setting an error message in E. */
	int (*emit_check)(struct emitter *e, const struct kcfi_branch *b,
			  const struct kcfi_site *site,
			  const struct kcfi_arch_opts *opts);
	/* Emit what precedes a function entry: type id preamble or padding. */
	void (*emit_entry)(struct emitter *e, const struct kcfi_entry *f);
	/* The general register NAME, in any spelling GCC's reg_names[] or the
	 * assembler uses, as a number below 64; -1 when NAME is no general
	 * register (no check writes those). */
	int (*gpr)(const char *name, size_t len);
	/* The assembler's name of general register N (a gpr() number). */
	const char *(*gpr_name)(unsigned n);
	/* The general registers the check of B (already classified) writes
	 * before the branch, as a mask of gpr() numbers.  emit_check() writes
	 * exactly these. */
	uint64_t (*check_clobbers)(const struct kcfi_branch *b);
	/* Line comment introducers of this assembler, for statement splitting. */
	const char *comment;
	/* One patchable-prefix NOP as GCC prints it: the target's nop insn
	 * template (default_print_patchable_function_entry).  Required even
	 * where emit_check() refuses prefixes: the core counts them while a
	 * function entry is pending, before any check is asked for. */
	const char *nop;
	/* Does ".align N" mean 2^N bytes (true) or N bytes (false)? */
	bool align_pow2;
	/* Statements a check occupies when the assembler does not relax branches
	 * (0: it does, no reservation needed). */
	unsigned check_statements;
	/* How many statements a lenient directive (.kcfi_branch_nocall,
	 * .kcfi_call_direct) may pass over before its branch: the longest
	 * pattern GCC prints a jump table or call of the kind as; 0: 4. */
	unsigned lenient_statements;
	/* Data directive for one 32-bit .kcfi_traps entry, or NULL when Linux
	 * identifies traps without a table. */
	const char *trap_word;
	/* The object is ELF32 (i386): no 64-bit relocations, so the 64-bit
	 * words of .debug_srcinfo are written as two 32-bit halves. */
	bool elf32;
	/* emit_entry() puts a function's arity (.kcfi_func ..., arity=N) into
	 * its preamble; elsewhere the key is refused. */
	bool arity;

	/* ---- optional ---- */
	/* How inline assembly is told from the compiler's own text.  GCC
	 * prints ASM_APP_ON before asm text and ASM_APP_OFF after it.  Absent
	 * (false): those are "#APP" and "#NO_APP", lines GCC prints for nothing
	 * else, around every asm text (statements without a source location
	 * and file-scope asm too).  True where they are directives GCC also
	 * prints for its own code (arm: ".syntax unified", ".thumb"): a block
	 * is then one asm statement, between the line markers final.cc puts
	 * around it, led by .comment: "@ 12 "f.c" 1" ... "@ 0 "" 2". */
	bool app_by_linemarkers;
	/* With app_by_linemarkers: asm text GCC prints no line markers around
	 * (file-scope asm, asm statements without a location) is still between
	 * ASM_APP_ON and ASM_APP_OFF, which are told from the same lines in
	 * GCC's own code by the line after.  Is LINE (a whole directive line)
	 * one of those, as GCC prints it?  KCFI_APP_SYNTAX: it may be
	 * ASM_APP_ON, the end of ASM_APP_OFF, or the start of a function's
	 * declaration; KCFI_APP_STATE: it may begin ASM_APP_OFF, or follow
	 * KCFI_APP_SYNTAX in a declaration.  Absent: such text is read as the
	 * compiler's own, so a branch in it is refused. */
	enum kcfi_app_line (*app_line)(const char *line, size_t len);
	/* Compile operand patterns; called once, before the first classify().
	 * Absent: there is nothing to prepare. */
	int (*init)(void);
	/* The body of an extern stub (doc/extern-stubs.md): whatever an
	 * indirect branch may land on first, then a jump to TARGET, a symbol
	 * (quoted if it must be) that may live in a shared library, with the
	 * label LABEL on the jump itself (its .debug_srcinfo record).
	 * Then an unreachable direct call of TARGET: the unit's own calls of
	 * TARGET now go to the stub, and without a PLT-type reference left
	 * the linker would decide differently about an IFUNC the executable
	 * defines and a shared library uses (no canonical PLT entry: ld.so
	 * then refuses the circular IFUNC, binutils' pr23169d/f).
	 * Absent: extern stubs are refused, naming the backend.  Comes with
	 * stub_align, the stub's alignment in bytes (its section's .balign and
	 * the preamble's placement before it). */
	void (*emit_stub_jump)(struct emitter *e, const char *target, const char *label);
	unsigned stub_align;
	/* Set up O->isa for a new TU from O->march.  Absent: isa = 0. */
	void (*tu_start)(struct kcfi_arch_opts *o);
	/* A directive (NAME without its dot) that may change how the
	 * assembler encodes what follows (.option, .attribute, .arch).  The core
	 * passes every directive of the TU, those before .kcfi_version included.
	 * Absent: no directive changes what emit_check() writes. */
	void (*observe)(struct kcfi_arch_opts *o, const char *name, size_t name_len,
			const char *args, size_t args_len);
	/* Of the check_clobbers() registers, the ones still changed when the
	 * branch reads the call's arguments.  Less where a check saves and
	 * restores its scratch (arm's r3 around a sibcall through ip).
	 * Absent: all of them. */
	uint64_t (*branch_clobbers)(const struct kcfi_branch *b);
	/* Multi-statement branches.  seq_begin() is offered a direct
	 * branch B (classified from STMT) that a call-site directive says is an
	 * indirect one; true if it begins such a sequence.  The core then hands
	 * every following statement to seq_step() and passes nothing on until
	 * it says SEQ_DONE, with OUT describing the equivalent indirect branch
	 * (for emit_check(), or to pass the sequence on unchanged), or SEQ_BAD
	 * with a message in ERR.  One sequence at a time per process.
	 * Absent (both, or the backend is refused): no branch is spelt as
	 * several statements, a direct branch never answers an indirect
	 * call-site directive. */
	bool (*seq_begin)(const struct kcfi_branch *b, const char *stmt, size_t len);
	enum seq_verdict (*seq_step)(enum seq_stmt kind, const char *text, size_t len,
				     struct kcfi_branch *out, char *err, size_t err_size);
	/* May the directive NAME ARGS (NAME without its dot) stand
	 * between a lenient call-site directive (.kcfi_call_direct,
	 * .kcfi_branch_nocall) and its branch, as part of a pattern the compiler
	 * prints (x86 TLS GD: .byte 0x66; aarch64: .tlsdesccall)?  Data that
	 * could encode an instruction of its own must not.  Absent: none may. */
	bool (*lenient_directive)(const char *name, size_t name_len,
				  const char *args, size_t args_len);
	/* Does the directive NAME ARGS (NAME without its dot) only
	 * restate how the assembler reads what follows, emitting nothing (arm:
	 * GCC prints ".thumb" or ".arm" and ".syntax unified" after every asm
	 * text, the plugin's directives included)?  It may then stand between
	 * any call-site directive and its branch; observe() sees it first.
	 * Absent: no directive is one. */
	bool (*state_directive)(const char *name, size_t name_len,
				const char *args, size_t args_len);
	/* Is LINE (a whole input line) a call of a named function that the
	 * compiler prints by itself, outside any insn the plugin sees, in the
	 * form of an indirect call (x86 -pg in PIC code, i386's TLS call with
	 * -fno-plt)?  It passes unchanged and unannotated.  Absent: no line is
	 * one, every indirect branch needs its directive. */
	bool (*profiler_call)(const char *line, size_t len);
	/* Is the directive NAME (without its dot) one that switches the
	 * assembler's syntax?  -1: no; 0: to the syntax classify() reads;
	 * 1: to one it cannot read (x86 .intel_syntax), which syntax_refusal
	 * then explains (required with syntax_directive).  The target is not
	 * known before .kcfi_version, and the compiler may switch syntax before
	 * it, so the core asks every backend about the directives that come
	 * first.  Absent: -1 for every directive. */
	int (*syntax_directive)(const char *name, size_t name_len);
	const char *syntax_refusal;
	/* What the TU needs at its end, after its last line.  NEEDS is
	 * what emit_check() put into its emitters' `needs`, ORed.  Absent:
	 * nothing, and emit_check() must not set needs. */
	void (*tu_end)(struct emitter *e, const struct kcfi_arch_opts *o, unsigned needs);
	/* The id as it appears in code (x86 avoids ids that look like ENDBR).
	 * Absent: the id itself. */
	uint32_t (*code_id)(uint32_t id);
};

/* NULL if A has every required operation and its optional ones come in
 * the combinations arch.h asks for; else the name of the first member
 * missing or inconsistent ("nop", "seq_step", "stub_align"...). */
const char *arch_missing(const struct kcfi_arch *a);

/* The optional operations, each with its one meaning when absent. */
static inline int arch_init(const struct kcfi_arch *a)
{
	return a->init ? a->init() : 0;
}

static inline bool arch_has_stubs(const struct kcfi_arch *a)
{
	return a->emit_stub_jump != NULL;
}

static inline void arch_tu_start(const struct kcfi_arch *a, struct kcfi_arch_opts *o)
{
	if (a->tu_start)
		a->tu_start(o);
	else
		o->isa = 0;
}

static inline void arch_observe(const struct kcfi_arch *a, struct kcfi_arch_opts *o,
				const char *name, size_t name_len,
				const char *args, size_t args_len)
{
	if (a->observe)
		a->observe(o, name, name_len, args, args_len);
}

static inline uint64_t arch_branch_clobbers(const struct kcfi_arch *a, const struct kcfi_branch *b)
{
	return a->branch_clobbers ? a->branch_clobbers(b) : a->check_clobbers(b);
}

static inline bool arch_seq_begin(const struct kcfi_arch *a, const struct kcfi_branch *b,
				  const char *stmt, size_t len)
{
	return a->seq_begin && a->seq_begin(b, stmt, len);
}

static inline bool arch_lenient_directive(const struct kcfi_arch *a, const char *name,
					  size_t name_len, const char *args, size_t args_len)
{
	return a->lenient_directive && a->lenient_directive(name, name_len, args, args_len);
}

static inline bool arch_state_directive(const struct kcfi_arch *a, const char *name,
					size_t name_len, const char *args, size_t args_len)
{
	return a->state_directive && a->state_directive(name, name_len, args, args_len);
}

static inline bool arch_profiler_call(const struct kcfi_arch *a, const char *line, size_t len)
{
	return a->profiler_call && a->profiler_call(line, len);
}

static inline int arch_syntax_directive(const struct kcfi_arch *a, const char *name, size_t len)
{
	return a->syntax_directive ? a->syntax_directive(name, len) : -1;
}

static inline void arch_tu_end(const struct kcfi_arch *a, struct emitter *e,
			       const struct kcfi_arch_opts *o, unsigned needs)
{
	if (a->tu_end)
		a->tu_end(e, o, needs);
}

static inline enum kcfi_app_line arch_app_line(const struct kcfi_arch *a, const char *line,
					       size_t len)
{
	return a->app_line ? a->app_line(line, len) : KCFI_APP_OTHER;
}

static inline uint32_t arch_code_id(const struct kcfi_arch *a, uint32_t id)
{
	return a->code_id ? a->code_id(id) : id;
}

/* The backend for TRIPLE with PTR_BITS, in the x86 MODE the assembler was
 * given ("--32", "--64", "--x32"; NULL: the triple's own); NULL if none
 * serves it.  A backend that serves it but fails arch_missing() or its
 * init() is not returned either: *BROKEN then says which and why, so the
 * caller can tell a bug of kcfi-as from a foreign target. */
const struct kcfi_arch *arch_for_triple(const char *triple, unsigned ptr_bits, const char *mode,
					const char **broken);
/* The I-th registered backend, NULL past the last: for tools that try them
 * all (the fuzz harness, tests/asmpass/arch-ops).  Not initialised;
 * arch_for_triple() does that. */
const struct kcfi_arch *arch_nth(size_t i);

extern const struct kcfi_arch arch_x86_64;
extern const struct kcfi_arch arch_i386;
extern const struct kcfi_arch arch_aarch64;
extern const struct kcfi_arch arch_riscv64;
extern const struct kcfi_arch arch_arm;

#endif
