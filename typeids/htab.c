/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "typeids/htab.h"

/* Through memcpy: the link is the entry's own typed pointer. */
static void *link_of(const struct htab *h, const void *e)
{
	void *v;
	memcpy(&v, (const char *)e + h->next_off, sizeof(v));
	return v;
}

static void set_link(const struct htab *h, void *e, void *next)
{
	memcpy((char *)e + h->next_off, &next, sizeof(next));
}

static uint32_t hash_of(const struct htab *h, const void *e)
{
	uint32_t v;
	memcpy(&v, (const char *)e + h->hash_off, sizeof(v));
	return v;
}

bool htab_grow(struct htab *h)
{
	/* Not from the entries' arena, which would keep every outgrown array. */
	size_t n = h->nbuckets ? h->nbuckets * 2 : h->min_buckets;
	void **b = calloc(n, sizeof(*b));
	if (!b)
		return false;
	for (size_t i = 0; i < h->nbuckets; i++)
		for (void *e = h->buckets[i], *next; e; e = next) {
			next = link_of(h, e);
			size_t i2 = hash_of(h, e) & (n - 1);
			set_link(h, e, b[i2]);
			b[i2] = e;
		}
	free(h->buckets);
	h->buckets = b;
	h->nbuckets = n;
	return true;
}

void htab_release(struct htab *h)
{
	free(h->buckets);
	h->buckets = NULL;
	h->nbuckets = 0;
	h->count = 0;
}
