/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "typeids/arena.h"

struct arena_block {
	struct arena_block *next;
	max_align_t data[];
};

#define ALIGN (sizeof(max_align_t))

void arena_init(struct arena *a)
{
	a->cur = a->first;
	a->end = a->first + sizeof(a->first);
	a->blocks = NULL;
	a->block_bytes = 0;
}

void arena_release(struct arena *a)
{
	struct arena_block *b = a->blocks;
	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	arena_init(a);
}

void *arena_zalloc_grow(struct arena *a, size_t size)
{
	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + ALIGN - 1) & ~(ALIGN - 1);
	if ((size_t)(a->end - a->cur) < size) {
		/* Grow geometrically so that a long prototype costs a few
		 * mallocs, not one per node. */
		size_t want = 16384;
		for (struct arena_block *b = a->blocks; b && want < (1u << 20); b = b->next)
			want *= 2;
		if (want < size)
			want = size;
		struct arena_block *b = malloc(sizeof(*b) + want);
		if (!b)
			return NULL;
		b->next = a->blocks;
		a->blocks = b;
		a->block_bytes += want;
		a->cur = (char *)b->data;
		a->end = a->cur + want;
	}
	void *p = a->cur;
	a->cur += size;
	memset(p, 0, size);
	return p;
}
