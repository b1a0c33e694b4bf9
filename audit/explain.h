/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit --explain (doc/kcfi-audit.md 7): a kernel's CFI failure
 * reports, each explained from the files that ran. */
#ifndef KCFI_AUDIT_EXPLAIN_H
#define KCFI_AUDIT_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { EXPLAIN_SYM_MAX = 256, EXPLAIN_MOD_MAX = 64, EXPLAIN_TYPE_MAX = 384,
       EXPLAIN_PARAMS_MAX = 24 };

/* "sym+0xoff/0xsize [mod]" as %pS prints it. */
struct frame {
	char sym[EXPLAIN_SYM_MAX];
	uint64_t off, size;
	char mod[EXPLAIN_MOD_MAX];	/* "" in vmlinux (or a program) */
};

enum cfi_outcome { OUTCOME_UNKNOWN, OUTCOME_TRAP, OUTCOME_PERMISSIVE };

/* One "CFI failure at ..." of the log and what follows it. */
struct cfi_report {
	unsigned long line;		/* of the log, from 1 */
	struct frame at;		/* where it trapped */
	bool has_target, has_type;	/* "(no target information)": neither */
	struct frame target;
	uint32_t type;			/* the id the kernel printed */
	const char *cut;		/* truncated: what could not be read, else NULL */
	bool has_caller;		/* the first reliable frame of its call trace */
	struct frame caller;
	bool trace_seen;		/* its call trace began */
	enum cfi_outcome outcome;
};

/* explain-log.c: every CFI failure report of IN (named NAME), into a
 * malloc'd array.  0, or -1 after an error (reported). */
int explain_read_log(FILE *in, const char *name, struct cfi_report **out, size_t *n);
/* The kernel log text of LINE without its prefixes: printk's "<3>",
 * timestamps and caller ids ("[   12.345678]", "[    T1]"), dmesg -x's
 * "kern  :err   : ", syslog's and the journal's "... kernel: ". */
const char *explain_strip(const char *line);
/* Parse a %pS frame at S ("sym+0x1/0x2 [mod]"); the end, or NULL. */
const char *explain_frame(const char *s, struct frame *fr);

/* explain-types.c: a mangled function type ("_ZTSFvPiE") as C. */
struct proto {
	char ret[EXPLAIN_TYPE_MAX];
	char params[EXPLAIN_PARAMS_MAX][EXPLAIN_TYPE_MAX];
	int nparams;			/* without "..." */
	bool variadic;
	char c[EXPLAIN_TYPE_MAX * 2];	/* the whole prototype: "void (int *)" */
};
/* False if MANGLED is not a function type name this can read. */
bool explain_demangle(const char *mangled, struct proto *p);
/* Their differences, one indented line each, to OUT; how many. */
int explain_diff(FILE *out, const struct proto *call, const struct proto *fn, const char *name);

/* explain.c: the whole of --explain; the exit status. */
int explain_main(const char *log, char **files, int nfiles);

#endif
