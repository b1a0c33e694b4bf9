/* What the directives say about types and symbols: type ids, symbol
 * names, and which functions get a preamble.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "target.h"
#include "varasm.h"

#include <unordered_map>
#include <vector>

/* Ids are per process, which is per output file (cc1, or one ltrans).
   Id 0 is "unchecked" and is never defined; real types start at 1.  */
static std::unordered_map<std::string, unsigned> type_ids;
static std::vector<const std::string *> type_texts (1);
static std::vector<bool> type_defined (1);

unsigned
kcfi_intern (const char *text)
{
  if (!*text)
    return 0;
  auto it = type_ids.emplace (text, type_texts.size ()).first;
  if (it->second == type_texts.size ())
    {
      if (it->second >= KCFI_MAX_TYPE_ID)
	fatal_error (UNKNOWN_LOCATION, "kcfi: more than %u function types",
		     KCFI_MAX_TYPE_ID - 1);
      type_texts.push_back (&it->first);
      type_defined.push_back (false);
    }
  return it->second;
}

static std::string
quoted (const std::string &s)
{
  std::string q;
  q.reserve (s.size () + 2);
  q += '"';
  for (char c : s)
    {
      if (c == '"' || c == '\\')
	q += '\\';
      q += c;
    }
  q += '"';
  return q;
}

/* .kcfi_type must precede the first use of an id in the output file.  */
void
kcfi_define_type (unsigned id)
{
  if (id == 0 || type_defined[id])
    return;
  type_defined[id] = true;
  /* Thousands of these per TU: no temporary, one span per escape.  */
  fprintf (asm_out_file, "\t.kcfi_type %u, \"", id);
  for (const char *p = type_texts[id]->c_str (); *p;)
    {
      size_t n = strcspn (p, "\"\\");
      fwrite (p, 1, n, asm_out_file);
      if (!p[n])
	break;
      putc ('\\', asm_out_file);
      putc (p[n], asm_out_file);
      p += n + 1;
    }
  fputs ("\"\n", asm_out_file);
}

/* The symbol as the assembler sees it: encoding and '*' stripped, the user
   label prefix added where assemble_name would add it.  */
std::string
kcfi_symbol (tree decl)
{
  rtx rtl = DECL_RTL_IF_SET (decl);
  const char *raw = rtl && MEM_P (rtl) && SYMBOL_REF_P (XEXP (rtl, 0))
		    ? XSTR (XEXP (rtl, 0), 0)
		    : IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  std::string name = targetm.strip_name_encoding (raw);
  if (raw[0] != '*')
    name = user_label_prefix + name;
  for (char c : name)
    if (!ISALNUM (c) && c != '_' && c != '.' && c != '$')
      return quoted (name);
  return name;
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

