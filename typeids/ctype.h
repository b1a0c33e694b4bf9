/* SPDX-License-Identifier: GPL-2.0-or-later */
/* C types as the mangler sees them.
 *
 * Nodes are hash-consed: within one ctype_table, two structurally equal types
 * are the same node.  That is exactly the identity Itanium substitutions need
 * (Clang keys them by canonical type), so the mangler finds a repeated
 * component by looking at the node instead of comparing strings.  C's rules
 * that make two spellings one type (parameter decay, top-level parameter
 * qualifiers, `signed int` == `int`) are applied before a node is built, so
 * the table only ever holds canonical types.
 *
 * Qualifiers are nodes of their own (CT_QUAL over an unqualified type, with
 * CT_ATOMIC innermost) because Clang makes each qualified type a substitution
 * candidate separate from its unqualified type: `const struct s` yields the
 * candidates `1s` and `K1s`.
 *
 * Constructors validate what C forbids (arrays of functions, functions
 * returning arrays, restrict on non-pointers, ...) and report through the
 * table's error record; they return NULL after an error.
 */
#ifndef KCFI_TYPEIDS_CTYPE_H
#define KCFI_TYPEIDS_CTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "typeids/arena.h"
#include "typeids/htab.h"
#include "typeids/typeid.h"

/* Nesting deeper than this is rejected: it keeps the recursive mangler's
 * stack use bounded on hostile input.  Real types stay below 20. */
#define CTYPE_MAX_DEPTH 200

enum ctype_kind {
	CT_BUILTIN,		/* never a substitution candidate (see mangle.c) */
	CT_TAG,
	CT_BITINT,
	CT_COMPLEX,		/* inner: element type */
	CT_VECTOR,		/* inner: element type, count: lanes */
	CT_QUAL,		/* inner: unqualified or CT_ATOMIC type */
	CT_ATOMIC,		/* inner: unqualified type */
	CT_POINTER,		/* inner: pointee */
	CT_ARRAY,		/* inner: element, count: N */
	CT_ARRAY_UNSIZED,	/* T[] */
	CT_ARRAY_VLA,		/* T[*], T[n]: each one a distinct type, as in Clang */
	CT_FUNCTION,		/* inner: return type */
	CT_FIXED,		/* ISO/IEC TR 18037 _Fract and _Accum */
};

/* Calling conventions Clang encodes in a function type: ms_abi on x86_64,
 * stdcall and fastcall on i386 (sysv_abi, the x86_64 default, cdecl,
 * regparm and the others Linux targets use encode nothing). */
enum ccall { CC_DEFAULT, CC_MS_ABI, CC_STDCALL, CC_FASTCALL };

/* Fixed-point types: 2 kinds x 4 sizes x signedness x saturation. */
enum cfixed_size { CFX_SHORT, CFX_PLAIN, CFX_LONG, CFX_LLONG };

/* Builtin types, in the order of the table in ctype.c. */
enum cbuiltin {
	CB_VOID,
	CB_BOOL,
	CB_CHAR, CB_SCHAR, CB_UCHAR,
	CB_SHORT, CB_USHORT,
	CB_INT, CB_UINT,
	CB_LONG, CB_ULONG,
	CB_LLONG, CB_ULLONG,
	CB_INT128, CB_UINT128,
	CB_FLOAT, CB_DOUBLE, CB_LDOUBLE,
	CB_FLOAT128_GNU,	/* __float128 */
	CB_FLOAT16, CB_BF16,
	CB_FLOAT32, CB_FLOAT64, CB_FLOAT128, CB_FLOAT32X, CB_FLOAT64X,
	CB_DECIMAL32, CB_DECIMAL64, CB_DECIMAL128,
	CB_NULLPTR,
	CB_COUNT
};

enum cbuiltin_class { CBC_VOID, CBC_INTEGER, CBC_FLOAT, CBC_DECIMAL, CBC_NULLPTR };

