/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statement splitting; see stmt.h. */
#include "config.h"

#include <string.h>

#include "asmpass/stmt.h"

/* Byte classes, looked up rather than compared: every line of the input is
 * split here. */
enum {
	BC_PLAIN = 1,	/* ends no statement and starts no comment: no assembler's
			 * comment introducer begins with [A-Za-z0-9_] or a blank */
	BC_SYM = 2,	/* part of a bare symbol name: [A-Za-z0-9_.$@] */
};
static const unsigned char byte_class[256] = {
	['0' ... '9'] = BC_PLAIN | BC_SYM,
	['A' ... 'Z'] = BC_PLAIN | BC_SYM,
	['a' ... 'z'] = BC_PLAIN | BC_SYM,
	['_'] = BC_PLAIN | BC_SYM,
	[' '] = BC_PLAIN, ['\t'] = BC_PLAIN,
	['.'] = BC_SYM, ['$'] = BC_SYM, ['@'] = BC_SYM,
};

static bool is_sym(char c)
{
	return byte_class[(unsigned char)c] & BC_SYM;
}

bool line_is_compound(const char *p, size_t n)
{
	return memchr(p, ';', n) != NULL;
}

bool stmt_alone(const char *line, size_t n, const char *comment)
{
	struct slice rest = { line, n };
	struct stmt o;
	unsigned count = 0;
	while (stmt_next(&rest, comment, &o))
		if (o.kind != STMT_EMPTY)
			count++;
	return count == 1;
}

/* Length of the statement at the start of P[0..N): up to ';', a comment or
 * the end; quoted strings may contain either.  *NEXT is where the next
 * statement starts (N when the rest is a comment). */
static size_t statement_span(const char *p, size_t n, const char *comment, size_t *next)
{
	size_t clen = comment ? strlen(comment) : 0;
	/* Without a comment introducer, '"' stands in: it is tested first. */
	char c0 = clen ? comment[0] : '"';
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if ((byte_class[(unsigned char)c] & BC_PLAIN) ||
		    (c != '"' && c != ';' && c != '\n' && c != c0))
			continue;
		if (c == '"') {
			for (i++; i < n && p[i] != '"'; i++)
				if (p[i] == '\\' && i + 1 < n)
					i++;
		} else if (c == ';' || c == '\n') {
			*next = i + 1;
			return i;
		} else if (i + clen <= n && memcmp(p + i, comment, clen) == 0) {
			*next = n;
			return i;
		}
	}
	*next = n;
	return n;
}

bool stmt_next(struct slice *line, const char *comment, struct stmt *out)
{
	if (line->n == 0)
		return false;
	memset(out, 0, sizeof(*out));
	size_t next;
	struct slice t = { line->p, statement_span(line->p, line->n, comment, &next) };
	line->p += next;
	line->n -= next;
	slice_trim(&t);
	out->text = t;
	if (t.n == 0) {
		out->kind = STMT_EMPTY;
		return true;
	}

	/* A label: a symbol (or a quoted name) immediately followed by ':'. */
	size_t i = 0;
	if (t.p[0] == '"') {
		const char *q = memchr(t.p + 1, '"', t.n - 1);
		if (q)
			i = (size_t)(q - t.p) + 1;
	} else {
		while (i < t.n && is_sym(t.p[i]))
			i++;
	}
	if (i > 0 && i < t.n && t.p[i] == ':') {
		out->kind = STMT_LABEL;
		out->name = (struct slice){ t.p, i };
		out->text = (struct slice){ t.p, i + 1 };
		/* Whatever follows the colon is the next statement. */
		size_t used = (size_t)(t.p + i + 1 - (line->p - next));
		line->p -= next - used;
		line->n += next - used;
		return true;
	}
	if (t.p[0] == '.' && i > 1) {
		out->kind = STMT_DIRECTIVE;
		out->name = (struct slice){ t.p + 1, i - 1 };
		out->args = (struct slice){ t.p + i, t.n - i };
		slice_trim(&out->args);
		return true;
	}
	out->kind = STMT_INSN;
	return true;
}
