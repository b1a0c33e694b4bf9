/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the prototype language (grammar/proto.[ly] and
 * typeids/): any bytes in, and for each input
 *   - no crash, no sanitizer report, no leak (ASan/LSan, UBSan);
 *   - a rejected input always comes with a message, and a column inside
 *     the text (or 0 for errors without a place);
 *   - an accepted one mangles to "_ZTS..." with the id the hash gives, the
 *     same again when parsed a second time, and the function and type-name
 *     entry points agree on function types;
 *   - a struct kcfi_typeids that lives through the whole campaign (so its
 *     memos hold what earlier inputs taught them) gives, for each line of
 *     the input in turn, exactly the answer or the error of a fresh parse.
 * The first byte picks the options (hash, normalization, data model), the
 * rest is the prototype.  Built and run by `make check-fuzz-proto`.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typeids/typeid.h"

#define REQUIRE(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "proto-fuzz: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
			abort();					\
		}							\
	} while (0)

static void check_result(int rc, const struct kcfi_typeid *r, const struct kcfi_type_error *err,
			 size_t len, const struct kcfi_typeid_opts *o)
{
	if (rc) {
		REQUIRE(rc == -1);
		REQUIRE(r->mangled == NULL);
		REQUIRE(err->message[0] != '\0');
		REQUIRE(memchr(err->message, '\0', sizeof(err->message)) != NULL);
		REQUIRE(err->column <= len + 1);
		return;
	}
	REQUIRE(r->mangled && !strncmp(r->mangled, "_ZTS", 4) && r->mangled[4]);
	REQUIRE(r->id == kcfi_hash_bytes(o->hash, r->mangled, strlen(r->mangled)));
	REQUIRE(!o->normalize_integers ||
		(strlen(r->mangled) > 11 && !strcmp(r->mangled + strlen(r->mangled) - 11, ".normalized")));
}

/* The TU-wide cache against a fresh parse, line by line. */
static void check_cached(const char *text, size_t len, const struct kcfi_typeid_opts *o)
{
	static struct kcfi_typeids *cx;
	if (!cx)
		REQUIRE((cx = kcfi_typeids_new()) != NULL);
	for (size_t start = 0; start <= len;) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t n = nl ? (size_t)(nl - text) - start : len - start;
		struct kcfi_typeid fresh, cached;
		struct kcfi_type_error fresh_err, cached_err;
		int rc = kcfi_typeid_of_function(text + start, n, o, &fresh, &fresh_err);
		int rcc = kcfi_typeids_function(cx, text + start, n, o, &cached, &cached_err);
		REQUIRE(rcc == rc);
		if (rc) {
			REQUIRE(cached_err.column == fresh_err.column);
			REQUIRE(!strcmp(cached_err.message, fresh_err.message));
		} else {
			REQUIRE(cached.id == fresh.id && !strcmp(cached.mangled, fresh.mangled));
			REQUIRE(cached.unprototyped == fresh.unprototyped);
		}
		kcfi_typeid_release(&fresh);
		kcfi_typeid_release(&cached);
		start += n + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	uint8_t mode = data[0];
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	struct kcfi_typeid_opts o = {
		.hash = mode & 1 ? KCFI_HASH_XXHASH64 : KCFI_HASH_FNV1A,
		.normalize_integers = mode & 2,
		.model = { mode & 4 ? 32 : 64, mode & 8 ? 32 : 64, !(mode & 16) },
	};
	struct kcfi_typeid any, again, fn;
	struct kcfi_type_error err;

	int rc = kcfi_typeid_of_type(text, len, &o, &any, &err);
	check_result(rc, &any, &err, len, &o);

	/* Deterministic: the same text gives the same answer. */
	int rc2 = kcfi_typeid_of_type(text, len, &o, &again, &err);
	REQUIRE(rc2 == rc);
	if (!rc)
		REQUIRE(again.id == any.id && !strcmp(again.mangled, any.mangled));
	kcfi_typeid_release(&again);

	int rcf = kcfi_typeid_of_function(text, len, &o, &fn, &err);
	check_result(rcf, &fn, &err, len, &o);
	if (!rcf) {
		/* every function type is a type name too, with the same id */
		REQUIRE(!rc && fn.id == any.id && !strcmp(fn.mangled, any.mangled));
		REQUIRE(fn.is_function);
	}
	kcfi_typeid_release(&fn);

	bool is_fn;
	rcf = kcfi_typeid_of_typename(text, len, &o, &fn, &is_fn, &err);
	check_result(rcf, &fn, &err, len, &o);
	REQUIRE((rcf == 0) == (rc == 0));	/* callee-or-type accepts exactly the types */
	kcfi_typeid_release(&fn);
	kcfi_typeid_release(&any);

	check_cached(text, len, &o);
	return 0;
}
