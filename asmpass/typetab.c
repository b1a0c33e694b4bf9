#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/typetab.h"

void typetab_free(struct typetab *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free(t->v[i].text);
		free(t->v[i].mangled);
	}
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
		   const struct kcfi_typeid_opts *opts, struct kcfi_type_error *err)
{
	if (id >= t->cap) {
		size_t cap = t->cap ? t->cap : 64;
		while (cap <= id)
			cap *= 2;
		struct type_entry *v = realloc(t->v, cap * sizeof(*v));
		if (!v) {
			fputs("kcfi-as: out of memory\n", stderr);
			exit(1);
		}
		memset(v + t->cap, 0, (cap - t->cap) * sizeof(*v));
		t->v = v;
		t->cap = cap;
	}
	struct type_entry *e = &t->v[id];
	if (e->defined) {
		if (strlen(e->text) == len && memcmp(e->text, text, len) == 0)
			return 0;
		err->column = 0;
		snprintf(err->message, sizeof(err->message),
			 "type %u redefined as a different type (was \"%s\")", id, e->text);
		return -1;
	}
	if (!t->typeids && !(t->typeids = kcfi_typeids_new())) {
		fputs("kcfi-as: out of memory\n", stderr);
		exit(1);
	}
	struct kcfi_typeid r;
	if (kcfi_typeids_function(t->typeids, text, len, opts, &r, err))
		return -1;
	e->text = strndup(text, len);
	if (!e->text) {
		fputs("kcfi-as: out of memory\n", stderr);
		exit(1);
	}
	e->mangled = r.mangled;
	e->id = r.id;
	e->unprototyped = r.unprototyped;
	e->defined = true;
	return 0;
}
