// SPDX-License-Identifier: GPL-2.0-or-later
/* Clang 22's cfi_salt("...") attribute (the kernel's __cfi_salt).
 *
 * The salt is part of a function type: Clang hashes "<mangled name>.<salt>"
 * for the function type whose id a check or preamble uses, and a salted
 * function type is a type of its own, so assigning a salted function to an
 * unsalted pointer, or redeclaring a salted function without the salt, is
 * an incompatible type to Clang.  Here the salt is a type attribute on the
 * FUNCTION_TYPE (pointers and typedefs reach it through their pointee), so
 * that every copy GCC makes of the type carries it; the printer writes it
 * after the parameter list (doc/directives.md 4).
 *
 * GCC 12 ignores an attribute it does not know, with a warning: that would
 * be a silently different id.  So the plugin registers it, with Clang's
 * diagnostics for misuse, and makes function types whose salts differ
 * incompatible as Clang does (GCC's own "conflicting types" and
 * "incompatible pointer type" diagnostics then follow).
 *
 * Clang's other type attribute that changes ids, address_space(N), is not
 * registered: GCC ignores it with a -Wattributes warning, and registering
 * it would make __has_attribute(address_space) true for code that only
 * uses it where the compiler has it (doc/manual.md, type-id divergences).
 */
#include "kcfi-plugin.h"
#include "target.h"
#include "tables.h"

static const char SALT[] = "cfi_salt";

const char *
kcfi_cfi_salt (const_tree fntype)
{
  tree a = lookup_attribute (SALT, TYPE_ATTRIBUTES (fntype));
  return a ? TREE_STRING_POINTER (TREE_VALUE (TREE_VALUE (a))) : NULL;
}

/* FNTYPE with salt VALUE (a narrow STRING_CST; "" is none, as in Clang)
   instead of any salt it had: the last salt written wins, as in Clang.  */
static tree
salted (tree fntype, tree value)
{
  tree attrs = remove_attribute (SALT, copy_list (TYPE_ATTRIBUTES (fntype)));
  if (TREE_STRING_POINTER (value)[0])
    attrs = tree_cons (get_identifier (SALT), build_tree_list (NULL_TREE, value),
		       attrs);
  return build_type_attribute_variant (fntype, attrs);
}

/* Whether a function type is somewhere inside T (a pointer to a pointer to
   one, an array of function pointers...): Clang calls the attribute
   misplaced there, where it has no function type at all it ignores it.  */
static bool
contains_function (tree t)
{
  for (; t; t = TREE_TYPE (t))
    switch (TREE_CODE (t))
      {
      case FUNCTION_TYPE:
	return true;
      case POINTER_TYPE:
      case ARRAY_TYPE:
	continue;
      default:
	return false;
      }
  return false;
}

/* The salt of STR as a narrow string, or NULL_TREE after a diagnostic.
   Clang reads it as an unevaluated string literal: an encoding prefix is
   ignored with a warning, and no escape can make a NUL.  Where GCC has
   already turned escapes into bytes only the NUL is still visible.  */
static tree
narrow_salt (tree str)
{
  /* The prefix from the element type (C's own type nodes are not in
     lto1, which loads this plugin too): wchar_t is int on x86_64 Linux,
     char32_t unsigned int, char16_t 16 bits, C23's char8_t unsigned.  */
  tree elt = TYPE_MAIN_VARIANT (TREE_TYPE (TREE_TYPE (str)));
  unsigned width = tree_to_uhwi (TYPE_SIZE_UNIT (elt));
  const char *prefix = width == 4 ? (TYPE_UNSIGNED (elt) ? "U" : "L")
		       : width == 2 ? "u"
		       : elt == unsigned_char_type_node ? "u8" : NULL;
  if (prefix)
    warning (OPT_Wattributes, "encoding prefix %<%s%> on an unevaluated "
	     "string literal has no effect", prefix);
  unsigned n = TREE_STRING_LENGTH (str) / width;
  const unsigned char *p = (const unsigned char *) TREE_STRING_POINTER (str);
  static kcfi_buffer bytes;	/* no constructor: zero-initialized */
  bytes.clear ();
  for (unsigned i = 0; i + 1 < n; i++)
    {
      unsigned long c = 0;
      for (unsigned b = 0; b < width; b++)	/* little-endian targets */
	c |= (unsigned long) p[i * width + b] << (8 * b);
      if (!c)
	{
	  error ("invalid escape sequence %<\\0%> in an unevaluated string "
		 "literal");
	  return NULL_TREE;
	}
      if (width > 1 && c > 0x7f)
	{
	  error ("a wide %qs string can only hold ASCII characters", SALT);
	  return NULL_TREE;
	}
      bytes += (char) c;
    }
  return build_string (bytes.size () + 1, bytes.c_str ());
}

