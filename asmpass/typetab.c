/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/arch.h"
#include "asmpass/records.h"
#include "asmpass/sink.h"
#include "asmpass/typetab.h"

static void out_of_memory(void)
{
	fputs("kcfi-as: out of memory\n", stderr);
	exit(1);
}

void typetab_free(struct typetab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->v[i].mangled);
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
	if (e->defined) {
		kcfi_typeid_release(&r);
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
	e->mangled = r.mangled;		/* kept: only a used type's is written */
	return 0;
}

struct kcfi_typeids *typetab_typeids(struct typetab *t)
{
	if (!t->typeids && !(t->typeids = kcfi_typeids_new()))
		out_of_memory();
	return t->typeids;
}

const struct type_entry *typetab_need(struct typetab *t, unsigned id)
{
	const struct type_entry *e = typetab_get(t, id);
	if (e)
		typetab_use(t, id);
	return e;
}

void typetab_use(struct typetab *t, unsigned id)
{
	if (id < t->cap && t->v[id].defined)
		t->v[id].used = true;
}

struct name_rec {
	uint32_t id;
	const char *name;
};

static int name_cmp(const void *a, const void *b)
{
	const struct name_rec *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

void typetab_write_names(const struct typetab *t, struct sink *out,
			 const struct kcfi_arch *arch)
{
	size_t n = 0;
	for (size_t i = 0; i < t->cap; i++)
		n += t->v[i].used && t->v[i].mangled;
	if (!n)
		return;
	struct name_rec *v = malloc(n * sizeof(*v));
	if (!v)
		out_of_memory();
	n = 0;
	for (size_t i = 0; i < t->cap; i++)
		if (t->v[i].used && t->v[i].mangled)
			v[n++] = (struct name_rec){
				arch_code_id(arch, t->v[i].id), t->v[i].mangled };
	/* Type numbers are per prototype spelling: several may share an id. */
	qsort(v, n, sizeof(*v), name_cmp);
	record_type_names_begin(out);
	for (size_t i = 0; i < n; i++)
		if (!i || name_cmp(&v[i - 1], &v[i]))
			record_type_name(out, v[i].id, v[i].name);
	record_type_names_end(out);
	free(v);
}
