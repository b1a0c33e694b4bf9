/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Specifier lists: `unsigned long int`, `const struct s`, `double _Complex`.
 *
 * C lets specifiers come in any order, so the parser hands them over one at a
 * time and this module checks each against what came before (the error points
 * at the specifier that made the list invalid), then builds the base type.
 */
#ifndef KCFI_TYPEIDS_SPEC_H
#define KCFI_TYPEIDS_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "typeids/ctype.h"

/* Specifiers, as the lexer classifies keywords.  The first group names a
 * type ("main" specifiers, at most one per list); SW_SHORT..SW_VECTOR only
 * modify one. */
enum spec_word {
	SW_VOID, SW_CHAR, SW_INT, SW_FLOAT, SW_DOUBLE, SW_BOOL,
	SW_INT128, SW_FLOAT128_GNU, SW_BF16,
	SW_FLOAT16, SW_FLOAT32, SW_FLOAT64, SW_FLOAT128, SW_FLOAT32X, SW_FLOAT64X,
	SW_DECIMAL32, SW_DECIMAL64, SW_DECIMAL128, SW_NULLPTR,
	SW_FRACT, SW_ACCUM,	/* fixed point: sizes, signedness and _Sat from the list */
	SW_BITINT,		/* _BitInt(N): signedness comes from the list */
	SW_GIVEN,		/* struct/union/enum TAG, _Atomic(type-name) */
	SW_SHORT, SW_LONG, SW_SIGNED, SW_UNSIGNED, SW_COMPLEX, SW_VECTOR, SW_SAT,
};

/* Where a specifier was written, for messages that quote it. */
struct spec_at {
	unsigned column;	/* 1-based */
	unsigned len;
};

struct spec {
	const char *text;	/* the whole prototype, for quoting spellings */
	unsigned column;	/* of the first specifier or qualifier */
	unsigned quals;		/* CQ_* */
	struct spec_at restrict_at, atomic_at;

	bool has_main;
	enum spec_word main;
	struct spec_at main_at;
	const struct ctype *given;	/* SW_GIVEN */
	uint64_t bits;			/* SW_BITINT */

	/* Modifier counts and where each was first written. */
	unsigned nshort, nlong, nsigned, nunsigned, ncomplex, nvector, nsat;
	struct spec_at short_at, long_at, sign_at, complex_at, vector_at, sat_at;
	uint64_t lanes;			/* __vector(N) */
};

void spec_init(struct spec *s, const char *text, unsigned column);
/* False (error in T) for a second, different address space. */
bool spec_add_qual(struct spec *s, struct ctype_table *t, unsigned qual, struct spec_at at);
/* Any specifier; VALUE is N of _BitInt(N) and __vector(N), TYPE the type of
 * SW_GIVEN.  False with the error recorded in T. */
bool spec_add(struct spec *s, struct ctype_table *t, enum spec_word w, struct spec_at at,
	      uint64_t value, const struct ctype *type);
/* The qualified base type, or NULL with the error recorded in T. */
const struct ctype *spec_finish(struct spec *s, struct ctype_table *t);

#endif
