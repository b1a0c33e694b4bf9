/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The public entry points: parse, check the model, mangle, hash.  All state
 * of a call lives in its arena, or in the caller's struct kcfi_typeids. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "typeids/arena.h"
#include "typeids/ctype.h"
#include "typeids/mangle.h"
#include "typeids/proto.h"
#include "typeids/typeid.h"

static bool valid_opts(const struct kcfi_typeid_opts *o, struct ctype_table *t)
{
	if (o->hash != KCFI_HASH_FNV1A && o->hash != KCFI_HASH_XXHASH64) {
		ctype_error(t, 0, "unknown hash algorithm %d", (int)o->hash);
		return false;
	}
	/* Only normalization looks at the model, but a bad model is a caller
	 * bug worth reporting whatever the mode. */
	if ((o->model.long_bits != 32 && o->model.long_bits != 64) ||
	    (o->model.ptr_bits != 32 && o->model.ptr_bits != 64)) {
		ctype_error(t, 0, "invalid data model (ptr=%u, long=%u)",
			    o->model.ptr_bits, o->model.long_bits);
		return false;
	}
	return true;
}

enum want { WANT_ANY, WANT_FUNCTION, WANT_CALLEE, WANT_CALLEE_OR_ANY };

/* A TU's worth of prototypes.  TYPES holds every node made so far, so a
 * type seen before is found, not built; MEMO finds known parameters before
 * the parser reads them; SCRATCH is one parse's and is emptied after each. */
struct kcfi_typeids {
	size_t limit;			/* bytes of nodes before starting over */
	struct arena nodes;
	struct arena scratch;
	struct ctype_table types;
	struct proto_memo memo;
	struct kcfi_type_error none;	/* TYPES's error record between calls */
	unsigned long restarts;		/* times the limit was reached */
};

/* Beyond this the table starts over: a cache must not grow with a stream
 * of distinct types without bound (the types alone are a few hundred bytes
 * each, a real TU stays far below). */
#define TYPEIDS_MAX_BYTES (64u << 20)

static void typeids_start(struct kcfi_typeids *cx)
{
	arena_init(&cx->nodes);
	arena_init(&cx->scratch);
	ctype_table_init(&cx->types, &cx->nodes, &cx->scratch, &cx->none);
	type_memo_init(&cx->memo.params, &cx->nodes);
	type_memo_init(&cx->memo.returns, &cx->nodes);
	cx->memo.assembled = 0;
}

static void typeids_stop(struct kcfi_typeids *cx)
{
	type_memo_release(&cx->memo.params);
	type_memo_release(&cx->memo.returns);
	ctype_table_release(&cx->types);
	arena_release(&cx->nodes);
}

struct kcfi_typeids *kcfi_typeids_new(void)
{
	struct kcfi_typeids *cx = malloc(sizeof(*cx));
	if (cx) {
		cx->limit = TYPEIDS_MAX_BYTES;
		cx->restarts = 0;
		typeids_start(cx);
	}
	return cx;
}

void kcfi_typeids_set_limit(struct kcfi_typeids *cx, size_t bytes)
{
	cx->limit = bytes;
}

void kcfi_typeids_free(struct kcfi_typeids *cx)
{
	if (!cx)
		return;
	typeids_stop(cx);
	arena_release(&cx->scratch);
	free(cx);
}

void kcfi_typeids_stats(const struct kcfi_typeids *cx, struct kcfi_typeids_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!cx)
		return;
	st->params_known = cx->memo.params.entries.count;
	st->returns_known = cx->memo.returns.entries.count;
	st->params_reused = cx->memo.params.hits;
	st->assembled = cx->memo.assembled;
	st->restarts = cx->restarts;
}

static int typeid_of(struct kcfi_typeids *cx, const char *text, size_t len,
		     const struct kcfi_typeid_opts *opts, struct kcfi_typeid *out,
		     struct kcfi_type_error *err, enum want want)
{
	struct kcfi_type_error local_err;
	if (!err)
		err = &local_err;
	memset(out, 0, sizeof(*out));
	err->column = 0;
	err->message[0] = '\0';

