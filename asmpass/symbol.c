/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Symbol names; see symbol.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "asmpass/symbol.h"
#include "common/kcfi-targets.h"

struct slice sym_unquoted(struct slice s)
{
	if (s.n >= 2 && s.p[0] == '"' && s.p[s.n - 1] == '"')
		return (struct slice){ s.p + 1, s.n - 2 };
	return s;
}

bool sym_same(struct slice a, struct slice b)
{
	a = sym_unquoted(a);
	b = sym_unquoted(b);
	return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

const char *sym_prefixed(struct buf *scratch, const char *prefix, struct slice name)
{
	bool quoted = name.n >= 2 && name.p[0] == '"';
	struct slice bare = sym_unquoted(name);
	scratch->len = 0;
	if (quoted)
		buf_append(scratch, "\"", 1);
	buf_append(scratch, prefix, strlen(prefix));
	buf_append(scratch, bare.p, bare.n);
	if (quoted)
		buf_append(scratch, "\"", 1);
	buf_append(scratch, "", 1);
	return scratch->data;
}

/* .kcfi_func NAME, ..., stub: the program defines NAME, so units that only
 * declare it must not reach it through a stub of their own.  Their stubs
 * are weak; this strong (or, for a weak NAME, weak) hidden alias takes
 * their place at link time, and every pointer to NAME in the program is
 * NAME itself.  TARGET is NAME, or the function defined here as NAME's
 * default version (symver.c). */
void sym_stub_alias(struct buf *out, struct buf *scratch, struct slice name,
		    struct slice target, const char *binding)
{
	char alias[512];
	snprintf(alias, sizeof(alias), "%s", sym_prefixed(scratch, KCFI_STUB_PREFIX, name));
	buf_printf(out, "\t%s\t%s\n\t.hidden\t%s\n\t.type\t%s, %%function\n\t.set\t%s, %.*s\n",
		   binding, alias, alias, alias, alias, (int)target.n, target.p);
}
