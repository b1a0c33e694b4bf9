/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "typeids/spec.h"

/* Modifier bits; M_LLONG stands for a second `long`. */
enum {
	M_SHORT = 1, M_LONG = 2, M_LLONG = 4, M_SIGN = 8, M_COMPLEX = 16, M_VECTOR = 32,
	M_SAT = 64,
	M_INTLIKE = M_SHORT | M_LONG | M_LLONG | M_SIGN | M_COMPLEX | M_VECTOR,
	M_FIXED = M_SHORT | M_LONG | M_LLONG | M_SIGN | M_SAT,
};

/* Which modifiers each main specifier accepts (C17 6.7.2p2 plus the GNU
 * extensions GCC prints: complex integers, __int128, vectors). */
static unsigned allowed(const struct spec *s)
{
	if (!s->has_main)	/* `unsigned long` etc.: int implied; `_Sat long`: wait for _Fract */
		return s->nsat ? M_FIXED : M_INTLIKE | M_SAT;
	switch (s->main) {
	case SW_INT:		return M_INTLIKE;
	case SW_CHAR:
	case SW_INT128:		return M_SIGN | M_COMPLEX | M_VECTOR;
	case SW_FLOAT:
	case SW_FLOAT16:	return M_COMPLEX | M_VECTOR;
	case SW_DOUBLE:		return M_LONG | M_COMPLEX | M_VECTOR;
	case SW_FLOAT128_GNU:
	case SW_FLOAT32:
	case SW_FLOAT64:
	case SW_FLOAT128:
	case SW_FLOAT32X:
	case SW_FLOAT64X:	return M_COMPLEX;
	case SW_BF16:		return M_VECTOR;
	case SW_BITINT:		return M_SIGN;
	case SW_FRACT:
	case SW_ACCUM:		return M_FIXED;	/* GCC's `long long _Fract` too */
	default:		return 0;
	}
}

static unsigned present(const struct spec *s)
{
	return (s->nshort ? M_SHORT : 0) | (s->nlong ? M_LONG : 0) | (s->nlong > 1 ? M_LLONG : 0) |
	       (s->nsigned + s->nunsigned ? M_SIGN : 0) | (s->ncomplex ? M_COMPLEX : 0) |
	       (s->nvector ? M_VECTOR : 0) | (s->nsat ? M_SAT : 0);
}

static struct spec_at where(const struct spec *s, unsigned modifier)
{
	switch (modifier) {
	case M_SHORT:	return s->short_at;
	case M_LONG:
	case M_LLONG:	return s->long_at;
	case M_SIGN:	return s->sign_at;
	case M_COMPLEX:	return s->complex_at;
	case M_SAT:	return s->sat_at;
	default:	return s->vector_at;
	}
}

static bool conflict(const struct spec *s, struct ctype_table *t, struct spec_at now,
		     struct spec_at before)
{
	unsigned a = now.len > 40 ? 40 : now.len, b = before.len > 40 ? 40 : before.len;
	ctype_error(t, now.column, "'%.*s' cannot be combined with '%.*s'",
		    (int)a, s->text + now.column - 1, (int)b, s->text + before.column - 1);
	return false;
}

void spec_init(struct spec *s, const char *text, unsigned column)
{
	*s = (struct spec){ 0 };
	s->text = text;
	s->column = column;
}

bool spec_add_qual(struct spec *s, struct ctype_table *t, unsigned qual, struct spec_at at)
{
	if (CQ_AS_OF(qual) && CQ_AS_OF(s->quals) && CQ_AS_OF(qual) != CQ_AS_OF(s->quals)) {
		ctype_error(t, at.column, "multiple address spaces specified for type");
		return false;
	}
	/* Repeating a qualifier is allowed (C17 6.7.3p5). */
	if ((qual & CQ_RESTRICT) && !(s->quals & CQ_RESTRICT))
		s->restrict_at = at;
	if ((qual & CQ_ATOMIC) && !(s->quals & CQ_ATOMIC))
		s->atomic_at = at;
	s->quals |= qual;
	return true;
}

static bool add_modifier(struct spec *s, struct ctype_table *t, unsigned m, struct spec_at at)
{
	unsigned *count;
	struct spec_at *first;
	switch (m) {
	case M_SHORT:	count = &s->nshort; first = &s->short_at; break;
	case M_LONG:	count = &s->nlong; first = &s->long_at; break;
	case M_COMPLEX:	count = &s->ncomplex; first = &s->complex_at; break;
	case M_SAT:	count = &s->nsat; first = &s->sat_at; break;
	default:	count = &s->nvector; first = &s->vector_at; break;
	}
	if (*count >= (m == M_LONG ? 2u : 1u)) {
		if (m == M_LONG)
			ctype_error(t, at.column, "'long long long' is too long");
		else
			ctype_error(t, at.column, "duplicate '%.*s'", (int)at.len,
				    s->text + at.column - 1);
		return false;
	}
	unsigned bit = m == M_LONG && *count ? M_LLONG : m;
	/* Modifiers that exclude each other, whatever the main specifier. */
	if ((m == M_SHORT && s->nlong) || (m == M_LONG && s->nshort))
		return conflict(s, t, at, m == M_SHORT ? s->long_at : s->short_at);
	if ((m == M_COMPLEX && s->nvector) || (m == M_VECTOR && s->ncomplex))
		return conflict(s, t, at, m == M_COMPLEX ? s->vector_at : s->complex_at);
	if (!(allowed(s) & bit))	/* without a main specifier, _Sat limits the rest */
		return conflict(s, t, at, s->has_main ? s->main_at : s->sat_at);
	if (!*count)
		*first = at;
	++*count;
	return true;
}

