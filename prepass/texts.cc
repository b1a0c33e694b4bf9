// SPDX-License-Identifier: GPL-2.0-or-later
/* Type texts: interned once per process, which is per output file (cc1, or
 * one ltrans), and numbered at first use.
 *
 * Every text is interned when it is printed, and again when it comes from
 * an attribute (calls' types, and all types in lto1).  The ids follow the
 * order in which the directives first need them, which makes them the same
 * whatever was printed or interned before.
 */
#include "kcfi-plugin.h"
#include "tables.h"

/* Memory for texts and entries, in blocks.  */
void *
kcfi_permanent (size_t size)
{
  static char *next, *end;
  size = (size + sizeof (void *) - 1) & -sizeof (void *);
  if ((size_t) (end - next) < size)
    {
      size_t block = size > 32768 ? size : 65536;
      next = XNEWVEC (char, block);
      end = next + block;
    }
  void *p = next;
  next += size;
  return p;
}

/* A hash of LEN bytes, a word at a time: every printed prototype is
   hashed once, tens of thousands per TU.  */
static unsigned
text_hash (const char *s, size_t len)
{
  const unsigned long long k = 0x9e3779b97f4a7c15ull;
  unsigned long long h = len * k, w;
  for (; len >= 8; s += 8, len -= 8)
    {
      memcpy (&w, s, 8);
      h = (h ^ w) * k;
      h ^= h >> 29;
    }
  w = 0;
  memcpy (&w, s, len);
  h = (h ^ w) * k;
  return h ^ (h >> 32);
}

/* An open-addressing table of the texts, at most 3/4 full.  A slot
   holds the hash as well, so that a probe reads no text but the one that
   matches.  Id 0 is "unchecked" (the empty text) and is never defined;
   real types start at 1.  */
struct text_slot
{
  unsigned hash;
  kcfi_text *text;		/* NULL: free */
};
static text_slot *texts;
static size_t texts_mask, texts_used;
static kcfi_text **by_id;		/* [id]; by_id[0] unused */
static unsigned next_id = 1;

static size_t
texts_capacity (void)
{
  return texts ? texts_mask + 1 : 0;
}

/* Room for N texts in all, so that filling the table never copies it.  */
void
kcfi_texts_reserve (size_t n)
{
  if (4 * n <= 3 * texts_capacity ())
    return;
  text_slot *old = texts;
  size_t old_cap = texts_capacity (), cap = 4096;
  while (4 * n > 3 * cap)
    cap *= 2;
  texts = XCNEWVEC (text_slot, cap);
  texts_mask = cap - 1;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].text)
      {
	size_t j = old[i].hash & texts_mask;
	while (texts[j].text)
	  j = (j + 1) & texts_mask;
	texts[j] = old[i];
      }
  free (old);
}

kcfi_text *
kcfi_text_intern (const char *str, size_t len)
{
  if (4 * (texts_used + 1) > 3 * texts_capacity ())
    kcfi_texts_reserve (2 * (texts_used + 1));
  unsigned hash = text_hash (str, len);
  size_t i = hash & texts_mask;
  for (kcfi_text *t; (t = texts[i].text); i = (i + 1) & texts_mask)
    if (texts[i].hash == hash && t->len == len && !memcmp (t->str, str, len))
      return t;
  kcfi_text *t = (kcfi_text *) kcfi_permanent (offsetof (kcfi_text, str)
					       + len + 1);
  memcpy (t->str, str, len);
  t->str[len] = 0;
  t->len = len;
  t->id = 0;
  t->defined = false;
  texts[i].hash = hash;
  texts[i].text = t;
  texts_used++;
  return t;
}

unsigned
kcfi_type_id (kcfi_text *t)
{
  if (t->id)
    return t->id;
  if (!t->len)
    return 0;
  if (next_id >= KCFI_MAX_TYPE_ID)
    fatal_error (UNKNOWN_LOCATION, "kcfi: more than %u function types",
		 KCFI_MAX_TYPE_ID - 1);
  if (!(next_id & (next_id - 1)))	/* a power of two: full */
    by_id = XRESIZEVEC (kcfi_text *, by_id, 2 * next_id);
  by_id[next_id] = t;
  return t->id = next_id++;
}

kcfi_text *
kcfi_type_of (unsigned id)
{
  return by_id[id];
}

unsigned
kcfi_intern (const char *text)
{
  return *text ? kcfi_type_id (kcfi_text_intern (text, strlen (text))) : 0;
}
