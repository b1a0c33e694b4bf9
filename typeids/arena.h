/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bump allocator: type nodes and the interning table (for one prototype,
 * or for a whole TU in a struct kcfi_typeids), and the scratch of one parse
 * (declarator pieces, the scanner's buffers).  Nothing is freed
 * individually; the whole arena goes away at once, so error paths cannot
 * leak.  The first block lives inside the arena object itself (normally on
 * the caller's stack), which keeps the common short prototype malloc-free.
 */
#ifndef KCFI_TYPEIDS_ARENA_H
#define KCFI_TYPEIDS_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct arena_block;

struct arena {
	char *cur, *end;		/* free space of the current block */
	struct arena_block *blocks;	/* malloc'd blocks, newest first */
	size_t block_bytes;		/* their total size */
	_Alignas(max_align_t) char first[8192];
};

void arena_init(struct arena *a);
void arena_release(struct arena *a);
/* Zeroed memory from a new block, or NULL when malloc fails. */
void *arena_zalloc_grow(struct arena *a, size_t size);

/* Zeroed, max_align_t-aligned memory, or NULL when malloc fails.  Inline:
 * a prototype makes dozens of small nodes, nearly all of a constant size,
 * whose zeroing the compiler then does in a few stores. */
static inline void *arena_zalloc(struct arena *a, size_t size)
{
	size_t rounded = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (size > SIZE_MAX / 2 || (size_t)(a->end - a->cur) < rounded)
		return arena_zalloc_grow(a, size);
	void *p = a->cur;
	a->cur += rounded;
	return memset(p, 0, rounded);
}

#endif