bool spec_add(struct spec *s, struct ctype_table *t, enum spec_word w, struct spec_at at,
	      uint64_t value, const struct ctype *type)
{
	switch (w) {
	case SW_SHORT:
		return add_modifier(s, t, M_SHORT, at);
	case SW_LONG:
		return add_modifier(s, t, M_LONG, at);
	case SW_COMPLEX:
		return add_modifier(s, t, M_COMPLEX, at);
	case SW_SAT:
		return add_modifier(s, t, M_SAT, at);
	case SW_VECTOR:
		if (!add_modifier(s, t, M_VECTOR, at))
			return false;
		s->lanes = value;
		return true;
	case SW_SIGNED:
	case SW_UNSIGNED:
		if (s->nsigned + s->nunsigned) {
			if ((w == SW_SIGNED) == (s->nsigned > 0)) {
				ctype_error(t, at.column, "duplicate '%.*s'", (int)at.len,
					    s->text + at.column - 1);
				return false;
			}
			return conflict(s, t, at, s->sign_at);
		}
		if (!(allowed(s) & M_SIGN))
			return conflict(s, t, at, s->main_at);
		s->sign_at = at;
		++*(w == SW_SIGNED ? &s->nsigned : &s->nunsigned);
		return true;
	default:
		break;
	}
	if (s->has_main)
		return conflict(s, t, at, s->main_at);
	s->has_main = true;
	s->main = w;
	s->main_at = at;
	s->given = type;
	s->bits = value;
	unsigned bad = present(s) & ~allowed(s);
	if (bad)
		return conflict(s, t, at, where(s, bad & -bad));
	return true;
}

static enum cbuiltin integer_builtin(const struct spec *s)
{
	bool u = s->nunsigned;
	if (s->has_main && s->main == SW_CHAR)
		return s->nsigned ? CB_SCHAR : u ? CB_UCHAR : CB_CHAR;
	if (s->has_main && s->main == SW_INT128)
		return u ? CB_UINT128 : CB_INT128;
	if (s->nshort)
		return u ? CB_USHORT : CB_SHORT;
	if (s->nlong == 1)
		return u ? CB_ULONG : CB_LONG;
	if (s->nlong == 2)
		return u ? CB_ULLONG : CB_LLONG;
	return u ? CB_UINT : CB_INT;
}

static const struct ctype *base_type(struct spec *s, struct ctype_table *t)
{
	static const enum cbuiltin direct[] = {
		[SW_VOID] = CB_VOID, [SW_FLOAT] = CB_FLOAT, [SW_BOOL] = CB_BOOL,
		[SW_FLOAT128_GNU] = CB_FLOAT128_GNU, [SW_BF16] = CB_BF16,
		[SW_FLOAT16] = CB_FLOAT16, [SW_FLOAT32] = CB_FLOAT32, [SW_FLOAT64] = CB_FLOAT64,
		[SW_FLOAT128] = CB_FLOAT128, [SW_FLOAT32X] = CB_FLOAT32X,
		[SW_FLOAT64X] = CB_FLOAT64X, [SW_DECIMAL32] = CB_DECIMAL32,
		[SW_DECIMAL64] = CB_DECIMAL64, [SW_DECIMAL128] = CB_DECIMAL128,
		[SW_NULLPTR] = CB_NULLPTR,
	};
	if (!s->has_main && s->nsat)
		return ctype_error(t, s->sat_at.column, "'_Sat' needs '_Fract' or '_Accum'");
	if (!s->has_main) {
		if (!(present(s) & (M_SHORT | M_LONG | M_SIGN))) {
			/* Only qualifiers, `_Complex` or `__vector(N)`: C has
			 * no implicit int any more. */
			struct spec_at at = s->ncomplex ? s->complex_at : s->vector_at;
			if (s->ncomplex + s->nvector)
				return ctype_error(t, at.column, "'%.*s' needs a type specifier",
						   (int)at.len, s->text + at.column - 1);
			return ctype_error(t, s->column, "type specifier missing");
		}
		return ctype_builtin(t, integer_builtin(s));
	}
	switch (s->main) {
	case SW_CHAR:
	case SW_INT:
	case SW_INT128:
		return ctype_builtin(t, integer_builtin(s));
	case SW_DOUBLE:
		return ctype_builtin(t, s->nlong ? CB_LDOUBLE : CB_DOUBLE);
	case SW_BITINT:
		return ctype_bitint(t, s->nunsigned, s->bits, s->main_at.column);
	case SW_GIVEN:
		return s->given;
	case SW_FRACT:
	case SW_ACCUM:
		return ctype_fixed(t, s->main == SW_ACCUM,
				   s->nshort ? CFX_SHORT : s->nlong == 1 ? CFX_LONG :
				   s->nlong == 2 ? CFX_LLONG : CFX_PLAIN,
				   s->nunsigned, s->nsat, s->main_at.column);
	default:
		return ctype_builtin(t, direct[s->main]);
	}
}

const struct ctype *spec_finish(struct spec *s, struct ctype_table *t)
{
	const struct ctype *type = base_type(s, t);
	if (s->ncomplex)
		type = ctype_complex(t, type, s->complex_at.column);
	if (s->nvector && type && type->kind == CT_BUILTIN && type->u.builtin == CB_LDOUBLE)
		return ctype_error(t, s->vector_at.column, "no vector of long double");
	if (s->nvector)
		type = ctype_vector(t, type, s->lanes, s->vector_at.column);
	if (s->quals & CQ_ATOMIC)
		type = ctype_qualified(t, type, CQ_ATOMIC, s->atomic_at.column);
	if (s->quals & ~CQ_ATOMIC)
		type = ctype_qualified(t, type, s->quals & ~CQ_ATOMIC,
				       s->quals & CQ_RESTRICT ? s->restrict_at.column : s->column);
	return type;
}
