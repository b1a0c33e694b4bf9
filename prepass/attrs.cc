// SPDX-License-Identifier: GPL-2.0-or-later
/* Attributes: teach stock GCC 12 the two spellings KCFI code uses, and
 * drop the one that would hide checked calls from the kernel.
 *
 * GCC 12 knows neither no_sanitize("kcfi") nor nocf_check without
 * -fcf-protection: it warns and drops them, so nothing later can recover
 * them.  Registering the attributes again from a plugin ICEs (they already
 * exist), so we swap the handler in the existing attribute_spec for a
 * wrapper that records the fact as a private decl attribute and hands
 * whatever is left to the stock handler.  The specs live in read-only
 * relocated data, hence the mprotect.
 */
#include "kcfi-plugin.h"
#include "tables.h"

#include <sys/mman.h>
#include <unistd.h>

typedef tree (*attr_handler) (tree *, tree, tree, int, bool *);

static attr_handler stock_no_sanitize;
static attr_handler stock_nocf_check;
static attr_handler stock_indirect_branch;

/* The value of the private attribute NAME in ATTRS, or NULL if absent.  */
const char *
kcfi_attr_text (tree attrs, const char *name)
{
  tree a = lookup_attribute (name, attrs);
  if (!a)
    return NULL;
  tree v = TREE_VALUE (a);
  return v ? TREE_STRING_POINTER (TREE_VALUE (v)) : "";
}

/* Whether DECL came from an -flto unit compiled in mode WORD ("stubs",
   "arity"): the compile line's choice, which lto1 keeps whatever the link
   line says, as Clang keeps it in the IR's module flags.  */
