/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typeids/ctype.h"

/* Itanium codes as Clang emits them; long double is `e` on every target
 * Clang supports for KCFI (x86_64 80-bit, aarch64/riscv64 binary128 alike). */
const struct cbuiltin_info cbuiltin_info[CB_COUNT] = {
	[CB_VOID]	= { "void", "v", CBC_VOID, 0, false },
	[CB_BOOL]	= { "_Bool", "b", CBC_INTEGER, 8, false },
	[CB_CHAR]	= { "char", "c", CBC_INTEGER, 0, false },
	[CB_SCHAR]	= { "signed char", "a", CBC_INTEGER, 8, true },
	[CB_UCHAR]	= { "unsigned char", "h", CBC_INTEGER, 8, false },
	[CB_SHORT]	= { "short", "s", CBC_INTEGER, 16, true },
	[CB_USHORT]	= { "unsigned short", "t", CBC_INTEGER, 16, false },
	[CB_INT]	= { "int", "i", CBC_INTEGER, 32, true },
	[CB_UINT]	= { "unsigned int", "j", CBC_INTEGER, 32, false },
	[CB_LONG]	= { "long", "l", CBC_INTEGER, 0, true },
	[CB_ULONG]	= { "unsigned long", "m", CBC_INTEGER, 0, false },
	[CB_LLONG]	= { "long long", "x", CBC_INTEGER, 64, true },
	[CB_ULLONG]	= { "unsigned long long", "y", CBC_INTEGER, 64, false },
	[CB_INT128]	= { "__int128", "n", CBC_INTEGER, 128, true },
	[CB_UINT128]	= { "unsigned __int128", "o", CBC_INTEGER, 128, false },
	[CB_FLOAT]	= { "float", "f", CBC_FLOAT, 0, false },
	[CB_DOUBLE]	= { "double", "d", CBC_FLOAT, 0, false },
	[CB_LDOUBLE]	= { "long double", "e", CBC_FLOAT, 0, false },
	[CB_FLOAT128_GNU] = { "__float128", "g", CBC_FLOAT, 0, false },
	[CB_FLOAT16]	= { "_Float16", "DF16_", CBC_FLOAT, 0, false },
	[CB_BF16]	= { "__bf16", "DF16b", CBC_FLOAT, 0, false },
	[CB_FLOAT32]	= { "_Float32", "DF32_", CBC_FLOAT, 0, false },
	[CB_FLOAT64]	= { "_Float64", "DF64_", CBC_FLOAT, 0, false },
	[CB_FLOAT128]	= { "_Float128", "DF128_", CBC_FLOAT, 0, false },
	[CB_FLOAT32X]	= { "_Float32x", "DF32x", CBC_FLOAT, 0, false },
	[CB_FLOAT64X]	= { "_Float64x", "DF64x", CBC_FLOAT, 0, false },
	[CB_DECIMAL32]	= { "_Decimal32", "Df", CBC_DECIMAL, 0, false },
	[CB_DECIMAL64]	= { "_Decimal64", "Dd", CBC_DECIMAL, 0, false },
	[CB_DECIMAL128]	= { "_Decimal128", "De", CBC_DECIMAL, 0, false },
	[CB_NULLPTR]	= { "nullptr_t", "Dn", CBC_NULLPTR, 0, false },
};

void ctype_table_init(struct ctype_table *t, struct arena *a, struct arena *scratch,
		      struct kcfi_type_error *err)
{
	memset(t, 0, sizeof(*t));
	t->arena = a;
	t->scratch = scratch;
	t->err = err;
	t->prototype = 1;
	t->nodes = HTAB_INIT(struct ctype, next_in_bucket, hash, 64);
}

void ctype_table_next(struct ctype_table *t, struct kcfi_type_error *err)
{
	t->err = err;
	t->failed = false;
	t->prototype++;
}

