/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hash table of typeids/: chained, with the chain link and the hash
 * kept inside the entries (the caller says where), power-of-two buckets.
 *
 * What that buys: the entries live in an arena and are neither moved nor
 * freed one by one, so the table owns nothing but its bucket array; adding
 * an entry allocates nothing more; and a lookup that reaches an entry finds
 * its hash and key in the same cache lines.  The offsets, rather than a
 * node struct to embed, leave each entry's layout to its owner (struct
 * ctype is packed to 64 bytes).  Hashing and comparing are the caller's:
 * it walks a bucket from htab_first() along the entries' own link.
 */
#ifndef KCFI_TYPEIDS_HTAB_H
#define KCFI_TYPEIDS_HTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct htab {
	void **buckets;
	size_t nbuckets;		/* a power of two, or 0 before the first add */
	size_t count;			/* entries added */
	size_t next_off, hash_off;	/* where an entry keeps its link, its hash */
	size_t min_buckets;		/* the first array's size, a power of two */
};

/* Entries are TYPE with their link in member NEXT (a pointer) and their
 * hash in member HASH (a uint32_t). */
#define HTAB_INIT(type, next, hash, min)                                        \
	((struct htab){ .next_off = offsetof(type, next),                       \
			.hash_off = offsetof(type, hash), .min_buckets = (min) })

static inline void **htab_bucket(const struct htab *h, uint32_t hash)
{
	return &h->buckets[hash & (h->nbuckets - 1)];
}

/* The first entry in HASH's bucket, NULL if none. */
static inline void *htab_first(const struct htab *h, uint32_t hash)
{
	return h->nbuckets ? *htab_bucket(h, hash) : NULL;
}

/* The slow half of htab_reserve(): double the buckets. */
bool htab_grow(struct htab *h);

/* Room for one more entry; false when out of memory.  Inline, like
 * htab_add(): interning calls both for every node it makes. */
static inline bool htab_reserve(struct htab *h)
{
	return h->count < h->nbuckets || htab_grow(h);
}

/* Add E with HASH (stored into E); htab_reserve() must have made room. */
static inline void htab_add(struct htab *h, void *e, uint32_t hash)
{
	void **bucket = htab_bucket(h, hash);
	memcpy((char *)e + h->hash_off, &hash, sizeof(hash));
	memcpy((char *)e + h->next_off, bucket, sizeof(*bucket));
	*bucket = e;
	h->count++;
}
/* Free the bucket array; the table is empty. */
void htab_release(struct htab *h);

#endif