struct cbuiltin_info {
	const char *spelling;		/* for diagnostics */
	const char *code;		/* Itanium <builtin-type> */
	enum cbuiltin_class cls;
	/* Integers: width in bits (0: plain char, long, which depend on the
	 * model) and signedness, for -fsanitize-cfi-...-normalize-integers. */
	unsigned char bits;
	bool is_signed;
};

extern const struct cbuiltin_info cbuiltin_info[CB_COUNT];

enum ctag_kind { CTAG_STRUCT, CTAG_UNION, CTAG_ENUM };

/* cv-qualifier bits of a CT_QUAL node */
enum {
	CQ_CONST = 1,
	CQ_VOLATILE = 2,
	CQ_RESTRICT = 4,
	CQ_ATOMIC = 8,		/* only in requests; stored as a CT_ATOMIC node */
};

/* A named address space (x86 `__seg_gs` is 256, `__seg_fs` 257, as Clang
 * numbers them) rides in the upper bits of the same qualifier word: Clang
 * mangles it as one more qualifier of the set (`U5AS256K`), so it belongs
 * to the CT_QUAL node.  Bit 8 stays free for the parser's [static]. */
#define CQ_AS_SHIFT 9
#define CQ_AS(n) ((unsigned)(n) << CQ_AS_SHIFT)
#define CQ_AS_OF(q) ((q) >> CQ_AS_SHIFT)
#define CQ_CV_MASK ((1u << CQ_AS_SHIFT) - 1)
/* Clang's limit for address_space(N) in C (8388581 since LLVM 20). */
#define CQ_AS_MAX 8388581u

/* 64 bytes: a TU's table holds tens of thousands, and on a machine where a
 * fresh page costs microseconds their size is their cost. */
struct ctype {
	uint8_t kind;		/* enum ctype_kind */
	uint16_t depth;		/* 1 for leaves */
	unsigned serial;	/* 0, 1, ... per table: what the interning hash mixes */
	uint32_t hash;
	unsigned named_stamp;	/* see below */
	const struct ctype *inner;
	union {
		uint8_t builtin;	/* enum cbuiltin */
		struct {
			const char *name;	/* not NUL-terminated */
			uint32_t len;
			uint8_t kind;		/* enum ctag_kind */
		} tag;
		struct {
			uint32_t bits;
			bool is_unsigned;
		} bitint;
		uint64_t count;		/* array size, vector lanes */
		unsigned quals;		/* CT_QUAL: CQ_CONST|CQ_VOLATILE|CQ_RESTRICT|CQ_AS(n) */
		struct {
			const struct ctype *const *params;	/* adjusted parameter types */
			uint32_t nparams;
			bool variadic;
			bool prototyped;	/* false: T () in C17 */
			uint8_t cc;		/* enum ccall */
			/* cfi_salt("..."), NUL-terminated, NULL for none (an
			 * empty salt is none, as in Clang).  Not mangled, but
			 * part of the type: Clang never substitutes a salted
			 * function type for an unsalted one. */
			const char *salt;
		} fn;
		struct {
			bool accum;		/* _Accum, else _Fract */
			uint8_t size;		/* enum cfixed_size */
			bool is_unsigned, sat;
		} fixed;
	} u;
	struct ctype *next_in_bucket;	/* the table's htab */
	/* Per-prototype state of a node in a table that outlives thousands of
	 * prototypes.  Valid only while its stamp equals the table's current
	 * generation, so nothing is ever reset: the mangler's candidate number
	 * (mangle.c), and for tags whether the prototype names it (the
	 * struct/union/enum conflict check). */
	unsigned subst_stamp;
	int subst;
};

struct ctype_table {
	struct arena *arena;		/* the nodes: as long as the table */
	struct arena *scratch;		/* one parse's: may be ARENA */
	struct kcfi_type_error *err;	/* first error only */
	bool failed;
	struct htab nodes;		/* all but VLAs (see intern()) */
	size_t count;			/* interned nodes, also the next serial */
	const struct ctype *builtins[CB_COUNT];	/* the most asked-for nodes */
	unsigned prototype;		/* generation: the prototype being parsed */
	unsigned mangling;		/* generation: the mangling in progress */
};

