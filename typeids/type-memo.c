/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "typeids/type-memo.h"

void type_memo_init(struct type_memo *m, struct arena *arena)
{
	memset(m, 0, sizeof(*m));
	m->arena = arena;
	m->entries = HTAB_INIT(struct type_memo_entry, next_in_bucket, hash, 256);
}

/* Eight bytes a step: the texts are looked up far more often than they
 * are compared, and only equal texts need to hash equal. */
uint32_t type_memo_hash(const char *text, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ len;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, text + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	if (i < len) {
		uint64_t w = 0;
		memcpy(&w, text + i, len - i);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	}
	h ^= h >> 29;
	return (uint32_t)h;
}

const struct type_memo_entry *type_memo_find(const struct type_memo *m, const char *text,
					     size_t len, uint32_t hash)
{
	for (const struct type_memo_entry *e = htab_first(&m->entries, hash); e;
	     e = e->next_in_bucket)
		if (e->hash == hash && e->len == len && memcmp(e->text, text, len) == 0)
			return e;
	return NULL;
}

void type_memo_release(struct type_memo *m)
{
	htab_release(&m->entries);
}

bool type_memo_add(struct type_memo *m, const char *text, size_t len, const struct ctype *type,
		   unsigned nest, const struct type_memo_tag *tags, size_t ntags)
{
	uint32_t hash = type_memo_hash(text, len);
	if (type_memo_find(m, text, len, hash))
		return true;
	if (!htab_reserve(&m->entries))
		return false;
	/* One block, so that a lookup that finds the entry finds its text (and
	 * tags) in the same cache lines. */
	struct type_memo_entry *e = arena_zalloc(m->arena, sizeof(*e) + ntags * sizeof(struct type_memo_tag) +
						 len + 1);
	if (!e)
		return false;
	struct type_memo_tag *t = (struct type_memo_tag *)(e + 1);
	char *copy = (char *)(t + ntags);
	memcpy(copy, text, len);
	if (ntags)
		memcpy(t, tags, ntags * sizeof(*t));
	*e = (struct type_memo_entry){
		.text = copy, .len = len, .hash = hash, .nest = nest,
		.type = type, .tags = ntags ? t : NULL, .ntags = ntags,
	};
	htab_add(&m->entries, e, hash);
	return true;
}
