#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmpass/typetab.h"

struct typetab_chunk {
	struct typetab_chunk *next;
	char bytes[];
};

static void out_of_memory(void)
{
	fputs("kcfi-as: out of memory\n", stderr);
	exit(1);
}

/* S[0..LEN) and a NUL, in the table's chunks. */
static const char *keep(struct typetab *t, const char *s, size_t len)
{
	if ((size_t)(t->free_end - t->free_from) < len + 1) {
		size_t size = len + 1 > 65536 ? len + 1 : 65536;
		struct typetab_chunk *c = malloc(sizeof(*c) + size);
		if (!c)
			out_of_memory();
		c->next = t->chunks;
		t->chunks = c;
		t->free_from = c->bytes;
		t->free_end = c->bytes + size;
	}
	char *p = t->free_from;
	memcpy(p, s, len);
	p[len] = '\0';
	t->free_from += len + 1;
	return p;
}

void typetab_free(struct typetab *t)
{
	while (t->chunks) {
		struct typetab_chunk *next = t->chunks->next;
		free(t->chunks);
		t->chunks = next;
	}
	t->free_from = t->free_end = NULL;
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
		if (!v)
			out_of_memory();
		memset(v + t->cap, 0, (cap - t->cap) * sizeof(*v));
		t->v = v;
		t->cap = cap;
	}
	struct type_entry *e = &t->v[id];
	if (e->defined) {
		if (e->text_len == len && memcmp(e->text, text, len) == 0)
			return 0;
		err->column = 0;
		snprintf(err->message, sizeof(err->message),
			 "type %u redefined as a different type (was \"%s\")", id, e->text);
		return -1;
	}
	if (!t->typeids && !(t->typeids = kcfi_typeids_new()))
		out_of_memory();
	struct kcfi_typeid r;
	if (kcfi_typeids_function(t->typeids, text, len, opts, &r, err))
		return -1;
	e->text = keep(t, text, len);
	e->text_len = len;
	kcfi_typeid_release(&r);
	e->id = r.id;
	e->unprototyped = r.unprototyped;
	e->defined = true;
	return 0;
}