/* Clang takes the last of several salts on one declaration, in source
   order.  GCC applies the attributes after a declarator before those in
   front of it, so the last one applied need not be the last one written:
   two different salts on one declaration are refused rather than
   guessed.  The handler sees one attribute at a time; the declaration it
   was called for last tells whether this is another one of the same.  */
static bool
one_salt_per_declaration (tree decl, tree value)
{
  static tree last_decl;
  static location_t last_loc;
  static kcfi_buffer last_salt;	/* no constructor: zero-initialized */
  const char *salt = TREE_STRING_POINTER (value);
  if (decl == last_decl && input_location == last_loc
      && strcmp (salt, last_salt.c_str ()))
    {
      error ("conflicting %qs attributes on one declaration: %qs and %qs",
	     SALT, last_salt.c_str (), salt);
      return false;
    }
  last_decl = decl;
  last_loc = input_location;
  last_salt.clear ();
  last_salt += salt;
  return true;
}

static tree
handle_cfi_salt (tree *node, tree, tree args, int, bool *no_add_attrs)
{
  *no_add_attrs = true;		/* applied below, to the function type */
  if (!args || TREE_CHAIN (args))
    {
      error ("%qs attribute takes one argument", SALT);
      return NULL_TREE;
    }
  tree value = TREE_VALUE (args);
  if (value == error_mark_node)	/* GCC has said why */
    return NULL_TREE;
  if (TREE_CODE (value) != STRING_CST)
    {
      error ("expected string literal as argument of %qs attribute", SALT);
      return NULL_TREE;
    }
  value = narrow_salt (value);
  if (!value)
    return NULL_TREE;

  if (DECL_P (*node) && !one_salt_per_declaration (*node, value))
    return NULL_TREE;
  tree *type = DECL_P (*node) ? &TREE_TYPE (*node) : node;
  tree fn = *type;
  if (TREE_CODE (fn) == POINTER_TYPE && TREE_CODE (TREE_TYPE (fn)) == FUNCTION_TYPE)
    fn = TREE_TYPE (fn);
  if (TREE_CODE (fn) != FUNCTION_TYPE)
    {
      if (RECORD_OR_UNION_TYPE_P (*type) || TREE_CODE (*type) == ENUMERAL_TYPE
	  || contains_function (*type))
	error ("%qs attribute only applies to functions and function "
	       "pointers", SALT);
      else
	warning (OPT_Wattributes, "%qs only applies to function types; type "
		 "here is %qT", SALT, *type);
      return NULL_TREE;
    }
  if (!prototype_p (fn))
    {
      error ("%qs attribute only applies to non-K&R-style functions", SALT);
      return NULL_TREE;
    }
  tree s = salted (fn, value);
  if (fn == *type)
    *type = s;
  else
    *type = build_qualified_type (build_pointer_type (s), TYPE_QUALS (*type));
  return NULL_TREE;
}

/* Salts are part of the type: two function types that differ in their
   salts are incompatible (Clang's mergeFunctionTypes).  GCC asks the
   target only when an attribute that affects type identity differs.  */
static int (*stock_comp_type_attributes) (const_tree, const_tree);

static int
salted_comp_type_attributes (const_tree a, const_tree b)
{
  if (FUNC_OR_METHOD_TYPE_P (a) && FUNC_OR_METHOD_TYPE_P (b))
    {
      const char *sa = kcfi_cfi_salt (a), *sb = kcfi_cfi_salt (b);
      if ((sa || sb) && (!sa || !sb || strcmp (sa, sb)))
	return 0;
    }
  return stock_comp_type_attributes (a, b);
}

static const attribute_spec cfi_salt_spec = {
  SALT, 0, -1, false, false, false, true, handle_cfi_salt, NULL
};

void
kcfi_register_cfi_salt (void)
{
  if (!lookup_attribute_spec (get_identifier (SALT)))
    register_attribute (&cfi_salt_spec);
  if (!stock_comp_type_attributes)
    {
      stock_comp_type_attributes = targetm.comp_type_attributes;
      targetm.comp_type_attributes = salted_comp_type_attributes;
    }
}
