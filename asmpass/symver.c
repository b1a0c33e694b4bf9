/* SPDX-License-Identifier: GPL-2.0-or-later */
/* .symver bookkeeping for extern stubs.
 *
 * A unit may declare foo and define it under another name:
 *	void new_foo (void) { }  asm (".symver new_foo, foo@@VERS_2");
 * The linker binds the unit's references to foo to that default version,
 * so &foo is new_foo.  The plugin sees only the declaration and asks for a
 * stub of foo; the stub would make &foo differ from &new_foo (binutils'
 * pr18718 test).  Where the definition is here with the same type, the
 * stub's name is instead an alias of it, as for any function the program
 * defines (doc/extern-stubs.md).  Units hold a handful of .symver lines at
 * most: a list searched from end to end is enough.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "asmpass/symver.h"

static char *dup_slice(struct slice s)
{
	char *p = malloc(s.n + 1);
	if (!p)
		abort();
	memcpy(p, s.p, s.n);
	p[s.n] = '\0';
	return p;
}

static struct slice trimmed(const char *p, size_t n)
{
	struct slice s = { p, n };
	slice_trim(&s);
	return s;
}

void symver_note(struct symver_table *st, struct slice args)
{
	const char *comma = memchr(args.p, ',', args.n);
	if (!comma)
		return;
	struct slice local = trimmed(args.p, (size_t)(comma - args.p));
	struct slice rest = trimmed(comma + 1, (size_t)(args.p + args.n - comma - 1));
	/* A third operand (local, hidden, remove) changes nothing here. */
	const char *end = memchr(rest.p, ',', rest.n);
	if (end)
		rest = trimmed(rest.p, (size_t)(end - rest.p));
	const char *at = memchr(rest.p, '@', rest.n);
	if (!at || local.n == 0 || at == rest.p ||
	    (size_t)(at - rest.p) + 2 > rest.n || at[1] != '@')
		return;		/* name@VERSION: not what plain references bind to */
	if (st->n == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 4;
		st->v = realloc(st->v, st->cap * sizeof(*st->v));
		if (!st->v)
			abort();
	}
	st->v[st->n++] = (struct symver_entry){
		.local = dup_slice(local),
		.name = dup_slice((struct slice){ rest.p, (size_t)(at - rest.p) }),
	};
}

void symver_defined(struct symver_table *st, struct slice local, uint32_t id)
{
	for (size_t i = 0; i < st->n; i++)
		if (slice_eq(local, st->v[i].local)) {
			st->v[i].defined = true;
			st->v[i].id = id;
		}
}

const char *symver_local_for(const struct symver_table *st, struct slice name, uint32_t id)
{
	for (size_t i = st->n; i-- > 0;)
		if (st->v[i].defined && st->v[i].id == id && slice_eq(name, st->v[i].name))
			return st->v[i].local;
	return NULL;
}

void symver_free(struct symver_table *st)
{
	for (size_t i = 0; i < st->n; i++) {
		free(st->v[i].local);
		free(st->v[i].name);
	}
	free(st->v);
	*st = (struct symver_table){ 0 };
}