	static const struct kcfi_typeid_opts defaults = {
		.hash = KCFI_HASH_FNV1A,
		.model = { .ptr_bits = 64, .long_bits = 64, .char_signed = true },
	};
	if (!opts)
		opts = &defaults;

	/* Without a context, one arena and table for this call alone. */
	struct arena arena;
	struct ctype_table local_types;
	struct ctype_table *types = &local_types;
	if (cx) {
		types = &cx->types;
		ctype_table_next(types, err);
	} else {
		arena_init(&arena);
		ctype_table_init(types, &arena, &arena, err);
	}

	char *mangled = NULL;
	const struct ctype *type = NULL;
	if (valid_opts(opts, types))
		type = proto_parse(types, cx ? &cx->memo : NULL, text, len);
	if (type && (want == WANT_CALLEE || want == WANT_CALLEE_OR_ANY) &&
	    ctype_unqualified(type)->kind == CT_POINTER &&
	    ctype_unqualified(type)->inner->kind == CT_FUNCTION)
		type = ctype_unqualified(type)->inner;
	if (type && want != WANT_ANY && want != WANT_CALLEE_OR_ANY && type->kind != CT_FUNCTION) {
		bool fptr = type->kind == CT_POINTER && type->inner->kind == CT_FUNCTION;
		ctype_error(types, 1, "expected a function type such as 'void (int)'%s",
			    fptr ? ", not a pointer to one" : "");
		type = NULL;
	}
	if (type && opts->generalize_pointers && type->kind == CT_FUNCTION)
		type = ctype_generalize_pointers(types, type);
	if (type)
		mangled = mangle_type(types, type, opts,
				      type->kind == CT_FUNCTION ? type->u.fn.salt : NULL);
	if (mangled) {
		out->mangled = mangled;
		out->unprototyped = type->kind == CT_FUNCTION && !type->u.fn.prototyped;
		out->is_function = type->kind == CT_FUNCTION;
		out->id = kcfi_hash_bytes(opts->hash, mangled, strlen(mangled));
	}
	if (cx) {
		types->err = &cx->none;
		arena_release(&cx->scratch);
		if (cx->nodes.block_bytes > cx->limit) {
			cx->restarts++;
			typeids_stop(cx);
			typeids_start(cx);
		}
	} else {
		ctype_table_release(types);
		arena_release(&arena);
	}
	return mangled ? 0 : -1;
}

int kcfi_typeid_of_function(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
			    struct kcfi_typeid *out, struct kcfi_type_error *err)
{
	return typeid_of(NULL, text, len, opts, out, err, WANT_FUNCTION);
}

int kcfi_typeid_of_type(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
			struct kcfi_typeid *out, struct kcfi_type_error *err)
{
	return typeid_of(NULL, text, len, opts, out, err, WANT_ANY);
}

int kcfi_typeid_of_callee(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
			  struct kcfi_typeid *out, struct kcfi_type_error *err)
{
	return typeid_of(NULL, text, len, opts, out, err, WANT_CALLEE);
}

int kcfi_typeid_of_typename(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
			    struct kcfi_typeid *out, bool *is_function, struct kcfi_type_error *err)
{
	int rc = typeid_of(NULL, text, len, opts, out, err, WANT_CALLEE_OR_ANY);
	if (is_function)
		*is_function = rc == 0 && out->is_function;
	return rc;
}

int kcfi_typeids_function(struct kcfi_typeids *cx, const char *text, size_t len,
			  const struct kcfi_typeid_opts *opts, struct kcfi_typeid *out,
			  struct kcfi_type_error *err)
{
	return typeid_of(cx, text, len, opts, out, err, WANT_FUNCTION);
}

int kcfi_typeids_typename(struct kcfi_typeids *cx, const char *text, size_t len,
			  const struct kcfi_typeid_opts *opts, struct kcfi_typeid *out,
			  struct kcfi_type_error *err)
{
	return typeid_of(cx, text, len, opts, out, err, WANT_CALLEE_OR_ANY);
}

void kcfi_typeid_release(struct kcfi_typeid *t)
{
	free(t->mangled);
	t->mangled = NULL;
}