void *ctype_error(struct ctype_table *t, unsigned column, const char *fmt, ...)
{
	if (t->failed)
		return NULL;
	t->failed = true;
	t->err->column = column;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->err->message, sizeof(t->err->message), fmt, ap);
	va_end(ap);
	return NULL;
}

static void *out_of_memory(struct ctype_table *t)
{
	return ctype_error(t, 0, "out of memory");
}

_Static_assert(sizeof(struct ctype) <= 64, "struct ctype grew");

/* ---- interning ---- */

static uint32_t mix(uint32_t h, uint64_t v)
{
	h ^= (uint32_t)v ^ (uint32_t)(v >> 32);
	h *= 0x9e3779b1u;
	return h ^ (h >> 15);
}

static uint32_t hash_of(const struct ctype *k)
{
	uint32_t h = mix(0x811c9dc5u, k->kind);
	if (k->inner)
		h = mix(h, k->inner->serial);
	switch (k->kind) {
	case CT_BUILTIN:
		h = mix(h, k->u.builtin);
		break;
	case CT_TAG:
		/* Not the tag kind: `struct x` and `union x` must meet in one
		 * bucket for the conflict check in ctype_tag. */
		for (size_t i = 0; i < k->u.tag.len; i++)
			h = mix(h, (unsigned char)k->u.tag.name[i]);
		break;
	case CT_BITINT:
		h = mix(h, k->u.bitint.bits * 2u + k->u.bitint.is_unsigned);
		break;
	case CT_VECTOR:
	case CT_ARRAY:
		h = mix(h, k->u.count);
		break;
	case CT_QUAL:
		h = mix(h, k->u.quals);
		break;
	case CT_FIXED:
		h = mix(h, k->u.fixed.accum * 16u + k->u.fixed.size * 4u + k->u.fixed.is_unsigned * 2u +
			   k->u.fixed.sat);
		break;
	case CT_FUNCTION:
		h = mix(h, k->u.fn.nparams * 8u + k->u.fn.cc * 4u + k->u.fn.variadic * 2u +
			   k->u.fn.prototyped);
		for (size_t i = 0; i < k->u.fn.nparams; i++)
			h = mix(h, k->u.fn.params[i]->serial);
		for (const char *c = k->u.fn.salt; c && *c; c++)
			h = mix(h, (unsigned char)*c);
		break;
	default:
		break;
	}
	return h;
}

static bool same(const struct ctype *a, const struct ctype *k)
{
	if (a->kind != k->kind || a->inner != k->inner)
		return false;
	switch (k->kind) {
	case CT_BUILTIN:
		return a->u.builtin == k->u.builtin;
	case CT_TAG:
		return a->u.tag.kind == k->u.tag.kind && a->u.tag.len == k->u.tag.len &&
		       memcmp(a->u.tag.name, k->u.tag.name, k->u.tag.len) == 0;
	case CT_BITINT:
		return a->u.bitint.bits == k->u.bitint.bits &&
		       a->u.bitint.is_unsigned == k->u.bitint.is_unsigned;
	case CT_VECTOR:
	case CT_ARRAY:
		return a->u.count == k->u.count;
	case CT_QUAL:
		return a->u.quals == k->u.quals;
	case CT_FIXED:
		return a->u.fixed.accum == k->u.fixed.accum && a->u.fixed.size == k->u.fixed.size &&
		       a->u.fixed.is_unsigned == k->u.fixed.is_unsigned &&
		       a->u.fixed.sat == k->u.fixed.sat;
	case CT_FUNCTION:
		if (a->u.fn.nparams != k->u.fn.nparams || a->u.fn.variadic != k->u.fn.variadic ||
		    a->u.fn.prototyped != k->u.fn.prototyped || a->u.fn.cc != k->u.fn.cc)
			return false;
		if (!a->u.fn.salt != !k->u.fn.salt ||
		    (a->u.fn.salt && strcmp(a->u.fn.salt, k->u.fn.salt)))
			return false;
		for (size_t i = 0; i < k->u.fn.nparams; i++)
			if (a->u.fn.params[i] != k->u.fn.params[i])
				return false;
		return true;
	case CT_ARRAY_VLA:
		return false;
	default:
		return true;
	}
}

