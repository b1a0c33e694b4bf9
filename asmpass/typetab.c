#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/typetab.h"

static void out_of_memory(void)
{
	fputs("kcfi-as: out of memory\n", stderr);
	exit(1);
}

void typetab_free(struct typetab *t)
{
	free(t->v);
	t->v = NULL;
	t->cap = 0;
	kcfi_typeids_free(t->typeids);
	t->typeids = NULL;
}

const struct type_entry *typetab_get(const struct typetab *t, unsigned id)
{
	if (id >= t->cap || !t->v[id].defined)
		return NULL;
	return &t->v[id];
}

int typetab_define(struct typetab *t, unsigned id, const char *text, size_t len,
		   unsigned long line, const struct kcfi_typeid_opts *opts,
		   struct kcfi_type_error *err)
{
	if (id >= t->cap) {
		size_t cap = t->cap ? t->cap : 64;
		while (cap <= id)
			cap *= 2;
		struct type_entry *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			out_of_memory();
		memset(v + t->cap, 0, (cap - t->cap) * sizeof(*v));
		t->v = v;
		t->cap = cap;
	}
	struct type_entry *e = &t->v[id];
	if (!t->typeids && !(t->typeids = kcfi_typeids_new()))
		out_of_memory();
	struct kcfi_typeid r;
	if (kcfi_typeids_function(t->typeids, text, len, opts, &r, err))
		return -1;
	kcfi_typeid_release(&r);
	if (e->defined) {
		/* What the checks see is the id: a redefinition that gives the
		 * same one changes nothing, whatever its spelling, and keeping
		 * every text to compare would double what a TU's types take. */
		if (r.id == e->id && r.unprototyped == e->unprototyped)
			return 0;
		err->column = 0;
		snprintf(err->message, sizeof(err->message),
			 "type %u redefined as a different type (first defined at line %lu)",
			 id, e->line);
		return -1;
	}
	e->line = line;
	e->id = r.id;
	e->unprototyped = r.unprototyped;
	e->defined = true;
	return 0;
}
