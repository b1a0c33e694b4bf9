/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Type texts already parsed, found again by their exact bytes.
 *
 * A TU declares thousands of distinct prototypes over a far smaller set of
 * parameter declarations ("struct device *", "unsigned long") and return
 * types, and what such a piece of text means depends on the text alone.
 * parse.c keeps two memos of what the grammar made of them (parameters with
 * their adjusted types, return types as written) so that a prototype made of
 * known pieces is put together without parsing, and a known parameter
 * inside a new prototype reaches the parser as a single token.  What would
 * make a text mean something else in another place is kept with it: the
 * brackets it nests (the nesting limit counts them) and the tags it names
 * (a tag may not be named as two kinds in one prototype).  A text holding a
 * VLA is never kept: each [*] is a type of its own, which a shared node
 * would turn into a substitution.
 */
#ifndef KCFI_TYPEIDS_TYPE_MEMO_H
#define KCFI_TYPEIDS_TYPE_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "typeids/arena.h"
#include "typeids/ctype.h"
#include "typeids/htab.h"

struct type_memo_tag {
	const struct ctype *tag;
	unsigned offset;		/* of its name, from the text's first byte */
};

struct type_memo_entry {
	const char *text;
	size_t len;
	uint32_t hash;
	unsigned nest;			/* deepest ( and [ nesting inside */
	const struct ctype *type;
	const struct type_memo_tag *tags;	/* in text order */
	size_t ntags;
	struct type_memo_entry *next_in_bucket;	/* the memo's htab */
};

struct type_memo {
	struct arena *arena;		/* the type table's: entries point at its nodes */
	struct htab entries;
	unsigned long hits;		/* for tests */
};

/* The hash the memo keys texts by. */
uint32_t type_memo_hash(const char *text, size_t len);

void type_memo_init(struct type_memo *m, struct arena *arena);
/* Free what is not in the arena (the bucket array); the memo is empty. */
void type_memo_release(struct type_memo *m);
/* HASH: type_memo_hash(TEXT, LEN). */
const struct type_memo_entry *type_memo_find(const struct type_memo *m, const char *text,
					     size_t len, uint32_t hash);
/* Ask for the bucket of HASH, then for its first entry, to be fetched from
 * memory ahead of type_memo_find: a TU's memos outgrow the caches, and the
 * lookups of one prototype's pieces can then wait for memory together
 * rather than one after the other. */
static inline void type_memo_prefetch_bucket(const struct type_memo *m, uint32_t hash)
{
	if (m->entries.nbuckets)
		__builtin_prefetch(htab_bucket(&m->entries, hash));
}

static inline void type_memo_prefetch_entry(const struct type_memo *m, uint32_t hash)
{
	const struct type_memo_entry *e = htab_first(&m->entries, hash);
	if (e)
		__builtin_prefetch(e);
}

/* Keep TEXT[0..LEN) as TYPE; TAGS as in the entry.  Returns false when out
 * of memory (a memo is only an accelerator). */
bool type_memo_add(struct type_memo *m, const char *text, size_t len, const struct ctype *type,
		   unsigned nest, const struct type_memo_tag *tags, size_t ntags);

#endif
