/* Itanium C++ ABI mangling of C types, as Clang's mangleCanonicalTypeName
 * produces it for KCFI: "_ZTS" + <type> [+ ".normalized"].
 */
#ifndef KCFI_TYPEIDS_MANGLE_H
#define KCFI_TYPEIDS_MANGLE_H

#include "typeids/ctype.h"
#include "typeids/typeid.h"

/* The malloc'd mangled name of TYPE (a node of TYPES), or NULL with the
 * error recorded in TYPES. */
char *mangle_type(struct ctype_table *types, const struct ctype *type,
		  const struct kcfi_typeid_opts *opts);

#endif
