/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Section tracking; see section.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "asmpass/section.h"

static void set_str(char **dst, size_t *cap, const char *p, size_t n)
{
	if (!p) {
		if (*dst)
			(*dst)[0] = '\0';
		return;
	}
	if (n + 1 > *cap) {
		char *d = realloc(*dst, n + 1);
		if (!d)
			abort();
		*dst = d;
		*cap = n + 1;
	}
	memcpy(*dst, p, n);
	(*dst)[n] = '\0';
}

static void section_copy(struct section *dst, const struct section *src)
{
	set_str(&dst->name, &dst->name_cap, src->name, src->name ? strlen(src->name) : 0);
	if (src->group && src->group[0])
		set_str(&dst->group, &dst->group_cap, src->group, strlen(src->group));
	else if (dst->group)
		dst->group[0] = '\0';
}

static void section_swap(struct section *a, struct section *b)
{
	struct section t = *a;
	*a = *b;
	*b = t;
}

void section_state_init(struct section_state *s)
{
	memset(s, 0, sizeof(*s));
	set_str(&s->cur.name, &s->cur.name_cap, ".text", 5);
	set_str(&s->prev.name, &s->prev.name_cap, ".text", 5);
}

static void section_free(struct section *x)
{
	free(x->name);
	free(x->group);
}

void section_state_free(struct section_state *s)
{
	section_free(&s->cur);
	section_free(&s->prev);
	for (size_t i = 0; i < 2 * s->cap; i++)
		section_free(&s->stack[i]);
	free(s->stack);
	memset(s, 0, sizeof(*s));
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Split the next comma-separated operand off ARGS; quotes protect commas. */
static bool next_operand(const char **p, const char *end, const char **op, size_t *len)
{
	const char *s = *p;
	while (s < end && is_space(*s))
		s++;
	if (s >= end)
		return false;
	const char *t = s;
	bool quoted = false;
	for (; t < end; t++) {
		if (*t == '"' && (t == s || t[-1] != '\\'))
			quoted = !quoted;
		else if (*t == ',' && !quoted)
			break;
	}
	const char *e = t;
	while (e > s && is_space(e[-1]))
		e--;
	*op = s;
	*len = (size_t)(e - s);
	*p = t < end ? t + 1 : t;
	return true;
}

static void unquote(const char **p, size_t *n)
{
	if (*n >= 2 && (*p)[0] == '"' && (*p)[*n - 1] == '"') {
		(*p)++;
		*n -= 2;
	}
}

/* Parse ".section NAME[, "FLAGS"[, @TYPE[, GROUP[, comdat]]]]". */
static int parse_section(struct section *cur, const char *args, size_t len, const char **msg)
{
	const char *p = args, *end = args + len, *op;
	size_t n;
	if (!next_operand(&p, end, &op, &n) || n == 0) {
		*msg = "section directive without a name";
		return -1;
	}
	unquote(&op, &n);
	set_str(&cur->name, &cur->name_cap, op, n);
	if (cur->group)
		cur->group[0] = '\0';

	const char *flags = NULL;
	size_t flags_len = 0;
	if (next_operand(&p, end, &op, &n)) {
		flags = op;
		flags_len = n;
		unquote(&flags, &flags_len);
	}
	bool grouped = flags && memchr(flags, 'G', flags_len);
	if (!grouped)
		return 0;
	/* Skip the type, then the group name follows. */
	if (!next_operand(&p, end, &op, &n) || !next_operand(&p, end, &op, &n)) {
		*msg = "section with the G flag but no group name";
		return -1;
	}
	unquote(&op, &n);
	set_str(&cur->group, &cur->group_cap, op, n);
	return 0;
}

static bool name_is(const char *name, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(name, lit, len) == 0;
}

int section_apply(struct section_state *s, const char *name, size_t name_len,
		  const char *args, size_t args_len, const char **msg)
{
	if (name_is(name, name_len, "text") || name_is(name, name_len, "data") ||
	    name_is(name, name_len, "bss")) {
		/* ".text N" selects a subsection: still the same section. */
		section_swap(&s->cur, &s->prev);
		section_copy(&s->cur, &s->prev);
		char full[8];
		full[0] = '.';
		memcpy(full + 1, name, name_len);
		set_str(&s->cur.name, &s->cur.name_cap, full, name_len + 1);
		if (s->cur.group)
			s->cur.group[0] = '\0';
		return 1;
	}
	if (name_is(name, name_len, "section")) {
		section_swap(&s->cur, &s->prev);
		section_copy(&s->cur, &s->prev);
		return parse_section(&s->cur, args, args_len, msg) ? -1 : 1;
	}
	if (name_is(name, name_len, "pushsection")) {
		if (s->depth + 1 > s->cap) {
			size_t cap = s->cap ? s->cap * 2 : 8;
			struct section *st = realloc(s->stack, cap * 2 * sizeof(*st));
			if (!st)
				abort();
			memset(st + s->cap * 2, 0, (cap - s->cap) * 2 * sizeof(*st));
			s->stack = st;
			s->cap = cap;
		}
		section_copy(&s->stack[2 * s->depth], &s->cur);
		section_copy(&s->stack[2 * s->depth + 1], &s->prev);
		s->depth++;
		section_copy(&s->prev, &s->cur);
		return parse_section(&s->cur, args, args_len, msg) ? -1 : 1;
	}
	if (name_is(name, name_len, "popsection")) {
		if (s->depth == 0) {
			*msg = ".popsection without .pushsection";
			return -1;
		}
		s->depth--;
		section_copy(&s->cur, &s->stack[2 * s->depth]);
		section_copy(&s->prev, &s->stack[2 * s->depth + 1]);
		return 1;
	}
	if (name_is(name, name_len, "previous")) {
		section_swap(&s->cur, &s->prev);
		return 1;
	}
	return 0;
}

unsigned long long section_hash(const struct section *s)
{
	unsigned long long h = 14695981039346656037ull;
	for (const char *p = s->name ? s->name : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull;	/* name and group apart */
	for (const char *p = s->group ? s->group : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return h;
}