void ctype_table_release(struct ctype_table *t)
{
	htab_release(&t->nodes);
}

/* KEY's depth, or 0 with an error when it nests too deep. */
static unsigned depth_of(struct ctype_table *t, const struct ctype *key, unsigned column)
{
	unsigned depth = key->inner ? key->inner->depth : 0;
	if (key->kind == CT_FUNCTION)
		for (size_t i = 0; i < key->u.fn.nparams; i++)
			if (key->u.fn.params[i]->depth > depth)
				depth = key->u.fn.params[i]->depth;
	if (depth >= CTYPE_MAX_DEPTH) {
		ctype_error(t, column, "type nested too deeply (limit %d)", CTYPE_MAX_DEPTH);
		return 0;
	}
	return depth + 1;
}

/* The node equal to KEY, created on first use.  KEY's function parameter
 * array is copied into the arena. */
static const struct ctype *intern(struct ctype_table *t, const struct ctype *key, unsigned column)
{
	if (t->failed)
		return NULL;
	unsigned depth = depth_of(t, key, column);
	if (!depth)
		return NULL;

	uint32_t h = hash_of(key);
	if (!htab_reserve(&t->nodes))
		return out_of_memory(t);
	for (struct ctype *c = htab_first(&t->nodes, h); c; c = c->next_in_bucket)
		if (c->hash == h && same(c, key))
			return c;

	struct ctype *n = arena_zalloc(t->arena, sizeof(*n));
	if (!n)
		return out_of_memory(t);
	*n = *key;
	if (key->kind == CT_TAG) {
		/* KEY points into the prototype text, which the table outlives. */
		char *name = arena_zalloc(t->arena, key->u.tag.len + 1);
		if (!name)
			return out_of_memory(t);
		memcpy(name, key->u.tag.name, key->u.tag.len);
		n->u.tag.name = name;
	}
	if (key->kind == CT_FUNCTION && key->u.fn.nparams) {
		const struct ctype **p = arena_zalloc(t->arena, key->u.fn.nparams * sizeof(*p));
		if (!p)
			return out_of_memory(t);
		memcpy(p, key->u.fn.params, key->u.fn.nparams * sizeof(*p));
		n->u.fn.params = p;
	}
	if (key->kind == CT_FUNCTION && key->u.fn.salt) {
		size_t len = strlen(key->u.fn.salt);
		char *salt = arena_zalloc(t->arena, len + 1);
		if (!salt)
			return out_of_memory(t);
		memcpy(salt, key->u.fn.salt, len);
		n->u.fn.salt = salt;
	}
	n->serial = (unsigned)t->count++;
	n->depth = (uint16_t)depth;
	n->hash = h;
	/* A VLA is never found again: Clang does not unify VLA types, so two
	 * `int (*)[*]` parameters are mangled in full, never substituted. */
	if (key->kind != CT_ARRAY_VLA)
		htab_add(&t->nodes, n, h);
	return n;
}

/* ---- constructors ---- */

const struct ctype *ctype_builtin(struct ctype_table *t, enum cbuiltin b)
{
	if (!t->builtins[b]) {
		struct ctype k = { .kind = CT_BUILTIN, .u.builtin = b };
		t->builtins[b] = intern(t, &k, 0);
	}
	return t->builtins[b];
}

const struct ctype *ctype_tag(struct ctype_table *t, enum ctag_kind kind,
			      const char *name, size_t len, unsigned column)
{
	struct ctype k = { .kind = CT_TAG, .u.tag = { .name = name, .len = (uint32_t)len, .kind = kind } };
	const struct ctype *n = intern(t, &k, column);
	return n && ctype_tag_named(t, n, column) ? n : NULL;
}