bool
kcfi_lto_mode_p (tree decl, const char *word)
{
  const char *mode = kcfi_attr_text (DECL_ATTRIBUTES (decl), KCFI_ATTR_LTO_UNIT);
  size_t n = strlen (word);
  for (const char *p = mode; p && (p = strstr (p, word)); p += n)
    if ((p == mode || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
      return true;
  return false;
}

/* ATTRS with NAME set to TEXT, or without NAME if TEXT is NULL.  ATTRS may
   be shared with other decls or types: the result is a copy, not an edit.  */
tree
kcfi_attr_with (tree attrs, const char *name, const char *text)
{
  tree list = remove_attribute (name, copy_list (attrs));
  if (!text)
    return list;
  tree value = build_string (strlen (text) + 1, text);
  return tree_cons (get_identifier (name), build_tree_list (NULL_TREE, value),
		    list);
}

static void
mark_decl (tree decl, const char *name)
{
  if (!lookup_attribute (name, DECL_ATTRIBUTES (decl)))
    DECL_ATTRIBUTES (decl) = tree_cons (get_identifier (name), NULL_TREE,
					DECL_ATTRIBUTES (decl));
}

/* Remove "kcfi" from one no_sanitize argument, which may be a
   comma-separated list.  Returns the remaining list ("" if nothing is
   left; valid until the next call) and sets *FOUND when "kcfi" was
   there.  */
static const char *
without_kcfi (const char *list, bool *found)
{
  static kcfi_buffer rest;
  rest.clear ();
  for (const char *p = list; *p;)
    {
      const char *end = strchrnul (p, ',');
      if (end - p == 4 && !memcmp (p, "kcfi", 4))
	*found = true;
      else if (end != p)
	{
	  if (rest.size ())
	    rest += ',';
	  rest.append (p, end - p);
	}
      p = *end ? end + 1 : end;
    }
  return rest.c_str ();
}

static tree
no_sanitize_handler (tree *node, tree name, tree args, int flags,
		     bool *no_add_attrs)
{
  if (TREE_CODE (*node) != FUNCTION_DECL)
    return stock_no_sanitize (node, name, args, flags, no_add_attrs);

  bool found = false;
  tree rest = NULL_TREE;
  for (tree a = args; a; a = TREE_CHAIN (a))
    {
      tree v = TREE_VALUE (a);
      if (TREE_CODE (v) == STRING_CST)
	{
	  const char *left = without_kcfi (TREE_STRING_POINTER (v), &found);
	  if (!*left)
	    continue;
	  v = build_string (strlen (left) + 1, left);
	}
      rest = tree_cons (TREE_PURPOSE (a), v, rest);
    }
  if (!found)			/* then the stock handler sees the original */
    return stock_no_sanitize (node, name, args, flags, no_add_attrs);

  mark_decl (*node, KCFI_ATTR_NO_SANITIZE);
  if (rest)
    return stock_no_sanitize (node, name, nreverse (rest), flags,
			      no_add_attrs);
  *no_add_attrs = true;
  return NULL_TREE;
}

/* Without -fcf-protection=branch the stock handler warns and drops the
   attribute.  Keeping it on the type would change C type compatibility, so
   record it on the function being declared instead (decl_attributes passes
   that decl as node[2] when the attribute lands on its type).  */
static tree
nocf_check_handler (tree *node, tree name, tree args, int flags,
		    bool *no_add_attrs)
{
  if ((flag_cf_protection & CF_BRANCH)
      || !FUNC_OR_METHOD_TYPE_P (node[0]))
    return stock_nocf_check (node, name, args, flags, no_add_attrs);
  if (node[2] && TREE_CODE (node[2]) == FUNCTION_DECL)
    mark_decl (node[2], KCFI_ATTR_NOCF);
  *no_add_attrs = true;
  return NULL_TREE;
}

/* x86's indirect_branch("keep") is dropped, as Clang (which has no such
   attribute) does.  A kernel built with retpolines finds its checked call
   sites only through their calls to the __x86_indirect_thunk_* (objtool's
   .retpoline_sites): with FineIBT configured it rewrites the id of every
   preamble at boot, and of every caller it finds that way.  Linux marks all
   __init code "keep" under GCC (__noinitretpoline), so those checked calls
   would be plain "call *%r11", keep the old id and trap at the first call.
   Through the thunk the call does the same thing, only slower, so the
   program's meaning is untouched.  The other values of the attribute are
   left to GCC.  */
static tree
indirect_branch_handler (tree *node, tree name, tree args, int flags,
			 bool *no_add_attrs)
{
  tree v = args ? TREE_VALUE (args) : NULL_TREE;
  if (TREE_CODE (*node) == FUNCTION_DECL && v && TREE_CODE (v) == STRING_CST
      && !strcmp (TREE_STRING_POINTER (v), "keep"))
    {
      *no_add_attrs = true;
      return NULL_TREE;
    }
  return stock_indirect_branch (node, name, args, flags, no_add_attrs);
}

bool
kcfi_nocf_check_p (tree fndecl)
{
  return lookup_attribute (KCFI_ATTR_NOCF, DECL_ATTRIBUTES (fndecl))
	 || lookup_attribute ("nocf_check",
			      TYPE_ATTRIBUTES (TREE_TYPE (fndecl)));
}

static void
wrap (const char *name, attr_handler wrapper, attr_handler *stock)
{
  const attribute_spec *spec = lookup_attribute_spec (get_identifier (name));
  if (!spec || *stock)
    return;			/* lto1 has no C attribute tables */
  attribute_spec *w = const_cast<attribute_spec *> (spec);
  uintptr_t page = sysconf (_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t) &w->handler & ~(page - 1);
  uintptr_t hi = (uintptr_t) (&w->handler + 1);
  /* The page stays writable: restoring "read-only" could fault a neighbour
     that shares a partial RELRO page and was writable all along.  */
  if (mprotect ((void *) lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
    {
      error ("kcfi: cannot patch the %qs attribute handler: %m", name);
      return;
    }
  *stock = w->handler;
  w->handler = wrapper;
}

void
kcfi_wrap_attribute_handlers (void *, void *)
{
  wrap ("no_sanitize", no_sanitize_handler, &stock_no_sanitize);
  wrap ("nocf_check", nocf_check_handler, &stock_nocf_check);
  /* Only x86 has it; elsewhere wrap finds no spec and does nothing.  */
  wrap ("indirect_branch", indirect_branch_handler, &stock_indirect_branch);
  kcfi_register_cfi_salt ();
}
