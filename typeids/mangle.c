/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typeids/mangle.h"

/* Itanium substitutions: every component that is not a builtin type becomes
 * a candidate once it has been written out in full (so components are
 * numbered innermost first, as Clang's mangleType adds them after recursing),
 * and a later occurrence is written as S_, S0_, S1_, ... instead.  Types are
 * hash-consed, so "the same component" is "the same node", whose candidate
 * number is kept in the node itself, stamped with the mangling it belongs
 * to: O(1), and nothing to clear in a table that holds a whole TU's types.
 *
 * With integer normalization, integer builtins are written as vendor types
 * (u3i32, ...) that *are* candidates, one per width and signedness whatever
 * the C spelling: Clang registers them under a representative builtin.
 */

#define NORM_SLOTS 10		/* 8..128 bits, signed and unsigned */

struct mangler {
	char *buf;
	size_t len, cap;
	bool oom;
	unsigned stamp;		/* this mangling's generation */
	int norm[NORM_SLOTS];
	int next;		/* next candidate number */
	const struct kcfi_typeid_opts *opts;
};

static bool grow(struct mangler *m, size_t n)
{
	size_t cap = m->cap * 2;
	while (cap < m->len + n + 1)
		cap *= 2;
	char *b = realloc(m->buf, cap);
	if (!b) {
		m->oom = true;
		return false;
	}
	m->buf = b;
	m->cap = cap;
	return true;
}

/* Inline: nearly every call writes one to three constant bytes, which the
 * compiler then stores directly. */
static inline void put(struct mangler *m, const char *s, size_t n)
{
	if (m->len + n + 1 > m->cap && !grow(m, n))
		return;
	memcpy(m->buf + m->len, s, n);
	m->len += n;
	m->buf[m->len] = '\0';
}

static void puts_(struct mangler *m, const char *s)
{
	put(m, s, strlen(s));
}

/* Decimal, by hand: snprintf would cost more than all the rest of a
 * mangling together. */
static void put_number(struct mangler *m, uint64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);
	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(m, tmp + n, sizeof(tmp) - n);
}

/* <substitution> ::= S_ | S <seq-id> _, seq-id in base 36 counting from
 * the second candidate. */
static void put_substitution(struct mangler *m, int index)
{
	char tmp[16];
	size_t n = sizeof(tmp);
	tmp[--n] = '_';
	if (index > 0) {
		unsigned v = (unsigned)index - 1;
		do {
			tmp[--n] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 36];
			v /= 36;
		} while (v);
	}
	tmp[--n] = 'S';
	put(m, tmp + n, sizeof(tmp) - n);
}

/* Slot in m->norm and spelling of a normalized integer, or -1. */
static int norm_slot(const struct mangler *m, enum cbuiltin b)
{
	const struct cbuiltin_info *bi = &cbuiltin_info[b];
	if (!m->opts->normalize_integers || bi->cls != CBC_INTEGER)
		return -1;
	unsigned bits = bi->bits;
	bool is_signed = bi->is_signed;
	if (b == CB_CHAR) {
		bits = 8;
		is_signed = m->opts->model.char_signed;
	} else if (b == CB_LONG || b == CB_ULONG) {
		bits = m->opts->model.long_bits;
	}
	int slot = bits == 8 ? 0 : bits == 16 ? 2 : bits == 32 ? 4 : bits == 64 ? 6 : 8;
	return slot + !is_signed;
}

static const char *const norm_name[NORM_SLOTS] = {
	"u2i8", "u2u8", "u3i16", "u3u16", "u3i32", "u3u32", "u3i64", "u3u64", "u4i128", "u4u128",
};

static void mangle(struct mangler *m, const struct ctype *t);

static void mangle_builtin(struct mangler *m, enum cbuiltin b)
{
	int slot = norm_slot(m, b);
	if (slot < 0) {
		puts_(m, cbuiltin_info[b].code);
		return;
	}
	if (m->norm[slot] >= 0) {
		put_substitution(m, m->norm[slot]);
		return;
	}
	puts_(m, norm_name[slot]);
	m->norm[slot] = m->next++;
}

static void mangle_function(struct mangler *m, const struct ctype *t)
{
	/* Clang writes no 'Y' (extern "C") and, for C's T (), no parameter
	 * list at all.  A calling convention is a vendor qualifier of a
	 * prototyped function type (Clang's FunctionNoProtoType mangling has
	 * none); the whole is one substitution candidate. */
	static const char *const cc_names[] = {
		[CC_MS_ABI] = "U6ms_abi", [CC_STDCALL] = "U7stdcall", [CC_FASTCALL] = "U8fastcall",
	};
	if (t->u.fn.cc != CC_DEFAULT && t->u.fn.prototyped)
		puts_(m, cc_names[t->u.fn.cc]);
	put(m, "F", 1);
	mangle(m, t->inner);
	if (t->u.fn.prototyped) {
		if (!t->u.fn.nparams && !t->u.fn.variadic)
			put(m, "v", 1);
		for (size_t i = 0; i < t->u.fn.nparams; i++)
			mangle(m, t->u.fn.params[i]);
		if (t->u.fn.variadic)
			put(m, "z", 1);
	}
	put(m, "E", 1);
}