bool ctype_tag_named(struct ctype_table *t, const struct ctype *tag, unsigned column)
{
	static const char *const kw[] = { "struct", "union", "enum" };
	if (t->failed)
		return false;
	/* One name, one tag: `struct x` and `union x` cannot both exist in the
	 * scope one prototype is written in.  (Different prototypes may come
	 * from different scopes, hence the stamps.) */
	const char *name = tag->u.tag.name;
	size_t len = tag->u.tag.len;
	for (const struct ctype *c = htab_first(&t->nodes, tag->hash); c; c = c->next_in_bucket)
		if (c->kind == CT_TAG && c->u.tag.kind != tag->u.tag.kind &&
		    c->named_stamp == t->prototype && c->u.tag.len == len &&
		    memcmp(c->u.tag.name, name, len) == 0) {
			ctype_error(t, column, "'%s %.*s' conflicts with '%s %.*s'",
				    kw[tag->u.tag.kind], (int)(len > 60 ? 60 : len), name,
				    kw[c->u.tag.kind], (int)(len > 60 ? 60 : len), name);
			return false;
		}
	/* The table owns its nodes (never read-only memory); const is for
	 * everyone else. */
	((struct ctype *)tag)->named_stamp = t->prototype;
	return true;
}

/* Clang's limit (llvm::IntegerType::MAX_INT_BITS). */
#define BITINT_MAX 8388608u

const struct ctype *ctype_bitint(struct ctype_table *t, bool is_unsigned, uint64_t bits,
				 unsigned column)
{
	uint64_t min = is_unsigned ? 1 : 2;
	if (bits < min || bits > BITINT_MAX)
		return ctype_error(t, column, "%s_BitInt width must be between %u and %u",
				   is_unsigned ? "unsigned " : "", (unsigned)min, BITINT_MAX);
	struct ctype k = { .kind = CT_BITINT, .u.bitint = { (uint32_t)bits, is_unsigned } };
	return intern(t, &k, column);
}

const struct ctype *ctype_complex(struct ctype_table *t, const struct ctype *elem,
				  unsigned column)
{
	if (!elem)
		return NULL;
	/* Callers only pass integer and binary floating builtins other than
	 * _Bool and __bf16 (checked by the specifier rules). */
	struct ctype k = { .kind = CT_COMPLEX, .inner = elem };
	return intern(t, &k, column);
}

const struct ctype *ctype_vector(struct ctype_table *t, const struct ctype *elem,
				 uint64_t lanes, unsigned column)
{
	if (!elem)
		return NULL;
	if (lanes == 0 || lanes > 65536 || (lanes & (lanes - 1)))
		return ctype_error(t, column, "vector lane count must be a power of two up to 65536");
	struct ctype k = { .kind = CT_VECTOR, .inner = elem, .u.count = lanes };
	return intern(t, &k, column);
}

const struct ctype *ctype_unqualified(const struct ctype *type)
{
	return type->kind == CT_QUAL ? type->inner : type;
}

static bool is_array(const struct ctype *type)
{
	return type->kind == CT_ARRAY || type->kind == CT_ARRAY_UNSIZED ||
	       type->kind == CT_ARRAY_VLA;
}

