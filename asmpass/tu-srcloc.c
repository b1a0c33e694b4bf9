/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where in the C source the line being read comes from, as far as the
 * input says: GCC's DWARF line program (.file N "name", .loc N LINE COL)
 * with -g.  Errors about the user's code name that place; the .s file
 * kcfi-gcc hands kcfi-as is a temporary the user never sees. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "asmpass/tu-state.h"

/* More file numbers than that are never printed by GCC; a hostile input
 * gets no location for them rather than an allocation it chose. */
enum { SRC_FILES_MAX = 1u << 16 };

static bool read_number(struct slice *s, unsigned long *v)
{
	size_t i = 0;
	unsigned long n = 0;
	while (i < s->n && (s->p[i] == ' ' || s->p[i] == '\t'))
		i++;
	size_t start = i;
	for (; i < s->n && s->p[i] >= '0' && s->p[i] <= '9' && n < 100000000; i++)
		n = n * 10 + (unsigned long)(s->p[i] - '0');
	if (i == start || (i < s->n && s->p[i] >= '0' && s->p[i] <= '9'))
		return false;
	s->p += i;
	s->n -= i;
	*v = n;
	return true;
}

/* The next quoted string of S, without its escapes, malloc'd; NULL if
 * there is none. */
static char *read_string(struct slice *s)
{
	size_t i = 0;
	while (i < s->n && (s->p[i] == ' ' || s->p[i] == '\t'))
		i++;
	if (i == s->n || s->p[i] != '"')
		return NULL;
	char *out = malloc(s->n - i);
	if (!out)
		abort();
	size_t o = 0;
	for (i++; i < s->n && s->p[i] != '"'; i++) {
		if (s->p[i] == '\\' && i + 1 < s->n)
			i++;
		out[o++] = s->p[i];
	}
	if (i == s->n) {
		free(out);
		return NULL;
	}
	out[o] = '\0';
	s->p += i + 1;
	s->n -= i + 1;
	return out;
}

/* ".file N "name"" or ".file N "dir" "name"" (DWARF 5): number N names
 * the file.  The name alone is what GCC's own diagnostics show for a file
 * given relative to the compilation directory; ".file "name"" without a
 * number only names the unit. */
void tu_src_file(struct tu *t, struct slice args)
{
	unsigned long n;
	if (!read_number(&args, &n) || n >= SRC_FILES_MAX)
		return;
	char *first = read_string(&args);
	if (!first)
		return;
	char *second = read_string(&args);
	char *name = second ? second : first;
	if (second)
		free(first);
	if (n >= t->src.n_files) {
		size_t cap = n + 1 > 2 * t->src.n_files ? n + 1 : 2 * t->src.n_files;
		char **v = realloc(t->src.files, cap * sizeof(*v));
		if (!v)
			abort();
		memset(v + t->src.n_files, 0, (cap - t->src.n_files) * sizeof(*v));
		t->src.files = v;
		t->src.n_files = cap;
	}
	free(t->src.files[n]);
	t->src.files[n] = name;
}

/* ".loc N LINE [COL] [options]", the whole statement: what follows it
 * in the function comes from there. */
void tu_src_loc(struct tu *t, struct slice stmt)
{
	unsigned long file, line, col = 0;
	slice_trim(&stmt);
	if (stmt.n < 4 || memcmp(stmt.p, ".loc", 4) || (stmt.n > 4 && stmt.p[4] != ' ' && stmt.p[4] != '\t'))
		return;
	stmt.p += 4;
	stmt.n -= 4;
	t->src.valid = false;
	if (!read_number(&stmt, &file) || !read_number(&stmt, &line))
		return;
	read_number(&stmt, &col);
	t->src.file = file;
	t->src.line = line;
	t->src.col = col;
	t->src.valid = true;
}

/* A new function: until its first .loc, the last one said nothing about it. */
void tu_src_forget(struct tu *t)
{
	t->src.valid = false;
}

bool tu_src_where(const struct tu *t, struct diag_loc *at)
{
	if (!t->src.valid || t->src.file >= t->src.n_files || !t->src.files[t->src.file] ||
	    !t->src.line)
		return false;
	at->file = t->src.files[t->src.file];
	at->line = t->src.line;
	at->col = t->src.col;
	return true;
}

void tu_src_free(struct tu *t)
{
	for (size_t i = 0; i < t->src.n_files; i++)
		free(t->src.files[i]);
	free(t->src.files);
}