/* Fixed-point types have no Itanium code that GCC and Clang share (Clang's
 * DA/DR/DS are not in the ABI document), so they are vendor types named
 * after their C spelling: `_Sat unsigned long _Accum` is
 * u22_Sat_unsigned_long_Accum, `_Fract` is u6_Fract.  Distinct types get
 * distinct names; like every vendor type each is a substitution candidate. */
static void mangle_fixed(struct mangler *m, const struct ctype *t)
{
	static const char *const sizes[] = {
		[CFX_SHORT] = "_short", [CFX_PLAIN] = "", [CFX_LONG] = "_long",
		[CFX_LLONG] = "_long_long",
	};
	char name[64];
	int n = snprintf(name, sizeof(name), "%s%s%s%s", t->u.fixed.sat ? "_Sat" : "",
			 t->u.fixed.is_unsigned ? "_unsigned" : "", sizes[t->u.fixed.size],
			 t->u.fixed.accum ? "_Accum" : "_Fract");
	put(m, "u", 1);
	put_number(m, (uint64_t)n);
	put(m, name, (size_t)n);
}

static void mangle_address_space(struct mangler *m, unsigned as)
{
	char digits[16];
	int n = snprintf(digits, sizeof(digits), "%u", as);
	put(m, "U", 1);
	put_number(m, (uint64_t)n + 2);
	put(m, "AS", 2);
	put(m, digits, (size_t)n);
}

static void mangle(struct mangler *m, const struct ctype *t)
{
	if (t->kind == CT_BUILTIN) {
		mangle_builtin(m, t->u.builtin);
		return;
	}
	if (t->subst_stamp == m->stamp) {
		put_substitution(m, t->subst);
		return;
	}
	switch (t->kind) {
	case CT_BUILTIN:
		break;
	case CT_TAG:
		put_number(m, t->u.tag.len);
		put(m, t->u.tag.name, t->u.tag.len);
		break;
	case CT_BITINT:
		put(m, t->u.bitint.is_unsigned ? "DU" : "DB", 2);
		put_number(m, t->u.bitint.bits);
		put(m, "_", 1);
		break;
	case CT_COMPLEX:
		put(m, "C", 1);
		mangle(m, t->inner);
		break;
	case CT_VECTOR:
		put(m, "Dv", 2);
		put_number(m, t->u.count);
		put(m, "_", 1);
		mangle(m, t->inner);
		break;
	case CT_QUAL:
		/* <CV-qualifiers> ::= [r] [V] [K]; the whole set is one
		 * candidate, as in Clang.  An address space is Clang's
		 * vendor qualifier U<len>AS<n>, written before them (the
		 * Itanium order: vendor qualifiers farthest from the type). */
		if (CQ_AS_OF(t->u.quals))
			mangle_address_space(m, CQ_AS_OF(t->u.quals));
		if (t->u.quals & CQ_RESTRICT)
			put(m, "r", 1);
		if (t->u.quals & CQ_VOLATILE)
			put(m, "V", 1);
		if (t->u.quals & CQ_CONST)
			put(m, "K", 1);
		mangle(m, t->inner);
		break;
	case CT_ATOMIC:
		/* Clang's AtomicType: a vendor-extended type qualifier that
		 * sits inside the cv-qualifiers (`const _Atomic int` is
		 * KU7_Atomici). */
		put(m, "U7_Atomic", 9);
		mangle(m, t->inner);
		break;
	case CT_POINTER:
		put(m, "P", 1);
		mangle(m, t->inner);
		break;
	case CT_ARRAY:
		put(m, "A", 1);
		put_number(m, t->u.count);
		put(m, "_", 1);
		mangle(m, t->inner);
		break;
	case CT_ARRAY_UNSIZED:
	case CT_ARRAY_VLA:
		/* Clang drops a VLA's size expression in canonical types. */
		put(m, "A_", 2);
		mangle(m, t->inner);
		break;
	case CT_FUNCTION:
		mangle_function(m, t);
		break;
	case CT_FIXED:
		mangle_fixed(m, t);
		break;
	}
	/* The table owns its nodes (never read-only memory); const is for
	 * everyone else. */
	struct ctype *n = (struct ctype *)t;
	n->subst = m->next++;
	n->subst_stamp = m->stamp;
}

char *mangle_type(struct ctype_table *types, const struct ctype *type,
		  const struct kcfi_typeid_opts *opts, const char *salt)
{
	struct mangler m = { .opts = opts, .cap = 128, .stamp = ++types->mangling };
	m.buf = malloc(m.cap);
	if (!m.buf)
		return ctype_error(types, 0, "out of memory");
	memset(m.norm, 0xff, sizeof(m.norm));
	m.buf[0] = '\0';

	puts_(&m, "_ZTS");
	mangle(&m, type);
	/* Clang hashes "<name>.<salt>", the salt before ".normalized". */
	if (salt && *salt) {
		put(&m, ".", 1);
		puts_(&m, salt);
	}
	if (opts->normalize_integers)
		puts_(&m, ".normalized");
	/* Only a function type is generalized (typeid.c), and only its name
	 * says so. */
	if (opts->generalize_pointers && type->kind == CT_FUNCTION)
		puts_(&m, ".generalized");
	if (m.oom) {
		free(m.buf);
		return ctype_error(types, 0, "out of memory");
	}
	return m.buf;
}