const struct ctype *ctype_qualified(struct ctype_table *t, const struct ctype *type,
				    unsigned quals, unsigned column)
{
	if (!type)
		return NULL;
	if (!quals)
		return type;
	if (is_array(type)) {
		/* C17 6.7.3p10: qualifying an array qualifies its elements. */
		if (quals & CQ_ATOMIC)
			return ctype_error(t, column, "_Atomic cannot be applied to an array type");
		const struct ctype *elem = ctype_qualified(t, type->inner, quals, column);
		return elem ? ctype_array(t, type->kind, elem, type->u.count, column) : NULL;
	}
	unsigned have = type->kind == CT_QUAL ? type->u.quals : 0;
	if (CQ_AS_OF(quals) && CQ_AS_OF(have) && CQ_AS_OF(quals) != CQ_AS_OF(have))
		return ctype_error(t, column, "multiple address spaces specified for type");
	const struct ctype *base = ctype_unqualified(type);
	const struct ctype *plain = base->kind == CT_ATOMIC ? base->inner : base;

	if (quals & CQ_RESTRICT) {
		if (plain->kind != CT_POINTER)
			return ctype_error(t, column, "restrict requires a pointer type");
		if (plain->inner->kind == CT_FUNCTION)
			return ctype_error(t, column, "a pointer to a function cannot be restrict-qualified");
	}
	if ((quals & CQ_ATOMIC) && base->kind != CT_ATOMIC) {
		if (plain->kind == CT_FUNCTION)
			return ctype_error(t, column, "_Atomic cannot be applied to a function type");
		if (ctype_is_void(plain))
			return ctype_error(t, column, "_Atomic cannot be applied to void");
		struct ctype k = { .kind = CT_ATOMIC, .inner = base };
		base = intern(t, &k, column);
		if (!base)
			return NULL;
	}
	have |= quals & (CQ_CONST | CQ_VOLATILE | CQ_RESTRICT | ~CQ_CV_MASK);
	if (!have)
		return base;
	if (base->kind == CT_FUNCTION)
		return ctype_error(t, column, CQ_AS_OF(have) ? "a function type cannot be in an "
				   "address space" : "a function type cannot be qualified");
	struct ctype k = { .kind = CT_QUAL, .inner = base, .u.quals = have };
	return intern(t, &k, column);
}

const struct ctype *ctype_pointer(struct ctype_table *t, const struct ctype *pointee,
				  unsigned column)
{
	if (!pointee)
		return NULL;
	struct ctype k = { .kind = CT_POINTER, .inner = pointee };
	return intern(t, &k, column);
}

const struct ctype *ctype_array(struct ctype_table *t, enum ctype_kind kind,
				const struct ctype *elem, uint64_t count, unsigned column)
{
	if (!elem)
		return NULL;
	const struct ctype *plain = ctype_unqualified(elem);
	if (plain->kind == CT_FUNCTION)
		return ctype_error(t, column, "array of functions");
	if (ctype_is_void(plain))
		return ctype_error(t, column, "array of void");
	if (plain->kind == CT_ARRAY_UNSIZED)
		return ctype_error(t, column, "array element has incomplete array type");
	struct ctype k = { .kind = kind, .inner = elem, .u.count = kind == CT_ARRAY ? count : 0 };
	return intern(t, &k, column);
}

static bool function_ok(struct ctype_table *t, const struct ctype *ret, unsigned column)
{
	if (!ret)
		return false;
	if (ret->kind == CT_FUNCTION) {
		ctype_error(t, column, "function returning a function");
		return false;
	}
	if (is_array(ret)) {
		ctype_error(t, column, "function returning an array");
		return false;
	}
	return true;
}

const struct ctype *ctype_function(struct ctype_table *t, const struct ctype *ret,
				   const struct ctype *const *params, size_t nparams,
				   bool variadic, bool prototyped, enum ccall cc, const char *salt,
				   unsigned column)
{
	if (!function_ok(t, ret, column))
		return NULL;
	struct ctype k = {
		.kind = CT_FUNCTION, .inner = ret,
		.u.fn = { params, (uint32_t)nparams, variadic, prototyped, cc,
			  salt && *salt ? salt : NULL },
	};
	return intern(t, &k, column);
}

