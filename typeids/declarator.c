/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <string.h>

#include "typeids/declarator.h"

static void *alloc(struct ctype_table *t, size_t size)
{
	if (t->failed)
		return NULL;
	void *p = arena_zalloc(t->scratch, size);
	if (!p)
		ctype_error(t, 0, "out of memory");
	return p;
}

struct declarator *decl_new(struct ctype_table *t)
{
	return alloc(t, sizeof(struct declarator));
}

struct declarator *decl_named(struct ctype_table *t, unsigned column)
{
	struct declarator *decl = decl_new(t);
	if (decl) {
		decl->named = true;
		decl->name_column = column;
	}
	return decl;
}

struct declarator *decl_add_inner(struct declarator *decl, struct deriv *d)
{
	if (!decl || !d)
		return NULL;
	d->outer = decl->inner;
	decl->inner = d;
	if (!decl->outer)
		decl->outer = d;
	return decl;
}

struct declarator *decl_add_outer(struct declarator *decl, struct deriv *d)
{
	if (!decl || !d)
		return NULL;
	if (decl->outer)
		decl->outer->outer = d;
	else
		decl->inner = d;
	decl->outer = d;
	return decl;
}

struct declarator *decl_join(struct declarator *direct, struct declarator *pointers)
{
	if (!direct || !pointers)
		return NULL;
	if (pointers->inner) {
		pointers->outer->outer = direct->inner;
		direct->inner = pointers->inner;
		if (!direct->outer)
			direct->outer = pointers->outer;
	}
	return direct;
}

static struct deriv *deriv_new(struct ctype_table *t, enum deriv_kind kind, unsigned column)
{
	struct deriv *d = alloc(t, sizeof(*d));
	if (d) {
		d->kind = kind;
		d->column = column;
	}
	return d;
}

struct deriv *deriv_pointer(struct ctype_table *t, unsigned quals, unsigned column)
{
	struct deriv *d = deriv_new(t, DV_POINTER, column);
	if (d)
		d->quals = quals;
	return d;
}

struct deriv *deriv_array(struct ctype_table *t, enum ctype_kind kind, uint64_t count,
			  unsigned quals, bool is_static, unsigned column)
{
	if (is_static && kind != CT_ARRAY)
		return ctype_error(t, column, "'static' in an array declarator needs a size");
	struct deriv *d = deriv_new(t, DV_ARRAY, column);
	if (d) {
		d->array_kind = kind;
		d->count = count;
		d->quals = quals;
		d->bracket_extras = quals || is_static;
	}
	return d;
}

struct deriv *deriv_new_attrs(struct ctype_table *t, unsigned column)
{
	return deriv_new(t, DV_FUNCTION, column);
}

struct deriv *deriv_function(struct ctype_table *t, struct param_list *pl, unsigned column)
{
	struct deriv *d = deriv_new(t, DV_FUNCTION, column);
	if (!d)
		return NULL;
	if (!pl)
		return d;	/* T (): no prototype */
	d->prototyped = true;
	d->variadic = pl->variadic;
	if (pl->nvoid) {
		/* `(void)` means no parameters; any other use of void as a
		 * parameter type is an error (C17 6.7.6.3p10). */
		if (pl->n || pl->variadic || pl->nvoid > 1)
			return ctype_error(t, pl->void_column, "'void' must be the only parameter");
		if (!pl->void_plain)
			return ctype_error(t, pl->void_column,
					   "'void' as the only parameter cannot be qualified or named");
		return d;
	}
	d->params = pl->v;
	d->nparams = pl->n;
	return d;
}

const struct ctype *decl_apply(struct ctype_table *t, const struct ctype *type,
			       const struct declarator *decl, enum decl_use use)
{
	if (!decl)
		return type;
	if (decl->named && use == DECL_TYPE_NAME)
		return ctype_error(t, decl->name_column, "unexpected identifier in a type name");
	for (const struct deriv *d = decl->inner; d && type; d = d->outer) {
		switch (d->kind) {
		case DV_POINTER:
			type = ctype_pointer(t, type, d->column);
			type = ctype_qualified(t, type, d->quals, d->column);
			break;
		case DV_ARRAY:
			if (d->bracket_extras && (use != DECL_PARAM || d != decl->outer))
				return ctype_error(t, d->column, "qualifiers and 'static' in [] are only "
						   "allowed in the outermost array type of a parameter");
			/* [*] outside parameters: the type of a VLA object, as
			 * the plugin prints it for typeof; Clang's A_ too. */
			type = ctype_array(t, d->array_kind, type, d->count, d->column);
			/* The bracket qualifiers qualify the pointer the array
			 * decays to: a top-level qualifier of the parameter,
			 * not part of the function type.  Clang drops even
			 * _Atomic there, so there is nothing to keep. */
			break;
		case DV_FUNCTION:
			type = ctype_function(t, type, d->params, d->nparams, d->variadic,
					      d->prototyped, d->cc, d->salt, d->column);
			break;
		}
	}
	return type;
}

struct param_list *params_new(struct ctype_table *t)
{
	return alloc(t, sizeof(struct param_list));
}

const struct ctype *params_add(struct ctype_table *t, struct param_list *pl,
			       const struct ctype *base, const struct declarator *decl,
			       unsigned column)
{
	const struct ctype *type = decl_apply(t, base, decl, DECL_PARAM);
	if (!type || !pl)
		return NULL;
	if (ctype_is_void(ctype_unqualified(type))) {
		if (!pl->nvoid++) {
			pl->void_column = column;
			pl->void_plain = type->kind != CT_QUAL && !(decl && decl->named);
		}
		return type;
	}
	type = ctype_adjust_param(t, type, column);
	return type && params_append(t, pl, type) ? type : NULL;
}

bool params_append(struct ctype_table *t, struct param_list *pl, const struct ctype *type)
{
	if (pl->n == pl->cap) {
		size_t cap = pl->cap ? pl->cap * 2 : 8;
		const struct ctype **v = alloc(t, cap * sizeof(*v));
		if (!v)
			return false;
		if (pl->n)
			memcpy(v, pl->v, pl->n * sizeof(*v));
		pl->v = v;
		pl->cap = cap;
	}
	pl->v[pl->n++] = type;
	return true;
}