/* A table whose nodes live in ARENA; SCRATCH (which may be ARENA) holds what
 * one parse needs only while it runs. */
void ctype_table_init(struct ctype_table *t, struct arena *a, struct arena *scratch,
		      struct kcfi_type_error *err);
/* Free what the table allocated outside its arena (the bucket array). */
void ctype_table_release(struct ctype_table *t);
/* Start the next prototype: no error yet, and no tag named in it yet. */
void ctype_table_next(struct ctype_table *t, struct kcfi_type_error *err);

/* Record an error at 1-based COLUMN (0: no position) unless one is already
 * recorded.  Always returns NULL, for `return ctype_error(...)`. */
void *ctype_error(struct ctype_table *t, unsigned column, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const struct ctype *ctype_builtin(struct ctype_table *t, enum cbuiltin b);
const struct ctype *ctype_tag(struct ctype_table *t, enum ctag_kind kind,
			      const char *name, size_t len, unsigned column);
/* TAG, an existing tag node, is named again at COLUMN of the current
 * prototype (by a parameter the parser did not have to read again): the
 * same conflict check as ctype_tag.  Returns false after an error. */
bool ctype_tag_named(struct ctype_table *t, const struct ctype *tag, unsigned column);
const struct ctype *ctype_bitint(struct ctype_table *t, bool is_unsigned, uint64_t bits,
				 unsigned column);
const struct ctype *ctype_complex(struct ctype_table *t, const struct ctype *elem,
				  unsigned column);
const struct ctype *ctype_vector(struct ctype_table *t, const struct ctype *elem,
				 uint64_t lanes, unsigned column);
/* Add QUALS (CQ_*) to T.  Qualifiers of an array apply to its elements. */
const struct ctype *ctype_qualified(struct ctype_table *t, const struct ctype *type,
				    unsigned quals, unsigned column);
const struct ctype *ctype_pointer(struct ctype_table *t, const struct ctype *pointee,
				  unsigned column);
const struct ctype *ctype_array(struct ctype_table *t, enum ctype_kind kind,
				const struct ctype *elem, uint64_t count, unsigned column);
/* PARAMS must already be adjusted (ctype_adjust_param); they are copied. */
/* SALT: NULL or "" for none; copied. */
const struct ctype *ctype_function(struct ctype_table *t, const struct ctype *ret,
				   const struct ctype *const *params, size_t nparams,
				   bool variadic, bool prototyped, enum ccall cc, const char *salt,
				   unsigned column);
/* The same, but made in the scratch arena and never interned: for the
 * outermost type of a prototype, which no other type can contain, so that a
 * TU of distinct prototypes does not keep one node per prototype. */
const struct ctype *ctype_function_once(struct ctype_table *t, const struct ctype *ret,
					const struct ctype *const *params, size_t nparams,
					bool variadic, bool prototyped, enum ccall cc,
					const char *salt, unsigned column);
const struct ctype *ctype_fixed(struct ctype_table *t, bool accum, enum cfixed_size size,
				bool is_unsigned, bool sat, unsigned column);

/* The type a parameter declared as TYPE has in the function type: arrays and
 * functions decay to pointers, then top-level cv-qualifiers are dropped
 * (_Atomic stays, as in Clang). */
const struct ctype *ctype_adjust_param(struct ctype_table *t, const struct ctype *type,
				       unsigned column);

/* FN (a function type) as Clang 22 hashes it under
 * -fsanitize-cfi-icall-generalize-pointers: each pointer among its return
 * and parameter types becomes a void pointer that keeps only the const,
 * volatile and restrict of the pointee.  Made like ctype_function_once. */
const struct ctype *ctype_generalize_pointers(struct ctype_table *t, const struct ctype *fn);

/* T without its CT_QUAL layer (a CT_ATOMIC layer stays). */
const struct ctype *ctype_unqualified(const struct ctype *type);

static inline bool ctype_is_void(const struct ctype *type)
{
	return type->kind == CT_BUILTIN && type->u.builtin == CB_VOID;
}

#endif