const struct ctype *ctype_function_once(struct ctype_table *t, const struct ctype *ret,
					const struct ctype *const *params, size_t nparams,
					bool variadic, bool prototyped, enum ccall cc,
					const char *salt, unsigned column)
{
	if (t->failed || !function_ok(t, ret, column))
		return NULL;
	/* SALT outlives the scratch arena this node lives in. */
	struct ctype k = {
		.kind = CT_FUNCTION, .inner = ret,
		.u.fn = { params, (uint32_t)nparams, variadic, prototyped, cc,
			  salt && *salt ? salt : NULL },
	};
	unsigned depth = depth_of(t, &k, column);
	struct ctype *n = depth ? arena_zalloc(t->scratch, sizeof(*n)) : NULL;
	const struct ctype **p = n && nparams ? arena_zalloc(t->scratch, nparams * sizeof(*p)) : NULL;
	if (!depth)
		return NULL;
	if (!n || (nparams && !p))
		return out_of_memory(t);
	*n = k;
	if (nparams) {
		memcpy(p, params, nparams * sizeof(*p));
		n->u.fn.params = p;
	}
	n->depth = (uint16_t)depth;
	n->serial = UINT32_MAX;		/* in no table */
	return n;
}

const struct ctype *ctype_fixed(struct ctype_table *t, bool accum, enum cfixed_size size,
				bool is_unsigned, bool sat, unsigned column)
{
	struct ctype k = { .kind = CT_FIXED, .u.fixed = { accum, size, is_unsigned, sat } };
	return intern(t, &k, column);
}

const struct ctype *ctype_adjust_param(struct ctype_table *t, const struct ctype *type,
				       unsigned column)
{
	if (!type)
		return NULL;
	/* Clang: "parameter may not be qualified with an address space". */
	const struct ctype *elem = type;
	while (is_array(elem))
		elem = elem->inner;	/* an array is qualified as its elements */
	if (elem->kind == CT_QUAL && CQ_AS_OF(elem->u.quals))
		return ctype_error(t, column, "parameter may not be qualified with an address space");
	const struct ctype *plain = ctype_unqualified(type);
	if (is_array(plain))
		/* Qualifiers written inside the brackets would qualify the
		 * pointer itself: top level, dropped below anyway. */
		return ctype_pointer(t, plain->inner, column);
	if (plain->kind == CT_FUNCTION)
		return ctype_pointer(t, plain, column);
	return plain;
}

/* The pointer Clang 22 puts in place of TYPE under
 * -fsanitize-cfi-icall-generalize-pointers: void *, qualified as TYPE's
 * pointee was (const, volatile and restrict only), or TYPE itself if it is
 * no pointer.  Clang keeps the qualifiers of array elements on the array,
 * so those of the innermost element count.  `restrict void` is not C, so
 * the node is made here rather than by ctype_qualified, which refuses it. */
static const struct ctype *generalized(struct ctype_table *t, const struct ctype *type)
{
	const struct ctype *ptr = ctype_unqualified(type);
	if (ptr->kind != CT_POINTER)
		return type;
	const struct ctype *pointee = ptr->inner;
	while (is_array(pointee))
		pointee = pointee->inner;
	unsigned quals = pointee->kind == CT_QUAL ?
			 pointee->u.quals & (CQ_CONST | CQ_VOLATILE | CQ_RESTRICT) : 0;
	const struct ctype *v = ctype_builtin(t, CB_VOID);
	if (quals) {
		struct ctype k = { .kind = CT_QUAL, .inner = v, .u.quals = quals };
		v = intern(t, &k, 0);
	}
	return ctype_pointer(t, v, 0);
}

const struct ctype *ctype_generalize_pointers(struct ctype_table *t, const struct ctype *fn)
{
	if (!fn || fn->kind != CT_FUNCTION)
		return fn;
	uint32_t n = fn->u.fn.nparams;
	const struct ctype **params = n ? arena_zalloc(t->scratch, n * sizeof(*params)) : NULL;
	if (n && !params)
		return out_of_memory(t);
	for (uint32_t i = 0; i < n; i++)
		if (!(params[i] = generalized(t, fn->u.fn.params[i])))
			return NULL;
	const struct ctype *ret = generalized(t, fn->inner);
	return ctype_function_once(t, ret, params, n, fn->u.fn.variadic, fn->u.fn.prototyped,
				   (enum ccall)fn->u.fn.cc, fn->u.fn.salt, 0);
}
