/* What the directives say about types and symbols: type ids, symbol
 * names, and which functions get a preamble.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "target.h"
#include "varasm.h"

#include "tables.h"

#include <string>

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

/* Texts are interned per process, which is per output file (cc1, or one
   ltrans), in an open-addressing table.  Ids are given at first use: id 0
   is "unchecked" and is never defined; real types start at 1.  */
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

unsigned
kcfi_intern (const char *text)
{
  return *text ? kcfi_type_id (kcfi_text_intern (text, strlen (text))) : 0;
}

/* Directive lines are assembled here and written with one call: the line,
   or all lines while a kcfi_batch lives.  A TU writes tens of thousands of
   them, and stdio's cost per call was most of the cost of a line.  */
static char *line;
static size_t line_len, line_cap;
static unsigned batches;

static void
grow_line (size_t n)
{
  line_cap = 2 * (line_len + n) > 4096 ? 2 * (line_len + n) : 4096;
  line = XRESIZEVEC (char, line, line_cap);
}

static inline void
put (const char *s, size_t n)
{
  if (line_len + n > line_cap)
    grow_line (n);
  memcpy (line + line_len, s, n);
  line_len += n;
}

/* A string literal: its length is known at compile time.  */
template <size_t N>
static inline void
put_literal (const char (&s)[N])
{
  put (s, N - 1);
}

static void
put (unsigned n)
{
  char buf[12], *p = buf + sizeof buf;
  do
    *--p = '0' + n % 10;
  while (n /= 10);
  put (p, buf + sizeof buf - p);
}

/* S between double quotes, '"' and '\\' escaped.  */
static void
put_quoted (const char *s)
{
  put_literal ("\"");
  for (;;)
    {
      size_t n = strcspn (s, "\"\\");
      put (s, n);
      if (!s[n])
	break;
      char escaped[2] = { '\\', s[n] };
      put (escaped, 2);
      s += n + 1;
    }
  put_literal ("\"");
}

static void
write_lines (void)
{
  fwrite_unlocked (line, 1, line_len, asm_out_file);
  line_len = 0;
}

static void
end_line (void)
{
  put_literal ("\n");
  if (!batches)
    write_lines ();
}

kcfi_batch::kcfi_batch ()
{
  batches++;
}

kcfi_batch::~kcfi_batch ()
{
  if (!--batches)
    write_lines ();
}

/* .kcfi_type must precede the first use of an id in the output file.  */
void
kcfi_define_type (unsigned id)
{
  if (id == 0 || by_id[id]->defined)
    return;
  by_id[id]->defined = true;
  put_literal ("\t.kcfi_type ");
  put (id);
  put_literal (", ");
  put_quoted (by_id[id]->str);
  end_line ();
}

/* The symbol as the assembler sees it: encoding and '*' stripped, the user
   label prefix added where assemble_name would add it.  */
static void
put_symbol (tree decl)
{
  rtx rtl = DECL_RTL_IF_SET (decl);
  const char *raw = rtl && MEM_P (rtl) && SYMBOL_REF_P (XEXP (rtl, 0))
		    ? XSTR (XEXP (rtl, 0), 0)
		    : IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  const char *name = targetm.strip_name_encoding (raw);
  const char *prefix = raw[0] != '*' ? user_label_prefix : "";
  bool bare = true;
  for (const char *part : { prefix, name })
    for (const char *c = part; *c; c++)
      bare &= ISALNUM (*c) || *c == '_' || *c == '.' || *c == '$';
  if (bare)
    {
      put (prefix, strlen (prefix));
      put (name, strlen (name));
      return;
    }
  std::string both = std::string (prefix) + name;
  put_quoted (both.c_str ());
}

void
kcfi_write_func (tree decl, unsigned id)
{
  put_literal ("\t.kcfi_func ");
  put_symbol (decl);
  if (id)
    {
      put_literal (", ");
      put (id);
    }
  end_line ();
}

void
kcfi_write_extern (tree decl, unsigned id)
{
  put_literal ("\t.kcfi_extern ");
  put_symbol (decl);
  put_literal (", ");
  put (id);
  end_line ();
}

/* Before the visibility pass only TREE_PUBLIC is known.  After it,
   externally_visible says more: whole-program LTO localises what no other
   object can reach, and LTO partitioning makes locals TREE_PUBLIC (hidden)
   without making them reachable.  */
static bool
visible_p (cgraph_node *node, void *early)
{
  return node->address_taken
	 || (early ? TREE_PUBLIC (node->decl) : node->externally_visible);
}

/* Reachable by an indirect call: visible or address-taken, itself or
   through an alias.  nocf_check opts out.  Clones (.isra, .part, ...) are
   local and never address-taken; .cold parts are not functions at all.  */
bool
kcfi_wants_preamble (cgraph_node *node, bool early)
{
  return !kcfi_nocf_check_p (node->decl)
	 && node->call_for_symbol_and_aliases (visible_p,
					       (void *) (uintptr_t) early, true);
}

