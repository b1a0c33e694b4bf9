// SPDX-License-Identifier: GPL-2.0-or-later
/* -fplugin-arg-kcfi-extern-stubs: typed stubs for functions the unit only
 * declares (doc/extern-stubs.md).
 *
 * A program that takes the address of a libc function (calloc, free,
 * strcmp) and calls it through a pointer traps under KCFI: libc has no
 * preambles.  In this mode every such function's assembler name becomes
 * __kcfi_stub_NAME, in cc1, before anything is expanded or streamed, so
 * that every reference the unit makes (the address as well as the direct
 * calls, which keeps function pointers comparable within the program)
 * reaches a stub.  kcfi-as defines the stub from `.kcfi_extern NAME, ID,
 * stub`: a preamble with the declared type's id and a jump to NAME, in a
 * COMDAT group so that a program has one copy.
 *
 * Renaming rather than rewriting the uses is what makes it complete: GCC
 * prints the name wherever the function appears, in code and in static
 * initializers alike, on every architecture.
 *
 * A unit cannot know whether the function it declares is libc's or defined
 * by another unit of the program.  So the stubs are weak, and every public
 * function a unit in this mode defines gets `.kcfi_func ..., stub`: a
 * strong hidden alias __kcfi_stub_NAME that takes the stubs' place at link
 * time, keeping one address per function.
 *
 * Under LTO, cc1 renames nothing: the code generator (each ltrans) sees
 * the whole program's IR and renames only what no unit of it defines, so
 * that functions the IR defines, which LTO may localise, are never reached
 * through a stub.  Fat LTO objects would need both; kcfi-gcc refuses them.
 */
#include "kcfi-plugin.h"
#include "rtl.h"
#include "target.h"

bool kcfi_extern_stubs;

static const char stub_prefix[] = KCFI_STUB_PREFIX;

/* The name of the function DECL's stub leads to, if DECL is a stub.  */
const char *
kcfi_extern_stub_target (tree decl)
{
  if (!DECL_ASSEMBLER_NAME_SET_P (decl))
    return NULL;
  const char *name = targetm.strip_name_encoding (
    IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl)));
  size_t up = strlen (user_label_prefix);
  if (strncmp (name, user_label_prefix, up))
    return NULL;
  name += up;
  if (strncmp (name, stub_prefix, sizeof stub_prefix - 1))
    return NULL;
  return name + sizeof stub_prefix - 1;
}

/* The identifier assemble_name marks as referenced when it prints DECL's
   name: the name without its '*'.  CREATE: make it, for a name just set
   (assemble_name marks only one that exists).  */
static tree
printed_name (tree decl, bool create)
{
  const char *name = targetm.strip_name_encoding (
    IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl)));
  return create ? get_identifier (name) : maybe_get_identifier (name);
}

/* Which declarations get a stub.  Not a weak one: its address may be null
   and the program may test that, which a stub's address never is.  Not
   builtins nobody declared, nor aliases and weakrefs, which name another
   symbol of the program.  */
static bool
wants_stub (cgraph_node *node)
{
  tree decl = node->decl;
  /* An extern inline (gnu_inline) body is there for inlining only: its
     symbol, libc's say, is still defined elsewhere.  */
  return node->address_taken && !node->alias && !node->weakref
	 && !node->transparent_alias && DECL_EXTERNAL (decl) && !DECL_WEAK (decl)
	 && !node->in_other_partition
	 && !DECL_IS_UNDECLARED_BUILTIN (decl)
	 && !fndecl_built_in_p (decl, BUILT_IN_MD)
	 && kcfi_function_type_recorded_p (decl)
	 && !kcfi_extern_stub_target (decl);
}

void
kcfi_rename_extern_stubs (void)
{
  if (!kcfi_extern_stubs || flag_wpa)
    return;
  cgraph_node *node;
  auto_vec<cgraph_node *> renamed;
  FOR_EACH_FUNCTION (node)
    if (wants_stub (node))
      renamed.safe_push (node);
  for (cgraph_node *n : renamed)
    {
      tree decl = n->decl;
      const char *raw = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
      const char *name = targetm.strip_name_encoding (raw);
      /* A user's asm("name") (raw "*name") names the symbol exactly; the
	 stub's name keeps that exactness.  */
      bool exact = raw[0] == '*';
      char *stub = xasprintf ("%s%s%s%s", exact ? "*" : "",
			      exact ? "" : user_label_prefix, stub_prefix, name);
      /* No RTL exists yet for a function this unit only declares; if some
	 had been made, it would carry the old name.  */
      if (DECL_RTL_SET_P (decl))
	SET_DECL_RTL (decl, NULL_RTX);
      symtab->change_decl_assembler_name (decl, get_identifier (stub));
      printed_name (decl, true);	/* for kcfi_extern_stub_needed_p */
      free (stub);
    }
}

/* Does this output file need DECL's stub?  Only if it printed the name:
   the address may have been folded into direct calls, which go through the
   stub as well, or the uses may all have been optimised away, and then a
   stub would pull in a function nothing calls.  */
bool
kcfi_extern_stub_needed_p (cgraph_node *node)
{
  tree decl = node->decl;
  if (node->alias || !DECL_EXTERNAL (decl) || !kcfi_extern_stub_target (decl))
    return false;
  tree printed = printed_name (decl, false);
  return printed && TREE_SYMBOL_REFERENCED (printed);
}
