/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-gcc's parts (the way GCC's driver keeps its option tables apart from
 * gcc.cc's control flow):
 *   kcfi-gcc.c   main: the control flow, the command line, running GCC
 *   options.c    the command line read into struct driver, from the table
 *                of driver/kcfi-gcc.opt
 *   targets.c    what each target refuses and needs (struct target_policy)
 *   locate.c     the compiler wrapped, the plugin and kcfi-as for it
 *   as-cache.c   which `as` the compiler would run, remembered
 *   util.c       argument vectors, running a program for its output
 *   finish-asm.c -S's finished assembly; tool-witness.c the tools' witness */
#ifndef KCFI_DRIVER_H
#define KCFI_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* KCFI_CC= and KCFI_PLUGIN= (set but empty, as `VAR= make` leaves them)
 * mean unset: an empty plugin path only led to "no plugin at ''". */
static inline const char *env_value(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

struct args {
	char **v;
	int n;
};

/* Code-generation options kcfi-gcc must see before it runs GCC: some make
 * x86 assembly kcfi-as cannot instrument (x86_refuse), and -mcmodel decides,
 * on any target, whether -fsanitize-kcfi-extern-stubs can work.  The last
 * of each kind counts, as for GCC. */
struct codegen_opts {
	const char *masm;		/* -masm= value */
	const char *mode;		/* -m16, -m32, -mx32 or -m64 */
	const char *cmodel;		/* -mcmodel= value */
	const char *instrument_return;	/* -minstrument-return= value */
	const char *profile;		/* -pg or -p */
	const char *indirect_branch;	/* -mindirect-branch= value */
};

/* Everything one invocation needs, filled step by step by main(). */
struct driver {
	char *cc;		/* the compiler this wraps */
	char *triple;		/* its target: picks the plugin */
	char *major;		/* its GCC major version: picks the plugin too */
	struct args user;	/* the command line minus what is ours */
	struct args search;	/* the user's options that move GCC's program search */
	struct args preprocessed;	/* inputs already preprocessed (.i, .ii, -x cpp-output) */
	struct codegen_opts codegen;
	const char *hash;	/* -fsanitize-kcfi-hash= value */
	bool enabled, normalize, cs_prefix, assembles, preprocess_only;
	bool generalize;	/* -fsanitize-cfi-icall-generalize-pointers */
	bool arity;		/* -fsanitize-kcfi-arity */
	bool plugin_arity;	/* ... and the plugin is to write arities */
	bool requested;		/* -fsanitize=kcfi appeared, even if later turned off */
	bool extern_stubs;	/* -fsanitize-kcfi-extern-stubs (doc/extern-stubs.md) */
	/* -Wkcfi-cast (GCC knows no such warning, so none of these reach it):
	 * warn_cast by -W[no-]kcfi-cast, cast_error by -W[no-]error=kcfi-cast,
	 * werror by a plain -Werror, which GCC gets as well. */
	bool warn_cast, cast_error, cast_no_error, werror;
	bool help, version;
	bool asm_only;		/* -S */
	bool no_link;		/* -c, -S, -E, -fsyntax-only, -M, -MM */
	bool annotated;		/* -fsanitize-kcfi-annotated-asm: -S gives kcfi-as's input */
	bool user_wrapper;	/* -wrapper: theirs, so -S cannot use ours */
	const char *march;	/* the last -march=, which kcfi-as reads as gas would */
	char *plugin;		/* the plugin for cc */
	char *asdir;		/* the directory whose `as` is kcfi-as */
};

/* -fsanitize-kcfi-arity as Clang 22 takes it: for 64-bit Linux targets
 * only, and only x86_64's preamble has a place for the arity (aarch64 and
 * riscv64 accept the option and emit what they would without it). */
enum arity_policy { ARITY_REFUSED, ARITY_IGNORED, ARITY_WRITTEN };

/* What differs between families of targets, in one place rather than in
 * tests of the triple wherever an option is handled. */
struct target_policy {
	bool (*is)(const struct driver *d);	/* NULL: every target */
	/* Options after which GCC prints code kcfi-as cannot instrument:
	 * nonzero after one line saying why. */
	int (*refuse)(const struct driver *d);
	/* Linux rewrites checked retpoline calls for FineIBT assuming their
	 * target is in this register, so kcfi-as moves every other target
	 * there; the plugin lets the register allocator put it there first
	 * (prepass/call-reg.cc), as LLVM does: 3 bytes less a check. */
	const char *retpoline_call_reg;
	enum arity_policy arity;
	/* Typed stubs for library functions (doc/extern-stubs.md): why they
	 * cannot work for this target, if they cannot. */
	const char *no_extern_stubs;
	bool as_mode;		/* -m32/-m64 pick kcfi-as's backend, as gas's mode */
	const char *mode_option;	/* picks this family on another's compiler */
};

/* util.c */
void push(struct args *a, const char *s);
char *xstrdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *capture_argv(char *const argv[], bool c_locale, size_t *len);

/* options.c: take our options off the command line; keep the rest for the
 * compiler.  False (after a message) for an option value we cannot honour. */
bool read_options(struct driver *d, int argc, char **argv);

/* targets.c */
bool x86_32(const struct driver *d);
const struct target_policy *target_of(const struct driver *d);
const char *retpoline_call_reg(const struct driver *d);
bool extern_stubs_possible(const struct driver *d);
bool arity_wanted(const struct driver *d, bool *refused);

/* locate.c */
void name_compiler(struct driver *d, const char *argv0);
bool locate_tools(struct driver *d, bool quiet);

/* as-cache.c: tell kcfi-as which assembler this compiler would have run. */
void pass_real_as(const struct driver *d);

#endif
