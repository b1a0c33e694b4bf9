/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Itanium C++ ABI mangling of C types, as Clang's mangleCanonicalTypeName
 * produces it for KCFI: "_ZTS" + <type> [+ "." + salt] [+ ".normalized"]
 * [+ ".generalized"].
 */
#ifndef KCFI_TYPEIDS_MANGLE_H
#define KCFI_TYPEIDS_MANGLE_H

#include "typeids/ctype.h"
#include "typeids/typeid.h"

/* The malloc'd mangled name of TYPE (a node of TYPES), or NULL with the
 * error recorded in TYPES.  SALT (NULL or "" for none) is the cfi_salt of
 * the function type whose id this is: Clang appends only that one, never
 * the salts of function types inside it. */
char *mangle_type(struct ctype_table *types, const struct ctype *type,
		  const struct kcfi_typeid_opts *opts, const char *salt);

#endif
