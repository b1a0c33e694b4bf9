/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Declarators: the `*`, `[N]` and `(params)` around a (possibly absent) name.
 *
 * C writes derivations inside out: in `int (*(*)(int))(char)` the outermost
 * thing is the first `*`, the innermost the `(char)` next to `int`.  The
 * parser sees them in an order that does not match either end, but every
 * grammar rule only ever adds derivations *inside* what it already has, so a
 * declarator is a list from its innermost derivation (applied first, to the
 * specifiers' type) out to its outermost one.
 */
#ifndef KCFI_TYPEIDS_DECLARATOR_H
#define KCFI_TYPEIDS_DECLARATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "typeids/ctype.h"

enum deriv_kind { DV_POINTER, DV_ARRAY, DV_FUNCTION };

struct deriv {
	enum deriv_kind kind;
	unsigned column;		/* of its `*`, `[` or `(` */
	struct deriv *outer;
	unsigned quals;			/* `* const`, or `[const N]` */
	/* arrays */
	enum ctype_kind array_kind;	/* CT_ARRAY, CT_ARRAY_UNSIZED, CT_ARRAY_VLA */
	uint64_t count;
	bool bracket_extras;		/* qualifiers or `static` inside [] */
	/* functions */
	const struct ctype *const *params;
	size_t nparams;
	bool variadic, prototyped;
	enum ccall cc;			/* `(int) __attribute__((ms_abi))` */
	const char *salt;		/* `(int) __attribute__((cfi_salt("s")))`, or NULL */
};

struct declarator {
	struct deriv *inner, *outer;	/* both NULL: just a name */
	bool named;
	unsigned name_column;
};

/* A parameter list while it is being parsed. */
struct param_list {
	const struct ctype **v;		/* adjusted types */
	size_t n, cap;
	bool variadic;
	unsigned nvoid;			/* parameters of type void */
	unsigned void_column;		/* the first one */
	bool void_plain;		/* ... was a bare `void` */
};

enum decl_use { DECL_TYPE_NAME, DECL_PARAM };

struct declarator *decl_new(struct ctype_table *t);
struct declarator *decl_named(struct ctype_table *t, unsigned column);
/* Add D as the new innermost or outermost derivation of DECL; returns DECL
 * (NULL if either is NULL, after an error). */
struct declarator *decl_add_inner(struct declarator *decl, struct deriv *d);
struct declarator *decl_add_outer(struct declarator *decl, struct deriv *d);
/* DIRECT with the derivations of POINTERS inside it (`* D`). */
struct declarator *decl_join(struct declarator *direct, struct declarator *pointers);

struct deriv *deriv_pointer(struct ctype_table *t, unsigned quals, unsigned column);
/* KIND says which size form was written; EXTRAS that the brackets held
 * qualifiers or `static` (valid only in a parameter's outermost array). */
struct deriv *deriv_array(struct ctype_table *t, enum ctype_kind kind, uint64_t count,
			  unsigned quals, bool is_static, unsigned column);
/* PARAMS NULL: `()`, an unprototyped function. */
struct deriv *deriv_function(struct ctype_table *t, struct param_list *params, unsigned column);

/* A holder for the attributes after a parameter list (cc, salt) while the
 * parser reads them; never added to a declarator. */
struct deriv *deriv_new_attrs(struct ctype_table *t, unsigned column);

/* The type DECL (may be NULL) makes of BASE. */
const struct ctype *decl_apply(struct ctype_table *t, const struct ctype *base,
			       const struct declarator *decl, enum decl_use use);

struct param_list *params_new(struct ctype_table *t);
/* Append the parameter BASE DECL (DECL may be NULL) written at COLUMN.
 * Returns its adjusted type (a void one is counted, not appended), or NULL
 * after an error. */
const struct ctype *params_add(struct ctype_table *t, struct param_list *pl,
			       const struct ctype *base, const struct declarator *decl,
			       unsigned column);
/* Append TYPE, already adjusted and not void. */
bool params_append(struct ctype_table *t, struct param_list *pl, const struct ctype *type);

#endif
