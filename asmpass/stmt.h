/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Splitting assembly lines into statements and picking statements apart.
 * Everything works on (pointer, length) slices of the line: no copies. */
#ifndef KCFI_ASMPASS_STMT_H
#define KCFI_ASMPASS_STMT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct slice {
	const char *p;
	size_t n;
};

/* A string literal as a slice. */
#define SLICE_LIT(lit) ((struct slice){ lit, sizeof(lit) - 1 })

enum stmt_kind {
	STMT_EMPTY,
	STMT_LABEL,		/* "name:" (the name in `name`) */
	STMT_DIRECTIVE,		/* ".name args" (name without the dot) */
	STMT_INSN,		/* anything else: an instruction or an equate */
};

struct stmt {
	enum stmt_kind kind;
	struct slice text;	/* whole statement, trimmed */
	struct slice name;	/* label name / directive name */
	struct slice args;	/* directive operands, trimmed */
};

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n';
}

/* Inline: called with literals on every statement, they then compare a
 * known number of bytes without a strlen. */
static inline void slice_trim(struct slice *s)
{
	const char *p = s->p, *e = p + s->n;
	while (p < e && is_blank(*p))
		p++;
	while (e > p && is_blank(e[-1]))
		e--;
	*s = (struct slice){ p, (size_t)(e - p) };
}

static inline bool slice_eq(struct slice s, const char *lit)
{
	size_t n = strlen(lit);
	return s.n == n && memcmp(s.p, lit, n) == 0;
}

/* GNU as reads mnemonics (and, on x86 and aarch64, register names) in any
 * letter case: these compare a word of the input with a lower-case literal. */
static inline char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static inline bool word_ieq(const char *p, size_t n, const char *lit)
{
	size_t i = 0;
	for (; i < n && lit[i]; i++)
		if (ascii_lower(p[i]) != lit[i])
			return false;
	return i == n && !lit[i];
}

static inline bool slice_starts(struct slice s, const char *lit)
{
	size_t n = strlen(lit);
	return s.n >= n && memcmp(s.p, lit, n) == 0;
}

/* Take the next statement off LINE (advancing it).  COMMENT is the
 * assembler's in-line comment introducer ("#", "//"); strings are respected.
 * A label ends a statement.  Returns false when LINE is exhausted. */
bool stmt_next(struct slice *line, const char *comment, struct stmt *out);

/* Does LINE hold more than one statement?  Fast path for the common case. */
bool line_is_compound(const char *p, size_t n);

/* Does LINE hold exactly one statement? */
bool stmt_alone(const char *line, size_t n, const char *comment);

#endif
