/* The public entry points: parse, check the model, mangle, hash.  All state
 * of one call lives in its arena, so calls are independent and reentrant. */
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

static int typeid_of(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
		     struct kcfi_typeid *out, struct kcfi_type_error *err, enum want want)
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

	struct arena arena;
	arena_init(&arena);
	struct ctype_table types;
	ctype_table_init(&types, &arena, err);

	char *mangled = NULL;
	const struct ctype *type = NULL;
	if (valid_opts(opts, &types))
		type = proto_parse(&types, text, len);
	if (type && (want == WANT_CALLEE || want == WANT_CALLEE_OR_ANY) &&
	    ctype_unqualified(type)->kind == CT_POINTER &&
	    ctype_unqualified(type)->inner->kind == CT_FUNCTION)
		type = ctype_unqualified(type)->inner;
	if (type && want != WANT_ANY && want != WANT_CALLEE_OR_ANY && type->kind != CT_FUNCTION) {
		bool fptr = type->kind == CT_POINTER && type->inner->kind == CT_FUNCTION;
		ctype_error(&types, 1, "expected a function type such as 'void (int)'%s",
			    fptr ? ", not a pointer to one" : "");
		type = NULL;
	}
	if (type)
		mangled = mangle_type(&types, type, opts);
	if (mangled) {
		out->mangled = mangled;
		out->unprototyped = type->kind == CT_FUNCTION && !type->u.fn.prototyped;
		out->is_function = type->kind == CT_FUNCTION;
		out->id = kcfi_hash_bytes(opts->hash, mangled, strlen(mangled));
	}
	arena_release(&arena);
	return mangled ? 0 : -1;
}

int kcfi_typeid_of_function(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
			    struct kcfi_typeid *out, struct kcfi_type_error *err)
{
	return typeid_of(text, len, opts, out, err, WANT_FUNCTION);
}

int kcfi_typeid_of_type(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
			struct kcfi_typeid *out, struct kcfi_type_error *err)
{
	return typeid_of(text, len, opts, out, err, WANT_ANY);
}

int kcfi_typeid_of_callee(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
			  struct kcfi_typeid *out, struct kcfi_type_error *err)
{
	return typeid_of(text, len, opts, out, err, WANT_CALLEE);
}

int kcfi_typeid_of_typename(const char *text, size_t len, const struct kcfi_typeid_opts *opts,
			    struct kcfi_typeid *out, bool *is_function, struct kcfi_type_error *err)
{
	int rc = typeid_of(text, len, opts, out, err, WANT_CALLEE_OR_ANY);
	if (is_function)
		*is_function = rc == 0 && out->is_function;
	return rc;
}

void kcfi_typeid_release(struct kcfi_typeid *t)
{
	free(t->mangled);
	t->mangled = NULL;
}
