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

/* An open-addressing table of the texts, at most half full.  Id 0 is
   "unchecked" (the empty text) and is never defined; real types start at
   1.  */
static kcfi_text **texts;
static size_t texts_mask, texts_used;
static kcfi_text **by_id;		/* [id]; by_id[0] unused */
static unsigned next_id = 1;

static void
grow_texts (void)
{
  kcfi_text **old = texts;
  size_t old_cap = old ? texts_mask + 1 : 0;
  texts_mask = old_cap ? 2 * old_cap - 1 : 4095;
  texts = XCNEWVEC (kcfi_text *, texts_mask + 1);
  for (size_t i = 0; i < old_cap; i++)
    if (kcfi_text *t = old[i])
      {
	size_t j = t->hash & texts_mask;
	while (texts[j])
	  j = (j + 1) & texts_mask;
	texts[j] = t;
      }
  free (old);
}

kcfi_text *
kcfi_text_intern (const char *str, size_t len)
{
  if (2 * (texts_used + 1) > texts_mask + 1)
    grow_texts ();
  unsigned hash = text_hash (str, len);
  size_t i = hash & texts_mask;
  for (kcfi_text *t; (t = texts[i]); i = (i + 1) & texts_mask)
    if (t->hash == hash && t->len == len && !memcmp (t->str, str, len))
      return t;
  kcfi_text *t = (kcfi_text *) kcfi_permanent (sizeof *t + len + 1);
  char *copy = (char *) (t + 1);
  memcpy (copy, str, len);
  copy[len] = 0;
  t->str = copy;
  t->len = len;
  t->hash = hash;
  t->id = 0;
  t->defined = false;
  texts[i] = t;
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
