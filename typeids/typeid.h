/* SPDX-License-Identifier: GPL-2.0-or-later */
/* typeids: C prototype -> Itanium-style mangled name -> 32-bit KCFI type id.
 *
 * The only entry points the rest of kcfi-as uses.  The prototype language is
 * specified in doc/directives.md section 4.  Nothing here knows assembly.
 */
#ifndef KCFI_TYPEIDS_TYPEID_H
#define KCFI_TYPEIDS_TYPEID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum kcfi_hash {
	KCFI_HASH_FNV1A,	/* default, as the GCC series and clang -fsanitize-kcfi-hash=FNV-1a */
	KCFI_HASH_XXHASH64,	/* stock Clang <= 21 and rustc: low 32 bits of XXH64(seed 0) */
};

/* The few target facts mangling depends on (integer normalization only). */
struct kcfi_model {
	unsigned char ptr_bits;		/* 32 or 64 */
	unsigned char long_bits;	/* 32 or 64 */
	bool char_signed;		/* plain char, after -f[un]signed-char */
};

struct kcfi_typeid_opts {
	enum kcfi_hash hash;
	bool normalize_integers;	/* Clang's ".normalized" scheme */
	/* Clang 22's -fsanitize-cfi-icall-generalize-pointers: pointers in a
	 * function type hash as void pointers, the name ends ".generalized". */
	bool generalize_pointers;
	struct kcfi_model model;
};

struct kcfi_typeid {
	uint32_t id;		/* the hash of `mangled`; never ENDBR-masked here */
	bool unprototyped;	/* T (): calls through it are not checked */
	bool is_function;	/* the type mangled is a function type */
	char *mangled;		/* "_ZTSFvPiE" (+ ".normalized", ".generalized"); malloc'd */
};

struct kcfi_type_error {
	unsigned column;	/* 1-based byte offset into the prototype text;
				 * 0 when the error has no place (bad options) */
	char message[200];
};

/* Parse TEXT[0..LEN) as a *function* type ("void (int *)") and compute its
 * mangled name and id.  Returns 0, or -1 with ERR filled in (a pointer to a
 * function, a non-function type and syntax errors are all rejected).
 * TEXT may hold up to 64 KiB; longer ones, and nesting deeper than any real
 * type, are rejected rather than risking the stack on hostile input.
 * OPTS NULL means FNV-1a, no normalization, LP64 with signed char; an
 * invalid OPTS (unknown hash, widths other than 32/64) is an error.  ERR may
 * be NULL.  On failure OUT->mangled is NULL, so kcfi_typeid_release(OUT) is
 * always safe.  Calls share no state: any number may run concurrently. */
int kcfi_typeid_of_function(const char *text, size_t len,
			    const struct kcfi_typeid_opts *opts,
			    struct kcfi_typeid *out, struct kcfi_type_error *err);

/* Same for any type name ("int[10]", "struct foo *"); mangled is "_ZTS" +
 * encoding.  For a function type the result equals kcfi_typeid_of_function. */
int kcfi_typeid_of_type(const char *text, size_t len,
			const struct kcfi_typeid_opts *opts,
			struct kcfi_typeid *out, struct kcfi_type_error *err);

/* For kcfi-typeid: TEXT is a function type or a pointer to one (what a user
 * copies from a declaration, "void (*)(struct tasklet *)"); the result is
 * the function type's, i.e. what an indirect call through it checks. */
int kcfi_typeid_of_callee(const char *text, size_t len,
			  const struct kcfi_typeid_opts *opts,
			  struct kcfi_typeid *out, struct kcfi_type_error *err);

/* What kcfi-typeid and __builtin_linux_abi_kcfi_hash show for a type name:
 * a pointer to a function type is treated as the function type (as in
 * kcfi_typeid_of_callee), any other type as itself (kcfi_typeid_of_type).
 * IS_FUNCTION tells which one happened. */
int kcfi_typeid_of_typename(const char *text, size_t len,
			    const struct kcfi_typeid_opts *opts,
			    struct kcfi_typeid *out, bool *is_function,
			    struct kcfi_type_error *err);

void kcfi_typeid_release(struct kcfi_typeid *t);

/* The same for the many prototypes of one TU: types are interned once for
 * all of them, and parameter declarations already read are recognised by
 * their text instead of being parsed again, which is most of the work when
 * thousands of prototypes share a few hundred parameter types.  Results and
 * errors are those of the functions above, call for call.  Not for
 * concurrent use; memory stays bounded (the cache starts over past 64 MiB).
 * kcfi_typeids_new returns NULL when out of memory. */
struct kcfi_typeids;
struct kcfi_typeids *kcfi_typeids_new(void);
void kcfi_typeids_free(struct kcfi_typeids *cx);
int kcfi_typeids_function(struct kcfi_typeids *cx, const char *text, size_t len,
			  const struct kcfi_typeid_opts *opts, struct kcfi_typeid *out,
			  struct kcfi_type_error *err);
/* Start over once the cache holds more than BYTES (default 64 MiB); for
 * tests, which need it to happen without 64 MiB of types. */
void kcfi_typeids_set_limit(struct kcfi_typeids *cx, size_t bytes);
/* kcfi_typeid_of_typename's answer (OUT->is_function tells which kind). */
int kcfi_typeids_typename(struct kcfi_typeids *cx, const char *text, size_t len,
			  const struct kcfi_typeid_opts *opts, struct kcfi_typeid *out,
			  struct kcfi_type_error *err);
/* What the cache did, for tests and kcfi-as --kcfi-stats. */
struct kcfi_typeids_stats {
	unsigned long params_known;	/* distinct parameter declarations kept */
	unsigned long returns_known;	/* distinct return types kept */
	unsigned long params_reused;	/* known parameters inside parsed prototypes */
	unsigned long assembled;	/* prototypes made of known pieces, unparsed */
	unsigned long restarts;		/* times the memory limit emptied the cache */
};
void kcfi_typeids_stats(const struct kcfi_typeids *cx, struct kcfi_typeids_stats *st);

/* The data model of a target triple as the plugin writes it in
 * .kcfi_version: x86_64, i?86, aarch64, riscv64 and arm* Linux triples.
 * Returns 0, or -1 for a triple kcfi-as has no model for. */
int kcfi_model_for_triple(const char *triple, struct kcfi_model *model);

/* The raw hashes, exposed for tests and for kcfi-typeid. */
uint32_t kcfi_fnv1a32(const void *data, size_t len);
uint64_t kcfi_xxhash64(const void *data, size_t len, uint64_t seed);
uint32_t kcfi_hash_bytes(enum kcfi_hash alg, const void *data, size_t len);

#endif
