// SPDX-License-Identifier: GPL-2.0-or-later
/* What the directives say about types and symbols: the lines that define
 * type ids and name symbols, and which functions get a preamble.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "target.h"
#include "varasm.h"

#include "tables.h"

/* Directive lines are assembled here and written with one call: the line,
   or, while a kcfi_batch lives, all lines in chunks of some 64 KiB.  A TU
   writes tens of thousands of them, and stdio's cost per call was most of
   the cost of a line.  */
static kcfi_buffer line;
static unsigned batches;

static void
put (unsigned n)
{
  line.put_uint (n);
}

/* S between double quotes, '"' and '\\' escaped.  */
static void
put_quoted (const char *s)
{
  line += '"';
  for (;;)
    {
      size_t n = strcspn (s, "\"\\");
      line.append (s, n);
      if (!s[n])
	break;
      line += '\\';
      line += s[n];
      s += n + 1;
    }
  line += '"';
}

static void
write_lines (void)
{
  fwrite_unlocked (line.data (), 1, line.size (), asm_out_file);
  line.clear ();
}

static void
end_line (void)
{
  line += '\n';
  if (!batches || line.size () >= 65536)
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
  kcfi_text *type = id ? kcfi_type_of (id) : NULL;
  if (!type || type->defined)
    return;
  type->defined = true;
  line += "\t" KCFI_DIR_TYPE " ";
  put (id);
  line += ", ";
  put_quoted (type->str);
  end_line ();
}

/* NAME bare if it is made of [A-Za-z0-9_.$] only, else quoted.  */
static void
put_name (const char *name)
{
  for (const char *c = name; *c; c++)
    if (!ISALNUM (*c) && *c != '_' && *c != '.' && *c != '$')
      {
	put_quoted (name);
	return;
      }
  line += name;
}

/* The symbol as the assembler sees it: encoding and '*' stripped, the user
   label prefix added where assemble_name would add it.  */
static void
put_symbol (tree decl, const char *bare_name = NULL)
{
  rtx rtl = DECL_RTL_IF_SET (decl);
  const char *raw = rtl && MEM_P (rtl) && SYMBOL_REF_P (XEXP (rtl, 0))
		    ? XSTR (XEXP (rtl, 0), 0)
		    : IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  const char *name = bare_name ? bare_name : targetm.strip_name_encoding (raw);
  const char *prefix = raw[0] != '*' ? user_label_prefix : "";
  bool bare = true;
  for (const char *part : { prefix, name })
    for (const char *c = part; *c; c++)
      bare &= ISALNUM (*c) || *c == '_' || *c == '.' || *c == '$';
  if (bare)
    {
      line += prefix;
      line += name;
      return;
    }
  static kcfi_buffer both;
  both.clear ();
  both += prefix;
  both += name;
  put_quoted (both.c_str ());
}

/* Ask for the memory put_symbol (DECL) reads, a step of its chain of
   loads at a time (see kcfi_prefetch_function_type): STEP 0 the decl, 1
   its RTL, 2 the symbol, 3 the symbol's name.  */
void
kcfi_prefetch_symbol (tree decl, unsigned step)
{
  if (step == 0)
    {
      __builtin_prefetch (decl);
      __builtin_prefetch (&decl->decl_with_rtl.rtl);
      __builtin_prefetch (&decl->decl_with_vis.symtab_node);
      return;
    }
  rtx rtl = DECL_RTL_IF_SET (decl);
  if (!rtl || step == 1)
    {
      if (rtl)
	__builtin_prefetch (rtl);
      return;
    }
  rtx sym = MEM_P (rtl) ? XEXP (rtl, 0) : NULL_RTX;
  if (!sym)
    return;
  if (step == 2)
    __builtin_prefetch (sym);
  else if (SYMBOL_REF_P (sym))
    __builtin_prefetch (XSTR (sym, 0));
}

/* STUB_ALIAS: other units may reach DECL through a stub of their own,
   which the alias kcfi-as defines replaces (extern-stubs.cc).  */
void
kcfi_write_func (tree decl, unsigned id, bool stub_alias, int arity)
{
  line += "\t" KCFI_DIR_FUNC " ";
  put_symbol (decl);
  if (id)
    {
      line += ", ";
      put (id);
    }
  if (id && arity >= 0)
    {
      line += ", " KCFI_KEY_ARITY "=";
      put (arity);
    }
  if (stub_alias)
    line += ", stub";
  end_line ();
}

/* .kcfi_reserved REG, KIND, "WHY" (doc/directives.md 2.6).  */
void
kcfi_write_reserved (const char *reg, const char *kind, const char *why)
{
  line += "\t" KCFI_DIR_RESERVED " ";
  put_name (reg);
  line += ", ";
  line += kind;
  line += ", ";
  put_quoted (why);
  end_line ();
}

/* STUB_TARGET: DECL is the stub of that function (extern-stubs.cc), and
   the directive names the function.  */
void
kcfi_write_extern (tree decl, unsigned id, const char *stub_target)
{
  line += "\t" KCFI_DIR_EXTERN " ";
  put_symbol (decl, stub_target);
  line += ", ";
  put (id);
  if (stub_target)
    line += ", stub";
  end_line ();
}

/* .kcfi_conversion NAME, "FROM", "TO", "FILE", LINE, "CONTEXT", KIND
   (doc/directives.md 2.7).  */
void
kcfi_write_conversion (tree fn, const char *from, const char *to,
		       const char *file, int src_line, const char *context,
		       const char *kind)
{
  line += "\t" KCFI_DIR_CONVERSION " ";
  put_symbol (fn);
  line += ", ";
  put_quoted (from);
  line += ", ";
  put_quoted (to);
  line += ", ";
  put_quoted (file);
  line += ", ";
  put (src_line > 0 ? src_line : 0);
  line += ", ";
  put_quoted (context);
  line += ", ";
  line += kind;
  end_line ();
}

/* DECL is a public alias this unit defines (extern-stubs.cc).  */
void
kcfi_write_stub_alias (tree decl)
{
  line += "\t" KCFI_DIR_STUB_ALIAS " ";
  put_symbol (decl);
  line += DECL_WEAK (decl) ? ", weak" : ", globl";
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

